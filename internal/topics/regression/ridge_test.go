package regression

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestRidgeDemo: the notes' example gives w = (−2/ε, 1), and ridge equals
// its closed form (XᵀX + nλI)⁻¹Xᵀy solved apart, and its augmented-data
// least squares (Remark 1.3.6).
func TestRidgeDemo(t *testing.T) {
	for _, eps := range []float64{1, 1e-3, 1e-6} {
		x, y := epsProblem(eps)
		m, err := linreg.Fit(x, y, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.W[0]+2/eps) > 1e-9*2/eps || math.Abs(m.W[1]-1) > 1e-9 {
			t.Errorf("ε = %g: w = %v, want (%g, 1)", eps, m.W, -2/eps)
		}
	}
	const eps, lambda = 1e-3, 0.05
	x, y := epsProblem(eps)
	a := mat.NewDense(2, 2, []float64{0, 1, eps, 1})
	var ata mat.Dense
	ata.Mul(a.T(), a)
	for i := 0; i < 2; i++ {
		ata.Set(i, i, ata.At(i, i)+2*lambda)
	}
	var aty, want mat.Dense
	aty.Mul(a.T(), mat.NewDense(2, 1, y))
	if err := want.Solve(&ata, &aty); err != nil {
		t.Fatal(err)
	}
	r := demotest.Run(t, RidgeSpec(), "eps=0.001&lambda=0.05")
	p := r.Panel()
	m, _ := linreg.Fit(x, y, lambda, false)
	for i := range 2 {
		if math.Abs(m.W[i]-want.At(i, 0)) > 1e-9 {
			t.Errorf("ridge w[%d] = %v, closed form %v", i, m.W[i], want.At(i, 0))
		}
	}
	if demotest.Counter(p, "w-ridge") != textfmt.Vec(m.W) || demotest.Note(p, "augment") == nil || demotest.Note(p, "ridge") == nil {
		t.Errorf("panel: ridge w %q (want %q), notes %v", demotest.Counter(p, "w-ridge"), textfmt.Vec(m.W), p.Notes)
	}
	if demotest.Counter(p, "formula") != demotest.Counter(p, "w-ls")[1:len(textfmt.Sig(-2/eps))+1] {
		t.Errorf("panel: −2/ε = %s but least squares w = %s", demotest.Counter(p, "formula"), demotest.Counter(p, "w-ls"))
	}
	if rows := p.Tables[0].Rows; demotest.ParseSig(t, rows[1][3]) < 2*lambda {
		t.Errorf("σ₂² + nλ = %s, below nλ = %v", rows[1][3], 2*lambda)
	}
}

// TestRidgeConditionNote: the note calls the columns of X nearly
// dependent only when σ₁/σ₂, computed apart from the SVD of the 2×2
// matrix, is large, and says X is well conditioned otherwise (at ε = 1,
// σ₁/σ₂ = 2.618, it used to call them nearly dependent too).
func TestRidgeConditionNote(t *testing.T) {
	for _, c := range []struct {
		q    string
		near bool
	}{{"eps=1", false}, {"eps=0.5", false}, {"eps=1&lambda=1", false}, {"", true}, {"eps=0.01&lambda=0.01", true}, {"eps=0.000001", true}} {
		p := demotest.Run(t, RidgeSpec(), c.q).Panel()
		n := demotest.Note(p, "condition")
		if n == nil {
			t.Fatalf("%q: no condition note", c.q)
		}
		// σ₁² and σ₂² are the eigenvalues of XXᵀ = [[ε², ε], [ε, 2]].
		eps := ridgeEps.Get(demotest.MustParse(t, mustDemo(t, RidgeSpec()), c.q))
		tr, det := eps*eps+2, eps*eps
		s1 := (tr + math.Sqrt(tr*tr-4*det)) / 2
		ratio := math.Sqrt(s1 / (det / s1))
		if got := demotest.ParseSig(t, strings.TrimRight(strings.Fields(n.Text)[2], ":,")); math.Abs(got-ratio) > 1e-3*ratio {
			t.Errorf("%q: note prints σ₁/σ₂ = %v, the eigenvalues of XXᵀ give %v", c.q, got, ratio)
		}
		if said := strings.Contains(n.Text, "nearly dependent") && !strings.Contains(n.Text, "not nearly dependent"); said != c.near || (ratio >= illConditioned) != c.near {
			t.Errorf("%q: σ₁/σ₂ = %.4g, note %q", c.q, ratio, n.Text)
		}
	}
}

// TestRidgeNormBound: ridge's ‖w‖ stays under ‖y‖/(2√(nλ)) at every ε,
// and at ε = 0.2, λ = 0.01 the counter shows it just under, 4.9997, not
// "5", the bound itself.
func TestRidgeNormBound(t *testing.T) {
	for _, eps := range []string{"1", "0.2", "0.1", "0.01", "0.000001"} {
		p := demotest.Run(t, RidgeSpec(), "lambda=0.01&eps="+eps).Panel()
		norm, n := demotest.ParseSig(t, demotest.Counter(p, "norm-ridge")), demotest.Note(p, "bound")
		if n == nil || norm > 5 || !strings.Contains(n.Text, "= 5,") {
			t.Errorf("ε = %s: ‖w‖ = %v, note %v", eps, norm, n)
		}
	}
	if got := demotest.Counter(demotest.Run(t, RidgeSpec(), "eps=0.2&lambda=0.01").Panel(), "norm-ridge"); got != "4.9997" {
		t.Errorf("ε = 0.2, λ = 0.01: ‖w‖ printed %q, want 4.9997", got)
	}
}
