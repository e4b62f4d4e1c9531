package render

import "slices"

// isBinary reports whether labels are a two-class problem's ±1 (or
// empty), which the figures colour +1 blue and −1 vermillion.
func isBinary(class []int) bool {
	for _, c := range class {
		if c != 1 && c != -1 {
			return false
		}
	}
	return true
}

// slotOf is the palette slot of class c, as the perceptron plot colours
// it: with binary labels +1 is slot 0 (blue) and −1 slot 1 (vermillion);
// otherwise class k is slot k, so a class keeps its colour across figures.
func slotOf(c int, binary bool) int {
	switch {
	case !binary:
		return c
	case c == 1:
		return 0
	}
	return 1
}

// classSlots returns the palette slot of each of n points; with no labels
// every point is slot 0.
func classSlots(class []int, n int) []int {
	slots := make([]int, n)
	if class == nil {
		return slots
	}
	binary := isBinary(class)
	for i, c := range class {
		slots[i] = slotOf(c, binary)
	}
	return slots
}

// classOrder lists the distinct labels in the order a legend names them:
// +1 before −1, as the notes do, and other classes ascending.
func classOrder(class []int) []int {
	var out []int
	for _, c := range class {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	if isBinary(class) {
		slices.Reverse(out)
	}
	return out
}
