package chart

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/render"
)

func TestSampleIndices(t *testing.T) {
	tests := []struct {
		n, m      int
		wantLen   int
		wantFirst []int
	}{
		{5, 10, 5, []int{0, 1, 2}},
		{2000, 2000, 2000, []int{0, 1, 2}},
		{10001, 2000, 2000, []int{0, 5, 10}},
		{4001, 3, 3, []int{0, 2000, 4000}},
	}
	for _, tt := range tests {
		got := render.SampleIndices(tt.n, tt.m)
		if len(got) != tt.wantLen || !slices.Equal(got[:len(tt.wantFirst)], tt.wantFirst) || got[len(got)-1] != tt.n-1 {
			t.Errorf("sampleIndices(%d, %d) = %v…%v (len %d), want len %d starting %v and ending %d",
				tt.n, tt.m, got[:min(3, len(got))], got[len(got)-1], len(got), tt.wantLen, tt.wantFirst, tt.n-1)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Fatalf("sampleIndices(%d, %d) not increasing at %d: %v", tt.n, tt.m, i, got[i-1:i+1])
			}
		}
	}
}

func TestSteps(t *testing.T) {
	in := plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 1}, {X: 3, Y: 1}, {X: 4, Y: 1}, {X: 5, Y: 2}, {X: 6, Y: 2}}
	want := plotter.XYs{{X: 0, Y: 0}, {X: 2, Y: 1}, {X: 5, Y: 2}, {X: 6, Y: 2}}
	if got := steps(in); !slices.Equal(got, want) {
		t.Errorf("steps(%v) = %v, want %v", in, got, want)
	}
}

// perceptronHistory builds the perceptron lesson's history chart from the
// states of a run, as internal/lessons records it while stepping: the
// updates so far (a count) and the training error in %, computed at no
// more than 2000 states.
func perceptronHistory(pr *perceptron.Problem, states []perceptron.State) History {
	last := states[len(states)-1]
	t := make([]float64, len(states))
	upd := make([]float64, len(states))
	for i, s := range states {
		t[i], upd[i] = float64(s.T), float64(s.Mistakes)
	}
	idx := render.SampleIndices(len(states), 2000)
	et, errs := make([]float64, len(idx)), make([]float64, len(idx))
	for j, i := range idx {
		et[j], errs[j] = float64(states[i].T), 100*pr.TrainingError(states[i])
	}
	word, count := "updates", plural(last.Mistakes, "update", "updates")
	if pr.UpdatesAreMistakes() {
		word, count = "mistakes", plural(last.Mistakes, "mistake", "mistakes")
	}
	lastErr := strconv.FormatFloat(errs[len(errs)-1], 'f', 1, 64)
	title := fmt.Sprintf("after step %d: %s · training error %s %%", last.T, count, lastErr)
	return History{
		Title: title,
		Name:  "Perceptron history: " + title,
		Desc: fmt.Sprintf("Two panels against the iteration t from 0 to %d. Top: the cumulative number of %s, now %d. "+
			"Bottom: the training error in percent, now %s %%.", last.T, word, last.Mistakes, lastErr),
		XLabel: "iteration t",
		Now:    float64(last.T),
		Period: float64(len(pr.X)),
		Series: []Series{
			{Label: word, T: t, Y: upd, Integer: true},
			{Label: "error %", T: et, Y: errs},
		},
	}
}

// gapHistory is a chart of an SMO-like run: a count, a gap closing on a
// log axis and an objective joined by lines, with samples every 3 steps.
func gapHistory() History {
	var t, sv, gap, obj []float64
	for k := 0; k <= 90; k += 3 {
		t = append(t, float64(k))
		sv = append(sv, float64(min(k/10, 6)))
		gap = append(gap, 40*math.Pow(0.85, float64(k)))
		obj = append(obj, -2+2*math.Exp(-float64(k)/25))
	}
	gap[len(gap)-1] = 0 // converged: skipped on the log axis
	return History{
		Title:  "after step 91: 6 support vectors · gap < 10⁻⁵",
		Desc:   "Three panels against the iteration.",
		XLabel: "iteration t",
		Now:    91,
		Period: 20,
		Series: []Series{
			{Label: "support vectors", T: t, Y: sv, Integer: true},
			{Label: "duality gap", T: t, Y: gap, Log: true, Lines: true},
			{Label: "dual objective", T: t, Y: obj, Lines: true},
		},
	}
}

func TestHistoryGolden(t *testing.T) {
	var a, b bytes.Buffer
	for _, w := range []*bytes.Buffer{&a, &b} {
		if err := HistorySVG(w, gapHistory(), render.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two renderings of the same history differ")
	}
	checkTextAlternative(t, a.String())
	checkGolden(t, "history_gap", a.Bytes())
}

func TestHistoryErrors(t *testing.T) {
	ok := Series{Label: "y", T: []float64{0, 1}, Y: []float64{1, 2}}
	tests := []struct {
		name string
		h    History
		want error
	}{
		{"no series", History{Now: 1}, render.ErrNoData},
		{"four series", History{Now: 1, Series: []Series{ok, ok, ok, ok}}, render.ErrShape},
		{"T and Y differ in length", History{Series: []Series{{T: []float64{0, 1}, Y: []float64{1}}}}, render.ErrShape},
		{"T decreases", History{Series: []Series{{T: []float64{1, 0}, Y: []float64{1, 1}}}}, render.ErrShape},
		{"NaN value", History{Series: []Series{{T: []float64{0}, Y: []float64{math.NaN()}}}}, render.ErrNotFinite},
		{"infinite T", History{Series: []Series{{T: []float64{math.Inf(1)}, Y: []float64{0}}}}, render.ErrNotFinite},
		{"NaN Now", History{Now: math.NaN(), Series: []Series{ok}}, render.ErrNotFinite},
		{"infinite Period", History{Now: 1, Period: math.Inf(1), Series: []Series{ok}}, render.ErrNotFinite},
		{"negative Period", History{Now: 1, Period: -1, Series: []Series{ok}}, render.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := HistorySVG(&b, tt.h, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("HistorySVG error = %v, want %v", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes on error", b.Len())
			}
		})
	}
}

// TestHistoryOdd draws charts at the edges of what is valid; none may
// fail or panic.
func TestHistoryOdd(t *testing.T) {
	long := Series{Label: "long", T: make([]float64, 100_001), Y: make([]float64, 100_001), Lines: true}
	for i := range long.T {
		long.T[i], long.Y[i] = float64(i), math.Sin(float64(i))
	}
	tests := []struct {
		name string
		h    History
	}{
		{"empty series", History{Now: 5, Series: []Series{{Label: "nothing yet"}}}},
		{"log, no positive values", History{Now: 5, Series: []Series{{T: []float64{0, 5}, Y: []float64{0, -1}, Log: true}}}},
		{"log, one value", History{Now: 0, Series: []Series{{T: []float64{0}, Y: []float64{1e-300}, Log: true}}}},
		{"all negative", History{Now: 2, Series: []Series{{T: []float64{0, 1, 2}, Y: []float64{-3, -1, -2}}}}},
		{"huge values", History{Now: 1, Series: []Series{{T: []float64{0, 1}, Y: []float64{-1e300, 1e300}, Lines: true}}}},
		{"extreme values", History{Now: 1, Series: []Series{{T: []float64{0, 1}, Y: []float64{-math.MaxFloat64, math.MaxFloat64}}}}},
		{"extreme log values", History{Now: 1, Series: []Series{{T: []float64{0, 1}, Y: []float64{5e-324, math.MaxFloat64}, Log: true}}}},
		{"extreme t", History{Now: math.MaxFloat64, Period: 1, Series: []Series{{T: []float64{-math.MaxFloat64, 0}, Y: []float64{1, 2}}}}},
		{"negative t", History{Now: 0, Series: []Series{{T: []float64{-10, 0}, Y: []float64{1, 2}}}}},
		{"samples past Now", History{Now: 1, Series: []Series{{T: []float64{0, 5}, Y: []float64{1, 2}}}}},
		{"fractional t", History{Now: 0.35, Period: 0.1, Series: []Series{{T: []float64{0, 0.1, 0.25}, Y: []float64{3, 2, 1}}}}},
		{"many periods", History{Now: 1e6, Period: 1, Series: []Series{{T: []float64{0}, Y: []float64{1}}}}},
		{"100001 samples", History{Now: 100_000, Series: []Series{long}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 2000, Height: 300}} {
				var b bytes.Buffer
				if err := HistorySVG(&b, tt.h, opt); err != nil {
					t.Fatalf("%+v: %v", opt, err)
				}
				if b.Len() > 400<<10 {
					t.Errorf("%+v: %d bytes of SVG, want the cost bounded", opt, b.Len())
				}
			}
		})
	}
}

func TestSeriesThinned(t *testing.T) {
	n := 3*maxHistorySamples + 7
	s := Series{T: make([]float64, n), Y: make([]float64, n)}
	for i := range s.T {
		s.T[i], s.Y[i] = float64(i), float64(i%2) // a step at every sample
	}
	xy, err := s.points(float64(n + 10))
	if err != nil {
		t.Fatal(err)
	}
	if len(xy) > maxHistorySamples+1 {
		t.Errorf("%d samples drawn, want at most %d", len(xy), maxHistorySamples+1)
	}
	if xy[0].X != 0 || xy[len(xy)-1].X != float64(n+10) {
		t.Errorf("thinned curve runs from t = %v to %v, want 0 to Now = %d", xy[0].X, xy[len(xy)-1].X, n+10)
	}
}

func TestDecade(t *testing.T) {
	tests := []struct {
		k    int
		want string
	}{
		{0, "1"}, {1, "10"}, {3, "1000"}, {-1, "0.1"}, {-2, "0.01"},
		{-3, "10⁻³"}, {4, "10⁴"}, {-12, "10⁻¹²"},
	}
	for _, tt := range tests {
		if got := render.Decade(tt.k); got != tt.want {
			t.Errorf("decade(%d) = %q, want %q", tt.k, got, tt.want)
		}
	}
}

// TestHistoryCompare checks a panel's comparison curve: both curves are
// named in its legend, the axis covers the comparison's values too, and
// a bad comparison is reported as the series' own values are.
func TestHistoryCompare(t *testing.T) {
	dual := Series{Label: "−D(α)", T: []float64{0, 1, 2}, Y: []float64{0, 0.5, 0.9}, Lines: true,
		Compare: &Series{Label: "primal", T: []float64{0, 1, 2}, Y: []float64{7.5, 2, 1}, Lines: true}}
	var buf bytes.Buffer
	if err := HistorySVG(&buf, History{Title: "t", Now: 2, Series: []Series{dual}}, render.Options{}); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	for _, want := range []string{">−D(α)<", ">primal<", "stroke-dasharray"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// The y axis reaches the primal's 7.5: a tick at 6 or above is drawn.
	if !bytes.Contains(buf.Bytes(), []byte(">6<")) && !bytes.Contains(buf.Bytes(), []byte(">8<")) {
		t.Errorf("y axis does not reach the comparison's values; SVG has %d bytes", len(svg))
	}
	bad := dual
	bad.Compare = &Series{Label: "primal", T: []float64{0, 1}, Y: []float64{1, math.NaN()}}
	if err := HistorySVG(&buf, History{Now: 2, Series: []Series{bad}}, render.Options{}); !errors.Is(err, render.ErrNotFinite) {
		t.Errorf("NaN in a comparison: error %v, want ErrNotFinite", err)
	}
}

// TestPerceptronHistoryGolden draws the history of a perceptron on a
// noisy set, 150 steps, as the perceptron lesson records it.
func TestPerceptronHistoryGolden(t *testing.T) {
	set, err := dataset.New(dataset.Spec{Name: "noisy", N: 60, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pr, states, err := perceptron.Trajectory(perceptron.Data{X: set.X, Y: set.Y}, perceptron.DefaultParams(), 150)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := HistorySVG(&b, perceptronHistory(pr, states), render.Options{}); err != nil {
		t.Fatal(err)
	}
	checkTextAlternative(t, b.String())
	checkGolden(t, "perceptron_history", b.Bytes())
	for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 2000, Height: 240}} {
		for k := range states[:8] {
			if err := HistorySVG(io.Discard, perceptronHistory(pr, states[:k+1]), opt); err != nil {
				t.Fatalf("history step %d %+v: %v", k, opt, err)
			}
		}
	}
}
