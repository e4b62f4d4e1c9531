package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Lift is data lifted into three dimensions by a feature map, such as
// ψ(x) = (x₁², x₁x₂, x₂²), where a plane w·z + b = 0 separates classes
// that no line separates in the plane: the picture behind the kernel trick.
type Lift struct {
	Title, Desc string       // Title states what is shown; Desc goes before the figure's own <desc>
	P           [][3]float64 // the lifted points
	Y           []int        // ±1, coloured as the data figure colours them (same markers: +1 blue disc, −1 vermillion square)
	Axes        [3]string    // axis names, e.g. "x₁²", "x₁x₂", "x₂²"
	Plane       *[4]float64  // w₁, w₂, w₃, b of w·z + b = 0, or nil
	// Azimuth turns the view about the vertical (third) axis and
	// Elevation tilts it, in degrees: Elevation 0 looks level, 90 from
	// above; Azimuth −60, Elevation 25 is a good first look.
	Azimuth, Elevation float64
}

// LiftSVG writes l as an orthographic view of the points' bounding box,
// padded by 8 % on every axis and scaled to a cube (so each axis reads
// alike whatever its units): three back walls with grid lines, a
// wireframe edge, the axes labelled with a few values, the points as the
// data figure draws them, painted far to near, and the plane clipped to
// the box as a translucent grey polygon with its outline. The points the
// plane hides from the viewer are drawn before it, so they show faded
// through it and depth reads. A legend above names the classes and the
// plane. A zero opt size means 600×600 px.
//
// It returns ErrNoData for no points, ErrShape for a Y of another length
// than P, a label other than ±1 or a plane with w = 0, and ErrNotFinite
// for a NaN or infinite coordinate, plane coefficient or angle, before
// writing anything.
func LiftSVG(w io.Writer, l Lift, opt render.Options) error {
	f, err := l.figure(opt)
	if err != nil {
		return err
	}
	return f.WriteSVG(w)
}

// LiftPNG writes LiftSVG's figure as a PNG of exactly Width×Height pixels.
func LiftPNG(w io.Writer, l Lift, opt render.Options) error {
	f, err := l.figure(opt)
	if err != nil {
		return err
	}
	return f.WritePNG(w)
}

func (l Lift) check() error {
	switch {
	case len(l.P) == 0:
		return fmt.Errorf("%w: a lift needs at least one point", render.ErrNoData)
	case len(l.Y) != len(l.P):
		return fmt.Errorf("%w: %d points, %d labels", render.ErrShape, len(l.P), len(l.Y))
	}
	for i, p := range l.P {
		if err := render.Finite(p[:]...); err != nil {
			return fmt.Errorf("point %d: %w", i, err)
		}
		if l.Y[i] != 1 && l.Y[i] != -1 {
			return fmt.Errorf("%w: point %d has label %d, want ±1", render.ErrShape, i, l.Y[i])
		}
	}
	if err := render.Finite(l.Azimuth, l.Elevation); err != nil {
		return fmt.Errorf("view angle: %w", err)
	}
	if pl := l.Plane; pl != nil {
		if err := render.Finite(pl[:]...); err != nil {
			return fmt.Errorf("plane: %w", err)
		}
		if pl[0] == 0 && pl[1] == 0 && pl[2] == 0 {
			return fmt.Errorf("%w: the plane has w = 0", render.ErrShape)
		}
	}
	return nil
}

// liftPad is the margin around the points, as a fraction of each axis's
// extent.
const liftPad = 0.08

// Plane colours: a neutral grey, translucent so the points behind show.
var (
	planeFill = color.NRGBA{0x60, 0x60, 0x60, 0x48}
	planeEdge = color.RGBA{0x40, 0x40, 0x40, 0xFF}
)

func (l Lift) figure(opt render.Options) (*render.Figure, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	fw, fh := opt.Size(render.DefaultSize, render.DefaultSize)
	th := render.NewTheme(fw, fh).ForHall(opt)
	ls := newLiftScene(l, th)

	p := plot.New()
	th.Style(p, "", "", 14, 13, 12)
	p.HideAxes()
	p.Title.Text = l.Title
	switch {
	case p.Title.Text != "":
	case l.Plane != nil:
		p.Title.Text = "the lifted points and the plane w·z + b = 0"
	default:
		p.Title.Text = "the lifted points"
	}
	render.FitTitle(p, fw-th.Pt(14))
	p.Add(ls)
	lg := &render.FlowLegend{Style: th.Text(12, false, draw.XLeft, draw.YCenter), ThumbW: th.Pt(20), Gap: th.Pt(14), Above: th.Pt(6)}
	for _, y := range []int{1, -1} {
		if slices.Contains(l.Y, y) {
			lg.Items = append(lg.Items, render.LegendItem{Label: render.ClassName(y, true), Thumbs: []plot.Thumbnailer{liftThumb{ls: ls, slot: render.SlotOf(y, true)}}})
		}
	}
	if l.Plane != nil {
		lg.Items = append(lg.Items, render.LegendItem{Label: "w·ψ(x) + b = 0", Thumbs: []plot.Thumbnailer{liftThumb{ls: ls, slot: -1}}})
	}
	p.Add(lg)

	f := &render.Figure{W: fw, H: fh, Title: p.Title.Text, Desc: l.describe(ls)}
	f.Draw = func(c draw.Canvas) {
		render.Paper(c)
		c = draw.Crop(c, th.Pt(6), -th.Pt(6), th.Pt(6), -th.Pt(4))
		base := p.Title.Padding
		for range 2 { // the legend's height depends on the data area's width
			dc := p.DataCanvas(c)
			p.Title.Padding = base + lg.Height(dc.Max.X-dc.Min.X)
		}
		p.Draw(c)
	}
	return f, nil
}

// describe is the <desc>: the view, the axes, the classes and what the
// plane does with them.
func (l Lift) describe(ls *liftScene) string {
	var d strings.Builder
	if l.Desc != "" {
		d.WriteString(strings.TrimSpace(l.Desc) + " ")
	}
	pos := 0
	for _, y := range l.Y {
		if y == 1 {
			pos++
		}
	}
	fmt.Fprintf(&d, "A three-dimensional view (azimuth %s°, elevation %s°) of %s: %d with y = +1 (blue discs) and %d with y = −1 (vermillion squares).",
		coord(l.Azimuth), coord(l.Elevation), plural(len(l.P), "point", "points"), pos, len(l.P)-pos)
	for k := range 3 {
		fmt.Fprintf(&d, " %s runs from %s to %s.", ls.axisName(k), coord(ls.lo[k]), coord(ls.hi[k]))
	}
	if pl := l.Plane; pl != nil {
		wrong := 0
		for i, z := range l.P {
			if float64(l.Y[i])*(pl[0]*z[0]+pl[1]*z[1]+pl[2]*z[2]+pl[3]) <= 0 {
				wrong++
			}
		}
		fmt.Fprintf(&d, " The plane w·z + b = 0 with w = %s, b = %s is drawn translucent grey",
			vector(pl[:3], coord), coord(pl[3]))
		if len(ls.poly) < 3 {
			d.WriteString(", but it does not cross the box.")
		} else {
			fmt.Fprintf(&d, "; %d points lie behind it, seen through it.", ls.behind)
		}
		if wrong == 0 {
			d.WriteString(" It separates the classes: every point with y = +1 has w·z + b > 0 and every point with y = −1 has w·z + b < 0.")
		} else {
			fmt.Fprintf(&d, " %s on the wrong side of it.", plural(wrong, "point lies", "points lie"))
		}
	}
	return d.String()
}

// liftScene is the lift laid out in the cube [−1, 1]³: the box scaled so
// every axis spans it, and the view's rotation.
type liftScene struct {
	l      Lift
	th     render.Theme
	lo, hi [3]float64 // the box in data units
	ca, sa float64    // cos and sin of the azimuth
	ce, se float64    // … and of the elevation
	u      [][3]float64
	poly   [][3]float64 // the plane inside the cube, in order around it
	cover  []bool       // point i is behind the plane, as seen
	behind int
	ptR    vg.Length
}

func newLiftScene(l Lift, th render.Theme) *liftScene {
	s := &liftScene{l: l, th: th, ptR: th.Pt(render.MarkerRadius(len(l.P)))}
	for k := range 3 {
		s.lo[k], s.hi[k] = math.Inf(1), math.Inf(-1)
		for _, p := range l.P {
			s.lo[k], s.hi[k] = math.Min(s.lo[k], p[k]), math.Max(s.hi[k], p[k])
		}
		if span := s.hi[k] - s.lo[k]; span > 0 {
			s.lo[k], s.hi[k] = s.lo[k]-liftPad*span, s.hi[k]+liftPad*span
		} else {
			s.lo[k], s.hi[k] = s.lo[k]-1, s.hi[k]+1
		}
	}
	az, el := l.Azimuth*math.Pi/180, l.Elevation*math.Pi/180
	s.ca, s.sa, s.ce, s.se = math.Cos(az), math.Sin(az), math.Cos(el), math.Sin(el)
	for _, p := range l.P {
		s.u = append(s.u, s.cube(p))
	}
	s.cover = make([]bool, len(l.P))
	if l.Plane == nil {
		return s
	}
	w, b := s.plane()
	s.poly = planeInCube(w, b)
	eye := [3]float64{s.ce * s.ca, s.ce * s.sa, s.se}
	we := dot3(w, eye)
	for i, u := range s.u {
		g := dot3(w, u) + b
		if g*we >= 0 || len(s.poly) < 3 {
			continue
		}
		t := -g / we // the ray from the point to the viewer meets the plane here
		hit := true
		for k := range 3 {
			hit = hit && math.Abs(u[k]+t*eye[k]) <= 1
		}
		s.cover[i] = hit
		if hit {
			s.behind++
		}
	}
	return s
}

// cube maps a data point to the cube [−1, 1]³.
func (s *liftScene) cube(p [3]float64) [3]float64 {
	var u [3]float64
	for k := range 3 {
		u[k] = 2*(p[k]-s.lo[k])/(s.hi[k]-s.lo[k]) - 1
	}
	return u
}

// plane is the plane in cube coordinates: w·u + b = 0.
func (s *liftScene) plane() (w [3]float64, b float64) {
	pl := s.l.Plane
	b = pl[3]
	for k := range 3 {
		half := (s.hi[k] - s.lo[k]) / 2
		w[k] = pl[k] * half
		b += pl[k] * (s.lo[k] + half)
	}
	return w, b
}

// project returns where u appears, in cube units (x right, y up), and
// its depth (larger is nearer the viewer).
func (s *liftScene) project(u [3]float64) (x, y, depth float64) {
	h := u[0]*s.ca + u[1]*s.sa
	return -u[0]*s.sa + u[1]*s.ca, -s.se*h + s.ce*u[2], s.ce*h + s.se*u[2]
}

func (s *liftScene) axisName(k int) string {
	if s.l.Axes[k] != "" {
		return s.l.Axes[k]
	}
	return [3]string{"z₁", "z₂", "z₃"}[k]
}

func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// planeInCube returns the polygon where w·u + b = 0 meets the cube
// [−1, 1]³, its corners in order around it; fewer than three points when
// it misses the cube or only touches it.
func planeInCube(w [3]float64, b float64) [][3]float64 {
	var pts [][3]float64
	add := func(p [3]float64) {
		for _, q := range pts {
			if math.Abs(p[0]-q[0])+math.Abs(p[1]-q[1])+math.Abs(p[2]-q[2]) < 1e-12 {
				return
			}
		}
		pts = append(pts, p)
	}
	for _, e := range cubeEdges() {
		a, c := e[0], e[1]
		ga, gc := dot3(w, a)+b, dot3(w, c)+b
		switch {
		case ga == 0:
			add(a)
		case gc == 0:
			add(c)
		case ga*gc < 0:
			t := ga / (ga - gc)
			add([3]float64{a[0] + t*(c[0]-a[0]), a[1] + t*(c[1]-a[1]), a[2] + t*(c[2]-a[2])})
		}
	}
	if len(pts) < 3 {
		return pts
	}
	// Order by angle about the centroid, in a basis of the plane.
	var m [3]float64
	for _, p := range pts {
		for k := range 3 {
			m[k] += p[k] / float64(len(pts))
		}
	}
	e1 := cross3(w, [3]float64{1, 0, 0})
	if dot3(e1, e1) < 1e-6*dot3(w, w) {
		e1 = cross3(w, [3]float64{0, 1, 0})
	}
	e2 := cross3(w, e1)
	ang := func(p [3]float64) float64 {
		d := [3]float64{p[0] - m[0], p[1] - m[1], p[2] - m[2]}
		return math.Atan2(dot3(d, e2), dot3(d, e1))
	}
	slices.SortStableFunc(pts, func(p, q [3]float64) int { return cmp.Compare(ang(p), ang(q)) })
	return pts
}

func cross3(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// cubeCorner is corner k of the cube: bit j of k set means u_j = +1.
func cubeCorner(k int) [3]float64 {
	var u [3]float64
	for j := range 3 {
		u[j] = float64(2*(k>>j&1) - 1)
	}
	return u
}

// cubeEdges lists the cube's twelve edges, each from its −1 end, four
// along u₁, then four along u₂, then four along u₃.
func cubeEdges() [12][2][3]float64 {
	var es [12][2][3]float64
	n := 0
	for axis := range 3 {
		for k := range 8 {
			if k>>axis&1 == 0 {
				es[n] = [2][3]float64{cubeCorner(k), cubeCorner(k | 1<<axis)}
				n++
			}
		}
	}
	return es
}

// liftThumb is a legend swatch: a class's marker, or (slot −1) a patch
// of the plane.
type liftThumb struct {
	ls   *liftScene
	slot int
}

func (t liftThumb) Thumbnail(c *draw.Canvas) {
	ctr, h := c.Center(), (c.Max.Y-c.Min.Y)/2
	if t.slot >= 0 {
		drawMarker(c, t.ls.th, t.slot, ctr, min(t.ls.ptR, h), false)
		return
	}
	sq := []vg.Point{{X: ctr.X - h*1.3, Y: ctr.Y - h}, {X: ctr.X + h*1.3, Y: ctr.Y - h}, {X: ctr.X + h*1.3, Y: ctr.Y + h}, {X: ctr.X - h*1.3, Y: ctr.Y + h}}
	c.FillPolygon(planeFill, sq)
	c.StrokeLines(draw.LineStyle{Color: planeEdge, Width: t.ls.th.Pt(1.25)}, append(sq, sq[0]))
}

// drawMarker draws a marker of palette slot slot as the data figure draws
// its points (a white edge sets it off its neighbours), or
// faded, in a lighter tint of its colour, behind the plane.
func drawMarker(c *draw.Canvas, th render.Theme, slot int, at vg.Point, r vg.Length, faded bool) {
	path := render.MarkerPath(slot, at, r)
	col := render.ClassColor(slot)
	if faded {
		col = render.Tint(col, 0.6)
	}
	c.SetColor(col)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: render.White, Width: th.Pt(0.75)})
	c.Stroke(path)
}
