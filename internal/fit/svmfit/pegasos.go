package svmfit

import (
	"context"
	"fmt"

	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/fit/budget"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// Limits of "pegasos": MaxPegasosT caps T; MaxPegasosWork bounds
// pegasosWork, in the same units as MaxSVMWork; maxPegasosTrace caps the
// trace's entries (fewer when d is large, so that it stays within
// fitreq.MaxTraceNumbers).
const (
	MaxPegasosT     = 10000000
	MaxPegasosWork  = 1.2e9
	maxPegasosTrace = 1000
)

type pegasosParams struct {
	Lambda *float64 `json:"lambda"`
	T      *int     `json:"T"`
	Seed   *int64   `json:"seed"`
}

const pegasosKnown = "lambda (> 0, default 0.01), T (iterations, 1 to 10000000, default 2000), seed (integer, default 1)"

// PegasosResponse is the answer for "algorithm": "pegasos": w and b are
// the average of the iterates W_1, …, W_T, and objective is its value of
// λ‖θ‖² + (1/n) Σ max(0, 1 − yᵢ θ·(xᵢ, 1)) with θ = (w, b).
type PegasosResponse struct {
	Algorithm  string        `json:"algorithm"`
	W          []float64     `json:"w"`
	B          float64       `json:"b"`
	Objective  float64       `json:"objective"`
	Iterations int           `json:"iterations"`
	Scores     []float64     `json:"scores"`
	TraceEvery int           `json:"trace_every,omitempty"`
	Trace      []PegasosStep `json:"trace,omitempty"`
}

// PegasosStep is iteration t: the point i it sampled, whether it violated
// the margin (and so updated θ), the iterate W_t = θ_t/(2λt) it scored
// with as (w, b), and the average of W_1, …, W_t as (avg_w, avg_b).
type PegasosStep struct {
	T        int       `json:"t"`
	I        int       `json:"i"`
	Violated bool      `json:"violated"`
	W        []float64 `json:"w"`
	B        float64   `json:"b"`
	AvgW     []float64 `json:"avg_w"`
	AvgB     float64   `json:"avg_b"`
}

func (pp pegasosParams) params() (primal.PegasosParams, error) {
	p := primal.PegasosParams{Lambda: 0.01, T: 2000, Seed: 1}
	if err := fitreq.Positive("lambda", pp.Lambda, &p.Lambda); err != nil {
		return p, err
	}
	if pp.T != nil {
		if *pp.T < 1 || *pp.T > MaxPegasosT {
			return p, fitreq.Badf("params.T is %d; give 1 to %d", *pp.T, MaxPegasosT)
		}
		p.T = *pp.T
	}
	if pp.Seed != nil {
		p.Seed = uint64(*pp.Seed)
	}
	return p, nil
}

// Pegasos' cost model, in MaxPegasosWork's units: an iteration costs
// pegasosStepCost plus pegasosFeatureCost for each of the d+1 entries of θ
// (W_t = θ/(2λt), the margin test, the update and the running average:
// a division, two multiply-adds and another division each); the answer
// adds the objective over n rows and the scores of the predict rows.
const (
	pegasosStepCost    = 15
	pegasosFeatureCost = 6
)

// pegasosWork returns the work of T iterations on n rows of d features
// with m predict rows, and the most iterations the limit allows.
func pegasosWork(T, n, d, m int) (work float64, most int) {
	perIter := pegasosStepCost + float64(d+1)*pegasosFeatureCost
	fixed := float64(n+m) * float64(d+1) * svmFeatureCost
	return fixed + float64(T)*perIter, int((MaxPegasosWork - fixed) / perIter)
}

// pegasosTraceEvery returns k: the trace holds iterates k, 2k, … and the
// last, at most maxPegasosTrace of them and at most fitreq.MaxTraceNumbers
// numbers (2d+4 per entry).
func pegasosTraceEvery(T, d int) int {
	entries := min(maxPegasosTrace, fitreq.MaxTraceNumbers/(2*d+4))
	return (T + entries - 1) / entries
}

// Pegasos fits "pegasos": T steps of primal.Pegasos, with the averaged
// model, its objective and, when asked, a trace, refused up front past
// MaxPegasosWork. req has passed fit.Run's checks (Validate, SignLabels).
func Pegasos(ctx context.Context, req fitreq.Request) (*PegasosResponse, error) {
	var pp pegasosParams
	if err := fitreq.StrictParams(req.Params, &pp, pegasosKnown); err != nil {
		return nil, err
	}
	p, err := pp.params()
	if err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	y, err := fitreq.BothClasses(req.Y)
	if err != nil {
		return nil, err
	}
	if work, most := pegasosWork(p.T, n, d, len(req.Predict)); work > MaxPegasosWork {
		return nil, fitreq.Badf("params.T = %d could cost %s units of work on %d rows of %d features; the limit is %s; lower params.T to at most %d for this x, or send fewer features",
			p.T, fitreq.Work(work, MaxPegasosWork), n, d, fitreq.Limit(work, MaxPegasosWork), max(most, 0))
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: pegasos not started: %w", err)
	}
	pg, s, err := primal.NewPegasos(req.X, y, p)
	if err != nil {
		return nil, svmError(err)
	}
	resp := &PegasosResponse{Algorithm: "pegasos", Scores: make([]float64, len(req.Predict))}
	every := pegasosTraceEvery(p.T, d)
	if req.Trace {
		resp.TraceEvery = every
	}
	b := budget.Start(ctx, kernelPegasosCPU)
	defer b.Stop()
	s = pg.Clone(s)
	for !s.Status.Done() {
		if err := b.Spend(2*d + 20); err != nil { // a step: one margin, one update
			return nil, fmt.Errorf("fit: pegasos stopped after %d iterations: %w%s", s.T, err, budget.Hint(err))
		}
		pg.Advance(&s)
		if req.Trace && (s.T%every == 0 || s.T == p.T) {
			resp.Trace = append(resp.Trace, PegasosStep{T: s.T, I: s.I, Violated: s.Violated,
				W: append([]float64(nil), s.W[:d]...), B: s.W[d],
				AvgW: append([]float64(nil), s.Avg[:d]...), AvgB: s.Avg[d]})
		}
	}
	resp.W, resp.B = append([]float64(nil), s.Avg[:d]...), s.Avg[d]
	resp.Objective = pg.Objective(s.Avg)
	resp.Iterations = s.T
	if !fitreq.Finite(s.Avg) || !fitreq.Finite(s.W) || !fitreq.Finite([]float64{resp.Objective}) {
		return nil, fmt.Errorf("%w: Pegasos' iterates overflowed to ±Inf or NaN (W_t = θ/(2λt)); raise params.lambda or rescale x to smaller numbers", fitreq.ErrUnprocessable)
	}
	for i, x := range req.Predict {
		resp.Scores[i] = linearScore(resp.W, resp.B, x)
		if !fitreq.Finite(resp.Scores[i : i+1]) {
			return nil, fmt.Errorf("%w: the score w·x + b of predict[%d] overflowed; rescale x and predict to smaller numbers", fitreq.ErrUnprocessable, i)
		}
	}
	return resp, nil
}

// linearScore is w·x + b (for svm and pegasos), each product rounded
// before it is added as the svm package does, so that no fused
// multiply-add changes the last bit.
func linearScore(w []float64, b float64, x []float64) float64 {
	var f float64
	for j, v := range w {
		f += float64(v * x[j])
	}
	return f + b
}
