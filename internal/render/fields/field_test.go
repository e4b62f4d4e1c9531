package fields

import (
	"bytes"
	"errors"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
)

func sameVecs(a, b []render.Vec) bool {
	const tol = 1e-12
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].X-b[i].X) > tol || math.Abs(a[i].Y-b[i].Y) > tol {
			return false
		}
	}
	return true
}

func bowl(x1, x2 float64) float64 { return x1*x1 + x2*x2 - 1 }

// TestContourCircle: the level set of x₁² + x₂² − 1 is the unit circle;
// linear interpolation along a grid edge of length h misplaces a point by
// at most about h²/8 on it.
func TestContourCircle(t *testing.T) {
	for _, n := range []int{8, 40, 121} {
		g := sample(bowl, render.View{-2, 2, -2, 2}, n, n)
		lines := g.contour(0)
		if len(lines) != 1 {
			t.Fatalf("n = %d: %d polylines, want one closed circle", n, len(lines))
		}
		line := lines[0]
		if line[0] != line[len(line)-1] {
			t.Errorf("n = %d: the circle is not closed: starts %v, ends %v", n, line[0], line[len(line)-1])
		}
		h := 4.0 / float64(n)
		turn := 0.0
		for i, p := range line {
			if r := math.Hypot(p.X, p.Y); math.Abs(r-1) > h*h/4 {
				t.Errorf("n = %d: point %d = %v has radius %v, want 1 ± %v", n, i, p, r, h*h/4)
			}
			if i > 0 {
				q := line[i-1]
				turn += math.Remainder(math.Atan2(p.Y, p.X)-math.Atan2(q.Y, q.X), 2*math.Pi)
			}
		}
		if math.Abs(math.Abs(turn)-2*math.Pi) > 1e-9 {
			t.Errorf("n = %d: the polyline turns %v rad about the origin, want ±2π", n, turn)
		}
	}
}

// TestContourOpen: a straight level line crosses the grid as one polyline
// from edge to edge, every point on the line, in order along it.
func TestContourOpen(t *testing.T) {
	g := sample(func(x1, x2 float64) float64 { return x1 - 0.3*x2 }, render.View{-1, 1, -1, 1}, 10, 10)
	lines := g.contour(0.05)
	if len(lines) != 1 {
		t.Fatalf("contour of a line = %v, want one polyline", lines)
	}
	l := lines[0]
	if l[0].Y > l[len(l)-1].Y {
		slices.Reverse(l)
	}
	if l[0].Y != -1 || l[len(l)-1].Y != 1 {
		t.Errorf("polyline runs from %v to %v, want from x₂ = −1 to x₂ = 1", l[0], l[len(l)-1])
	}
	for i, p := range l {
		if math.Abs(p.X-0.3*p.Y-0.05) > 1e-12 {
			t.Errorf("point %d = %v is off the line x₁ − 0.3 x₂ = 0.05", i, p)
		}
		if i > 0 && !(p.Y > l[i-1].Y) {
			t.Errorf("points %d and %d are out of order: %v, %v", i-1, i, l[i-1], p)
		}
	}
}

// TestContourSaddle: in a cell whose diagonal corners are high, the mean
// of the corners decides which pair of corners the lines cut off.
func TestContourSaddle(t *testing.T) {
	// One cell over [−1, 1]²: f = x₁x₂ + c is 1 + c at the bottom-left and
	// top-right corners, −1 + c at the others, c at the centre.
	tests := []struct {
		name    string
		c       float64
		cutHigh bool // the lines cut off the high corners (bottom-left, top-right)
	}{
		{"centre above the level joins the high corners", 0.2, false},
		{"centre on the level joins the high corners", 0, false},
		{"centre below the level separates them", -0.2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sample(func(x1, x2 float64) float64 { return x1*x2 + tt.c }, render.View{-1, 1, -1, 1}, 1, 1)
			lines := g.contour(0)
			if len(lines) != 2 {
				t.Fatalf("%d polylines, want 2", len(lines))
			}
			// Each piece cuts off one corner; its midpoint lies nearest it.
			var corners []render.Vec
			for _, l := range lines {
				m := l[0].Lerp(l[1], 0.5)
				corners = append(corners, render.Vec{math.Copysign(1, m.X), math.Copysign(1, m.Y)})
			}
			want := []render.Vec{{1, -1}, {-1, 1}} // the low corners
			if tt.cutHigh {
				want = []render.Vec{{-1, -1}, {1, 1}}
			}
			if !sameVecs(corners, want) {
				t.Errorf("pieces cut off corners %v, want %v", corners, want)
			}
			again := sample(func(x1, x2 float64) float64 { return x1*x2 + tt.c }, render.View{-1, 1, -1, 1}, 1, 1).contour(0)
			for i := range lines {
				if !sameVecs(lines[i], again[i]) {
					t.Errorf("second run gave %v, first %v", again, lines)
				}
			}
		})
	}
}

// TestContourJoinsEveryPiece: on a wavy field with many curves, the
// polylines use every marching-squares piece exactly once, and each step
// along them stays within one grid cell.
func TestContourJoinsEveryPiece(t *testing.T) {
	f := func(x1, x2 float64) float64 { return math.Sin(3*x1) + math.Cos(2*x2+x1*x2) }
	g := sample(f, render.View{-3, 3, -2, 2}, 60, 40)
	hx, hy := 6.0/60, 4.0/40
	for _, level := range []float64{-1, 0, 0.5, 1.5} {
		pieces := 0
		for j := 0; j < g.ny; j++ {
			for i := 0; i < g.nx; i++ {
				cs := 0
				for k, v := range [4]float64{g.at(i, j), g.at(i+1, j), g.at(i+1, j+1), g.at(i, j+1)} {
					if v >= level {
						cs |= 1 << k
					}
				}
				pieces += len(cellSegments[cs])
			}
		}
		drawn := 0
		for _, l := range g.contour(level) {
			drawn += len(l) - 1
			for i := 1; i < len(l); i++ {
				if math.Abs(l[i].X-l[i-1].X) > hx+1e-12 || math.Abs(l[i].Y-l[i-1].Y) > hy+1e-12 {
					t.Errorf("level %v: step from %v to %v leaves a cell", level, l[i-1], l[i])
				}
			}
		}
		if drawn != pieces {
			t.Errorf("level %v: polylines have %d segments, marching squares made %d pieces", level, drawn, pieces)
		}
	}
}

// TestContourMissing: where f is NaN or infinite there are no lines and
// nothing panics; the rest of the curve is still drawn.
func TestContourMissing(t *testing.T) {
	f := func(x1, x2 float64) float64 {
		switch {
		case x1 < -0.5:
			return math.NaN()
		case x1 > 0.5:
			return math.Inf(1)
		}
		return bowl(x1, x2)
	}
	g := sample(f, render.View{-2, 2, -2, 2}, 40, 40)
	lines := g.contour(0)
	if len(lines) != 2 {
		t.Errorf("%d polylines, want 2 arcs (top and bottom of the circle)", len(lines))
	}
	for _, l := range lines {
		for _, p := range l {
			if p.X < -0.5 || p.X > 0.5 {
				t.Errorf("point %v lies where f is missing", p)
			}
		}
	}
	img := g.raster(render.SignTint)
	if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
		t.Errorf("raster where f is NaN has alpha %d, want transparent", a)
	}
	if _, _, _, a := img.At(20, 20).RGBA(); a == 0 {
		t.Errorf("raster where f is defined is transparent")
	}
}

func TestCells(t *testing.T) {
	tests := []struct {
		res    int
		w, h   vg.Length
		nx, ny int
	}{
		{0, 400, 400, DefaultFieldRes, DefaultFieldRes},
		{100, 400, 200, 100, 50},
		{100, 200, 400, 50, 100},
		{10000, 300, 300, MaxFieldRes, MaxFieldRes},
		{100, 1000, 1, 100, 1},
		{100, 0, 0, 100, 100},
	}
	for _, tt := range tests {
		if nx, ny := cells(tt.res, tt.w, tt.h); nx != tt.nx || ny != tt.ny {
			t.Errorf("cells(%d, %v, %v) = %d, %d, want %d, %d", tt.res, tt.w, tt.h, nx, ny, tt.nx, tt.ny)
		}
	}
}

// fieldSVG draws the golden Field case: the bowl x₁² + x₂² − 2 tinted by
// sign, its levels −1, 0, 1 as a margin classifier's, and a gradient
// descent path down it, on a small coarse grid.
func fieldSVG(t *testing.T) []byte {
	t.Helper()
	fl, err := NewField(func(x1, x2 float64) float64 { return bowl(x1, x2) - 1 }, render.SignTint, MarginLevels()...)
	if err != nil {
		t.Fatal(err)
	}
	fl.Res = 24
	xs := [][2]float64{{-2.2, 1.5}}
	for range 6 {
		x := xs[len(xs)-1]
		xs = append(xs, [2]float64{0.6 * x[0], 0.6 * x[1]})
	}
	pa, err := render.NewPath(xs)
	if err != nil {
		t.Fatal(err)
	}
	w, h := render.Options{Width: 320, Height: 300}.Size(0, 0)
	th := render.NewTheme(w, h)
	p := plot.New()
	th.Style(p, "x₁", "x₂", 14, 14, 12)
	p.X.Tick.Marker = render.NiceTicks{N: 3, Equal: p}
	p.Y.Tick.Marker = render.NiceTicks{N: 3, Equal: p}
	p.Title.Text = "f(x) = x₁² + x₂² − 2"
	p.Add(fl, pa, render.Margins{Right: th.Pt(12), Top: th.Pt(4)})
	f := render.PlotFigure(p, w, h, render.View{-2.5, 2.5, -2.5, 2.5}, "Field", "Circles of radius 1, √2 and √3.")
	var b bytes.Buffer
	if err := f.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestFieldGolden(t *testing.T) {
	a, b := fieldSVG(t), fieldSVG(t)
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of the same field differ")
	}
	if !bytes.Contains(a, []byte(`<image preserveAspectRatio="none" `)) {
		t.Error("the raster is not stretched to the data area")
	}
	goldentest.Check(t, "field_bowl", a)
}

// TestFieldDashesJoined: a dashed level is one path per curve, not one
// per grid cell, so its dash pattern runs on.
func TestFieldDashesJoined(t *testing.T) {
	svg := string(fieldSVG(t))
	if n := strings.Count(svg, "stroke-dasharray"); n > 4 {
		t.Errorf("%d dashed paths for two dashed circles, want one each (plus clipping)", n)
	}
}

func TestNewFieldErrors(t *testing.T) {
	if _, err := NewField(nil, render.SignTint); err == nil {
		t.Error("NewField(nil) = nil error")
	}
	if _, err := NewField(bowl, nil, Level{Value: math.NaN()}); !errors.Is(err, render.ErrNotFinite) {
		t.Errorf("NewField with a NaN level: error %v, want ErrNotFinite", err)
	}
	// A Field built by hand with no function draws nothing rather than
	// panicking.
	(&Field{}).Plot(draw.Canvas{}, plot.New())
}

func TestNewPathErrors(t *testing.T) {
	tests := []struct {
		name string
		xy   [][2]float64
		want error
	}{
		{"no iterates", nil, render.ErrNoData},
		{"diverged", [][2]float64{{0, 0}, {math.Inf(1), 0}}, render.ErrNotFinite},
		{"NaN", [][2]float64{{math.NaN(), 0}}, render.ErrNotFinite},
	}
	for _, tt := range tests {
		if _, err := render.NewPath(tt.xy); !errors.Is(err, tt.want) {
			t.Errorf("NewPath(%s) error = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestRamp(t *testing.T) {
	r := render.Ramp{Lo: -2, Mid: 0, Hi: 2, Strength: 1}
	tests := []struct {
		v    float64
		want color.RGBA
	}{
		{0, render.White}, {2, render.Blue}, {5, render.Blue}, {-2, render.Vermillion}, {-9, render.Vermillion},
		{1, render.Tint(render.Blue, 0.5)}, {math.NaN(), render.White},
	}
	for _, tt := range tests {
		if got := r.Color(tt.v); got != tt.want {
			t.Errorf("Ramp%+v.Color(%v) = %v, want %v", r, tt.v, got, tt.want)
		}
	}
	for _, v := range []float64{math.NaN(), -1, 2e6} {
		if got := render.ClassTint(v); got != nil {
			t.Errorf("ClassTint(%v) = %v, want nil (no fill)", v, got)
		}
	}
	if got := render.ClassTint(2.2); got != render.RegionTint(2) {
		t.Errorf("ClassTint(2.2) = %v, want class 2's tint", got)
	}
	if got := render.SignTint(0); got != render.RegionTint(1) {
		t.Errorf("SignTint(0) = %v, want class −1's tint (sgn(0) = −1)", got)
	}
}

// TestFieldGrid: a Field with Grid samples through it, at the nodes F
// would be called at, in one call, and never calls F; infinite values
// are missing, as F's are.
func TestFieldGrid(t *testing.T) {
	v := render.View{-2, 3, -1, 1.5}
	f := func(x1, x2 float64) float64 { return x1*x1 - 2*x2 + x1*x2 }
	calls := 0
	fill := func(xs, ys, z []float64) {
		calls++
		for j, y := range ys {
			for i, x := range xs {
				z[j*len(xs)+i] += f(x, y)
			}
		}
		z[0] = math.Inf(1)
	}
	want, got := sample(f, v, 7, 5), sampleGrid(fill, v, 7, 5)
	if calls != 1 {
		t.Errorf("Grid called %d times, want once", calls)
	}
	if !math.IsNaN(got.z[0]) {
		t.Errorf("an infinite value sampled as %v, want NaN (missing)", got.z[0])
	}
	for k := 1; k < len(want.z); k++ {
		if got.z[k] != want.z[k] {
			t.Errorf("node %d: Grid gives %v, F gives %v", k, got.z[k], want.z[k])
		}
	}
	fl, err := NewField(func(x1, x2 float64) float64 { t.Fatal("F called although Grid is set"); return 0 }, render.SignTint, MarginLevels()...)
	if err != nil {
		t.Fatal(err)
	}
	fl.Grid = fill
	p := plot.New()
	p.Add(fl)
	fig := render.PlotFigure(p, 300, 300, v, "t", "d")
	if err := fig.WriteSVG(io.Discard); err != nil {
		t.Fatal(err)
	}
}
