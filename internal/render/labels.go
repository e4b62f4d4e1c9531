package render

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/textfmt"
)

// A figure's labels are placed in two steps: the figure lists the points,
// markers and arrows a label should not cover as obstacles and taken
// rectangles, then drawLabels puts each label where it covers the least
// of them. drawDim, the dimension arrow across a band, takes part in the
// same bookkeeping.

// NoteLabel is Text written in Col beside the data point At, Gap clear
// of its marker; bold labels are larger and survive thumbnails.
type NoteLabel struct {
	At   Vec
	Text string
	Col  color.Color
	Bold bool
	Gap  float64 // from the anchor to the label's edge, in pt at the default size
}

// Obstacle is a disc a label should not cover.
type Obstacle struct {
	At vg.Point
	R  vg.Length
}

// box is the square around o.
func (o Obstacle) box() vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: o.At.X - o.R, Y: o.At.Y - o.R}, Max: vg.Point{X: o.At.X + o.R, Y: o.At.Y + o.R}}
}

// CompactScale is the type scale under which a figure is a thumbnail
// (NewTheme's compact figures): too small for labels other than bold
// ones (the SVM's pair), which the <desc> and the page give instead.
const CompactScale = 0.7

// labelDirs are the directions a label may sit in from its anchor, best
// first: beside, then diagonally, then above and below.
var labelDirs = [...]vg.Point{{X: 1}, {X: -1}, {X: 0.7071, Y: 0.7071}, {X: -0.7071, Y: 0.7071},
	{X: 0.7071, Y: -0.7071}, {X: -0.7071, Y: -0.7071}, {Y: 1}, {Y: -1}}

// DrawLabels places each label, in order, where it costs least: near its
// anchor, clear of obs, of taken (arrows, earlier labels) and of the
// labels placed before it. at maps data to canvas coordinates. Labels
// whose anchor is off c are left out, and so are all but bold ones on a
// thumbnail (th.scale < CompactScale).
func DrawLabels(c *draw.Canvas, th Theme, labels []NoteLabel, at func(Vec) vg.Point, obs []Obstacle, taken []vg.Rectangle) {
	for _, l := range labels {
		if th.scale < CompactScale && !l.Bold {
			continue
		}
		size := 11.0
		if l.Bold {
			size = 12.5
		}
		sty := th.Text(size, l.Bold, draw.XCenter, draw.YCenter)
		sty.Color = l.Col
		a := at(l.At)
		if !c.Contains(a) {
			continue
		}
		box := sty.Rectangle(l.Text)
		best, bestAt := math.Inf(1), a
		// Rings further out cost a little more than a nearer spot, and
		// less than covering a point: in a dense cluster (a 400 px
		// figure) a label steps out of it rather than over it.
		for ring := range 4 {
			for _, u := range labelDirs {
				ctr := a.Add(u.Scale(Clearance(box, sty, u) + th.Pt(l.Gap+7*float64(ring))))
				s := 0.5*float64(ring) + cost(c, box.Add(ctr), obs, a, taken)
				if s < best {
					best, bestAt = s, ctr
				}
			}
			if best == 0 {
				break
			}
		}
		HaloText(c, sty, bestAt, l.Text)
		taken = append(taken, box.Add(bestAt))
	}
}

// cost is how badly label rectangle r sits: off the data area, over other
// labels and arrows, over points.
func cost(c *draw.Canvas, r vg.Rectangle, obs []Obstacle, skip vg.Point, taken []vg.Rectangle) float64 {
	s := 0.0
	if !Within(r, c) {
		s += 100
	}
	for _, t := range taken {
		if overlaps(r, t) {
			s += 10
		}
	}
	for _, o := range obs {
		if o.At != skip && overlaps(r, o.box()) {
			s += 3
		}
	}
	return s
}

// overlaps reports whether r and q share more than an edge.
func overlaps(r, q vg.Rectangle) bool {
	return r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y
}

// Within reports whether r lies inside c.
func Within(r vg.Rectangle, c *draw.Canvas) bool {
	return r.Min.X >= c.Min.X && r.Max.X <= c.Max.X && r.Min.Y >= c.Min.Y && r.Max.Y <= c.Max.Y
}

// Clearance is labelClearance for a label of size box, measured once.
func Clearance(box vg.Rectangle, sty text.Style, u vg.Point) vg.Length {
	sz := box.Size()
	return vg.Length(math.Abs(float64(u.X*sz.X/2))+math.Abs(float64(u.Y*sz.Y/2))) + sty.Font.Size/4
}

// ShaftBoxes covers the segment from a to b with small squares, for label
// placement to avoid.
func ShaftBoxes(a, b vg.Point, r vg.Length) []vg.Rectangle {
	var out []vg.Rectangle
	for k := 0; k <= 8; k++ {
		q := a.Add(b.Sub(a).Scale(vg.Length(k) / 8))
		out = append(out, Obstacle{q, r}.box())
	}
	return out
}

// DimSpec is a dimension arrow across the band −1 ≤ w·x + b ≤ 1 (for
// an SVM, from H₋ to H₊), labelled with its width.
type DimSpec struct {
	W     Vec
	B     float64
	Label string
}

// dimSpots are where along the boundary in view, as fractions, the
// dimension arrow may stand, best first: away from w, which stands at
// the foot from the view's centre.
var dimSpots = [...]float64{0.2, 0.8, 0.32, 0.68, 0.1, 0.9, 0.5}

// DimFits reports whether some stretch of the boundary in v has both
// supporting hyperplanes' feet in v too, for the dimension arrow.
func DimFits(w Vec, b float64, v View) bool {
	p, q, ok := LineInView(w, b, v)
	if !ok {
		return false
	}
	off := w.Scale(1 / w.Dot(w))
	for _, t := range dimSpots {
		c := p.Lerp(q, t)
		if v.contains(c.Add(off)) && v.contains(c.Sub(off)) {
			return true
		}
	}
	return false
}

// DrawDim draws d's band width (for an SVM 2/‖w‖) as a dimension arrow
// from f = −1 to f = +1 at the spot along the boundary, and its label at
// the place, that cover the fewest obstacles and taken rectangles and
// stay 40 pt clear, along the boundary, of each point in avoid (for an
// SVM, the foot of w); it returns taken with the arrow and its label
// added. Where no spot fits in the view it draws nothing.
func DrawDim(c *draw.Canvas, p *plot.Plot, th Theme, d *DimSpec, at func(Vec) vg.Point, avoid []vg.Point, obs []Obstacle, taken []vg.Rectangle) []vg.Rectangle {
	v := PlotView(p)
	q0, q1, ok := LineInView(d.W, d.B, v)
	if !ok {
		return taken
	}
	off := d.W.Scale(1 / d.W.Dot(d.W))
	sty := th.Text(12, false, draw.XCenter, draw.YCenter)
	size := sty.Rectangle(d.Label)
	fAt := func(q vg.Point) float64 {
		x := v.XMin + float64((q.X-c.Min.X)/(c.Max.X-c.Min.X))*(v.XMax-v.XMin)
		y := v.YMin + float64((q.Y-c.Min.Y)/(c.Max.Y-c.Min.Y))*(v.YMax-v.YMin)
		return d.W.X*x + d.W.Y*y + d.B
	}
	fits := func(r vg.Rectangle, lo, hi float64) bool {
		for _, q := range []vg.Point{r.Min, r.Max, {X: r.Min.X, Y: r.Max.Y}, {X: r.Max.X, Y: r.Min.Y}} {
			if f := fAt(q); !(f > lo && f < hi) {
				return false
			}
		}
		return true
	}
	gap := th.Pt(3)
	best := math.Inf(1)
	var bA, bB, bL vg.Point
	for k, t := range dimSpots {
		cD := q0.Lerp(q1, t)
		if !v.contains(cD.Add(off)) || !v.contains(cD.Sub(off)) {
			continue
		}
		A, B, C := at(cD.Sub(off)), at(cD.Add(off)), at(cD)
		n := Unit(B.Sub(A))
		side := vg.Point{X: -n.Y, Y: n.X}
		score := 0.2 * float64(k)
		for _, wf := range avoid {
			if math.Abs(float64(C.Sub(wf).Dot(side))) < float64(th.Pt(40)) {
				score += 20
			}
		}
		for _, ob := range obs {
			if segDist(A, B, ob.At) < ob.R+th.Pt(1) {
				score += 3
			}
		}
		type cand struct {
			at     vg.Point
			lo, hi float64
		}
		hp, hm := C.Add(B).Scale(0.5), C.Add(A).Scale(0.5)
		across, along := Clearance(size, sty, side)+gap, Clearance(size, sty, n)+gap
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
	line := draw.LineStyle{Color: Black, Width: th.Pt(1.25)}
	head := th.Pt(7)
	n := Unit(bB.Sub(bA))
	if bB.Sub(bA).Dot(n) >= 2.6*head {
		c.StrokeLines(line, []vg.Point{bA.Add(n.Scale(head * 0.8)), bB.Sub(n.Scale(head * 0.8))})
		ArrowHead(c, bA, n.Scale(-1), head)
		ArrowHead(c, bB, n, head)
	} else { // too narrow for heads inside: point at the lines from outside
		c.StrokeLines(line, []vg.Point{bA.Sub(n.Scale(2.2 * head)), bB.Add(n.Scale(2.2 * head))})
		ArrowHead(c, bA, n, head)
		ArrowHead(c, bB, n.Scale(-1), head)
	}
	HaloText(c, sty, bL, d.Label)
	return append(append(taken, size.Add(bL)), ShaftBoxes(bA, bB, th.Pt(2))...)
}

// ArrowHead fills a head with its tip at tip, pointing along u.
func ArrowHead(c *draw.Canvas, tip, u vg.Point, head vg.Length) {
	base := tip.Sub(u.Scale(head))
	side := vg.Point{X: -u.Y, Y: u.X}.Scale(head * 0.4)
	c.FillPolygon(Black, []vg.Point{tip, base.Add(side), base.Sub(side)})
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

// Unit is p scaled to length 1, or 0 for p = 0.
func Unit(p vg.Point) vg.Point {
	n := vg.Length(math.Hypot(float64(p.X), float64(p.Y)))
	if n == 0 {
		return vg.Point{}
	}
	return p.Scale(1 / n)
}

// num and coord format a weight and a data coordinate by textfmt's one
// rule (at most four decimals, exact integers exactly, a real minus sign).
func num(v float64) string { return textfmt.Num(v) }

func coord(v float64) string { return textfmt.Num(v) }

// sig formats v to d significant digits by textfmt's rule (1.23·10⁻⁵
// outside [0.001, 10⁶), exact integers exactly).
func sig(v float64, d int) string { return textfmt.SigN(v, d) }

// vector formats w or x as "(a, b, …)" with f.
func vector(v []float64, f func(float64) string) string { return textfmt.VecWith(v, f) }

// ClassName names class c: "y = +1" and "y = −1" for a two-class problem,
// "class c" otherwise.
func ClassName(c int, binary bool) string {
	if !binary {
		return "class " + strconv.Itoa(c)
	}
	if c > 0 {
		return "y = +1"
	}
	return "y = −1"
}

// PointName names the point with 0-based index i as the notes do, 1-based
// with a subscript: x₁ for index 0.
func PointName(i int) string {
	const sub = "₀₁₂₃₄₅₆₇₈₉"
	digits := []rune(sub)
	var b strings.Builder
	b.WriteString("x")
	for _, c := range strconv.Itoa(i + 1) {
		b.WriteRune(digits[c-'0'])
	}
	return b.String()
}
