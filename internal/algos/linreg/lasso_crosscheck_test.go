package linreg

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lassoRequest is one problem of tools/crosscheck/lasso.py.
type lassoRequest struct {
	X     [][]float64 `json:"x"`
	Y     []float64   `json:"y"`
	Alpha float64     `json:"alpha"`
	Steps int         `json:"steps"`
}

// lassoAnswer is SolveLasso's answer to it.
type lassoAnswer struct {
	W      []float64 `json:"w"`
	B      float64   `json:"b"`
	Steps  int       `json:"steps"`
	Status string    `json:"status"`
}

// TestLassoCrosscheck serves tools/crosscheck/lasso.py (make
// crosscheck-lasso): with MARGIN_LASSO_CROSSCHECK set to a directory, it
// solves every request*.json there with SolveLasso into answer*.json (or
// error*.txt). Without it the test is skipped, so make test does not
// need scikit-learn.
func TestLassoCrosscheck(t *testing.T) {
	dir := os.Getenv("MARGIN_LASSO_CROSSCHECK")
	if dir == "" {
		t.Skip("set MARGIN_LASSO_CROSSCHECK to a directory of request*.json")
	}
	files, err := filepath.Glob(filepath.Join(dir, "request*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no request*.json in %s (%v)", dir, err)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "request"), ".json")
		var req lassoRequest
		name, out := "answer"+base+".json", []byte(nil)
		if err = json.Unmarshal(body, &req); err == nil {
			var m Model
			var s LassoState
			if m, s, err = SolveLasso(req.X, req.Y, req.Alpha, req.Steps); err == nil {
				out, err = json.Marshal(lassoAnswer{W: m.W, B: m.B, Steps: s.T, Status: s.Status.String()})
			}
		}
		if err != nil {
			name, out = "error"+base+".txt", []byte(err.Error())
		}
		if err := os.WriteFile(filepath.Join(dir, name), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
