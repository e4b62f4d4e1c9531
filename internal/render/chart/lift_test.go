package chart

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// liftData is 60 points of the plane lifted by ψ(x) = (x₁², x₁x₂, x₂²),
// labelled by the side of the notes' plane w = (1, 3, 1), b = −3, that
// ψ(x) lies on, with the points within 0.4 of it left out for a margin.
func liftData(az, el float64) Lift {
	r := rand.New(rand.NewPCG(7, 11))
	l := Lift{
		Title:   "ψ(x) = (x₁², x₁x₂, x₂²): a plane separates the classes",
		Axes:    [3]string{"x₁²", "x₁x₂", "x₂²"},
		Plane:   &[4]float64{1, 3, 1, -3},
		Azimuth: az, Elevation: el,
	}
	for len(l.P) < 60 {
		x1, x2 := 4*r.Float64()-2, 4*r.Float64()-2
		x1, x2 = math.Round(100*x1)/100, math.Round(100*x2)/100
		z := [3]float64{x1 * x1, x1 * x2, x2 * x2}
		f := z[0] + 3*z[1] + z[2] - 3
		if math.Abs(f) < 0.4 {
			continue
		}
		l.P = append(l.P, z)
		l.Y = append(l.Y, sign(f))
	}
	return l
}

var liftCases = []struct {
	name   string
	az, el float64
}{
	{"front", -60, 25},
	{"edge_on", -12, 10},
}

func liftSVG(t *testing.T, l Lift, opt render.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := LiftSVG(&b, l, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestLiftGolden(t *testing.T) {
	for _, c := range liftCases {
		t.Run(c.name, func(t *testing.T) {
			l := liftData(c.az, c.el)
			a, b := liftSVG(t, l, render.Options{}), liftSVG(t, l, render.Options{})
			if !bytes.Equal(a, b) {
				t.Fatal("two renderings of one lift differ")
			}
			checkTextAlternative(t, string(a))
			checkGolden(t, "lift_"+c.name, a)
			if *look != "" {
				writeLiftLook(t, c.name, l)
			}
		})
	}
}

// writeLiftLook writes the lift as PNG at the page's 600 px and at 400 px.
func writeLiftLook(t *testing.T, name string, l Lift) {
	t.Helper()
	if err := os.MkdirAll(*look, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []render.Options{{}, {Width: 400, Height: 400}, {Width: 900, Height: 500}} {
		var b bytes.Buffer
		if err := LiftPNG(&b, l, opt); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(*look, fmt.Sprintf("lift_%s_%dx%d.png", name, opt.Width, opt.Height))
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLiftErrors(t *testing.T) {
	ok := func(f func(*Lift)) Lift {
		l := Lift{P: [][3]float64{{0, 0, 0}, {1, 1, 1}}, Y: []int{1, -1}, Plane: &[4]float64{1, 1, 1, -1.5}}
		f(&l)
		return l
	}
	nan := math.NaN()
	tests := []struct {
		name string
		l    Lift
		want error
	}{
		{"no points", Lift{}, render.ErrNoData},
		{"labels for other points", ok(func(l *Lift) { l.Y = []int{1} }), render.ErrShape},
		{"label 0", ok(func(l *Lift) { l.Y = []int{1, 0} }), render.ErrShape},
		{"plane with w = 0", ok(func(l *Lift) { l.Plane = &[4]float64{0, 0, 0, 1} }), render.ErrShape},
		{"NaN coordinate", ok(func(l *Lift) { l.P[1][2] = nan }), render.ErrNotFinite},
		{"infinite plane", ok(func(l *Lift) { l.Plane[3] = math.Inf(-1) }), render.ErrNotFinite},
		{"NaN azimuth", ok(func(l *Lift) { l.Azimuth = nan }), render.ErrNotFinite},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := LiftSVG(&b, tt.l, render.Options{}); !errors.Is(err, tt.want) {
			t.Errorf("LiftSVG(%s) error = %v, want %v", tt.name, err, tt.want)
		}
		if b.Len() != 0 {
			t.Errorf("LiftSVG(%s) wrote %d bytes before failing", tt.name, b.Len())
		}
	}
}

// TestLiftDesc: the text alternative states the view, the axes, the
// plane, and whether the plane separates the classes.
func TestLiftDesc(t *testing.T) {
	l := liftData(-60, 25)
	svg := string(liftSVG(t, l, render.Options{}))
	desc := svg[strings.Index(svg, "<desc>"):strings.Index(svg, "</desc>")]
	for _, want := range []string{"azimuth −60°, elevation 25°", "60 points", "x₁x₂ runs from",
		"w = (1, 3, 1), b = −3", "It separates the classes", "lie behind it, seen through it"} {
		if !strings.Contains(desc, want) {
			t.Errorf("desc = %q\nwant it to contain %q", desc, want)
		}
	}
	l.Y[0] = -l.Y[0]
	svg = string(liftSVG(t, l, render.Options{}))
	if !strings.Contains(svg, "1 point lies on the wrong side of it.") {
		t.Error("desc does not count the point on the wrong side")
	}
}

// TestLiftEdges draws lifts at the edges: one point, all points equal,
// a plane that misses the box, no plane, views from straight above and
// below, at sizes from a thumbnail to a slide; none may fail or write
// NaN.
func TestLiftEdges(t *testing.T) {
	tests := []struct {
		name string
		l    Lift
	}{
		{"one point", Lift{P: [][3]float64{{1, 2, 3}}, Y: []int{1}}},
		{"equal points", Lift{P: [][3]float64{{1, 1, 1}, {1, 1, 1}}, Y: []int{1, -1}, Plane: &[4]float64{1, 0, 0, -1}}},
		{"plane misses the box", Lift{P: [][3]float64{{0, 0, 0}, {1, 1, 1}}, Y: []int{1, -1}, Plane: &[4]float64{1, 1, 1, 100}}},
		{"from above", func() Lift { l := liftData(0, 90); return l }()},
		{"from below", func() Lift { l := liftData(180, -90); l.Plane = nil; return l }()},
		{"upside down", liftData(400, 135)},
	}
	for _, tt := range tests {
		for _, opt := range []render.Options{{Width: 200, Height: 200}, {}, {Width: 1600, Height: 900}} {
			svg := string(liftSVG(t, tt.l, opt))
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("%s at %+v: the SVG has NaN or Inf", tt.name, opt)
			}
			checkTextAlternative(t, svg)
		}
		if err := LiftPNG(io.Discard, tt.l, render.Options{Width: 300, Height: 300}); err != nil {
			t.Errorf("%s: LiftPNG: %v", tt.name, err)
		}
	}
}

func TestPlaneInCube(t *testing.T) {
	tests := []struct {
		name string
		w    [3]float64
		b    float64
		n    int // corners of the polygon
	}{
		{"u₃ = 0: a square", [3]float64{0, 0, 1}, 0, 4},
		{"u₁ + u₂ + u₃ = 0: a hexagon", [3]float64{1, 1, 1}, 0, 6},
		{"cutting one corner: a triangle", [3]float64{1, 1, 1}, -2.5, 3},
		{"missing the cube", [3]float64{1, 1, 1}, -4, 0},
		{"through a face: the face", [3]float64{1, 0, 0}, -1, 4},
	}
	for _, tt := range tests {
		poly := planeInCube(tt.w, tt.b)
		if len(poly) != tt.n && !(tt.n == 0 && len(poly) < 3) {
			t.Errorf("planeInCube(%s) = %v, want %d corners", tt.name, poly, tt.n)
			continue
		}
		// In order around the polygon: consecutive corners share a face
		// of the cube.
		for i, p := range poly {
			q := poly[(i+1)%len(poly)]
			shared := false
			for k := range 3 {
				shared = shared || math.Abs(math.Abs(p[k])-1) < 1e-12 && p[k] == q[k]
			}
			if len(poly) >= 3 && !shared {
				t.Errorf("planeInCube(%s): corners %v and %v are not on a common face", tt.name, p, q)
			}
			if g := dot3(tt.w, p) + tt.b; math.Abs(g) > 1e-12 {
				t.Errorf("planeInCube(%s): corner %v is off the plane by %v", tt.name, p, g)
			}
		}
	}
}

// TestLiftCover: a point is drawn faded exactly when the plane hides it:
// seen from above, the points under the plane u₃ = 0 are hidden, those
// over it are not.
func TestLiftCover(t *testing.T) {
	l := Lift{P: [][3]float64{{0, 0, -1}, {0, 0, 1}, {1, 1, -1}, {-1, -1, 1}}, Y: []int{1, -1, 1, -1},
		Plane: &[4]float64{0, 0, 1, 0}, Elevation: 90}
	s := newLiftScene(l, render.NewTheme(450, 450))
	want := []bool{true, false, true, false}
	for i := range want {
		if s.cover[i] != want[i] {
			t.Errorf("point %v: hidden = %v, want %v", l.P[i], s.cover[i], want[i])
		}
	}
	l.Elevation = -90 // from below: the other way round
	s = newLiftScene(l, render.NewTheme(450, 450))
	for i := range want {
		if s.cover[i] == want[i] {
			t.Errorf("seen from below, point %v: hidden = %v, want %v", l.P[i], s.cover[i], !want[i])
		}
	}
}
