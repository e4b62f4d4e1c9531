package render

import "slices"

// IsBinary reports whether labels are a two-class problem's ±1 (or
// empty), which the figures colour +1 blue and −1 vermillion.
func IsBinary(class []int) bool {
	for _, c := range class {
		if c != 1 && c != -1 {
			return false
		}
	}
	return true
}

// SlotOf is the palette slot of class c, as the perceptron plot colours
// it: with binary labels +1 is slot 0 (blue) and −1 slot 1 (vermillion);
// otherwise class k is slot k, so a class keeps its colour across figures.
func SlotOf(c int, binary bool) int {
	switch {
	case !binary:
		return c
	case c == 1:
		return 0
	}
	return 1
}

// ClassSlots returns the palette slot of each of n points; with no labels
// every point is slot 0.
func ClassSlots(class []int, n int) []int {
	slots := make([]int, n)
	if class == nil {
		return slots
	}
	binary := IsBinary(class)
	for i, c := range class {
		slots[i] = SlotOf(c, binary)
	}
	return slots
}

// ClassOrder lists the distinct labels in the order a legend names them:
// +1 before −1, as the notes do, and other classes ascending.
func ClassOrder(class []int) []int {
	var out []int
	for _, c := range class {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	if IsBinary(class) {
		slices.Reverse(out)
	}
	return out
}
