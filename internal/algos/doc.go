// Package algos holds what every Margin learning algorithm shares: the
// Status of a run and the errors that go with it.
//
// The algorithms themselves live in subpackages (perceptron, …). Each is a
// pure, deterministic stepper in the style of gonum/optimize: Init validates
// the data and parameters and returns the state before any iteration, Step
// returns the next state without touching its argument, so stepping back is
// just keeping state k−1. Randomness is always seeded, so the same inputs
// give the same trajectory bit for bit. Nothing here draws or speaks HTTP.
package algos
