package svm

import (
	"fmt"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// biasRange is the interval of optimal offsets when no multiplier is
// free, with the training error over it.
type biasRange struct {
	lo, hi, b          float64
	errLo, errHi, errB float64
}

// biasInterval returns the offsets the KKT conditions allow at a
// converged state with no free multiplier, when they form an interval
// wider than the tolerance; ok is false when b is unique.
func biasInterval(pr *svm.Problem, s svm.State, u []float64) (biasRange, bool) {
	if s.Status != algos.Converged {
		return biasRange{}, false
	}
	lo, hi, free := pr.BiasRange(s)
	if free > 0 || !(hi-lo > pr.P.Tol) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return biasRange{}, false
	}
	r := biasRange{lo: lo, hi: hi, b: s.B, errLo: 1, errB: errorAt(pr.Y, u, s.B)}
	// The error changes only where some f(xᵢ) = uᵢ + b crosses 0: try both
	// ends, each crossing and a point between each two.
	cuts := []float64{lo, hi}
	for _, v := range u {
		if c := -v; c > lo && c < hi {
			cuts = append(cuts, c)
		}
	}
	slices.Sort(cuts)
	for k, c := range cuts {
		try := []float64{c}
		if k > 0 {
			try = append(try, (cuts[k-1]+c)/2)
		}
		for _, b := range try {
			e := errorAt(pr.Y, u, b)
			r.errLo, r.errHi = min(r.errLo, e), max(r.errHi, e)
		}
	}
	return r, true
}

// note says that b is not unique and what that does to the error.
func (r biasRange) note() demo.Note {
	text := fmt.Sprintf("b is not unique: no multiplier is free (0 < αᵢ < C), so no point pins the line to H₊ or H₋, "+
		"and every b from %s to %s satisfies the KKT conditions with this α and gives the same optimal objective. "+
		"SMO reports the midpoint, b = %s, as LIBSVM does.", textfmt.Sig(r.lo), textfmt.Sig(r.hi), textfmt.Sig(r.b))
	if r.errLo == r.errHi {
		text += fmt.Sprintf(" The training error is %.1f %% for every one of them.", 100*r.errLo)
	} else {
		text += fmt.Sprintf(" Over that interval the training error runs from %.1f %% to %.1f %% (%.1f %% at the midpoint).",
			100*r.errLo, 100*r.errHi, 100*r.errB)
	}
	return demo.Note{TestID: "bias-range", Text: text}
}
