// Package lessons holds Margin's course: the catalogue of lessons in the
// notes' order, each lesson's prose, and the view models of its demos.
//
// A demo's whole state lives in its URL. This package turns a URL query
// into validated parameters (ParsePerceptron), runs the algorithm, and
// builds the view model the templates render; the handlers in cmd/web only
// glue these together. Nothing here speaks HTTP.
package lessons
