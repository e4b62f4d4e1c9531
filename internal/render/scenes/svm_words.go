package scenes

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// sig formats v to d significant digits by textfmt's rule (1.23·10⁻⁵
// outside [0.001, 10⁶), exact integers exactly).
func sig(v float64, d int) string { return textfmt.SigN(v, d) }

// title states the state in two lines, so the legend band keeps its place
// from step to step: the problem, the support vectors and the pair, then
// the classifier and its margin.
func (s *svmDraw) title() string {
	if s.sc.Title != "" {
		return s.sc.Title
	}
	if s.noModel() && !s.sc.Stepping {
		// No classifier to state (a stepping demo keeps two lines, so
		// the data area stays put).
		return plural(len(s.sc.X), "point", "points")
	}
	line := s.problem()
	switch _, meet := s.hullMeet(); {
	case meet:
		line += " · not separable"
	case s.svs() == 0 && s.sc.Alpha != nil:
		line += " · no support vectors"
	case s.svs() == 0: // no multipliers: nothing to count
	default:
		line += " · " + plural(s.svs(), "support vector", "support vectors")
	}
	if s.pair {
		line += " · pair " + render.PointName(s.sc.Pair[0]) + ", " + render.PointName(s.sc.Pair[1])
	}
	if s.sampled {
		line += " · sampled " + render.PointName(s.sc.Pair[0])
	}
	switch _, meet := s.hullMeet(); {
	case meet:
		return line + "\nthe convex hulls of the two classes meet"
	case s.sc.Decision != nil:
		return line + "\n" + s.kinds()
	case s.linear:
		return line + "\n" + wb(s.sc.W, s.sc.B) + " · 2/‖w‖ = " + sig(2/s.w.Norm(), 3)
	}
	return line + "\n" + wb([]float64{0, 0}, s.sc.B)
}

// problem names the problem solved: hard or soft margin, linear or
// kernel, and C.
func (s *svmDraw) problem() string {
	if s.sc.Problem != "" {
		return s.sc.Problem
	}
	hard := math.IsInf(s.sc.C, 1)
	switch {
	case s.sc.Decision != nil && hard:
		return "kernel SVM, hard margin"
	case s.sc.Decision != nil:
		return "kernel SVM, C = " + coord(s.sc.C)
	case hard:
		return "hard margin"
	}
	return "soft margin, C = " + coord(s.sc.C)
}

// kinds counts the support vectors by kind: "3 on the margin · 2 inside
// · 1 misclassified", leaving out kinds with none.
func (s *svmDraw) kinds() string {
	var parts []string
	for k, name := range []string{kindMargin: "on the margin", kindInside: "inside the margin", kindWrong: "misclassified", kindBeyond: "outside the band"} {
		if k != kindNone && s.count[k] > 0 {
			parts = append(parts, strconv.Itoa(s.count[k])+" "+name)
		}
	}
	if len(parts) == 0 {
		return "no support vectors"
	}
	return strings.Join(parts, " · ")
}

// hullMeet returns the common point of the two classes' hulls under the
// certificate; ok is false with no certificate for both classes.
func (s *svmDraw) hullMeet() (at render.Vec, ok bool) {
	if s.over.common == nil {
		return render.Vec{}, false
	}
	return *s.over.common, true
}

// describe is the <desc>: the problem, the classifier and its margin, the
// support vectors by kind, the pair, the slack, the overlay and the
// certificate, in sentences.
func (s *svmDraw) describe() string {
	sc := s.sc
	var d strings.Builder
	if sc.Desc != "" {
		d.WriteString(strings.TrimSpace(sc.Desc) + " ")
	}
	pos := 0
	for _, y := range sc.Y {
		if y == 1 {
			pos++
		}
	}
	if s.noModel() {
		// Points only: no classifier to name, and none to describe.
		fmt.Fprintf(&d, "%s in two dimensions (%d with y = +1, %d with y = −1).",
			plural(len(sc.X), "point", "points"), pos, len(sc.X)-pos)
		return d.String()
	}
	fmt.Fprintf(&d, "SVM (%s) on %s in two dimensions (%d with y = +1, %d with y = −1).",
		s.problem(), plural(len(sc.X), "point", "points"), pos, len(sc.X)-pos)
	switch {
	case sc.Decision != nil:
		d.WriteString(" The decision function f is shown as a field, blue where f > 0 and vermillion elsewhere, deeper inside the band −1 ≤ f ≤ 1; the line f = 0 is solid black, f = +1 dashed blue and f = −1 dashed vermillion.")
	case s.linear:
		fmt.Fprintf(&d, " The boundary w·x + b = 0 has %s; the band between H₋ (w·x + b = −1) and H₊ (w·x + b = +1) is 2/‖w‖ = %s wide, each of them 1/‖w‖ = %s from the boundary.",
			wb(sc.W, sc.B), sig(2/s.w.Norm(), 3), sig(1/s.w.Norm(), 3))
	case sc.W != nil:
		fmt.Fprintf(&d, " w = 0, so f is the constant b = %s and every point is predicted %s (a prediction is +1 only where f > 0); there is no boundary.",
			num(sc.B), render.ClassName(sign(sc.B), true)[4:])
	}
	if n := s.svs(); n == 0 && sc.Alpha != nil && sc.Hull == nil && allZero(sc.Alpha) {
		d.WriteString(" Every αᵢ is 0: no support vectors.")
	} else if n > 0 {
		fmt.Fprintf(&d, " %s: %s.", plural(n, "support vector", "support vectors"), strings.ReplaceAll(s.kinds(), " · ", ", "))
	}
	if s.sampled {
		fmt.Fprintf(&d, " This step sampled i = %s.", render.PointName(sc.Pair[0]))
	}
	if s.pair {
		d.WriteString(" This step optimised the pair")
		for k, i := range sc.Pair {
			fmt.Fprintf(&d, " %s = %s", [2]string{"i", "j"}[k], render.PointName(i))
			if sc.Alpha != nil {
				fmt.Fprintf(&d, " (α = %s)", sig(sc.Alpha[i], 3))
			}
			d.WriteString([2]string{" and", "."}[k])
		}
	}
	if nv, sum := s.violators(); sc.Slack && s.linear {
		if nv == 0 {
			d.WriteString(" No point violates the margin: every slack ξᵢ is 0.")
		} else {
			fmt.Fprintf(&d, " %s the margin, with total slack Σξᵢ = %s; each ξᵢ is drawn from its point to the point's supporting hyperplane.",
				plural(nv, "point violates", "points violate"), sig(sum, 3))
		}
	}
	if o := sc.Overlay; o != nil {
		fmt.Fprintf(&d, " For comparison, %s (%s) is dashed grey.", o.Label, wb(o.W, o.B))
	}
	if sc.Hull != nil {
		n := len(s.over.lambda)
		if at, ok := s.hullMeet(); ok {
			fmt.Fprintf(&d, " Not linearly separable: the %s with certificate weight λᵢ > 0 span convex hulls of the two classes that meet at %s, so no hard margin exists.",
				plural(n, "point", "points"), vector([]float64{at.X, at.Y}, num))
		} else {
			fmt.Fprintf(&d, " The certificate has %s with λᵢ > 0 and does not reach both classes.", plural(n, "point", "points"))
		}
	}
	return d.String()
}

// noModel reports whether the scene has points only: no weights, no
// decision function, no multipliers and no certificate.
func (s *svmDraw) noModel() bool {
	sc := s.sc
	return sc.W == nil && sc.Decision == nil && sc.Alpha == nil && sc.Hull == nil && sc.Kind == nil
}

// allZero reports whether every entry of v is 0.
func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
