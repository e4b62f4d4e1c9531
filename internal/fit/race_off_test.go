//go:build !race

package fit

const raceDetector = false
