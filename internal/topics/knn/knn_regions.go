package knn

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/bayes"
	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/textfmt"
)

// knnSets are the kNN demo's data: the mixture first, whose Bayes
// boundary and error are known, then the other lessons' random shapes.
var knnSets = []demo.Option{{mixtureSet, "two Gaussians (sampled)"}, {"moons", "two moons (random)"},
	{"circles", "circles (random)"}, {"noisy", "noisy (random)"}}

// The kNN demo's parameters beside the mixture's.
var (
	// knnNoise is the shapes' jitter; noisy, a shape too, takes it.
	knnNoise = pointset.Noise.Tweak(func(p *demo.Float) {
		p.Doc = "standard deviation of the jitter added to each coordinate (`moons`, `circles`)"
	})
	// neighbours is k, the number of neighbours that vote.
	neighbours = demo.Int{Key: "k", Label: "k", Doc: "neighbours that vote; from 1 to the number of points", Group: demo.GroupAlgo,
		Default: 5, Min: 1, Max: demo.MaxPoints}
	metricChoice = demo.Choice{Key: "metric", Label: "metric", Doc: "distance that ranks the neighbours", Group: demo.GroupAlgo,
		Default: "euclidean", Options: []demo.Option{{"euclidean", "Euclidean ‖x − q‖₂"}, {"manhattan", "Manhattan ‖x − q‖₁"}}}
)

// KNNSpec declares the k-nearest-neighbours demo: the regions kNN draws
// on the mixture's sample (or another set) for a chosen k and metric,
// over the Bayes boundary, with training and held-out error against k.
func KNNSpec() demo.Spec {
	params := mixtureParams(isMixture, "seeds the random set (the held-out points use another seed)")
	params = append(params, demo.Params(knnNoise, neighbours, metricChoice)...)
	return demo.Spec{
		ID: "knn", Title: "k nearest neighbours against the Bayes classifier", Lesson: "knn-bayes",
		Data:   demo.DataSpec{Labels: demo.ClassLabels, MaxClasses: 2, Default: mixtureSet, Sets: knnSets, Make: knnPoints},
		Params: params, Panels: []string{"k"}, PanelLabels: map[string]string{"k": "Error against k"}, Static: true,
		Examples:    []demo.Example{{Name: "k5", Query: "n=60"}, {Name: "manhattan", Query: "data=moons&n=80&k=9&metric=manhattan"}},
		Conventions: knnConventions(), Explain: demo.Explain{Section: "knn"},
		Compute: computeKNN,
	}
}

// knnPoints builds the demo's set: the mixture's sample, or a shape.
func knnPoints(s demo.State) ([][]float64, []float64, error) {
	if isMixture(s) {
		return mixturePoints(s)
	}
	return pointset.Points(s)
}

// knnHeldOut draws the held-out points of a shape: the shape again with
// another seed. The mixture needs none, since its kNN risk is integrated
// (knn_risk.go), and custom points have none.
func knnHeldOut(s demo.State, m *bayes.Mixture) (x [][]float64, y []int, ok bool) {
	if m != nil {
		return nil, nil, false
	}
	return pointset.HeldOut(s)
}

// knnRun is a kNN classifier on the demo's points and what it is compared with.
type knnRun struct {
	ctx      context.Context // the request's, for the memoised sweeps
	cache    *demo.Cache
	s        demo.State
	x        [][]float64
	y        []int // ±1
	c        *knn.Classifier
	classes  []int // c's class numbers decoded: classes[p] is ±1
	wrong    []bool
	m        *bayes.Mixture // nil unless the data are the mixture
	bayesErr float64
	tx       [][]float64 // held-out points (shapes only)
	ty       []int
	held     bool
	heldErr  float64 // the classifier's true risk (the mixture) or held-out error (a shape); NaN without either
	// heldDigits are the decimals of heldErr that the risk's grid
	// supports (riskGrid), 2 for a held-out error; heldTol the accuracy
	// of the risk it is tested to.
	heldDigits int
	heldTol    float64
}

// exact reports whether heldErr is the true risk R(h), integrated over
// the mixture, rather than an error on held-out points.
func (r *knnRun) exact() bool { return r.m != nil }

// testName names heldErr: "risk R(h)" or "held-out error".
func (r *knnRun) testName() string {
	if r.exact() {
		return "risk R(h)"
	}
	return "held-out error"
}

func computeKNN(ctx context.Context, in demo.Input) (demo.Result, error) {
	r, err := newKNNRun(ctx, in)
	if err != nil {
		return demo.Result{}, err
	}
	res := demo.Result{Done: true, Plot: r.draw, Panels: map[string]demo.Drawer{}, Panel: r.panel}
	if r.c != nil && in.Wants("k") {
		res.Panels["k"] = r.sweepChart
	}
	return res, nil
}

// newKNNRun validates k against the set's size, trains the classifier
// when there are at least k points, and draws the held-out points.
func newKNNRun(ctx context.Context, in demo.Input) (*knnRun, error) {
	s := in.State
	k := neighbours.Get(s)
	if n := pointset.N.Get(s); s.DataSet() != demo.Custom && k > n {
		return nil, demo.Problems{neighbours.Key: fmt.Sprintf("k = %d is more than the %d points; choose k from 1 to %d", k, n, n)}
	}
	metric, err := knn.ParseMetric(metricChoice.Get(s))
	if err != nil {
		return nil, demo.Problems{metricChoice.Key: err.Error()}
	}
	x, yf := demo.Columns(in.Points)
	r := &knnRun{ctx: ctx, cache: in.Cache, s: s, x: x, y: pointset.SignLabels(yf), bayesErr: math.NaN()}
	if isMixture(s) {
		if r.m, err = mixtureOf(s); err != nil {
			return nil, demo.Problems{sigma.Key: err.Error()} // as mixturePoints says it
		}
		r.bayesErr, _ = r.m.BayesError()
	}
	r.tx, r.ty, r.held = knnHeldOut(s, r.m)
	if len(x) >= k {
		codes, classes := knn.Encode(r.y)
		if r.c, err = knn.New(x, codes, k, metric); err != nil {
			return nil, err
		}
		r.classes = classes
		if r.wrong, err = r.mistakes(x, r.y); err != nil {
			return nil, err
		}
	}
	r.heldErr = r.heldOutError()
	return r, nil
}

// predict returns the classifier's ±1 label for each row of q.
func (r *knnRun) predict(q [][]float64) ([]int, error) {
	p, err := r.c.PredictAll(q)
	for i, v := range p {
		p[i] = r.classes[v]
	}
	return p, err
}

// mistakes flags the rows of x whose prediction is not y.
func (r *knnRun) mistakes(x [][]float64, y []int) ([]bool, error) {
	p, err := r.predict(x)
	if err != nil {
		return nil, err
	}
	w := make([]bool, len(p))
	for i := range p {
		w[i] = p[i] != y[i]
	}
	return w, nil
}

// heldOutError is the classifier's true risk on the mixture, or its
// error on the held-out points of a shape, which the title and the panel
// both show: newKNNRun computes it once.
func (r *knnRun) heldOutError() float64 {
	r.heldDigits = 2
	if r.c != nil && r.exact() {
		var cells int
		cells, r.heldDigits, r.heldTol = riskGrid(len(r.x), r.c.K, mixtureParamsOf(r.s))
		risks, err := mixtureRisks(r.ctx, r.cache, r.x, r.y, []int{r.c.K}, r.c.Metric, mixtureParamsOf(r.s), cells)
		if err != nil {
			return math.NaN() // the request ended: nothing shows it
		}
		return risks[0]
	}
	if !r.held || r.c == nil {
		return math.NaN()
	}
	w, err := r.mistakes(r.tx, r.ty)
	if err != nil {
		return math.NaN()
	}
	return demo.Fraction(w)
}

// regions is the Field of the kNN prediction, filled by class with a
// thin line where it changes. Its value is not the ±1 vote, whose level
// line a grid can only draw as a staircase, but a margin with the vote's
// sign whose zero set is the border itself (knnMargin): piecewise affine
// in the query for the Euclidean metric (squared distances) and
// piecewise linear for the Manhattan one, so the line the grid
// interpolates runs straight along each cell's edge, as it should.
func (r *knnRun) regions() (*fields.Field, error) {
	mg := newKNNMargin(r.x, r.y, r.c.K, r.c.Metric)
	f, err := fields.NewField(func(x1, x2 float64) float64 { return mg.at([]float64{x1, x2}) },
		render.SignTint, fields.Level{Value: 0, LineStyle: regionEdge})
	if err != nil {
		return nil, err
	}
	f.Res = knnFieldRes
	// The grid takes the vote through PredictAll (fast: each query starts
	// from the last) and the margin only at nodes beside a change of
	// vote, the only ones the border line is interpolated between.
	f.Grid = func(xs, ys []float64, z []float64) {
		nx := len(xs)
		q := make([][]float64, 0, nx*len(ys))
		for _, b := range ys {
			for _, a := range xs {
				q = append(q, []float64{a, b})
			}
		}
		p, err := r.predict(q)
		if err != nil {
			for i := range z {
				z[i] = math.NaN()
			}
			return
		}
		for k, v := range p {
			z[k] = float64(v)
		}
		for j := range ys {
			for i := range xs {
				k := j*nx + i
				border := (i > 0 && p[k-1] != p[k]) || (i < nx-1 && p[k+1] != p[k]) ||
					(j > 0 && p[k-nx] != p[k]) || (j < len(ys)-1 && p[k+nx] != p[k])
				if border {
					z[k] = mg.at(q[k])
				}
			}
		}
	}
	return f, nil
}

// regionEdge outlines kNN's regions: thin grey, under the Bayes boundary.
var regionEdge = fields.ContourLevels(0)[0].LineStyle

// bayesBoundary is the mixture's boundary η = ½ (ℓ = 0), dashed black.
func bayesBoundary(m *bayes.Mixture) (*fields.Field, error) {
	f, err := fields.NewField(func(x1, x2 float64) float64 { return m.LogOdds([]float64{x1, x2}) }, nil,
		fields.Level{Value: 0, LineStyle: graphs.TruthStyle})
	if err != nil {
		return nil, err
	}
	f.Res = demo.FieldRes
	return f, nil
}

func (r *knnRun) draw(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
	var layers []plot.Plotter
	if r.c != nil {
		f, err := r.regions()
		if err != nil {
			return render.Frame{}, err
		}
		layers = append(layers, f)
	}
	if r.m != nil {
		b, err := bayesBoundary(r.m)
		if err != nil {
			return render.Frame{}, err
		}
		layers = append(layers, b)
	}
	pts, err := render.NewClassPoints(r.x, r.y, r.wrongOrNone())
	if err != nil {
		return render.Frame{}, err
	}
	layers = append(layers, pts)
	legend := append(pts.Legend(),
		render.LegendItem{Label: "Bayes boundary η = ½", Thumbs: []plot.Thumbnailer{fields.Level{LineStyle: graphs.TruthStyle}}, Hidden: r.m == nil},
		render.LegendItem{Label: "misclassified", Thumbs: []plot.Thumbnailer{pts.BoldThumb()}, Hidden: !anyTrue(r.wrong)})
	f := render.DataFigure{Title: r.title(), View: mixtureView(r.x, r.s), Layers: layers, Legend: legend, Desc: r.describe()}
	return f.Write(w, png, opt)
}

func (r *knnRun) wrongOrNone() []bool {
	if r.wrong == nil {
		return make([]bool, len(r.x))
	}
	return r.wrong
}

func (r *knnRun) title() string {
	k, m := neighbours.Get(r.s), metricChoice.Get(r.s)
	if r.c == nil {
		return fmt.Sprintf("k = %d · %s\nk needs at least %s; there %s", k, m, textfmt.Plural(k, "points"), thereAre(len(r.x)))
	}
	t := fmt.Sprintf("k = %d · %s · training error %s", k, m, textfmt.Pct(demo.Fraction(r.wrong), 2))
	detail := "\n" + r.testName() + " " + textfmt.Pct(r.heldErr, r.heldDigits)
	if r.m != nil {
		detail += " · Bayes error " + textfmt.Pct(r.bayesErr, 2)
	}
	return t + detail
}

// riskMethod says how the risk is integrated and to what accuracy.
func (r *knnRun) riskMethod() string {
	cells := sweepCells
	if r.heldDigits == 2 {
		cells = riskCells
	}
	return fmt.Sprintf("R(h) = π P₊(h = −1) + (1 − π) P₋(h = +1) is integrated over the plane with the mixture's known densities: "+
		"exact cell masses on a grid of σ/%d cells, border cells split %d × %d; no held-out sample, so no sampling noise. "+
		"The grid can miss islands smaller than a cell: against a grid four times finer its risk agrees to %s percentage points, hence %s.",
		cells, riskSplit, riskSplit, strconv.FormatFloat(100*r.heldTol, 'f', -1, 64), textfmt.Plural(r.heldDigits, "decimals"))
}
