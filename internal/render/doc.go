// Package render draws Margin's figures: the data plot a lesson steps
// through, and the core that the small charts beside it (package
// render/chart) are built on.
//
// Every visual element is a plot.Plotter (Region, Boundary, MarginBand,
// Arrow, UpdateArrow, Field, Path, ClassPoints, …), so a figure is
// composed by adding plotters to a gonum/plot Plot, and a later lesson
// reuses the pieces. DataFigure is the one plot of the data plane every
// demo uses (the perceptron's included): it takes the plotters as layers
// and a legend, and does what each demo would otherwise repeat: the equal
// aspect ratio, a legend above the data area, type and lines that grow
// with the figure, and what gonum's SVG backend leaves out, the <title>
// and <desc> text alternative. Frame tells a page where the data area
// sits, so a click can become a data point.
//
// Every figure takes plain data, not algorithm states: render imports no
// algos package (make imports checks), so a demo turns its state into
// plain data and any demo can use any figure. Four packages are built on
// this core, each drawing one kind of thing:
//
//   - render/fields: functions of the plane, f(x₁, x₂), as a raster with
//     contour lines (Field, Level; ProbabilityFill and its labelled
//     levels);
//   - render/graphs: functions of one variable, y against x (a
//     regression's Observations, Graph, Fan, Residuals and Tube; the loss
//     curves, LossChart);
//   - render/scenes: the perceptron's and the SVM's composed figures
//     (PerceptronScene, SVMScene);
//   - render/chart: the charts of plain data beside a demo (history,
//     bars, matrix, spectrum, curves, lift).
//
// For them the core exports its building blocks: Theme, Figure and
// PlotFigure, the tick markers, FlowLegend, HaloText, the colour ramps,
// the geometry of the plane (Vec, HalfPlane, LineInView, FitArrows) and
// the label placement (DrawLabels, DrawDim). Plotters whose lengths are
// given for the default size implement Scaler, so a DataFigure draws them
// in proportion at any size, the core's own and those of the packages
// above alike. Picks marks a few named points on a data figure.
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
