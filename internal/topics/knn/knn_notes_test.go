package knn

import (
	"bytes"
	"math"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
)

// figureSVG draws r's figure (PlotFigure for the main plot).
func figureSVG(t *testing.T, r *demo.Run, fig string) string {
	t.Helper()
	var b bytes.Buffer
	if ok, err := r.WriteFigure(&b, fig, false); !ok || err != nil {
		t.Fatalf("figure %q: ok %v, %v", fig, ok, err)
	}
	return b.String()
}

// TestBayesFlatMixture: at Δ = 0 the classes share their mean; the
// description says so (not "means (±0, 0)"), says there is no boundary,
// and the legend lists no boundary or level line, since none is drawn.
// Every answer is a tie there, and h* says −1.
func TestBayesFlatMixture(t *testing.T) {
	r := runKNNDemo(t, BayesSpec(), url.Values{"delta": {"0"}})
	svg := figureSVG(t, r, demo.PlotFigure)
	for _, bad := range []string{"±0", "boundary η = 0.5", "η = 0.1, 0.2"} {
		if strings.Contains(svg, bad) {
			t.Errorf("Δ = 0: the figure has %q", bad)
		}
	}
	for _, want := range []string{"both means at (0, 0)", "no boundary", "h* says −1 everywhere"} {
		if !strings.Contains(svg, want) {
			t.Errorf("Δ = 0: the figure lacks %q", want)
		}
	}
	// With Δ > 0 both the boundary and its legend entry are there.
	svg = figureSVG(t, runKNNDemo(t, BayesSpec(), nil), demo.PlotFigure)
	for _, want := range []string{"boundary η = 0.5", "means (±1, 0)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("Δ = 2: the figure lacks %q", want)
		}
	}
}

// TestTieRuleStated: h* and kNN break ties the same way, towards −1, and
// both panels say so.
func TestTieRuleStated(t *testing.T) {
	b := runKNNDemo(t, BayesSpec(), url.Values{"delta": {"0"}})
	m, err := mixtureOf(b.State)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.BayesClassifier([]float64{0.3, -1}); got != -1 {
		t.Errorf("h* at η = ½: %d, want −1", got)
	}
	if s := b.Panel().Start; !strings.Contains(s, "η(x) = P(y = +1 | x) > ½, else −1") || !strings.Contains(s, "Margin says −1 there") {
		t.Errorf("bayes panel: %q", s)
	}
	k := runKNNDemo(t, KNNSpec(), url.Values{"k": {"4"}})
	if s := k.Panel().Start; !strings.Contains(s, "a tied vote goes to −1") || !strings.Contains(s, "η = ½") {
		t.Errorf("knn panel: %q", s)
	}
}

// TestKNNBorderIsStraight: for 1-NN with the Euclidean metric the border
// between a +1 and a −1 cell is the perpendicular bisector of the two
// points, and the region's margin is affine along it. So where the
// margin changes sign along a short segment (a grid cell's edge, 0.05
// long here, as at the plot's resolution), the point linear interpolation
// finds, which the contour line draws, is the border's own crossing,
// found here by bisection on the vote: exactly, unless the nearest points
// change along the segment. Interpolating the ±1 vote would put every
// crossing half-way, a staircase a quarter of a cell off on average.
func TestKNNBorderIsStraight(t *testing.T) {
	kr := knnOf(t, runKNNDemo(t, KNNSpec(), url.Values{"k": {"1"}}))
	mg := newKNNMargin(kr.x, kr.y, 1, kr.c.Metric)
	vote := func(q []float64) int {
		p, err := kr.c.Predict(q)
		if err != nil {
			t.Fatal(err)
		}
		return kr.classes[p]
	}
	r := rand.New(rand.NewPCG(1, 2))
	const h = 0.05
	crossings, exact, total := 0, 0, 0.0
	for range 20000 {
		p := []float64{6*r.Float64() - 3, 4*r.Float64() - 2}
		dir := []float64{h, 0}
		if r.IntN(2) == 0 {
			dir = []float64{0, h}
		}
		at := func(s float64) []float64 { return []float64{p[0] + s*dir[0], p[1] + s*dir[1]} }
		a, b := mg.at(at(0)), mg.at(at(1))
		if (a > 0) == (b > 0) || vote(at(0)) == vote(at(1)) {
			continue
		}
		crossings++
		lo, hi, v0 := 0.0, 1.0, vote(at(0))
		for range 60 {
			if mid := (lo + hi) / 2; vote(at(mid)) == v0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		off := math.Abs(a/(a-b) - lo)
		if off < 1e-9 {
			exact++
		}
		total += off
	}
	t.Logf("%d crossings, %d exact, mean offset %.3g of a cell", crossings, exact, total/float64(crossings))
	if crossings < 100 || exact < crossings*2/3 || total/float64(crossings) > 0.05 {
		t.Errorf("%d border crossings: %d exactly on the border, %.3g of a cell off on average; want most on it and under 0.05",
			crossings, exact, total/float64(crossings))
	}
}

// TestKNNRiskMatchesMonteCarlo: the risk the quadrature integrates is the
// error rate on a large fresh sample from the mixture (200 000 points,
// standard error ≈ 0.0009), classified by the knn package itself, for
// several k, both metrics and an unequal prior.
func TestKNNRiskMatchesMonteCarlo(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("200 000 kNN queries")
	}
	for _, q := range []url.Values{{}, {"metric": {"manhattan"}, "prior": {"0.7"}, "delta": {"3"}}} {
		kr := knnOf(t, runKNNDemo(t, KNNSpec(), q))
		ks := []int{1, 4, 15}
		risks, err := mixtureRisks(t.Context(), nil, kr.x, kr.y, ks, kr.c.Metric, mixtureParamsOf(kr.s), riskCells)
		if err != nil {
			t.Fatal(err)
		}
		tx, ty, err := kr.m.Sample(200000, 12345)
		if err != nil {
			t.Fatal(err)
		}
		codes, classes := knn.Encode(kr.y)
		for i, k := range ks {
			c, err := knn.New(kr.x, codes, k, kr.c.Metric)
			if err != nil {
				t.Fatal(err)
			}
			p, err := c.PredictAll(tx)
			if err != nil {
				t.Fatal(err)
			}
			wrong := 0
			for j, v := range p {
				if classes[v] != ty[j] {
					wrong++
				}
			}
			mc := float64(wrong) / float64(len(tx))
			se := math.Sqrt(mc * (1 - mc) / float64(len(tx)))
			if math.Abs(risks[i]-mc) > 4*se {
				t.Errorf("%v, k = %d: quadrature %.5f, Monte Carlo %.5f ± %.5f", q, k, risks[i], mc, se)
			}
		}
	}
}
