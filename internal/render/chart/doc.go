// Package chart draws the charts of plain data beside a demo, on the
// core of package render (its theme, figure writing, ticks, legend and
// labels): HistorySVG draws scalar series a demo recorded while stepping
// (mistakes, error, a duality gap), BarsSVG a value per point (an SVM's
// α in its box), MatrixSVG a heat map (a Gram matrix), SpectrumSVG sorted
// eigenvalues on a signed log axis (so a tiny negative one, which fails
// Mercer's test, is as visible as a large positive one), CurvesSVG a
// hyperparameter sweep (training and held-out error against γ, on a log
// y axis when it spans decades, or lines only for a function sampled
// finely; ResidualLossesSVG the same with the caller's description) and
// LiftSVG points in three dimensions with a plane, for a feature map's
// lift.
//
// Like render, it takes plain data, imports no algos package and does not
// serve: it must not import net/http, echo or templ (make imports checks).
package chart
