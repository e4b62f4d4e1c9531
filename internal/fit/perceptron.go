package fit

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

type perceptronParams struct {
	Order     *string  `json:"order"`
	Seed      *int64   `json:"seed"`
	MaxEpochs *int     `json:"max_epochs"`
	Eta       *float64 `json:"eta"`
	Margin    *float64 `json:"margin"`
	Average   *bool    `json:"average"`
	Fixed     *bool    `json:"fixed_epochs"`
	Multi     *string  `json:"multi"`
}

const perceptronKnown = "order (\"cyclic\" or \"random\"), seed (integer), max_epochs (1 to 100000), eta (> 0), margin (≥ 0), average (bool), fixed_epochs (bool), multi (\"ova\" or \"ovo\", for labels 0, 1, 2, …)"

// PerceptronResponse is the answer for "algorithm": "perceptron".
type PerceptronResponse struct {
	Algorithm  string      `json:"algorithm"`
	W          []float64   `json:"w"`
	B          float64     `json:"b"`
	Iterations int         `json:"iterations"`
	Mistakes   int         `json:"mistakes"`
	Epochs     int         `json:"epochs"`
	Converged  bool        `json:"converged"`
	Cycled     bool        `json:"cycled"`
	Status     string      `json:"status"`
	Scores     []float64   `json:"scores"`
	Trace      []TraceStep `json:"trace,omitempty"`
}

// TraceStep is the state after one point was examined.
type TraceStep struct {
	T       int       `json:"t"`
	I       int       `json:"i"`
	Mistake bool      `json:"mistake"`
	W       []float64 `json:"w"`
	B       float64   `json:"b"`
}

func (pp perceptronParams) params() (perceptron.Params, error) {
	p := perceptron.DefaultParams()
	if pp.Order != nil {
		switch *pp.Order {
		case "cyclic":
		case "random":
			p.Order = perceptron.Random
		default:
			return p, fitreq.Badf(`params.order is %s; use "cyclic" or "random"`, fitreq.Clip(*pp.Order))
		}
	}
	if pp.Seed != nil {
		p.Seed = uint64(*pp.Seed)
	}
	if pp.MaxEpochs != nil {
		if *pp.MaxEpochs < 1 || *pp.MaxEpochs > MaxEpochs {
			return p, fitreq.Badf("params.max_epochs is %d; give 1 to %d", *pp.MaxEpochs, MaxEpochs)
		}
		p.MaxEpochs = *pp.MaxEpochs
	}
	if pp.Eta != nil {
		if !(*pp.Eta > 0) || math.IsInf(*pp.Eta, 0) {
			return p, fitreq.Badf("params.eta is %v; give a finite number > 0", *pp.Eta)
		}
		p.Eta = *pp.Eta
	}
	if pp.Margin != nil {
		if !(*pp.Margin >= 0) || math.IsInf(*pp.Margin, 0) {
			return p, fitreq.Badf("params.margin is %v; give a finite number ≥ 0", *pp.Margin)
		}
		p.Margin = *pp.Margin
	}
	if pp.Average != nil {
		p.Average = *pp.Average
	}
	if pp.Fixed != nil {
		p.FixedEpochs = *pp.Fixed
	}
	if pp.Multi != nil {
		switch *pp.Multi {
		case "ova":
		case "ovo":
			p.Multiclass = perceptron.OneVsOne
		default:
			return p, fitreq.Badf(`params.multi is %s; use "ova" (one-vs-all) or "ovo" (one-vs-one)`, fitreq.Clip(*pp.Multi))
		}
	}
	return p, nil
}

// The perceptron's cost model, in units of one element of the score and
// update (a multiply-add, ~3 ns, up to ~9 ns on subnormal numbers whose
// rows miss the cache), measured with BenchmarkFitWorst's shapes: a step
// costs d+1 units plus stepCost (pick the point, record the event, call
// the observer) plus randCost in random order (the epoch's permutation),
// and closing an epoch costs d+1 units plus epochCost (the cycle check
// hashes w and b, then looks the hash up in its index).
const (
	stepCost  = 4
	randCost  = 2
	epochCost = 64
)

// perceptronWork returns the worst-case work of p on n rows of d features
// in MaxWork's units, and the most epochs that fit in MaxWork. The worst
// case is every step updating for max_epochs epochs; a detected cycle may
// then recompute up to the whole run once (see perceptron's startIndex),
// which MaxWork leaves room for.
// A multiclass fit trains tasks perceptrons side by side: each step and
// each epoch's check cost that many times the work of one.
func perceptronWork(p perceptron.Params, n, d, tasks int) (work float64, maxEpochs int) {
	perStep := float64(tasks) * float64(d+1+stepCost)
	if p.Order == perceptron.Random {
		perStep += randCost
	}
	perEpoch := float64(n)*perStep + float64(tasks)*float64(d+1+epochCost)
	return float64(p.MaxEpochs) * perEpoch, int(MaxWork / perEpoch)
}

func fitPerceptron(ctx context.Context, req Request) (any, error) {
	var pp perceptronParams
	if err := fitreq.StrictParams(req.Params, &pp, perceptronKnown); err != nil {
		return nil, err
	}
	p, err := pp.params()
	if err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	labels, tasks, err := perceptronLabels(req.Y, p.Multiclass)
	if err != nil {
		return nil, err
	}
	if tasks > 1 && req.Trace {
		return nil, fitreq.Badf("trace is for two-class fits (labels -1 and +1); set trace to false for classes 0, 1, 2, …")
	}
	if work, most := perceptronWork(p, n, d, tasks); work > MaxWork {
		lower := "send fewer rows or features"
		if most >= 1 {
			lower = fmt.Sprintf("lower params.max_epochs to at most %d for this x, or send fewer rows or features", most)
		}
		return nil, fitreq.Badf("the fit could take max_epochs·n = %d·%d steps of %d features, %s units of work; the limit is %s; %s",
			p.MaxEpochs, n, d, fitreq.Work(work, MaxWork), fitreq.Limit(work, MaxWork), lower)
	}
	data := perceptron.Data{X: req.X, Y: labels}
	var trace []TraceStep
	maxTrace := MaxTraceNumbers / (d + 2)
	observe := func(s perceptron.State) error {
		if err := scoreOverflow(s, req.X); err != nil {
			return err
		}
		if s.T%fitreq.CheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("fit: perceptron stopped after %d steps: %w", s.T, err)
			}
			for _, m := range s.Models {
				if !finiteModel(m, p.Average) {
					return overflow(s.T)
				}
			}
		}
		if !req.Trace {
			return nil
		}
		if len(trace) == maxTrace {
			return fitreq.Badf("the trace would hold more than %d numbers (d+2 = %d per step, so %d steps); set trace to false, or lower params.max_epochs, or send fewer rows or features",
				MaxTraceNumbers, d+2, maxTrace)
		}
		w := make([]float64, d)
		copy(w, s.Models[0].W)
		trace = append(trace, TraceStep{T: s.T, I: s.Event.I, Mistake: s.Event.Updated[0], W: w, B: s.Models[0].B})
		return nil
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: perceptron not started: %w", err)
	}
	pr, s, err := perceptron.Run(data, p, observe)
	switch {
	case errors.Is(err, ErrBadRequest), errors.Is(err, ErrUnprocessable),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil, err
	case err != nil:
		return nil, fitreq.Badf("%v", err)
	}
	if tasks > 1 {
		return multiclassResponse(pr, s, p, req.Predict)
	}
	w, b := pr.Classifier(s, 0)
	if !finiteModel(s.Models[0], p.Average) || !fitreq.Finite(w) || !fitreq.Finite([]float64{b}) {
		return nil, overflow(s.T)
	}
	resp := &PerceptronResponse{
		Algorithm: "perceptron", W: w, B: b,
		Iterations: s.T, Mistakes: s.Mistakes, Epochs: s.Epoch,
		Converged: s.Status == algos.Converged, Cycled: s.Status == algos.CycleDetected,
		Status: s.Status.Code(), Scores: make([]float64, len(req.Predict)), Trace: trace,
	}
	for i, x := range req.Predict {
		resp.Scores[i] = perceptron.Score(w, b, x)
		if !fitreq.Finite(resp.Scores[i : i+1]) {
			return nil, fmt.Errorf("%w: the score w·x + b of predict[%d] overflowed; rescale x and predict to smaller numbers", ErrUnprocessable, i)
		}
	}
	return resp, nil
}

// finiteModel reports whether m's w and b are finite, and its averaging
// sums too when the answer is built from them. Once a value is ±Inf or
// NaN it stays so (Inf + finite = Inf, Inf − Inf = NaN), so a check of the
// final state catches an overflow at any step.
func finiteModel(m perceptron.Model, average bool) bool {
	if !fitreq.Finite(m.W) || !fitreq.Finite([]float64{m.B}) {
		return false
	}
	return !average || fitreq.Finite(m.U) && fitreq.Finite([]float64{m.Beta})
}

// scoreOverflow is a 422 when the step that made s scored its point
// beyond float64's range on the wrong side (margin y(w·x + b) = −Inf) or
// without a sign (NaN, from +Inf − Inf): the update then cannot bring an
// infinite score back, every later comparison is decided by the overflow,
// not by the data, and the run would go on to its iteration limit with
// weights that look finite. A margin of +Inf is on the right side and
// updates nothing, as a huge finite one would. It names the row, the feature whose term w_j·x_j is largest
// (the one that overflowed, or else the largest in the sum that did),
// and says to rescale. Run's observer sees every step, so this costs one
// comparison per task and step.
func scoreOverflow(s perceptron.State, x [][]float64) error {
	ev := s.Event
	if ev.I < 0 || ev.I >= len(x) {
		return nil
	}
	for k, m := range ev.Margin {
		if !math.IsInf(m, -1) && !math.IsNaN(m) || k >= len(s.Models) || (k < len(ev.Seen) && !ev.Seen[k]) {
			continue
		}
		// The model before the step when the state has it (Step), else
		// after it (Run): an update adds η·y·x, which leaves a term that
		// overflowed as large, but may cancel finite ones.
		w := s.Models[k].W
		if k < len(ev.Before) {
			w = ev.Before[k].W
		}
		row := x[ev.I]
		top, what := -1, ""
		for j, v := range w {
			if t := v * row[j]; math.IsInf(t, 0) || math.IsNaN(t) {
				top = j
				what = fmt.Sprintf("the term w[%d]·x[%d][%d] is beyond float64's range (x[%d][%d] = %.3g)", j, ev.I, j, ev.I, j, row[j])
				break
			}
		}
		if top < 0 {
			top = 0
			for j, v := range row {
				if math.Abs(v) > math.Abs(row[top]) {
					top = j
				}
			}
			what = fmt.Sprintf("the sum of its terms is, each finite; its largest coordinate is x[%d][%d] = %.3g", ev.I, top, row[top])
		}
		return fmt.Errorf("%w: at step %d the perceptron's score w·x + b of row x[%d] overflowed float64 (%v): %s; from there on the signs it compares are the overflow's, not the data's. Rescale x to smaller numbers (divide feature %d by a large factor such as 1e100), or lower params.eta",
			ErrUnprocessable, s.T, ev.I, m, what, top)
	}
	return nil
}

func overflow(t int) error {
	return fmt.Errorf("%w: the perceptron's weights overflowed to ±Inf or NaN by step %d; lower params.eta or rescale x to smaller numbers", ErrUnprocessable, t)
}

// MulticlassPerceptronResponse is the answer for "algorithm":
// "perceptron" with labels 0, 1, 2, …: one perceptron per task of the
// one-vs-all or one-vs-one reduction (params.multi), as the multiclass
// demo of the perceptron lesson trains them. Labels are the predicted
// classes of the predict rows; Scores[r][k] is model k's w·x + b there.
type MulticlassPerceptronResponse struct {
	Algorithm  string            `json:"algorithm"`
	Multi      string            `json:"multi"`
	Classes    []int             `json:"classes"`
	Models     []PerceptronModel `json:"models"`
	Iterations int               `json:"iterations"`
	Mistakes   int               `json:"mistakes"`
	Epochs     int               `json:"epochs"`
	Converged  bool              `json:"converged"`
	Cycled     bool              `json:"cycled"`
	Status     string            `json:"status"`
	Labels     []int             `json:"labels"`
	Scores     [][]float64       `json:"scores"`
}

// PerceptronModel is one binary perceptron of a multiclass fit: class Pos
// is +1 against class Neg (one-vs-one) or every other class (one-vs-all,
// Neg absent).
type PerceptronModel struct {
	Pos int       `json:"pos"`
	Neg *int      `json:"neg,omitempty"`
	W   []float64 `json:"w"`
	B   float64   `json:"b"`
}

// perceptronLabels reads y: −1 and +1 are a two-class fit (one task);
// otherwise the labels must be classes 0 … MaxClasses−1, at least two of
// them, and the tasks are the reduction's.
func perceptronLabels(y []float64, m perceptron.Multiclass) (labels []int, tasks int, err error) {
	labels = make([]int, len(y))
	if fitreq.SignLabels(y) == nil {
		for i, v := range y {
			labels[i] = int(v)
		}
		return labels, 1, nil
	}
	var seen [perceptron.MaxClasses]bool
	k := 0
	for i, v := range y {
		c := int(v)
		if float64(c) != v || c < 0 || c >= perceptron.MaxClasses {
			return nil, 0, fitreq.Badf(`"y[%d]" is %v; labels must be -1 or +1, or classes 0 to %d (with params.multi "ova" or "ovo")`, i, v, perceptron.MaxClasses-1)
		}
		if !seen[c] {
			seen[c], k = true, k+1
		}
		labels[i] = c
	}
	if k < 2 {
		return nil, 0, fitreq.Badf(`"y" holds one class only; labels must be -1 or +1, or at least two of the classes 0 to %d`, perceptron.MaxClasses-1)
	}
	if m == perceptron.OneVsOne {
		return labels, k * (k - 1) / 2, nil
	}
	return labels, k, nil
}

func multiclassResponse(pr *perceptron.Problem, s perceptron.State, p perceptron.Params, predict [][]float64) (*MulticlassPerceptronResponse, error) {
	resp := &MulticlassPerceptronResponse{
		Algorithm: "perceptron", Multi: "ova", Classes: pr.Classes,
		Iterations: s.T, Mistakes: s.Mistakes, Epochs: s.Epoch,
		Converged: s.Status == algos.Converged, Cycled: s.Status == algos.CycleDetected,
		Status: s.Status.Code(), Labels: make([]int, len(predict)), Scores: make([][]float64, len(predict)),
	}
	if p.Multiclass == perceptron.OneVsOne {
		resp.Multi = "ovo"
	}
	for k, t := range pr.Tasks {
		w, b := pr.Classifier(s, k)
		if !finiteModel(s.Models[k], p.Average) || !fitreq.Finite(w) || !fitreq.Finite([]float64{b}) {
			return nil, overflow(s.T)
		}
		m := PerceptronModel{Pos: t.Pos, W: w, B: b}
		if !t.Rest {
			m.Neg = &t.Neg
		}
		resp.Models = append(resp.Models, m)
	}
	for r, x := range predict {
		resp.Labels[r] = pr.Predict(s, x)
		resp.Scores[r] = make([]float64, len(resp.Models))
		for k, m := range resp.Models {
			resp.Scores[r][k] = perceptron.Score(m.W, m.B, x)
			if !fitreq.Finite(resp.Scores[r][k : k+1]) {
				return nil, fmt.Errorf("%w: the score w·x + b of predict[%d] overflowed; rescale x and predict to smaller numbers", ErrUnprocessable, r)
			}
		}
	}
	return resp, nil
}
