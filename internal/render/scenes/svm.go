package scenes

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
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
	// when yᵢf(xᵢ) < 1 − 10⁻³ (SMO's tolerance), outside the band
	// (no ring; only mid-run) when yᵢf(xᵢ) > 1 + 10⁻³, and on the
	// margin otherwise (also where f is NaN); αᵢ ≤ 0 is not a support
	// vector.
	Kind []string
	// W and B are a linear f(x) = W·x + B; W = 0 has no boundary. Leave
	// W nil and set Decision for a kernel SVM, whose f is drawn as a
	// Field with its levels f = 0 and f = ±1 (not while every αᵢ is 0,
	// before a solve). Decision is called at each support vector when
	// Kind is nil, to tell its kind, and about 15 000 times more a
	// drawing to sample the field unless DecisionGrid is set.
	W        []float64
	B        float64
	Decision func(x1, x2 float64) float64
	// DecisionGrid, when set with Decision, evaluates the same f on a
	// whole grid at once (see Field.Grid): the field is sampled through
	// it, and Decision is called only at the support vectors.
	DecisionGrid func(xs, ys []float64, z []float64)
	// Size, when set, sizes each point by a weight, such as αᵢ in the
	// representer theorem's f(x) = Σᵢ αᵢyᵢK(xᵢ, x) + b: a point's marker
	// area grows with Size[i]/max(Size), from the normal radius at 0 to
	// 1.7 times it for the largest, and a support vector's ring grows
	// with its point. Nil draws every point the same.
	Size []float64
	// Pair is the SMO pair (i, j) this step optimised, ringed and
	// labelled "i" and "j"; [−1, −1] for none (as is the zero value
	// [0, 0]: a pair has two points). [i, −1] marks the one point a
	// stochastic step sampled instead, labelled "i".
	Pair [2]int
	// Problem names what was solved, for the title and the <desc>
	// ("Pegasos, λ = 0.01"); empty names the SVM from C and the kernel.
	Problem string
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

// The kinds of point, as indices: kindNone is not a support vector.
const (
	kindNone = iota
	kindMargin
	kindInside
	kindWrong
	// kindBeyond has αᵢ > 0 beyond the band (yᵢf(xᵢ) > 1), which only a
	// run short of its optimum has: no kind the KKT conditions name, so
	// it gets no ring, but its α is labelled and counted.
	kindBeyond
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
// With Size, each point's marker and ring grow with its weight (the
// representer theorem's picture); the legend's swatches keep the normal
// size. With DecisionGrid, the kernel's field is sampled in one batch and
// Decision is called only at the support vectors.
//
// It returns ErrNoData for no points, ErrDimension for points with other
// than two coordinates, ErrNotFinite for a NaN or infinite coordinate, α,
// λ, size, W, B or C = NaN, and ErrShape for labels other than ±1, a Y,
// Alpha, Kind, Hull or Size of another length than X, an unknown Kind, a
// negative size, C ≤ 0, a W of other than two weights, both W and
// Decision, DecisionGrid without Decision, or a Pair index out of range.
func SVMFigure(sc SVMScene) (render.DataFigure, error) {
	if err := sc.check(); err != nil {
		return render.DataFigure{}, err
	}
	s := newSVMDraw(sc)
	return render.DataFigure{Title: s.title(), Desc: s.describe() + s.sizeNote(), View: s.view, Layers: s.layers, Legend: s.legend}, nil
}

// sizeNote is the <desc>'s sentence on the points' sizes, when Size is
// set: which point is largest, and by how much.
func (s *svmDraw) sizeNote() string {
	if s.grow == nil {
		return ""
	}
	top := 0
	for i, v := range s.sc.Size {
		if v > s.sc.Size[top] {
			top = i
		}
	}
	if !(s.sc.Size[top] > 0) {
		return " Points are sized by weight; every weight is 0, so all have the normal size."
	}
	return fmt.Sprintf(" Each point's marker area grows with its weight, up to %s times the normal radius for the largest, %s (%s); points of weight 0 keep the normal size.",
		sig(maxGrow, 2), render.PointName(top), sig(s.sc.Size[top], 3))
}

// svmDraw is what the SVM figure shows for one scene.
type svmDraw struct {
	sc     SVMScene
	view   render.View
	w      render.Vec
	linear bool      // a linear f with w ≠ 0
	f      []float64 // f(xᵢ); NaN where unknown
	kind   []int
	count  [5]int // points of each kind
	pair   bool
	// sampled: Pair marks one point a stochastic step drew.
	sampled bool
	ptR     float64 // marker radius at the default size
	// grow is each point's marker radius as a multiple of ptR, from
	// Size; nil when every point has the normal radius.
	grow   []float64
	under  *svmUnder
	over   *svmOver
	layers []plot.Plotter
	legend []render.LegendItem
	dimOK  bool // the band's width fits in view
}

// newSVMDraw evaluates f at the points, sorts them by kind and composes
// the figure of a checked scene.
func newSVMDraw(sc SVMScene) *svmDraw {
	n := len(sc.X)
	s := &svmDraw{sc: sc, view: render.DataView(sc.X), f: make([]float64, n), kind: make([]int, n), ptR: render.MarkerRadius(n)}
	if sc.W != nil {
		s.w = render.Vec2(sc.W)
	}
	s.linear = !s.w.IsZero()
	s.pair = sc.Pair[0] >= 0 && sc.Pair[1] >= 0 && sc.Pair[0] != sc.Pair[1]
	s.sampled = sc.Pair[0] >= 0 && sc.Pair[1] < 0
	for i, x := range sc.X {
		s.f[i] = math.NaN()
		switch {
		case sc.Decision != nil:
			// A kernel's f at a point matters only to tell a support
			// vector's kind (its slack is not drawn): each call costs a
			// kernel sum over the support vectors.
			if sc.Kind == nil && !s.sampled && sc.Alpha != nil && sc.Alpha[i] > 0 {
				s.f[i] = sc.Decision(x[0], x[1])
			}
		case sc.W != nil:
			s.f[i] = s.w.Dot(render.Vec2(x)) + sc.B
		}
		s.kind[i] = s.kindOf(i)
		s.count[s.kind[i]]++
	}
	s.grow = growth(sc.Size)
	th := render.DefaultTheme()
	s.under = &svmUnder{th: th}
	s.over = &svmOver{th: th, ptR: s.ptR}
	for i, x := range sc.X {
		s.over.pts = append(s.over.pts, disc{render.Vec2(x), s.pointR(i)})
	}
	s.compose()
	return s
}

// kindOf is point i's kind, as given in Kind or derived from α and f
// (see SVMScene.Kind). Kinds of support vector belong to an optimum (its
// KKT conditions tie αᵢ to yᵢf(xᵢ)), so a scene of a stochastic iterate,
// which marks its sampled point (Pair [i, −1]), derives none: its points
// are not support vectors of any kind, whatever their α and yᵢf(xᵢ).
func (s *svmDraw) kindOf(i int) int {
	if s.sc.Kind != nil {
		return slices.Index([]string{"", SVMargin, SVInside, SVMisclassified}, s.sc.Kind[i])
	}
	if s.sampled || s.sc.Alpha == nil || !(s.sc.Alpha[i] > 0) {
		return kindNone
	}
	switch m := float64(s.sc.Y[i]) * s.f[i]; {
	case m <= 0:
		return kindWrong
	case m < 1-kindTol:
		return kindInside
	case m > 1+kindTol:
		return kindBeyond
	}
	return kindMargin
}

// ringR is the radius of a support vector's ring at the default size,
// around a point of the normal size: the legend's.
func (s *svmDraw) ringR() float64 { return 1.25*s.ptR + 2 }

// pointR is point i's marker radius at the default size.
func (s *svmDraw) pointR(i int) float64 {
	if s.grow == nil {
		return s.ptR
	}
	return s.ptR * s.grow[i]
}

// ringAt is the radius of point i's ring at the default size: as ringR,
// around a point of its size.
func (s *svmDraw) ringAt(i int) float64 { return 1.25*s.pointR(i) + 2 }

// maxGrow is the radius of the point of the largest Size, as a multiple
// of the normal radius.
const maxGrow = 1.7

// growth returns each point's radius as a multiple of the normal one:
// √(1 + (maxGrow² − 1)·size/max(size)), so that the marker's area grows
// in proportion to the size, from the normal area at 0 to maxGrow² times
// it at the largest. It is nil for no sizes; all 1 when every size is 0.
func growth(size []float64) []float64 {
	if size == nil {
		return nil
	}
	top := 0.0
	for _, v := range size {
		top = math.Max(top, v)
	}
	g := make([]float64, len(size))
	for i, v := range size {
		g[i] = 1
		if top > 0 {
			g[i] = math.Sqrt(1 + (maxGrow*maxGrow-1)*v/top)
		}
	}
	return g
}

// svs counts the support vectors.
func (s *svmDraw) svs() int {
	return s.count[kindMargin] + s.count[kindInside] + s.count[kindWrong] + s.count[kindBeyond]
}

// item lists an element in the legend, hidden while not shown when
// stepping and left out otherwise; it returns the item, or nil.
func (s *svmDraw) item(label string, shown bool, thumbs ...plot.Thumbnailer) *render.LegendItem {
	if !shown && !s.sc.Stepping {
		return nil
	}
	s.legend = append(s.legend, render.LegendItem{Label: label, Thumbs: thumbs, Hidden: !shown})
	return &s.legend[len(s.legend)-1]
}

// thumb is the legend swatch what, sized like the figure's marks.
func (s *svmDraw) thumb(what int) *svmThumb {
	return &svmThumb{what: what, r: s.ringR(), pr: s.ptR, th: render.DefaultTheme()}
}

// dashed is a dashed line style; width and dashes in pt.
func (s *svmDraw) dashed(c color.Color, width, on, off float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width), Dashes: []vg.Length{vg.Points(on), vg.Points(off)}}
}
