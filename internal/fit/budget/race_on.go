//go:build race

package budget

// raceFactor stretches every limit under the race detector, whose
// instrumentation makes the same work cost 5 to 20 times the CPU: the
// tests built with -race see the answers of an ordinary build.
const raceFactor = 20
