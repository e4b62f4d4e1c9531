// Package fields draws functions of the plane, f(x₁, x₂), on a
// render.DataFigure: a kernel SVM's decision function, a logistic model's
// probability, an objective's contours.
//
// Field shows f as an opaque raster with contour lines on top: the raster
// is small where a vector heat map is not, and the lines give the edges
// that matter (f = 0, f = ±1) the crispness a raster lacks. The lines come
// from the package's own marching squares (contour.go), not
// plotter.Contour, whose output order is random. A Level with a Label has
// it written along its lines where it fits (field_labels.go):
// ProbabilityLevels label a logistic model's P = 0.1, …, 0.9 over the
// ProbabilityFill.
//
// Field and Level implement render.Scaler, so a DataFigure scales their
// lines with its type. The package is named fields, not field, so a topic
// can keep a value called field.
package fields
