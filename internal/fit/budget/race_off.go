//go:build !race

package budget

const raceFactor = 1
