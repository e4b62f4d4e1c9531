package gd

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// sklearnScript fits the same objectives with numpy and scikit-learn:
// least squares by lstsq on [X 1] (λ = 0) and by Ridge(alpha = nλ) (λ > 0,
// whose objective ‖Xw + b − y‖² + nλ‖w‖² is n times ours), and logistic
// regression by LogisticRegression(C = 1/(nλ), solver newton-cg), whose objective
// C Σ log(1 + e^(−yz)) + ½‖w‖² is C·n times ours, with an unpenalised
// intercept and a tight tolerance.
const sklearnScript = `
import json, sys
import numpy as np
from sklearn.linear_model import Ridge, LogisticRegression
d = json.load(sys.stdin)
x, y, lam = np.array(d["x"]), np.array(d["y"]), d["lambda"]
n = len(y)
if d["objective"] == "least-squares":
    if lam == 0:
        t = np.linalg.lstsq(np.hstack([x, np.ones((n, 1))]), y, rcond=None)[0]
    else:
        m = Ridge(alpha=n * lam, tol=1e-14, solver="cholesky").fit(x, y)
        t = np.append(m.coef_, m.intercept_)
else:
    m = LogisticRegression(C=1 / (n * lam), tol=1e-14, max_iter=100000, solver="newton-cg").fit(x, y)
    t = np.append(m.coef_[0], m.intercept_[0])
print(json.dumps(list(t)))
`

// TestSklearn compares the minimisers with scikit-learn's. It runs only
// with MARGIN_SKLEARN=1 and /usr/bin/python3 with scikit-learn installed.
func TestSklearn(t *testing.T) {
	if os.Getenv("MARGIN_SKLEARN") != "1" {
		t.Skip("set MARGIN_SKLEARN=1 to compare with scikit-learn")
	}
	lx, ly := line(80, 21)
	bx, by := blobs(80, 0.7, 22)
	for _, c := range []struct {
		obj    string
		x      [][]float64
		y      []float64
		lambda float64
	}{
		{"least-squares", lx, ly, 0},
		{"least-squares", lx, ly, 0.05},
		{"logistic", bx, by, 0.01},
		{"logistic", bx, by, 0.3},
	} {
		var f Minimiser
		if c.obj == "logistic" {
			f = mustLogistic(t, c.x, c.y, c.lambda)
		} else {
			f = mustLS(t, c.x, c.y, c.lambda)
		}
		ours, _, err := f.Minimiser()
		if err != nil {
			t.Fatal(err)
		}
		in, _ := json.Marshal(map[string]any{"objective": c.obj, "x": c.x, "y": c.y, "lambda": c.lambda})
		cmd := exec.Command("/usr/bin/python3", "-c", sklearnScript)
		cmd.Stdin = strings.NewReader(string(in))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python: %v", err)
		}
		var theirs []float64
		if err := json.Unmarshal(out, &theirs); err != nil {
			t.Fatal(err)
		}
		var diff float64
		for i := range ours {
			diff = math.Max(diff, math.Abs(ours[i]-theirs[i]))
		}
		t.Logf("%s λ = %v: θ* = %v, scikit-learn %v, max |Δ| = %.2g", c.obj, c.lambda, ours, theirs, diff)
		if diff > 1e-9 {
			t.Errorf("%s λ = %v: max |Δθ*| = %.2g", c.obj, c.lambda, diff)
		}
	}
}
