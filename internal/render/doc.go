// Package render draws Margin's figures: the data plot a lesson steps
// through, and the small charts beside it.
//
// Every visual element is a plot.Plotter (Region, Boundary, MarginBand,
// Arrow, UpdateArrow, …), so a figure is composed by adding plotters to a
// gonum/plot Plot, and a later lesson reuses the pieces. A topic's figure
// is built by one function (PerceptronPlot) and written by another
// (PerceptronSVG, PerceptronPNG), which adds what gonum's SVG backend
// leaves out: the <title> and <desc> text alternative. Frame tells a page
// where the data area sits, so a click can become a data point.
//
// # Why the figures look the way they do
//
// They are read from the back of a lecture hall and pasted into slides,
// so the house rules apply: equal aspect ratio (w must look perpendicular
// to its boundary), the Okabe–Ito colour-blind-safe palette with class
// also shown by marker shape, opaque region tints, Liberation Sans at
// sizes that survive being shrunk, and a legend that never covers data.
//
// # Stable output
//
// The same input gives the same bytes: nothing depends on map order,
// time or randomness, so a plot URL can be cached and SVG goldens can be
// compared byte for byte. The view of a data set (DataView, and the
// equal-aspect widening of it) depends only on the data and the figure
// size, never on the step, so the axes do not jump while stepping and a
// click on the figure maps to the same data point at every step (Frame).
//
// The package draws; it does not serve. It must not import net/http,
// echo or templ.
package render
