package render

import (
	"strconv"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
)

// TestKeptSizesAreMeasured checks that every kept size is the size the
// plain handler measures, when first measured, when kept and after the
// kept sizes were forgotten, and that the store stays bounded.
func TestKeptSizesAreMeasured(t *testing.T) {
	k, ok := plot.DefaultTextHandler.(*keptSizes)
	if !ok {
		t.Fatalf("plot.DefaultTextHandler is %T, want *keptSizes", plot.DefaultTextHandler)
	}
	plain := k.Plain
	fonts := []font.Font{(Theme{scale: 1}).Font(12, false), (Theme{scale: 1}).Font(14, true), (Theme{scale: 2}).Font(9, false)}
	strs := []string{"", "0", "−1.5", "x⁽¹⁰⁾ = (0.25, −3)", "step 1,234 of 20,000", "αⱼ ≤ C"}
	for round := 0; round < 3; round++ {
		for _, f := range fonts {
			if got, want := k.Extents(f), plain.Extents(f); got != want {
				t.Errorf("Extents(%v) = %v, want %v", f, got, want)
			}
			for _, s := range strs {
				w, h, d := k.Box(s, f)
				pw, ph, pd := plain.Box(s, f)
				if w != pw || h != ph || d != pd {
					t.Errorf("round %d: Box(%q, %v) = %v %v %v, want %v %v %v", round, s, f.Size, w, h, d, pw, ph, pd)
				}
			}
		}
		if round == 1 { // fill the store past its bound
			for i := 0; i <= maxKeptSizes; i++ {
				k.Box(strconv.Itoa(i), fonts[0])
			}
			k.mu.RLock()
			n := len(k.boxes)
			k.mu.RUnlock()
			if n > maxKeptSizes {
				t.Errorf("%d sizes kept, want at most %d", n, maxKeptSizes)
			}
		}
	}
	var _ text.Handler = k
}
