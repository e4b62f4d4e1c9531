//go:build race

package fit

// raceDetector is true under -race, whose instrumentation makes CPU
// measurements of the budgets meaningless.
const raceDetector = true
