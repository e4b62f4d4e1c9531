package linreg

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestObjectiveAndMSE(t *testing.T) {
	x := [][]float64{{1, 0}, {0, 2}}
	y := []float64{1, 1}
	m := Model{W: []float64{1, 1}, B: 1}
	// residuals 1 + 1 − 1 = 1 and 2 + 1 − 1 = 2: MSE (1 + 4)/2 = 2.5;
	// λ‖w‖² = 0.5·2 = 1.
	if got := MSE(x, y, m); got != 2.5 {
		t.Errorf("MSE = %v, want 2.5", got)
	}
	if got := Objective(x, y, m, 0.5); got != 3.5 {
		t.Errorf("Objective = %v, want 3.5", got)
	}
	if got := m.Predict([]float64{1}); !math.IsNaN(got) {
		t.Errorf("Predict on a short row = %v, want NaN", got)
	}
}

func TestPoly(t *testing.T) {
	if got := Poly(2, 4); !floats.Equal(got, []float64{2, 4, 8, 16}) {
		t.Errorf("Poly(2, 4) = %v", got)
	}
	if got := Poly(3, 0); len(got) != 0 {
		t.Errorf("Poly(3, 0) = %v, want []", got)
	}
	rows := PolyRows([]float64{-1, 0.5}, 2)
	if len(rows) != 2 || !floats.Equal(rows[0], []float64{-1, 1}) || !floats.Equal(rows[1], []float64{0.5, 0.25}) {
		t.Errorf("PolyRows = %v", rows)
	}
}

// TestSingularValues checks Prop. 1.3.5: XᵀX + nλI has eigenvalues
// σᵢ² + nλ, the eigenvalues coming from gonum's symmetric solver.
func TestSingularValues(t *testing.T) {
	if got := SingularValues([][]float64{{3, 0}, {0, -4}, {0, 0}}); !floats.EqualApprox(got, []float64{4, 3}, 1e-14) {
		t.Errorf("SingularValues of diag(3, −4) = %v, want [4 3]", got)
	}
	x, _ := randomData(20, 4, 3)
	s := SingularValues(x)
	lambda, n := 0.2, 20.0
	var g mat.SymDense
	g.SymOuterK(1, dense(x).T())
	for j := range 4 {
		g.SetSym(j, j, g.At(j, j)+n*lambda)
	}
	var es mat.EigenSym
	if !es.Factorize(&g, false) {
		t.Fatal("eigen failed")
	}
	ev := es.Values(nil) // ascending
	for k := range s {
		if want := ev[len(ev)-1-k]; math.Abs(s[k]*s[k]+n*lambda-want) > 1e-10*want {
			t.Errorf("σ%d² + nλ = %v, eigenvalue %v", k+1, s[k]*s[k]+n*lambda, want)
		}
	}
	if SingularValues([][]float64{{1}, {1, 2}}) != nil {
		t.Error("SingularValues of ragged rows is not nil")
	}
}
