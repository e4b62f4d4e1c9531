package svm

import (
	"bytes"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestKernelMapIdentity checks the kernel trick the demo prints on the
// notes' two points and on others: both sides computed apart agree.
func TestKernelMapIdentity(t *testing.T) {
	for _, q := range []string{"", "x1=-2.5&x2=0.3&z1=7&z2=-9.9", "x1=0&x2=0&z1=0&z2=0"} {
		p := demotest.Run(t, KernelMapSpec(), q).Panel()
		k, _ := strconv.ParseFloat(strings.Replace(demotest.Counter(p, "kernel"), "−", "-", 1), 64)
		f, _ := strconv.ParseFloat(strings.Replace(demotest.Counter(p, "features"), "−", "-", 1), 64)
		if k != f {
			t.Errorf("%q: (⟨x, z⟩ + 1)² printed %s, ⟨φ(x), φ(z)⟩ %s", q, demotest.Counter(p, "kernel"), demotest.Counter(p, "features"))
		}
	}
	p := demotest.Run(t, KernelMapSpec(), "").Panel()
	if demotest.Counter(p, "kernel") != "4" || demotest.Counter(p, "score-x") != "8" {
		t.Errorf("x = (1, 2), z = (3, −1): k = %s (want (1 + 1)² = 4), w·ψ(x) + b = %s (want 1 + 6 + 4 − 3 = 8)",
			demotest.Counter(p, "kernel"), demotest.Counter(p, "score-x"))
	}
	rem := p.Tables[0].Rows
	if rem[0][3] != rem[1][3] || rem[0][3] != rem[2][3] || rem[2][3] != "1" {
		t.Errorf("Remark 1.7.5's two maps give %s and %s, ⟨x, z⟩² = %s; want all 1", rem[0][3], rem[1][3], rem[2][3])
	}
}

// TestPsiPointsLabels checks the lifted set is labelled by 001's plane.
func TestPsiPointsLabels(t *testing.T) {
	r := demotest.Run(t, KernelMapSpec(), "n=200&seed=7")
	pos := 0
	for _, p := range r.Points {
		if (PsiScore(p.X1, p.X2) > 0) != (p.Y > 0) {
			t.Fatalf("point %v is labelled against the curve", p)
		}
		if p.Y > 0 {
			pos++
		}
	}
	if pos == 0 || pos == len(r.Points) {
		t.Errorf("%d of %d points are +1: want both classes", pos, len(r.Points))
	}
}

// rat parses a number as the panels print it ("−0.3", "40401") exactly.
func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(strings.Trim(strings.ReplaceAll(s, "−", "-"), "()"))
	if !ok {
		t.Fatalf("%q is not a number", s)
	}
	return r
}

// TestKernelMapArithmeticAsPrinted reads the kernel check's numbers as
// the panel prints them and redoes its arithmetic exactly: ⟨x, z⟩ from the
// four coordinates, (⟨x, z⟩ + 1)² from ⟨x, z⟩, ⟨φ(x), φ(z)⟩ as the sum of
// its seven terms, and the two sides equal. (10, 10)·(10, 10) printed
// (200 + 1)² = 40400 while claiming the identity; the lead's textfmt will
// print exact integers exactly everywhere, and exact in kernel_map.go does
// it here until then.
func TestKernelMapArithmeticAsPrinted(t *testing.T) {
	num := `(\(?−?[0-9.]+\)?)`
	dotLine := regexp.MustCompile(`^⟨x, z⟩ = ` + num + `·` + num + ` \+ ` + num + `·` + num + ` = ` + num + `$`)
	kLine := regexp.MustCompile(`^k\(x, z\) = \(⟨x, z⟩ \+ 1\)² = \(` + num + ` \+ 1\)² = ` + num + `$`)
	term := regexp.MustCompile(`([+−]?) ?([0-9.]+)`)
	for _, q := range []string{"x1=10&x2=10&z1=10&z2=10", "", "x1=1.1&x2=2.3&z1=3.7&z2=-1.9",
		"x1=-2.5&x2=0.3&z1=7&z2=-9.9", "x1=0.1&x2=0.2&z1=0.3&z2=0.4", "x1=-10&x2=9.9&z1=-9.7&z2=10"} {
		p := demotest.Run(t, KernelMapSpec(), q).Panel()
		m := dotLine.FindStringSubmatch(p.Lines[0])
		if m == nil {
			t.Fatalf("%q: line %q", q, p.Lines[0])
		}
		ip := new(big.Rat).Add(new(big.Rat).Mul(rat(t, m[1]), rat(t, m[2])), new(big.Rat).Mul(rat(t, m[3]), rat(t, m[4])))
		if ip.Cmp(rat(t, m[5])) != 0 {
			t.Errorf("%q: %s, but the products sum to %s", q, p.Lines[0], ip.FloatString(6))
		}
		k := kLine.FindStringSubmatch(p.Lines[1])
		if k == nil {
			t.Fatalf("%q: line %q", q, p.Lines[1])
		}
		sq := new(big.Rat).Add(rat(t, k[1]), big.NewRat(1, 1))
		sq.Mul(sq, sq)
		if rat(t, k[1]).Cmp(rat(t, m[5])) != 0 || sq.Cmp(rat(t, k[2])) != 0 {
			t.Errorf("%q: %s after ⟨x, z⟩ = %s; (⟨x, z⟩ + 1)² is %s", q, p.Lines[1], m[5], sq.FloatString(6))
		}
		lhs, rhs, ok := strings.Cut(strings.TrimPrefix(p.Lines[4], "⟨φ(x), φ(z)⟩ = "), " = ")
		if !ok {
			t.Fatalf("%q: line %q", q, p.Lines[4])
		}
		sum, n := new(big.Rat), 0
		for _, tm := range term.FindAllStringSubmatch(lhs, -1) {
			v := rat(t, tm[2])
			if tm[1] == "−" {
				v.Neg(v)
			}
			sum.Add(sum, v)
			n++
		}
		if n != 7 || sum.Cmp(rat(t, rhs)) != 0 {
			t.Errorf("%q: %s: %d terms summing to %s", q, p.Lines[4], n, sum.FloatString(6))
		}
		if rhs != k[2] || demotest.Counter(p, "kernel") != k[2] || demotest.Counter(p, "features") != rhs || p.Status != "identity holds" {
			t.Errorf("%q: kernel %s (counter %s), features %s (counter %s), status %q: want one number and the identity",
				q, k[2], demotest.Counter(p, "kernel"), rhs, demotest.Counter(p, "features"), p.Status)
		}
	}
	if p := demotest.Run(t, KernelMapSpec(), "x1=10&x2=10&z1=10&z2=10").Panel(); demotest.Counter(p, "kernel") != "40401" {
		t.Errorf("(⟨x, z⟩ + 1)² at x = z = (10, 10) printed %s, want 201² = 40401", demotest.Counter(p, "kernel"))
	}
}

// TestKernelMapViewControls: the rotate and tilt the prose sends the
// reader to are controls of the demo's form, and they turn the lifted
// figure.
func TestKernelMapViewControls(t *testing.T) {
	d, err := demo.NewDemo(KernelMapSpec())
	if err != nil {
		t.Fatal(err)
	}
	s, _ := d.Parse(url.Values{})
	found := map[string]demo.Control{}
	for _, f := range d.Forms(s) {
		for _, c := range f.Controls {
			found[c.Key] = c
		}
	}
	for key, want := range map[string][2]string{"azim": {"-180", "180"}, "elev": {"-90", "90"}} {
		c, ok := found[key]
		if !ok || c.Min != want[0] || c.Max != want[1] || !strings.Contains(c.Label, map[string]string{"azim": "rotate", "elev": "tilt"}[key]) {
			t.Errorf("control %s = %+v (present %v), want a %s…%s input labelled as the prose names it", key, c, ok, want[0], want[1])
		}
	}
	lift := func(q string) string {
		var b bytes.Buffer
		if _, err := demotest.Run(t, KernelMapSpec(), q).WriteFigure(&b, "lift", false); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if def := lift(""); def == lift("azim=-10&elev=0") || def == lift("azim=60") {
		t.Error("changing azim and elev does not change the lifted figure")
	}
}

// TestKernelMapNames holds the demo to the notes' names (issue 27 §3):
// the lift is Cornwell's ψ(x) = (x₁², x₁x₂, x₂²), in the box, the panel
// title and the plot alike, never φ; the Remark 1.7.5 table names each
// row's map, φ into ℝ³ and the remark's ψ into ℝ⁴, and its columns hold
// that map at x and at z, recomputed here.
func TestKernelMapNames(t *testing.T) {
	for _, q := range []string{"", "x1=-2.5&x2=0.3&z1=7&z2=-9.9"} {
		r := demotest.Run(t, KernelMapSpec(), q)
		box := KernelMapSpec().Conventions.Procedure(r.State)
		if !strings.Contains(box, "lifted by ψ(x) = (x₁², x₁x₂, x₂²)") || strings.Contains(box, "lifted by φ") {
			t.Errorf("%q: box %q, want the points lifted by ψ(x) = (x₁², x₁x₂, x₂²)", q, box)
		}
		var lift bytes.Buffer
		if _, err := r.WriteFigure(&lift, "lift", false); err != nil {
			t.Fatal(err)
		}
		if s := lift.String(); !strings.Contains(s, "lifted by ψ(x) = (x₁², x₁x₂, x₂²)") || strings.Contains(s, "lifted by φ") {
			t.Errorf("%q: the lift panel does not name ψ", q)
		}
		v, _ := url.ParseQuery(q)
		get := func(k string, def float64) float64 {
			if v.Get(k) == "" {
				return def
			}
			f, _ := strconv.ParseFloat(v.Get(k), 64)
			return f
		}
		x1, x2, z1, z2 := get("x1", 1), get("x2", 2), get("z1", 3), get("z2", -1)
		tb := r.Panel().Tables[0]
		if tb.Head[1] != "at x" || tb.Head[2] != "at z" {
			t.Errorf("%q: table head %q, want the columns to be the row's map at x and at z", q, tb.Head)
		}
		rows := []struct {
			name string
			at   func(a, b float64) []float64
		}{
			{"φ(x) = (x₁², √2x₁x₂, x₂²)", func(a, b float64) []float64 { return []float64{a * a, math.Sqrt2 * a * b, b * b} }},
			{"ψ(x) = (x₁², x₁x₂, x₁x₂, x₂²)", func(a, b float64) []float64 { return []float64{a * a, a * b, a * b, b * b} }},
		}
		for i, row := range rows {
			got := tb.Rows[i]
			if got[0] != row.name {
				t.Errorf("%q: row %d map %q, want %q", q, i, got[0], row.name)
			}
			for j, p := range [][2]float64{{x1, x2}, {z1, z2}} {
				want := row.at(p[0], p[1])
				if n := len(strings.Split(got[1+j], ",")); n != len(want) {
					t.Errorf("%q: row %d column %d %q has %d entries, want %d", q, i, 1+j, got[1+j], n, len(want))
				}
				if c := textfmt.Vec(want); c != got[1+j] && exactVec(want) != got[1+j] {
					t.Errorf("%q: row %d column %d %q, want %s", q, i, 1+j, got[1+j], c)
				}
			}
		}
	}
}
