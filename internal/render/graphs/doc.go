// Package graphs draws functions of one variable, y against x: a
// regression on a render.DataFigure (Observations for the data, Graph for
// a fitted curve, clipped and broken where a high-degree polynomial
// explodes, Fan for many fits at once, Residuals and an ε-Tube), and
// LossChart, the classification losses ℓ(z) against the score z. The
// curves share one sampler: evenly spaced x, runs broken at NaN and
// poles, clipped to the view, thinned to the points a reader can tell
// apart.
//
// Its plotters implement render.Scaler, so a DataFigure scales them with
// its type like the core's own. It imports no algos package: a topic
// hands it plain functions and points. It is named graphs, not graph,
// so a topic can keep a value called graph.
package graphs
