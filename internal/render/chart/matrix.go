package chart

import (
	"fmt"
	"image"
	"io"
	"math"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Matrix is a heat map of a matrix over the data points, such as the Gram
// matrix Kᵢⱼ = K(xᵢ, xⱼ) of a kernel: row i, column j is the cell in row i
// from the top and column j from the left, as the matrix is written.
type Matrix struct {
	Title  string      // stating what is shown: "RBF Gram matrix, γ = 0.5"
	Name   string      // the SVG <title>; Title when empty
	Desc   string      // the SVG <desc>; a plain summary of the values when empty
	Label  string      // what the colours mean, above the colour bar: "K(xᵢ, xⱼ)"
	Values [][]float64 // rows, all of the same length
	// Scale sets the colours: −Scale is full vermillion, 0 white, +Scale
	// full blue. 0 means the largest |value|, so the ramp stays centred
	// on 0 and a sign is never hidden.
	Scale float64
}

// maxMatrixSide bounds a matrix's rows and columns: a million cells is a
// raster of several megabytes.
const maxMatrixSide = 1000

// MatrixSVG writes m as a square-celled heat map with a colour bar, of a
// zero size default of 600×500 px. The cells are one raster image, not a
// box each, so a 200×200 matrix costs tens of kilobytes, not megabytes;
// a small matrix's raster is scaled up by whole pixels so its cells stay
// sharp. Rows and columns are named x₁…xₙ when there are at most 20 and
// numbered otherwise.
//
// It returns ErrNoData for an empty matrix, ErrShape for ragged rows or a
// side over 1000, and ErrNotFinite for NaN or infinite values or Scale,
// before writing anything.
func MatrixSVG(w io.Writer, m Matrix, opt render.Options) error {
	if err := m.check(); err != nil {
		return err
	}
	rows, cols := len(m.Values), len(m.Values[0])
	fw, fh := opt.Size(render.DefaultSize, DefaultMatrixHeight)
	th := render.NewTheme(fw, fh).ForHall(opt)
	ramp := render.Ramp{Lo: -m.scale(), Hi: m.scale(), Strength: 1}

	p := plot.New()
	th.Style(p, "", "", 14, 12, 11)
	p.Title.Text = m.Title
	render.FitTitle(p, fw-th.Pt(8))
	p.X.Min, p.X.Max = 0, float64(cols)
	p.Y.Min, p.Y.Max = 0, float64(rows)
	names := max(rows, cols) <= namedBelow
	p.X.Tick.Marker = render.IndexTicks{N: cols, At0: 0.5, Step: 1, Names: names}
	p.Y.Tick.Marker = render.IndexTicks{N: rows, At0: float64(rows) - 0.5, Step: -1, Names: names}
	if !names {
		p.X.Label.Text, p.Y.Label.Text = "column j", "row i"
	}
	p.Add(&matrixCells{img: m.raster(ramp)})

	bar := &colourBar{ramp: ramp, label: m.Label, th: th}
	f := &render.Figure{W: fw, H: fh, Title: m.Name, Desc: m.Desc}
	if f.Title == "" {
		f.Title = m.Title
	}
	if f.Desc == "" {
		f.Desc = m.describe()
	}
	f.Draw = func(c draw.Canvas) {
		render.Paper(c)
		c = draw.Crop(c, th.Pt(4), -th.Pt(6)-bar.width(), th.Pt(4), -th.Pt(4))
		// Square cells: shrink the plot's canvas about its centre along
		// the longer side of its data area. The tick labels do not depend
		// on the canvas, so one measurement suffices.
		dc := p.DataCanvas(c)
		dw, dh := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
		want := float64(cols) / float64(rows)
		if float64(dw) > want*float64(dh) {
			cut := (dw - vg.Length(want)*dh) / 2
			c.Min.X += cut
			c.Max.X -= cut
		} else {
			cut := (dh - dw/vg.Length(want)) / 2
			c.Min.Y += cut
			c.Max.Y -= cut
		}
		p.Draw(c)
		dc = p.DataCanvas(c)
		bar.draw(c.Canvas, vg.Rectangle{Min: vg.Point{X: dc.Max.X + th.Pt(14), Y: dc.Min.Y},
			Max: vg.Point{X: dc.Max.X + th.Pt(14) + bar.barW(), Y: dc.Max.Y}})
	}
	return f.WriteSVG(w)
}

// DefaultMatrixHeight is MatrixSVG's default height in CSS pixels: a
// square heat map beside its colour bar, under a title.
const DefaultMatrixHeight = 500

func (m Matrix) check() error {
	if len(m.Values) == 0 || len(m.Values[0]) == 0 {
		return fmt.Errorf("%w: the matrix is empty", render.ErrNoData)
	}
	cols := len(m.Values[0])
	if len(m.Values) > maxMatrixSide || cols > maxMatrixSide {
		return fmt.Errorf("%w: %d×%d matrix; at most %d on a side", render.ErrShape, len(m.Values), cols, maxMatrixSide)
	}
	for i, row := range m.Values {
		if len(row) != cols {
			return fmt.Errorf("%w: row %d has %d values, row 1 has %d", render.ErrShape, i+1, len(row), cols)
		}
		if err := render.Finite(row...); err != nil {
			return fmt.Errorf("row %d: %w", i+1, err)
		}
	}
	if err := render.Finite(m.Scale); err != nil {
		return fmt.Errorf("matrix scale: %w", err)
	}
	return nil
}

// scale is the value of full colour: Scale, or the largest |value|, or 1
// for a zero matrix.
func (m Matrix) scale() float64 {
	if m.Scale != 0 {
		return math.Abs(m.Scale)
	}
	s := 0.0
	for _, row := range m.Values {
		for _, v := range row {
			s = math.Max(s, math.Abs(v))
		}
	}
	if s == 0 {
		return 1
	}
	return s
}

func (m Matrix) describe() string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range m.Values {
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return fmt.Sprintf("A heat map of a %d×%d matrix%s, values from %s to %s: blue positive, vermillion negative, white 0.",
		len(m.Values), len(m.Values[0]), labelled(m.Label), coord(lo), coord(hi))
}

func labelled(label string) string {
	if label == "" {
		return ""
	}
	return " of " + label
}

// minRaster is the fewest pixels the longer side of a heat map's raster
// gets: a smaller matrix is scaled up by a whole factor, so that a viewer
// smoothing the image as it stretches it blurs only the cells' edges.
const minRaster = 200

// raster draws the matrix as an image, row 0 at the top, each cell k×k
// pixels.
func (m Matrix) raster(r render.Ramp) *image.RGBA {
	rows, cols := len(m.Values), len(m.Values[0])
	k := max(1, (minRaster+max(rows, cols)-1)/max(rows, cols))
	img := image.NewRGBA(image.Rect(0, 0, cols*k, rows*k))
	for i, row := range m.Values {
		for j, v := range row {
			c := r.RGBA(v)
			for y := i * k; y < (i+1)*k; y++ {
				for x := j * k; x < (j+1)*k; x++ {
					img.SetRGBA(x, y, c)
				}
			}
		}
	}
	return img
}

// matrixCells draws the heat map's raster over the whole data area.
type matrixCells struct{ img image.Image }

func (mc *matrixCells) Plot(c draw.Canvas, _ *plot.Plot) { c.DrawImage(c.Rectangle, mc.img) }

// colourBar is the legend of a heat map: the ramp from −scale (bottom) to
// +scale (top) with ticks and values on its right and the label above.
type colourBar struct {
	ramp  render.Ramp
	label string
	th    render.Theme
}

func (b *colourBar) barW() vg.Length { return b.th.Pt(14) }

// width is the room the bar needs right of the heat map: gap, bar, ticks
// and the widest value (or the label, if wider).
func (b *colourBar) width() vg.Length {
	sty := b.th.Text(11, false, draw.XLeft, draw.YCenter)
	w := vg.Length(0)
	for _, t := range b.ticks() {
		w = max(w, sty.Width(t.Label))
	}
	w = b.th.Pt(14) + b.barW() + b.th.Pt(6) + w
	lw := b.th.Text(12, false, draw.XLeft, draw.YBottom).Width(b.label)
	return max(w, b.th.Pt(14)+b.barW()/2+lw/2)
}

func (b *colourBar) ticks() []plot.Tick {
	var out []plot.Tick
	for _, t := range (render.NiceTicks{N: 4}).Ticks(b.ramp.Lo, b.ramp.Hi) {
		if t.Label != "" {
			out = append(out, t)
		}
	}
	return out
}

func (b *colourBar) draw(cv vg.Canvas, r vg.Rectangle) {
	c := draw.Canvas{Canvas: cv, Rectangle: r}
	const steps = 256
	img := image.NewRGBA(image.Rect(0, 0, 1, steps))
	for y := range steps {
		v := b.ramp.Hi - (b.ramp.Hi-b.ramp.Lo)*(float64(y)+0.5)/steps
		img.SetRGBA(0, y, b.ramp.RGBA(v))
	}
	c.DrawImage(r, img)
	frame := draw.LineStyle{Color: render.Black, Width: b.th.Pt(0.75)}
	c.StrokeLines(frame, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
	sty := b.th.Text(11, false, draw.XLeft, draw.YCenter)
	h := r.Max.Y - r.Min.Y
	for _, t := range b.ticks() {
		y := r.Min.Y + h*vg.Length((t.Value-b.ramp.Lo)/(b.ramp.Hi-b.ramp.Lo))
		c.StrokeLine2(frame, r.Max.X, y, r.Max.X+b.th.Pt(4), y)
		c.FillText(sty, vg.Point{X: r.Max.X + b.th.Pt(6), Y: y}, t.Label)
	}
	if b.label != "" {
		lab := b.th.Text(12, false, draw.XCenter, draw.YBottom)
		c.FillText(lab, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: r.Max.Y + b.th.Pt(6)}, b.label)
	}
}
