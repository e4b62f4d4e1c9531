//go:build !race

package svmfit

const raceDetector = false
