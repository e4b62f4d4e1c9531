package demotest

import (
	"math"
	"testing"
)

// TestProseNumber reads every superscript digit as itself: the digits
// ¹²³ are two bytes in UTF-8 and the others three, so a byte index once
// read 10⁻⁴ as 10⁻³.
func TestProseNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		v, half float64
		ok      bool
	}{
		{"0.043", 0.043, 0.0005, true},
		{"−2.5", -2.5, 0.05, true},
		{"1.16·10¹⁰⁰", 1.16e100, 0.005e100, true},
		{"3·10⁻⁴", 3e-4, 0.5e-4, true},
		{"2.15·10⁻⁶", 2.15e-6, 0.005e-6, true},
		{"1·10⁹", 1e9, 0.5e9, true},
		{"7·10²³", 7e23, 0.5e23, true},
		{"5·10⁸⁷", 5e87, 0.5e87, true},
		{"1·10x", 0, 0, false},
	} {
		v, half, ok := ProseNumber(tc.in)
		if ok != tc.ok || (ok && (math.Abs(v-tc.v) > 1e-12*math.Abs(tc.v) || math.Abs(half-tc.half) > 1e-12*tc.half)) {
			t.Errorf("ProseNumber(%q) = %v, %v, %v, want %v, %v, %v", tc.in, v, half, ok, tc.v, tc.half, tc.ok)
		}
	}
}
