package chart

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Spectrum is the eigenvalues of a symmetric matrix, such as a Gram
// matrix Kᵢⱼ = k(xᵢ, xⱼ): by Mercer's theorem k is a kernel only if every
// such matrix is positive semi-definite, so one negative eigenvalue shows
// that a function is not a kernel.
type Spectrum struct {
	// Title names the matrix ("sigmoid kernel, 40 points"); the chart
	// adds a line that states whether it is positive semi-definite. Desc
	// goes before the chart's own <desc>.
	Title, Desc string
	Values      []float64 // ascending
	// Tol is the round-off allowance: values < −Tol are negative. 0 means
	// 1e-9·max(1, largest), the tolerance of an eigensolver's error of
	// about ε·‖K‖ with room to spare.
	Tol float64
}

// DefaultSpectrumHeight is SpectrumSVG's default height in CSS pixels; it
// is 600 px wide.
const DefaultSpectrumHeight = 300

// maxSpectrum bounds the eigenvalues drawn: a Gram matrix of 2000 points.
const maxSpectrum = 2000

// stemsUpTo is the most eigenvalues drawn as stems and dots; more are
// drawn as a filled curve.
const stemsUpTo = 100

// SpectrumSVG writes s as a chart of each eigenvalue against its rank
// 1…n, ascending, of a zero size default of 600×300 px: a dot on a stem
// from 0 for up to 100 values, a filled curve for more; nonnegative
// values blue, negative ones (below −Tol) vermillion, and the smallest
// labelled "λ_min = −0.83". The y axis is a symmetric logarithm,
// y ↦ asinh(y/c) with c the larger of Tol and a tenth of the smallest
// |λ| above Tol, so eigenvalues from 10⁻¹⁶ to 10³ share the chart, a
// negative one sits clearly below the zero line however small, and
// round-off sits on it; its ticks are labelled with the values they mark.
//
// It returns ErrNoData for no values, ErrShape for more than 2000, values
// out of ascending order or a negative Tol, and ErrNotFinite for a NaN or
// infinite value or Tol, before writing anything.
func SpectrumSVG(w io.Writer, s Spectrum, opt render.Options) error {
	f, err := s.figure(opt)
	if err != nil {
		return err
	}
	return f.WriteSVG(w)
}

func (s Spectrum) check() error {
	n := len(s.Values)
	switch {
	case n == 0:
		return fmt.Errorf("%w: a spectrum needs at least one eigenvalue", render.ErrNoData)
	case n > maxSpectrum:
		return fmt.Errorf("%w: %d eigenvalues; at most %d are drawn", render.ErrShape, n, maxSpectrum)
	}
	if err := render.Finite(append(slices.Clone(s.Values), s.Tol)...); err != nil {
		return fmt.Errorf("spectrum: %w", err)
	}
	if s.Tol < 0 {
		return fmt.Errorf("%w: negative tolerance %v", render.ErrShape, s.Tol)
	}
	for i := 1; i < n; i++ {
		if s.Values[i] < s.Values[i-1] {
			return fmt.Errorf("%w: eigenvalue %d (%v) is below eigenvalue %d (%v); want them ascending", render.ErrShape, i+1, s.Values[i], i, s.Values[i-1])
		}
	}
	return nil
}

// tol is Tol, or its default.
func (s Spectrum) tol() float64 {
	if s.Tol > 0 {
		return s.Tol
	}
	return 1e-9 * math.Max(1, s.Values[len(s.Values)-1])
}

// negatives counts the values below −tol: a prefix, as they ascend.
func (s Spectrum) negatives() int {
	t := s.tol()
	n := 0
	for n < len(s.Values) && s.Values[n] < -t {
		n++
	}
	return n
}

// verdict is the title's statement of the result.
func (s Spectrum) verdict() string {
	n, neg := len(s.Values), s.negatives()
	switch {
	case neg > 0:
		return fmt.Sprintf("%s: not a kernel", plural(neg, "negative eigenvalue", "negative eigenvalues"))
	case n == 1:
		return "its eigenvalue is ≥ 0 (up to round-off): positive semi-definite"
	}
	return fmt.Sprintf("all %d eigenvalues ≥ 0 (up to round-off): positive semi-definite", n)
}

// linear is the symmetric log's c: Tol, or a tenth of the smallest |λ|
// above Tol when that is larger, so an axis of values far from 0 does not
// spend its height on decades below them.
func (s Spectrum) linear() float64 {
	t, m := s.tol(), math.Inf(1)
	for _, v := range s.Values {
		if a := math.Abs(v); a > t {
			m = math.Min(m, a)
		}
	}
	if math.IsInf(m, 1) {
		return t
	}
	return math.Max(t, m/10)
}

func (s Spectrum) figure(opt render.Options) (*render.Figure, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	fw, fh := opt.Size(render.DefaultSize, DefaultSpectrumHeight)
	th := render.StripTheme(fw).ForHall(opt)
	n, c := len(s.Values), s.linear()
	sc := asinhScale{c}

	p := plot.New()
	th.Style(p, "rank i (ascending)", "eigenvalue λᵢ", 13, 12, 11)
	p.Title.Text = strings.TrimSpace(s.Title + "\n" + s.verdict())
	render.FitTitle(p, fw-th.Pt(14))
	p.Title.Padding = th.Pt(4)
	// The y axis is linear in u = asinh(λ/c), and its ticks are labelled
	// with the λ they mark. (gonum places the axis label by the middle of
	// the data range, which a nonlinear Scale moves off the axis's middle.)
	lo, hi := sc.f(math.Min(0, s.Values[0])), sc.f(math.Max(0, s.Values[n-1]))
	if hi == lo {
		lo, hi = -1, 1
	}
	p.Y.Min, p.Y.Max = lo-0.04*(hi-lo), hi+0.1*(hi-lo)
	if s.negatives() > 0 { // room under the smallest for its label
		p.Y.Min = lo - 0.25*(hi-lo)
	}
	p.Y.Tick.Marker = symlogTicks{c: c, n: 5}
	p.X.Tick.Marker = render.NiceTicks{N: 5, Integer: true}
	if n <= stemsUpTo {
		p.X.Min, p.X.Max = 0.5, float64(n)+0.5
	} else {
		p.X.Min, p.X.Max = 1, float64(n)
	}
	p.Add(&spectrumMarks{s: s, sc: sc, th: th})

	lg := &render.FlowLegend{Style: th.Text(11, false, draw.XLeft, draw.YCenter), ThumbW: th.Pt(14), Gap: th.Pt(14), Above: th.Pt(4)}
	if s.negatives() < n {
		lg.Items = append(lg.Items, render.LegendItem{Label: "λᵢ ≥ 0 (up to round-off)", Thumbs: []plot.Thumbnailer{render.DotThumb{Theme: th}}})
	}
	if s.negatives() > 0 {
		lg.Items = append(lg.Items, render.LegendItem{Label: "λᵢ < 0", Thumbs: []plot.Thumbnailer{negThumb{th}}})
	}
	p.Add(lg)

	f := &render.Figure{W: fw, H: fh, Title: p.Title.Text, Desc: s.describe(c)}
	f.Title = strings.ReplaceAll(f.Title, "\n", ": ")
	f.Draw = func(cv draw.Canvas) {
		render.Paper(cv)
		cv = draw.Crop(cv, th.Pt(4), -th.Pt(12), th.Pt(2), -th.Pt(4))
		base := p.Title.Padding
		for range 2 { // the legend's height depends on the data area's width
			dc := p.DataCanvas(cv)
			p.Title.Padding = base + lg.Height(dc.Max.X-dc.Min.X)
		}
		p.Draw(cv)
	}
	return f, nil
}

func (s Spectrum) describe(c float64) string {
	var d strings.Builder
	if s.Desc != "" {
		d.WriteString(strings.TrimSpace(s.Desc) + " ")
	}
	n, neg := len(s.Values), s.negatives()
	fmt.Fprintf(&d, "The %s of a symmetric matrix in ascending order, from λ_min = %s to λ_max = %s, against their rank, on a symmetric logarithmic axis (linear within ±%s).",
		plural(n, "eigenvalue", "eigenvalues"), sig(s.Values[0], 3), sig(s.Values[n-1], 3), sig(c, 2))
	if neg > 0 {
		fmt.Fprintf(&d, " %s below −%s (drawn in vermillion), so the matrix is not positive semi-definite and the function that made it is not a kernel.",
			plural(neg, "eigenvalue is", "eigenvalues are"), sig(s.tol(), 2))
	} else {
		fmt.Fprintf(&d, " None is below −%s, so up to round-off the matrix is positive semi-definite.", sig(s.tol(), 2))
	}
	return d.String()
}

// asinhScale is the symmetric log u = asinh(y/c): linear near 0, where
// |y| ≪ c, logarithmic far from it, and defined for every sign.
type asinhScale struct{ c float64 }

func (a asinhScale) f(y float64) float64   { return math.Asinh(y / a.c) }
func (a asinhScale) inv(u float64) float64 { return a.c * math.Sinh(u) }

// symlogTicks marks an axis in u = asinh(y/c) with the values y of 0 and
// powers of ten of either sign, labelling every one or every second,
// third, … so that about n are labelled, leaving out those too close to
// 0 or to the last label to read apart, with unlabelled ticks at the
// decades between.
// An axis of at most two decades also gets labels at 2 and 5 times them.
type symlogTicks struct {
	c float64
	n float64
}

func (t symlogTicks) Ticks(ulo, uhi float64) []plot.Tick {
	sc := asinhScale{t.c}
	lo, hi, span := sc.inv(ulo), sc.inv(uhi), uhi-ulo
	var ts []plot.Tick
	if lo <= 0 && hi >= 0 {
		ts = append(ts, plot.Tick{Value: 0, Label: "0"})
	}
	k0 := math.Floor(math.Log10(t.c))
	for _, side := range []float64{1, -1} {
		end := math.Max(side*lo, side*hi)
		if end <= 0 {
			continue
		}
		top := math.Floor(math.Log10(end))
		every := math.Max(1, math.Ceil((top-k0)/t.n))
		mults := []float64{1}
		if top-k0 <= 2 {
			mults = []float64{1, 2, 5}
		}
		for k := top; k >= k0; k-- {
			for _, m := range mults {
				v := side * m * math.Pow(10, k)
				if v < lo || v > hi {
					continue
				}
				tk := plot.Tick{Value: sc.f(v)}
				if math.Mod(top-k, every) == 0 {
					tk.Label = sig(v, 1)
					if m == 1 {
						tk.Label = strings.Repeat("−", b2i(side < 0)) + render.Decade(int(k))
					}
				}
				ts = append(ts, tk)
			}
		}
	}
	// Outwards from 0 on each side, drop a label too close to the last.
	slices.SortStableFunc(ts, func(a, b plot.Tick) int { return cmp.Compare(math.Abs(a.Value), math.Abs(b.Value)) })
	last := [2]float64{}
	for i, tk := range ts {
		side := b2i(tk.Value < 0)
		if tk.Label == "" || tk.Value == 0 {
			continue
		}
		if math.Abs(tk.Value-last[side]) < span/(2*t.n) {
			ts[i].Label = ""
			continue
		}
		last[side] = tk.Value
	}
	return ts
}

// spectrumMarks draws the zero line, the eigenvalues and the λ_min label.
type spectrumMarks struct {
	s  Spectrum
	sc asinhScale
	th render.Theme
}

func (m *spectrumMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trU := p.Transforms(&c)
	trY := func(v float64) vg.Length { return trU(m.sc.f(v)) }
	th, vals := m.th, m.s.Values
	n, neg := len(vals), m.s.negatives()
	y0 := trY(0)
	colour := func(i int) int { return b2i(i < neg) } // palette slot: blue, or vermillion
	if n <= stemsUpTo {
		r := th.Pt(math.Max(2.5, 4.5-float64(n)/40))
		stem := th.Pt(math.Max(1, 2-float64(n)/60))
		for i, v := range vals {
			x := trX(float64(i + 1))
			c.StrokeLine2(draw.LineStyle{Color: render.ClassColor(colour(i)), Width: stem}, x, y0, x, trY(v))
		}
		c.StrokeLine2(draw.LineStyle{Color: render.Black, Width: th.Pt(1)}, c.Min.X, y0, c.Max.X, y0)
		for i, v := range vals {
			c.SetColor(render.ClassColor(colour(i)))
			c.Fill(render.Circle(vg.Point{X: trX(float64(i + 1)), Y: trY(v)}, r))
		}
	} else {
		for _, part := range [][2]int{{0, neg}, {neg, n}} {
			if part[1]-part[0] < 1 {
				continue
			}
			var line []vg.Point
			for i := part[0]; i < part[1]; i++ {
				line = append(line, vg.Point{X: trX(float64(i + 1)), Y: trY(vals[i])})
			}
			slot := colour(part[0])
			area := append([]vg.Point{{X: line[0].X, Y: y0}}, line...)
			c.FillPolygon(render.RegionTint(slot), append(area, vg.Point{X: line[len(line)-1].X, Y: y0}))
			c.StrokeLines(draw.LineStyle{Color: render.ClassColor(slot), Width: th.Pt(2)}, line)
		}
		c.StrokeLine2(draw.LineStyle{Color: render.Black, Width: th.Pt(1)}, c.Min.X, y0, c.Max.X, y0)
		if neg > 0 && neg <= 50 { // a few negatives would be a sliver: dot them
			for i := range neg {
				c.SetColor(render.Vermillion)
				c.Fill(render.Circle(vg.Point{X: trX(float64(i + 1)), Y: trY(vals[i])}, th.Pt(3)))
			}
		}
	}
	m.label(&c, trX, trY)
}

// label writes "λ_min = …" beside the smallest eigenvalue, at the first
// of a few spots above and below it that crosses no stem, dot or curve,
// with a leader line when it had to move away.
func (m *spectrumMarks) label(c *draw.Canvas, trX func(float64) vg.Length, trY func(float64) vg.Length) {
	th, vals := m.th, m.s.Values
	sty := th.Text(12, true, draw.XLeft, draw.YCenter)
	sty.Color = render.Darker(render.ClassColor(b2i(m.s.negatives() > 0)))
	txt := "λ_min = " + sig(vals[0], 2)
	dot := vg.Point{X: trX(1), Y: trY(vals[0])}
	box := sty.Rectangle(txt)
	h := box.Size().Y
	// What the label must not cross: each value's stem (or the area under
	// the curve) from 0, and the zero line.
	y0 := trY(0)
	blocked := func(r vg.Rectangle) bool {
		if !render.Within(r, c) || r.Min.Y < y0+th.Pt(2) && r.Max.Y > y0-th.Pt(2) {
			return true
		}
		for i, v := range vals {
			x := trX(float64(i + 1))
			if x < r.Min.X-th.Pt(5) || x > r.Max.X+th.Pt(5) {
				continue
			}
			lo, hi := min(y0, trY(v))-th.Pt(5), max(y0, trY(v))+th.Pt(5)
			if lo < r.Max.Y && hi > r.Min.Y {
				return true
			}
		}
		return false
	}
	at := dot.Add(vg.Point{X: th.Pt(9)})
	best := at
	for _, k := range []float64{0, -1, 1, -2, 2, -3, 3, -4, 4, -6, 6, -8, 8} {
		q := at.Add(vg.Point{Y: vg.Length(k) * h * 0.75})
		if !blocked(box.Add(q)) {
			best = q
			break
		}
	}
	if d := best.Sub(at); d.Y > h || d.Y < -h {
		c.StrokeLines(draw.LineStyle{Color: sty.Color, Width: th.Pt(1)}, []vg.Point{dot, best.Sub(vg.Point{X: th.Pt(2)})})
	}
	render.HaloText(c, sty, best, txt)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// negThumb is the legend swatch of a negative eigenvalue.
type negThumb struct{ th render.Theme }

func (t negThumb) Thumbnail(c *draw.Canvas) {
	c.SetColor(render.Vermillion)
	c.Fill(render.Circle(c.Center(), t.th.Pt(3.5)))
}
