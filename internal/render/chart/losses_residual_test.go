package chart

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// TestResidualLossesDesc: the caller's description replaces the generic
// one, and the chart itself is CurvesSVG's.
func TestResidualLossesDesc(t *testing.T) {
	c := Curves{Title: "losses", XLabel: "residual r", YLabel: "ℓ(r)", NoMarkers: true, Mark: math.NaN(),
		Series: []Curve{{Name: "tube", X: []float64{-1, -0.2, 0, 0.2, 1}, Y: []float64{0.8, 0, 0, 0, 0.8}}}}
	var a, b bytes.Buffer
	if err := ResidualLossesSVG(&a, c, "zero on −0.2 ≤ r ≤ 0.2", render.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := CurvesSVG(&b, c, render.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.String(), "<desc>zero on −0.2 ≤ r ≤ 0.2</desc>") || strings.Contains(a.String(), "lowest 0 at") {
		t.Errorf("desc not replaced: %.400s", a.String())
	}
	generic := strings.Index(b.String(), "<desc>")
	if !strings.Contains(b.String(), "lowest 0 at") || generic < 0 {
		t.Fatalf("generic desc: %.400s", b.String())
	}
	var c2 bytes.Buffer
	if err := ResidualLossesSVG(&c2, c, "", render.Options{}); err != nil || c2.String() != b.String() {
		t.Errorf("an empty desc should keep CurvesSVG's chart byte for byte: %v", err)
	}
}
