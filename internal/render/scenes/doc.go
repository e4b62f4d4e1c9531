// Package scenes draws the two figures that are composed here rather
// than in their topic: one state of a perceptron run (PerceptronScene,
// drawn by PerceptronSVGFrame and PerceptronPNG) and one state of an SVM
// solve, hard, soft or kernel (SVMScene, drawn by SVMFigure). Each takes
// a scene, the state as plain data (points, labels, weights, dual
// variables, the last step's event), and returns or writes a
// render.DataFigure built from render's plotters: regions, boundaries,
// margin bands, arrows, class points, fields and the label placement
// that keeps notes off the data. The words of each figure (its title,
// heading and <desc>) are composed here too, from the same scene.
//
// The package imports no algos package (make imports checks): a topic
// turns its algorithm's state into a scene. It is named scenes, not
// scene, as strings is, so a topic can keep calling its value scene.
package scenes
