//go:build race

package svmfit

// raceDetector is true under -race, whose instrumentation makes CPU
// measurements of the budgets meaningless.
const raceDetector = true
