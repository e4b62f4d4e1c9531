package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SVMScene is one state of an SVM solve in the data plane, as plain data,
// so the figure needs nothing from the solver: the hard- and soft-margin
// lessons give a linear f(x) = W·x + B, the kernel lessons a Decision
// function.
type SVMScene struct {
	X     [][]float64 // the points, two coordinates each
	Y     []int       // their labels, ±1
	Alpha []float64   // the dual variables; nil before any solve
	// C is the box bound 0 ≤ αᵢ ≤ C; math.Inf(1) for a hard margin.
	C float64
	// Kind says what each point is: "" (not a support vector), or
	// SVMargin, SVInside, SVMisclassified. Nil derives it from Alpha and
	// f: a point with αᵢ > 0 is misclassified when yᵢf(xᵢ) ≤ 0, inside
	// when yᵢf(xᵢ) < 1 − 10⁻³ (SMO's tolerance), and on the margin
	// otherwise (also where f is NaN); αᵢ ≤ 0 is not a support vector.
	Kind []string
	// W and B are a linear f(x) = W·x + B; W = 0 has no boundary. Leave
	// W nil and set Decision for a kernel SVM, whose f is drawn as a
	// Field with its levels f = 0 and f = ±1 (not while every αᵢ is 0,
	// before a solve). Decision is called about 15 000 times a drawing.
	W        []float64
	B        float64
	Decision func(x1, x2 float64) float64
	// Pair is the SMO pair (i, j) this step optimised, ringed and
	// labelled "i" and "j"; [−1, −1] for none (as is the zero value
	// [0, 0]: a pair has two points).
	Pair [2]int
	// Slack draws each margin violator's slack ξᵢ = 1 − yᵢf(xᵢ) > 0 as a
	// segment from the point to its own supporting hyperplane (H₊ for
	// y = +1, H₋ for y = −1), labelled while there are few. Linear only:
	// a kernel's hyperplanes live in feature space.
	Slack bool
	// Overlay is another classifier's line, for comparison, drawn dashed
	// grey and named in the legend by its Label.
	Overlay *SceneLine
	// Hull is the certificate that a hard-margin problem is infeasible:
	// weights λᵢ ≥ 0 under which the points of each class average to one
	// common point, Σ_{y=+1} λᵢxᵢ/Σ_{y=+1} λᵢ = Σ_{y=−1} λᵢxᵢ/Σ_{y=−1} λᵢ,
	// where the two classes' convex hulls meet. The points with λᵢ > 0
	// are ringed, their hulls outlined and the common point starred.
	Hull []float64
	// Stepping keeps in the legend, hidden while not shown, everything a
	// later step can show (the pair, each kind of support vector, w), so
	// the legend band and with it the data area stay put while stepping.
	Stepping bool
	// Title states the state; empty makes one from the scene. Desc, when
	// set, goes before the figure's own description of what it shows.
	Title, Desc string
}

// SceneLine is a line W·x + B = 0 to compare with, named Label.
type SceneLine struct {
	W     []float64
	B     float64
	Label string
}

// Kinds of support vector, as SVMScene.Kind names them.
const (
	SVMargin        = "margin"
	SVInside        = "inside"
	SVMisclassified = "misclassified"
)

const (
	kindNone = iota
	kindMargin
	kindInside
	kindWrong
)

// Labels are written while they are few enough to read: α beside each
// support vector and λ beside each certificate point while there are at
// most 15, ξ beside each violator while there are at most 8.
const (
	maxAlphaLabels = 15
	maxSlackLabels = 8
)

// kindTol is how far below 1 a margin yᵢf(xᵢ) may be and still count as
// on the margin: SMO's usual tolerance.
const kindTol = 1e-3

// SVMFigure composes the data plot of sc: decision regions as light tints
// of the class colours, the margin band between H₋ (f = −1, dashed
// vermillion) and H₊ (f = +1, dashed blue) a deeper tint, the boundary
// f = 0 solid black, w from the boundary with the band's width 2/‖w‖ as a
// dimension arrow where it fits, the points, each support vector ringed
// by its kind (on the margin a solid ring, inside a dashed one,
// misclassified a double one) and labelled with its α while there are at
// most 15, the SMO pair on a yellow disc labelled "i" and "j", slack
// segments, the overlay line and the hull certificate. The title states
// the state and the <desc> says what is shown.
//
// The view is DataView(sc.X), so it is the same at every step. With no
// support vectors and w = 0 (before a solve) it draws the points only;
// w = 0 with b ≠ 0 tints the whole view by the sign of b. Lines off the
// view are left out, and so are their legend entries unless Stepping.
// Labels give way on a thumbnail (under 400 px) to all but the pair's.
//
// It returns ErrNoData for no points, ErrDimension for points with other
// than two coordinates, ErrNotFinite for a NaN or infinite coordinate, α,
// λ, W, B or C = NaN, and ErrShape for labels other than ±1, a Y, Alpha,
// Kind or Hull of another length than X, an unknown Kind, C ≤ 0, a W of
// other than two weights, both W and Decision, or a Pair index out of
// range.
func SVMFigure(sc SVMScene) (DataFigure, error) {
	if err := sc.check(); err != nil {
		return DataFigure{}, err
	}
	s := newSVMDraw(sc)
	return DataFigure{Title: s.title(), Desc: s.describe(), View: s.view, Layers: s.layers, Legend: s.legend}, nil
}

func (sc SVMScene) check() error {
	n := len(sc.X)
	switch {
	case n == 0:
		return fmt.Errorf("%w: an SVM figure needs at least one point", ErrNoData)
	case len(sc.Y) != n:
		return fmt.Errorf("%w: %d points, %d labels", ErrShape, n, len(sc.Y))
	case sc.Alpha != nil && len(sc.Alpha) != n || sc.Kind != nil && len(sc.Kind) != n || sc.Hull != nil && len(sc.Hull) != n:
		return fmt.Errorf("%w: %d points, %d α, %d kinds, %d λ", ErrShape, n, len(sc.Alpha), len(sc.Kind), len(sc.Hull))
	case math.IsNaN(sc.C):
		return fmt.Errorf("C: %w", ErrNotFinite)
	case !(sc.C > 0):
		return fmt.Errorf("%w: C = %v; want C > 0, or math.Inf(1) for a hard margin", ErrShape, sc.C)
	case sc.W != nil && sc.Decision != nil:
		return fmt.Errorf("%w: set W for a linear SVM or Decision for a kernel SVM, not both", ErrShape)
	}
	for i, x := range sc.X {
		if len(x) != 2 {
			return fmt.Errorf("%w: point %d has %d coordinates; the figure draws d = 2", ErrDimension, i, len(x))
		}
		if err := finite(x[0], x[1]); err != nil {
			return fmt.Errorf("point %d: %w", i, err)
		}
		if sc.Y[i] != 1 && sc.Y[i] != -1 {
			return fmt.Errorf("%w: point %d has label %d, want ±1", ErrShape, i, sc.Y[i])
		}
		if sc.Kind != nil && !slices.Contains([]string{"", SVMargin, SVInside, SVMisclassified}, sc.Kind[i]) {
			return fmt.Errorf("%w: point %d has kind %q", ErrShape, i, sc.Kind[i])
		}
	}
	if err := finite(sc.Alpha...); err != nil {
		return fmt.Errorf("α: %w", err)
	}
	if err := finite(sc.Hull...); err != nil {
		return fmt.Errorf("λ: %w", err)
	}
	if err := checkLine("w", sc.W, sc.B, sc.W == nil); err != nil {
		return err
	}
	if o := sc.Overlay; o != nil {
		if err := checkLine("overlay "+o.Label, o.W, o.B, false); err != nil {
			return err
		}
	}
	for _, i := range sc.Pair {
		if i < -1 || i >= n {
			return fmt.Errorf("%w: SMO pair index %d, want −1…%d", ErrShape, i, n-1)
		}
	}
	return nil
}

// checkLine checks a line's weights (two of them, or none when optional)
// and bias.
func checkLine(name string, w []float64, b float64, optional bool) error {
	if len(w) != 2 && !(optional && w == nil) {
		return fmt.Errorf("%w: %s has %d weights, want 2", ErrShape, name, len(w))
	}
	if err := finite(append(slices.Clone(w), b)...); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// svmDraw is what the SVM figure shows for one scene.
type svmDraw struct {
	sc     SVMScene
	view   View
	w      vec
	linear bool      // a linear f with w ≠ 0
	f      []float64 // f(xᵢ); NaN where unknown
	kind   []int
	count  [4]int // points of each kind
	pair   bool
	ptR    float64 // marker radius at the default size
	under  *svmUnder
	over   *svmOver
	layers []plot.Plotter
	legend []LegendItem
	dimOK  bool // the band's width fits in view
}

func newSVMDraw(sc SVMScene) *svmDraw {
	n := len(sc.X)
	s := &svmDraw{sc: sc, view: DataView(sc.X), f: make([]float64, n), kind: make([]int, n), ptR: markerRadius(n)}
	if sc.W != nil {
		s.w = vec2(sc.W)
	}
	s.linear = !s.w.isZero()
	s.pair = sc.Pair[0] >= 0 && sc.Pair[1] >= 0 && sc.Pair[0] != sc.Pair[1]
	for i, x := range sc.X {
		s.f[i] = math.NaN()
		switch {
		case sc.Decision != nil:
			s.f[i] = sc.Decision(x[0], x[1])
		case sc.W != nil:
			s.f[i] = s.w.dot(vec2(x)) + sc.B
		}
		s.kind[i] = s.kindOf(i)
		s.count[s.kind[i]]++
	}
	th := theme{scale: 1}
	s.under = &svmUnder{th: th, haloR: s.ringR() + 5}
	s.over = &svmOver{th: th, ptR: s.ptR, ringR: s.ringR()}
	for _, x := range sc.X {
		s.over.pts = append(s.over.pts, vec2(x))
	}
	s.compose()
	return s
}

func (s *svmDraw) kindOf(i int) int {
	if s.sc.Kind != nil {
		return slices.Index([]string{"", SVMargin, SVInside, SVMisclassified}, s.sc.Kind[i])
	}
	if s.sc.Alpha == nil || !(s.sc.Alpha[i] > 0) {
		return kindNone
	}
	switch m := float64(s.sc.Y[i]) * s.f[i]; {
	case m <= 0:
		return kindWrong
	case m < 1-kindTol:
		return kindInside
	}
	return kindMargin
}

// ringR is the radius of a support vector's ring at the default size.
func (s *svmDraw) ringR() float64 { return 1.25*s.ptR + 2 }

func (s *svmDraw) svs() int { return s.count[kindMargin] + s.count[kindInside] + s.count[kindWrong] }

// item lists an element in the legend, hidden while not shown when
// stepping and left out otherwise; it returns the item, or nil.
func (s *svmDraw) item(label string, shown bool, thumbs ...plot.Thumbnailer) *LegendItem {
	if !shown && !s.sc.Stepping {
		return nil
	}
	s.legend = append(s.legend, LegendItem{Label: label, Thumbs: thumbs, Hidden: !shown})
	return &s.legend[len(s.legend)-1]
}

func (s *svmDraw) thumb(what int) *svmThumb {
	return &svmThumb{what: what, r: s.ringR(), pr: s.ptR, th: theme{scale: 1}}
}

func (s *svmDraw) dashed(c color.Color, width, on, off float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width), Dashes: []vg.Length{vg.Points(on), vg.Points(off)}}
}

// compose builds the layers back to front and the legend in reading order.
func (s *svmDraw) compose() {
	sc := s.sc
	ps, _ := NewClassPoints(sc.X, sc.Y, nil) // checked already
	s.legend = append(s.legend, ps.Legend()...)
	kernel := sc.Decision != nil && !s.allZeroAlpha()
	fName := "w·x + b"
	if sc.Decision != nil {
		fName = "f(x)"
	}
	bd := &Boundary{W: pair(s.w), B: sc.B, LineStyle: draw.LineStyle{Color: black, Width: vg.Points(2.25)}}
	hp := &Boundary{W: pair(s.w), B: sc.B, Level: 1, LineStyle: s.dashed(blue, 1.5, 6, 4)}
	hm := &Boundary{W: pair(s.w), B: sc.B, Level: -1, LineStyle: s.dashed(vermillion, 1.5, 6, 4)}
	switch {
	case kernel:
		lv := MarginLevels()
		lv[0].LineStyle, lv[1].LineStyle, lv[2].LineStyle = hm.LineStyle, hp.LineStyle, bd.LineStyle
		s.layers = append(s.layers, &Field{F: sc.Decision, Fill: bandFill, Levels: lv})
	case s.linear:
		w, b := pair(s.w), sc.B
		s.layers = append(s.layers,
			&Region{Color: regionTint(1)},
			&Region{Planes: []HalfPlane{{A: w, B: b, Strict: true}}, Color: regionTint(0)},
			&Region{Planes: []HalfPlane{{A: w, B: b, Strict: true}, {A: [2]float64{-w[0], -w[1]}, B: 1 - b}}, Color: bandTint(0)},
			&Region{Planes: []HalfPlane{{A: [2]float64{-w[0], -w[1]}, B: -b}, {A: w, B: b + 1}}, Color: bandTint(1)})
	case sc.W != nil && sc.B != 0: // w = 0: f is the constant b
		s.layers = append(s.layers, &Region{Color: regionTint(slotOf(sign(sc.B), true))})
	}
	if sc.Overlay != nil {
		ol := &Boundary{W: [2]float64{sc.Overlay.W[0], sc.Overlay.W[1]}, B: sc.Overlay.B, LineStyle: s.dashed(grey, 1.75, 5, 4)}
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
	s.layers = append(s.layers, s.under, ps, s.over)

	if sc.Decision == nil {
		s.addArrows()
	}
	s.addSVs()
	s.addSlack()
	s.addHull()
}

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

func sign(v float64) int {
	if v > 0 {
		return 1
	}
	return -1
}

// visible reports whether w·x + b = level crosses the data view.
func (s *svmDraw) visible(w [2]float64, b, level float64) bool {
	_, _, ok := lineInView(vec{w[0], w[1]}, b-level, s.view)
	return ok
}

// bandTint is the deeper tint of palette slot k inside the margin band.
func bandTint(k int) color.RGBA { return tint(classColor(k), 0.36) }

// bandFill is a kernel SVM's Field fill: the region tints of the two
// classes, deeper inside the band |f| ≤ 1 (sgn(0) = −1).
func bandFill(v float64) color.Color {
	switch {
	case v > 1:
		return regionTint(0)
	case v > 0:
		return bandTint(0)
	case v >= -1:
		return bandTint(1)
	}
	return regionTint(1)
}

// addArrows adds w, from its boundary as the perceptron draws it, and the
// band's width 2/‖w‖ across the band.
func (s *svmDraw) addArrows() {
	fit, ok := fitArrows(s.w, s.sc.B, vec{}, false, s.view)
	a, _ := NewArrow([2]float64{}, [2]float64{}, "w")
	a.Width, a.Head = vg.Points(2.25), vg.Points(11)
	a.LabelStyle.Font = theme{scale: 1}.font(15, true)
	label := "w"
	if ok {
		a.From, a.To = pair(fit.base), pair(fit.base.add(s.w.scale(fit.scale)))
		s.over.arrow = a
		if fit.scale != 1 {
			label = "w (scaled)"
		}
	}
	if it := s.item(label, ok, a); it != nil {
		it.Room = "w (scaled)" // the same band at every step
	}
	if s.linear {
		s.over.dim = &dimSpec{w: s.w, b: s.sc.B, label: "2/‖w‖ = " + sig(2/s.w.norm(), 3)}
		s.dimOK = dimFits(s.w, s.sc.B, s.view)
	}
	s.item("2/‖w‖", s.dimOK, s.thumb(thumbDim))
}

// dimFits reports whether some stretch of the boundary in v has both
// supporting hyperplanes' feet in v too, for the dimension arrow.
func dimFits(w vec, b float64, v View) bool {
	p, q, ok := lineInView(w, b, v)
	if !ok {
		return false
	}
	off := w.scale(1 / w.dot(w))
	for _, t := range dimSpots {
		c := p.lerp(q, t)
		if v.contains(c.add(off)) && v.contains(c.sub(off)) {
			return true
		}
	}
	return false
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
	var pairLabels, labels []noteLabel
	for i, k := range s.kind {
		at := vec2(sc.X[i])
		inPair := s.pair && (i == sc.Pair[0] || i == sc.Pair[1])
		if k != kindNone {
			s.over.rings = append(s.over.rings, svRing{at: at, kind: k})
		}
		var lines []string
		if sc.Alpha != nil && (labelAlpha && k != kindNone || inPair) {
			lines = append(lines, "α="+sig(sc.Alpha[i], 2))
		}
		if inPair {
			name := [2]string{"i", "j"}[slices.Index(sc.Pair[:], i)]
			s.under.halos = append(s.under.halos, at)
			s.over.halos = append(s.over.halos, at)
			lines = append([]string{strings.Join(append([]string{name}, lines...), ": ")}, lines[min(1, len(lines)):]...)
		}
		if xi := s.slack(i); labelSlack && xi > 0 {
			lines = append(lines, "ξ="+sig(xi, 2))
		}
		if len(lines) == 0 {
			continue
		}
		l := noteLabel{at: at, text: strings.Join(lines, "\n"), bold: inPair,
			col: darker(classColor(slotOf(sc.Y[i], true))), gap: s.ringR() + 1.5}
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
	s.item("SMO pair", s.pair, s.thumb(thumbHalo))
}

// slack returns ξᵢ = max(0, 1 − yᵢf(xᵢ)), 0 where f is unknown.
func (s *svmDraw) slack(i int) float64 {
	m := float64(s.sc.Y[i]) * s.f[i]
	if !(m < 1-kindTol) {
		return 0
	}
	return 1 - m
}

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
		p := vec2(x)
		s.under.slack = append(s.under.slack, [2]vec{p, foot(s.w, s.sc.B-float64(s.sc.Y[i]), p)})
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
	var mean [2]vec
	var pts [2][]vec
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
		k := slotOf(sc.Y[i], true)
		x := vec2(sc.X[i])
		sum[k] += l
		mean[k] = mean[k].add(x.scale(l))
		pts[k] = append(pts[k], x)
		s.over.lambda = append(s.over.lambda, x)
		if count <= maxAlphaLabels {
			s.over.labels = append(s.over.labels, noteLabel{at: x, text: "λ=" + sig(l, 2), col: darker(green), gap: s.ringR() + 2.5})
		}
	}
	for k := range pts {
		s.under.hulls = append(s.under.hulls, hullPoly{pts: convexHull(pts[k]), slot: k})
	}
	meet := sum[0] > 0 && sum[1] > 0
	if meet {
		c := mean[0].scale(1/sum[0]).lerp(mean[1].scale(1/sum[1]), 0.5)
		s.over.common = &c
	}
	s.item("λᵢ > 0 and hulls", count > 0, s.thumb(thumbLambda))
	s.item("hulls meet", meet, s.thumb(thumbCommon))
}

// convexHull returns the convex hull of pts counter-clockwise (Andrew's
// monotone chain), without repeated points; fewer than three points are
// returned sorted.
func convexHull(pts []vec) []vec {
	p := slices.Clone(pts)
	slices.SortFunc(p, func(a, b vec) int {
		if a.X != b.X {
			return cmpF(a.X, b.X)
		}
		return cmpF(a.Y, b.Y)
	})
	p = slices.Compact(p)
	if len(p) < 3 {
		return p
	}
	cross := func(o, a, b vec) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []vec
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

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sig formats v to d significant digits with a true minus sign, and a
// power of ten written out (3×10⁻⁵) rather than as e-notation.
func sig(v float64, d int) string {
	s := strconv.FormatFloat(v, 'g', d, 64)
	if m, e, ok := strings.Cut(s, "e"); ok {
		k, _ := strconv.Atoi(e)
		if k >= 0 && k < 6 {
			s = strconv.FormatFloat(v, 'f', 0, 64)
		} else {
			s = m + "×" + decade(k)
		}
	}
	return strings.ReplaceAll(s, "-", "−")
}

// title states the state in two lines, so the legend band keeps its place
// from step to step: the problem, the support vectors and the pair, then
// the classifier and its margin.
func (s *svmDraw) title() string {
	if s.sc.Title != "" {
		return s.sc.Title
	}
	line := s.problem()
	switch _, meet := s.hullMeet(); {
	case meet:
		line += " · not separable"
	case s.svs() == 0:
		line += " · no support vectors yet"
	default:
		line += " · " + plural(s.svs(), "support vector", "support vectors")
	}
	if s.pair {
		line += " · pair " + PointName(s.sc.Pair[0]) + ", " + PointName(s.sc.Pair[1])
	}
	switch _, meet := s.hullMeet(); {
	case meet:
		return line + "\nthe convex hulls of the two classes meet"
	case s.sc.Decision != nil:
		return line + "\n" + s.kinds()
	case s.linear:
		return line + "\n" + wb(s.sc.W, s.sc.B) + " · 2/‖w‖ = " + sig(2/s.w.norm(), 3)
	}
	return line + "\n" + wb([]float64{0, 0}, s.sc.B)
}

func (s *svmDraw) problem() string {
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
	for k, name := range []string{kindMargin: "on the margin", kindInside: "inside the margin", kindWrong: "misclassified"} {
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
func (s *svmDraw) hullMeet() (at vec, ok bool) {
	if s.over.common == nil {
		return vec{}, false
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
	fmt.Fprintf(&d, "SVM (%s) on %s in two dimensions (%d with y = +1, %d with y = −1).",
		s.problem(), plural(len(sc.X), "point", "points"), pos, len(sc.X)-pos)
	switch {
	case sc.Decision != nil:
		d.WriteString(" The decision function f is shown as a field, blue where f > 0 and vermillion elsewhere, deeper inside the margin band −1 ≤ f ≤ 1; the line f = 0 is solid black, f = +1 dashed blue and f = −1 dashed vermillion.")
	case s.linear:
		fmt.Fprintf(&d, " The boundary w·x + b = 0 has %s; the margin band between H₋ (w·x + b = −1) and H₊ (w·x + b = +1) is 2/‖w‖ = %s wide.",
			wb(sc.W, sc.B), sig(2/s.w.norm(), 3))
	case sc.B != 0 && sc.W != nil:
		fmt.Fprintf(&d, " w = 0, so f is the constant b = %s and every point is predicted %s; there is no boundary.", num(sc.B), className(sign(sc.B), true)[4:])
	case sc.Hull == nil:
		d.WriteString(" There is no classifier yet: w = 0, b = 0.")
	}
	if n := s.svs(); n == 0 && sc.Hull == nil {
		d.WriteString(" No support vectors yet.")
	} else if n > 0 {
		fmt.Fprintf(&d, " %s: %s.", plural(n, "support vector", "support vectors"), strings.ReplaceAll(s.kinds(), " · ", ", "))
	}
	if s.pair {
		d.WriteString(" This step optimised the pair")
		for k, i := range sc.Pair {
			fmt.Fprintf(&d, " %s = %s", [2]string{"i", "j"}[k], PointName(i))
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

// svmUnder draws what lies under the points: the certificate's hulls,
// the slack segments and the SMO pair's discs.
type svmUnder struct {
	th    theme
	haloR float64
	halos []vec
	hulls []hullPoly
	slack [][2]vec
}

type hullPoly struct {
	pts  []vec
	slot int
}

func (u *svmUnder) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(q vec) vg.Point { return vg.Point{X: trX(q.X), Y: trY(q.Y)} }
	for _, h := range u.hulls {
		if len(h.pts) < 2 {
			continue
		}
		var line []vg.Point
		for _, q := range h.pts {
			line = append(line, at(q))
		}
		if len(line) > 2 {
			line = append(line, line[0])
		}
		c.StrokeLines(draw.LineStyle{Color: darker(classColor(h.slot)), Width: u.th.pt(2)}, c.ClipLinesXY(line)...)
	}
	width := 2.25
	if len(u.slack) > 20 {
		width = 1.5
	}
	// One path for all: a few hundred segments cost one style attribute.
	var path vg.Path
	for _, sg := range u.slack {
		for _, l := range c.ClipLinesXY([]vg.Point{at(sg[0]), at(sg[1])}) {
			path.Move(l[0])
			path.Line(l[len(l)-1])
		}
	}
	if len(path) > 0 {
		c.SetLineStyle(draw.LineStyle{Color: purple, Width: u.th.pt(width)})
		c.Stroke(path)
	}
	for _, q := range u.halos {
		drawHalo(&c, u.th, at(q), u.th.pt(u.haloR), true)
	}
}

// drawHalo marks a point of the SMO pair: a yellow disc under the points
// (disc) and a thick black ring over them (!disc), so that the mark shows
// among a few hundred points.
func drawHalo(c *draw.Canvas, th theme, at vg.Point, r vg.Length, disc bool) {
	path := circle(at, r)
	if disc {
		c.SetColor(yellow)
		c.Fill(path)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: black, Width: th.pt(2.25)})
	c.Stroke(path)
}

func strokeCircle(c *draw.Canvas, at vg.Point, r vg.Length, sty draw.LineStyle) {
	c.SetLineStyle(sty)
	c.Stroke(circle(at, r))
}

// drawSVRing rings a support vector by kind: on the margin a solid ring,
// inside the margin a dashed one, misclassified a double one.
// The lines are thinner around smaller markers, so a few hundred points
// are not all ink. Solid rings are stroked as one path, each dashed ring
// on its own, so that its dashes start afresh.
func drawSVRings(c *draw.Canvas, th theme, ats []vg.Point, r vg.Length, kind int, ptR float64) {
	if len(ats) == 0 {
		return
	}
	sty := draw.LineStyle{Color: black, Width: th.pt(0.75 + ptR/6)}
	var path vg.Path
	switch kind {
	case kindMargin:
		for _, at := range ats {
			path = append(path, circle(at, r)...)
		}
	case kindInside:
		sty.Dashes = []vg.Length{th.pt(0.6 * ptR), th.pt(0.4 * ptR)}
		for _, at := range ats {
			strokeCircle(c, at, r, sty)
		}
		return
	case kindWrong:
		sty.Width *= 0.7
		for _, at := range ats {
			path = append(append(path, circle(at, r)...), circle(at, r+th.pt(0.4*ptR+0.5))...)
		}
	}
	c.SetLineStyle(sty)
	c.Stroke(path)
}

// svmOver draws what lies over the points: the rings, the certificate's
// marks, w, the band's width and the labels, which it places where they
// cover the fewest points and each other.
type svmOver struct {
	th         theme
	ptR, ringR float64
	pts        []vec
	halos      []vec
	rings      []svRing
	lambda     []vec
	common     *vec
	arrow      *Arrow
	dim        *dimSpec
	labels     []noteLabel
}

type svRing struct {
	at   vec
	kind int
}

type dimSpec struct {
	w     vec
	b     float64
	label string
}

type noteLabel struct {
	at   vec
	text string
	col  color.Color
	bold bool
	gap  float64 // from the anchor to the label's edge, in pt at the default size
}

// dimSpots are where along the boundary in view, as fractions, the
// dimension arrow may stand, best first: away from w, which stands at
// the foot from the view's centre.
var dimSpots = [...]float64{0.2, 0.8, 0.32, 0.68, 0.1, 0.9, 0.5}

// obstacle is a disc a label should not cover.
type obstacle struct {
	at vg.Point
	r  vg.Length
}

func (o obstacle) box() vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: o.at.X - o.r, Y: o.at.Y - o.r}, Max: vg.Point{X: o.at.X + o.r, Y: o.at.Y + o.r}}
}

func (o *svmOver) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(q vec) vg.Point { return vg.Point{X: trX(q.X), Y: trY(q.Y)} }
	th := o.th
	var obs []obstacle
	for _, q := range o.pts {
		if pt := at(q); c.Contains(pt) {
			obs = append(obs, obstacle{pt, th.pt(o.ptR + 1)})
		}
	}
	var rings [4][]vg.Point
	for _, r := range o.rings {
		pt := at(r.at)
		if c.Contains(pt) {
			rings[r.kind] = append(rings[r.kind], pt)
			obs = append(obs, obstacle{pt, th.pt(o.ringR + 1)})
		}
	}
	for k, pts := range rings {
		drawSVRings(&c, th, pts, th.pt(o.ringR), k, o.ptR)
	}
	for _, q := range o.halos {
		pt := at(q)
		drawHalo(&c, th, pt, th.pt(o.ringR+5), false)
		obs = append(obs, obstacle{pt, th.pt(o.ringR + 6)})
	}
	for _, q := range o.lambda {
		strokeCircle(&c, at(q), th.pt(o.ringR+1.5), draw.LineStyle{Color: green, Width: th.pt(2.5)})
	}
	if o.common != nil {
		pt := at(*o.common)
		drawStar(&c, th, pt, th.pt(1.6*o.ptR+1.5))
		obs = append(obs, obstacle{pt, th.pt(1.6*o.ptR + 2)})
	}
	var taken []vg.Rectangle
	if a := o.arrow; a != nil {
		a = a.scaled(th.scale).(*Arrow)
		a.Plot(c, p)
		from, to := a.ends(&c, p)
		taken = append(taken, shaftBoxes(from, to, th.pt(3))...)
		if l, ok := a.labelAt(from, to, 0, false); ok {
			taken = append(taken, a.LabelStyle.Rectangle(a.Label).Add(l))
		}
	}
	if o.dim != nil {
		taken = o.drawDim(&c, p, at, obs, taken)
	}
	o.drawLabels(&c, at, obs, taken)
}

// compactScale is the type scale under which a figure is a thumbnail
// (newTheme's compact figures): too small for labels other than the
// pair's, which the <desc> and the page give instead.
const compactScale = 0.7

func drawStar(c *draw.Canvas, th theme, at vg.Point, r vg.Length) {
	path := markerPath(7, at, r)
	c.SetColor(black)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: white, Width: th.pt(1)})
	c.Stroke(path)
}

// shaftBoxes covers the segment from a to b with small squares, for label
// placement to avoid.
func shaftBoxes(a, b vg.Point, r vg.Length) []vg.Rectangle {
	var out []vg.Rectangle
	for k := 0; k <= 8; k++ {
		q := a.Add(b.Sub(a).Scale(vg.Length(k) / 8))
		out = append(out, obstacle{q, r}.box())
	}
	return out
}

func overlaps(r, q vg.Rectangle) bool {
	return r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y
}

func within(r vg.Rectangle, c *draw.Canvas) bool {
	return r.Min.X >= c.Min.X && r.Max.X <= c.Max.X && r.Min.Y >= c.Min.Y && r.Max.Y <= c.Max.Y
}

// cost is how badly label rectangle r sits: off the data area, over other
// labels and arrows, over points.
func cost(c *draw.Canvas, r vg.Rectangle, obs []obstacle, skip vg.Point, taken []vg.Rectangle) float64 {
	s := 0.0
	if !within(r, c) {
		s += 100
	}
	for _, t := range taken {
		if overlaps(r, t) {
			s += 10
		}
	}
	for _, o := range obs {
		if o.at != skip && overlaps(r, o.box()) {
			s += 3
		}
	}
	return s
}

func unit(p vg.Point) vg.Point {
	n := vg.Length(math.Hypot(float64(p.X), float64(p.Y)))
	if n == 0 {
		return vg.Point{}
	}
	return p.Scale(1 / n)
}

// drawDim draws the band's width 2/‖w‖ as a dimension arrow from H₋ to
// H₊ at the spot along the boundary, and its label at the place, that
// cover the fewest points and stay clear of w; it returns taken with the
// arrow and its label added.
func (o *svmOver) drawDim(c *draw.Canvas, p *plot.Plot, at func(vec) vg.Point, obs []obstacle, taken []vg.Rectangle) []vg.Rectangle {
	th, d := o.th, o.dim
	v := view(p)
	q0, q1, ok := lineInView(d.w, d.b, v)
	if !ok {
		return taken
	}
	off := d.w.scale(1 / d.w.dot(d.w))
	sty := th.text(12, false, draw.XCenter, draw.YCenter)
	size := sty.Rectangle(d.label)
	fAt := func(q vg.Point) float64 {
		x := v.XMin + float64((q.X-c.Min.X)/(c.Max.X-c.Min.X))*(v.XMax-v.XMin)
		y := v.YMin + float64((q.Y-c.Min.Y)/(c.Max.Y-c.Min.Y))*(v.YMax-v.YMin)
		return d.w.X*x + d.w.Y*y + d.b
	}
	fits := func(r vg.Rectangle, lo, hi float64) bool {
		for _, q := range []vg.Point{r.Min, r.Max, {X: r.Min.X, Y: r.Max.Y}, {X: r.Max.X, Y: r.Min.Y}} {
			if f := fAt(q); !(f > lo && f < hi) {
				return false
			}
		}
		return true
	}
	gap := th.pt(3)
	best := math.Inf(1)
	var bA, bB, bL vg.Point
	for k, t := range dimSpots {
		cD := q0.lerp(q1, t)
		if !v.contains(cD.add(off)) || !v.contains(cD.sub(off)) {
			continue
		}
		A, B, C := at(cD.sub(off)), at(cD.add(off)), at(cD)
		n := unit(B.Sub(A))
		side := vg.Point{X: -n.Y, Y: n.X}
		score := 0.2 * float64(k)
		if a := o.arrow; a != nil {
			wf := at(vec{a.From[0], a.From[1]})
			if math.Abs(float64(C.Sub(wf).Dot(side))) < float64(th.pt(40)) {
				score += 20
			}
		}
		for _, ob := range obs {
			if segDist(A, B, ob.at) < ob.r+th.pt(1) {
				score += 3
			}
		}
		type cand struct {
			at     vg.Point
			lo, hi float64
		}
		hp, hm := C.Add(B).Scale(0.5), C.Add(A).Scale(0.5)
		across, along := clearance(size, sty, side)+gap, clearance(size, sty, n)+gap
		for _, l := range []cand{
			{hp.Add(side.Scale(across)), 0, 1},
			{hp.Sub(side.Scale(across)), 0, 1},
			{hm.Add(side.Scale(across)), -1, 0},
			{hm.Sub(side.Scale(across)), -1, 0},
			{B.Add(n.Scale(along)), 1, math.Inf(1)},
			{A.Sub(n.Scale(along)), math.Inf(-1), -1},
		} {
			r := size.Add(l.at)
			if !fits(r, l.lo, l.hi) {
				continue
			}
			if s := score + cost(c, r, obs, vg.Point{X: -1e9}, taken); s < best {
				best, bA, bB, bL = s, A, B, l.at
			}
		}
	}
	if math.IsInf(best, 1) {
		return taken
	}
	line := draw.LineStyle{Color: black, Width: th.pt(1.25)}
	head := th.pt(7)
	n := unit(bB.Sub(bA))
	if bB.Sub(bA).Dot(n) >= 2.6*head {
		c.StrokeLines(line, []vg.Point{bA.Add(n.Scale(head * 0.8)), bB.Sub(n.Scale(head * 0.8))})
		arrowHead(c, bA, n.Scale(-1), head)
		arrowHead(c, bB, n, head)
	} else { // too narrow for heads inside: point at the lines from outside
		c.StrokeLines(line, []vg.Point{bA.Sub(n.Scale(2.2 * head)), bB.Add(n.Scale(2.2 * head))})
		arrowHead(c, bA, n, head)
		arrowHead(c, bB, n.Scale(-1), head)
	}
	haloText(c, sty, bL, d.label)
	return append(append(taken, size.Add(bL)), shaftBoxes(bA, bB, th.pt(2))...)
}

// clearance is labelClearance for a label of size box, measured once.
func clearance(box vg.Rectangle, sty text.Style, u vg.Point) vg.Length {
	sz := box.Size()
	return vg.Length(math.Abs(float64(u.X*sz.X/2))+math.Abs(float64(u.Y*sz.Y/2))) + sty.Font.Size/4
}

// arrowHead fills a head with its tip at tip, pointing along u.
func arrowHead(c *draw.Canvas, tip, u vg.Point, head vg.Length) {
	base := tip.Sub(u.Scale(head))
	side := vg.Point{X: -u.Y, Y: u.X}.Scale(head * 0.4)
	c.FillPolygon(black, []vg.Point{tip, base.Add(side), base.Sub(side)})
}

// segDist is the distance from q to the segment from a to b.
func segDist(a, b, q vg.Point) vg.Length {
	d := b.Sub(a)
	t := 0.0
	if l2 := float64(d.Dot(d)); l2 > 0 {
		t = math.Max(0, math.Min(1, float64(q.Sub(a).Dot(d))/l2))
	}
	e := q.Sub(a.Add(d.Scale(vg.Length(t))))
	return vg.Length(math.Hypot(float64(e.X), float64(e.Y)))
}

// labelDirs are the directions a label may sit in from its anchor, best
// first: beside, then diagonally, then above and below.
var labelDirs = [...]vg.Point{{X: 1}, {X: -1}, {X: 0.7071, Y: 0.7071}, {X: -0.7071, Y: 0.7071},
	{X: 0.7071, Y: -0.7071}, {X: -0.7071, Y: -0.7071}, {Y: 1}, {Y: -1}}

// drawLabels places each label, in order, where it costs least: near its
// anchor, clear of points, arrows and the labels placed before it.
func (o *svmOver) drawLabels(c *draw.Canvas, at func(vec) vg.Point, obs []obstacle, taken []vg.Rectangle) {
	th := o.th
	for _, l := range o.labels {
		if th.scale < compactScale && !l.bold {
			continue
		}
		size := 11.0
		if l.bold {
			size = 12.5
		}
		sty := th.text(size, l.bold, draw.XCenter, draw.YCenter)
		sty.Color = l.col
		a := at(l.at)
		if !c.Contains(a) {
			continue
		}
		box := sty.Rectangle(l.text)
		best, bestAt := math.Inf(1), a
		for ring := range 2 {
			for _, u := range labelDirs {
				ctr := a.Add(u.Scale(clearance(box, sty, u) + th.pt(l.gap+7*float64(ring))))
				s := 0.5*float64(ring) + cost(c, box.Add(ctr), obs, a, taken)
				if s < best {
					best, bestAt = s, ctr
				}
			}
			if best == 0 {
				break
			}
		}
		haloText(c, sty, bestAt, l.text)
		taken = append(taken, box.Add(bestAt))
	}
}

// Legend swatches of the SVM figure.
const (
	thumbRing = iota // + a kind: the ring of that kind of support vector
	thumbHalo = iota + kindWrong
	thumbBand
	thumbDim
	thumbSlack
	thumbLambda
	thumbCommon
)

type svmThumb struct {
	what  int
	r, pr float64 // ring and marker radii at the default size
	th    theme
}

func (t *svmThumb) Thumbnail(c *draw.Canvas) {
	th, ctr := t.th, c.Center()
	h := (c.Max.Y - c.Min.Y) / 2
	r := min(th.pt(t.r), h)
	switch t.what {
	case thumbRing + kindMargin, thumbRing + kindInside, thumbRing + kindWrong:
		if t.what == thumbRing+kindWrong {
			r = min(th.pt(t.r), h-th.pt(0.4*t.pr+0.5))
		}
		c.SetColor(color.RGBA{0xC8, 0xC8, 0xC8, 0xFF})
		c.Fill(circle(ctr, r*0.5))
		drawSVRings(c, th, []vg.Point{ctr}, r, t.what-thumbRing, t.pr)
	case thumbHalo:
		drawHalo(c, th, ctr, h, true)
		drawHalo(c, th, ctr, h, false)
	case thumbBand:
		l, rt := c.Min.X, c.Max.X
		c.FillPolygon(bandTint(0), []vg.Point{{X: l, Y: ctr.Y}, {X: rt, Y: ctr.Y}, {X: rt, Y: c.Max.Y}, {X: l, Y: c.Max.Y}})
		c.FillPolygon(bandTint(1), []vg.Point{{X: l, Y: c.Min.Y}, {X: rt, Y: c.Min.Y}, {X: rt, Y: ctr.Y}, {X: l, Y: ctr.Y}})
		dash := []vg.Length{th.pt(4), th.pt(3)}
		c.StrokeLine2(draw.LineStyle{Color: blue, Width: th.pt(1.5), Dashes: dash}, l, c.Max.Y, rt, c.Max.Y)
		c.StrokeLine2(draw.LineStyle{Color: vermillion, Width: th.pt(1.5), Dashes: dash}, l, c.Min.Y, rt, c.Min.Y)
	case thumbDim:
		head := th.pt(6)
		c.StrokeLine2(draw.LineStyle{Color: black, Width: th.pt(1.25)}, c.Min.X+head, ctr.Y, c.Max.X-head, ctr.Y)
		arrowHead(c, vg.Point{X: c.Min.X, Y: ctr.Y}, vg.Point{X: -1}, head)
		arrowHead(c, vg.Point{X: c.Max.X, Y: ctr.Y}, vg.Point{X: 1}, head)
	case thumbSlack:
		c.StrokeLine2(draw.LineStyle{Color: purple, Width: th.pt(2.25)}, c.Min.X, ctr.Y, c.Max.X, ctr.Y)
	case thumbLambda:
		c.StrokeLine2(draw.LineStyle{Color: darker(blue), Width: th.pt(2)}, c.Min.X, ctr.Y, ctr.X, ctr.Y)
		c.StrokeLine2(draw.LineStyle{Color: darker(vermillion), Width: th.pt(2)}, ctr.X, ctr.Y, c.Max.X, ctr.Y)
		strokeCircle(c, ctr, min(th.pt(t.r+1.5), h-th.pt(1)), draw.LineStyle{Color: green, Width: th.pt(2.5)})
	case thumbCommon:
		drawStar(c, th, ctr, min(th.pt(1.6*t.pr+1.5), h))
	}
}

func (t *svmThumb) scaled(s float64) any {
	q := *t
	q.th.scale *= s
	return &q
}

func (u *svmUnder) scaled(s float64) any {
	q := *u
	q.th.scale *= s
	return &q
}

func (o *svmOver) scaled(s float64) any {
	q := *o
	q.th.scale *= s
	return &q
}
