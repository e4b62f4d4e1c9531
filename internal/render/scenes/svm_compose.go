package scenes

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
)

// compose builds the layers back to front and the legend in reading order.
func (s *svmDraw) compose() {
	sc := s.sc
	ps, _ := render.NewClassPoints(sc.X, sc.Y, nil) // checked already
	var points plot.Plotter = ps
	if s.grow != nil {
		points = &sizedPoints{ps: ps, grow: s.grow}
	}
	s.legend = append(s.legend, ps.Legend()...)
	kernel := sc.Decision != nil && !s.allZeroAlpha()
	fName := "w·x + b"
	if sc.Decision != nil {
		fName = "f(x)"
	}
	bd := &render.Boundary{W: pair(s.w), B: sc.B, LineStyle: draw.LineStyle{Color: render.Black, Width: vg.Points(2.25)}}
	hp := &render.Boundary{W: pair(s.w), B: sc.B, Level: 1, LineStyle: s.dashed(render.Blue, 1.5, 6, 4)}
	hm := &render.Boundary{W: pair(s.w), B: sc.B, Level: -1, LineStyle: s.dashed(render.Vermillion, 1.5, 6, 4)}
	switch {
	case kernel:
		lv := fields.MarginLevels()
		lv[0].LineStyle, lv[1].LineStyle, lv[2].LineStyle = hm.LineStyle, hp.LineStyle, bd.LineStyle
		s.layers = append(s.layers, &fields.Field{F: sc.Decision, Grid: sc.DecisionGrid, Fill: bandFill, Levels: lv})
	case s.linear:
		w, b := pair(s.w), sc.B
		s.layers = append(s.layers,
			&render.Region{Color: render.RegionTint(1)},
			&render.Region{Planes: []render.HalfPlane{{A: w, B: b, Strict: true}}, Color: render.RegionTint(0)},
			&render.Region{Planes: []render.HalfPlane{{A: w, B: b, Strict: true}, {A: [2]float64{-w[0], -w[1]}, B: 1 - b}}, Color: bandTint(0)},
			&render.Region{Planes: []render.HalfPlane{{A: [2]float64{-w[0], -w[1]}, B: -b}, {A: w, B: b + 1}}, Color: bandTint(1)})
	case sc.W != nil && sc.B != 0: // w = 0: f is the constant b
		s.layers = append(s.layers, &render.Region{Color: render.RegionTint(render.SlotOf(sign(sc.B), true))})
	}
	if sc.Overlay != nil {
		ol := &render.Boundary{W: [2]float64{sc.Overlay.W[0], sc.Overlay.W[1]}, B: sc.Overlay.B, LineStyle: s.dashed(render.Grey, 1.75, 5, 4)}
		s.layers = append(s.layers, ol)
		defer s.item(sc.Overlay.Label, s.visible(ol.W, ol.B, 0), ol) // listed last
	}
	if s.linear {
		s.layers = append(s.layers, hm, hp, bd)
	}
	lineShown := s.linear && s.visible(bd.W, bd.B, 0) || kernel
	bandShown := s.linear && (s.visible(bd.W, bd.B, 1) || s.visible(bd.W, bd.B, -1)) || kernel
	if s.linear || kernel || sc.Stepping {
		s.item(fName+" = 0", lineShown, bd)
		s.item(fName+" = ±1", bandShown, s.thumb(thumbBand))
	}
	s.layers = append(s.layers, s.under, points, s.over)

	if sc.Decision == nil {
		s.addArrows()
	}
	s.addSVs()
	s.addSlack()
	s.addHull()
}

// allZeroAlpha reports whether α is given and all 0: before a solve.
func (s *svmDraw) allZeroAlpha() bool {
	if s.sc.Alpha == nil {
		return false
	}
	for _, a := range s.sc.Alpha {
		if a != 0 {
			return false
		}
	}
	return true
}

// sign is +1 for v > 0 and −1 otherwise, as a label.
func sign(v float64) int {
	if v > 0 {
		return 1
	}
	return -1
}

// visible reports whether w·x + b = level crosses the data view.
func (s *svmDraw) visible(w [2]float64, b, level float64) bool {
	_, _, ok := render.LineInView(render.Vec{w[0], w[1]}, b-level, s.view)
	return ok
}

// bandTint is the deeper tint of palette slot k inside the margin band.
func bandTint(k int) color.RGBA { return render.Tint(render.ClassColor(k), 0.36) }

// bandFill is a kernel SVM's Field fill: the region tints of the two
// classes, deeper inside the band |f| ≤ 1 (sgn(0) = −1).
func bandFill(v float64) color.Color {
	switch {
	case v > 1:
		return render.RegionTint(0)
	case v > 0:
		return bandTint(0)
	case v >= -1:
		return bandTint(1)
	}
	return render.RegionTint(1)
}

// addArrows adds w, from its boundary as the perceptron draws it, and the
// band's width 2/‖w‖ across the band.
func (s *svmDraw) addArrows() {
	fit, ok := render.FitArrows(s.w, s.sc.B, render.Vec{}, false, s.view)
	a, _ := render.NewArrow([2]float64{}, [2]float64{}, "w")
	a.Width, a.Head = vg.Points(2.25), vg.Points(11)
	a.LabelStyle.Font = render.DefaultTheme().Font(15, true)
	label := "w"
	if ok {
		a.From, a.To = pair(fit.Base), pair(fit.Base.Add(s.w.Scale(fit.Scale)))
		s.over.arrow = a
		if fit.Scale != 1 {
			label = "w (scaled)"
		}
	}
	if it := s.item(label, ok, a); it != nil {
		it.Room = "w (scaled)" // the same band at every step
		it.Minor = true        // labelled "w" where it is drawn
	}
	if s.linear {
		s.over.dim = &render.DimSpec{W: s.w, B: s.sc.B, Label: "2/‖w‖ = " + sig(2/s.w.Norm(), 3)}
		s.dimOK = render.DimFits(s.w, s.sc.B, s.view)
	}
	if it := s.item("2/‖w‖", s.dimOK, s.thumb(thumbDim)); it != nil {
		it.Minor = true // labelled with its value
	}
}

// addSVs rings the support vectors and highlights the pair, and labels
// each point with what is worth reading about it: its name in the pair,
// its α while the support vectors are few, its slack while the
// violators are few. The pair's labels are placed first, for the best
// spots.
func (s *svmDraw) addSVs() {
	sc := s.sc
	labelAlpha := sc.Alpha != nil && s.svs() <= maxAlphaLabels
	nv, _ := s.violators()
	labelSlack := sc.Slack && s.linear && nv <= maxSlackLabels
	var pairLabels, labels []render.NoteLabel
	for i, k := range s.kind {
		at := render.Vec2(sc.X[i])
		inPair := s.pair && (i == sc.Pair[0] || i == sc.Pair[1]) || s.sampled && i == sc.Pair[0]
		if k != kindNone && k != kindBeyond {
			s.over.rings = append(s.over.rings, svRing{disc: disc{at, s.ringAt(i)}, kind: k})
		}
		var lines []string
		if sc.Alpha != nil && (labelAlpha && k != kindNone || inPair) {
			lines = append(lines, "α="+sig(sc.Alpha[i], 2))
		}
		if inPair {
			name := [2]string{"i", "j"}[slices.Index(sc.Pair[:], i)]
			s.under.halos = append(s.under.halos, disc{at, s.ringAt(i)})
			s.over.halos = append(s.over.halos, disc{at, s.ringAt(i)})
			lines = append([]string{strings.Join(append([]string{name}, lines...), ": ")}, lines[min(1, len(lines)):]...)
		}
		if xi := s.slack(i); labelSlack && xi > 0 {
			lines = append(lines, "ξ="+sig(xi, 2))
		}
		if len(lines) == 0 {
			continue
		}
		l := render.NoteLabel{At: at, Text: strings.Join(lines, "\n"), Bold: inPair,
			Col: render.Darker(render.ClassColor(render.SlotOf(sc.Y[i], true))), Gap: s.ringAt(i) + 1.5}
		if inPair {
			pairLabels = append(pairLabels, l)
		} else {
			labels = append(labels, l)
		}
	}
	s.over.labels = append(pairLabels, labels...)
	soft := !math.IsInf(sc.C, 1) || s.count[kindInside]+s.count[kindWrong] > 0
	s.item("SV on margin", s.count[kindMargin] > 0, s.thumb(thumbRing+kindMargin))
	if soft {
		s.item("SV inside", s.count[kindInside] > 0, s.thumb(thumbRing+kindInside))
		s.item("SV misclassified", s.count[kindWrong] > 0, s.thumb(thumbRing+kindWrong))
	}
	if s.sampled {
		s.item("point sampled", true, s.thumb(thumbHalo))
	} else {
		if it := s.item("SMO pair", s.pair, s.thumb(thumbHalo)); it != nil {
			it.Minor = true // labelled i and j
		}
	}
}

// slack returns ξᵢ = max(0, 1 − yᵢf(xᵢ)), 0 where f is unknown.
func (s *svmDraw) slack(i int) float64 {
	m := float64(s.sc.Y[i]) * s.f[i]
	if !(m < 1-kindTol) {
		return 0
	}
	return 1 - m
}

// violators counts the points with slack ξᵢ > 0 and sums their slack.
func (s *svmDraw) violators() (n int, sum float64) {
	for i := range s.sc.X {
		if xi := s.slack(i); xi > 0 {
			n++
			sum += xi
		}
	}
	return n, sum
}

// addSlack draws each violator's ξ as the segment from it to its own
// supporting hyperplane w·x + b = y, of length ξ/‖w‖.
func (s *svmDraw) addSlack() {
	if !s.sc.Slack || s.sc.Decision != nil {
		return
	}
	for i, x := range s.sc.X {
		if s.slack(i) == 0 || !s.linear {
			continue
		}
		p := render.Vec2(x)
		s.under.slack = append(s.under.slack, [2]render.Vec{p, render.Foot(s.w, s.sc.B-float64(s.sc.Y[i]), p)})
	}
	s.item("slack ξᵢ", len(s.under.slack) > 0, s.thumb(thumbSlack))
}

// addHull draws the infeasibility certificate: the points with λᵢ > 0,
// the convex hull of each class's, and the point where they meet.
func (s *svmDraw) addHull() {
	sc := s.sc
	if sc.Hull == nil {
		return
	}
	var sum [2]float64
	var mean [2]render.Vec
	var pts [2][]render.Vec
	count := 0
	for _, l := range sc.Hull {
		if l > 0 {
			count++
		}
	}
	for i, l := range sc.Hull {
		if !(l > 0) {
			continue
		}
		k := render.SlotOf(sc.Y[i], true)
		x := render.Vec2(sc.X[i])
		sum[k] += l
		mean[k] = mean[k].Add(x.Scale(l))
		pts[k] = append(pts[k], x)
		s.over.lambda = append(s.over.lambda, disc{x, s.ringAt(i)})
		if count <= maxAlphaLabels {
			s.over.labels = append(s.over.labels, render.NoteLabel{At: x, Text: "λ=" + sig(l, 2), Col: render.Darker(render.Green), Gap: s.ringAt(i) + 2.5})
		}
	}
	for k := range pts {
		s.under.hulls = append(s.under.hulls, hullPoly{pts: convexHull(pts[k]), slot: k})
	}
	meet := sum[0] > 0 && sum[1] > 0
	if meet {
		c := mean[0].Scale(1/sum[0]).Lerp(mean[1].Scale(1/sum[1]), 0.5)
		s.over.common = &c
	}
	s.item("λᵢ > 0 and hulls", count > 0, s.thumb(thumbLambda))
	s.item("hulls meet", meet, s.thumb(thumbCommon))
}

// convexHull returns the convex hull of pts counter-clockwise (Andrew's
// monotone chain), without repeated points; fewer than three points are
// returned sorted.
func convexHull(pts []render.Vec) []render.Vec {
	p := slices.Clone(pts)
	slices.SortFunc(p, func(a, b render.Vec) int {
		if a.X != b.X {
			return cmpF(a.X, b.X)
		}
		return cmpF(a.Y, b.Y)
	})
	p = slices.Compact(p)
	if len(p) < 3 {
		return p
	}
	cross := func(o, a, b render.Vec) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []render.Vec
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, q := range p {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
		slices.Reverse(p)
	}
	return h
}

// cmpF orders a and b as cmp.Compare does, for numbers that are not NaN.
func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
