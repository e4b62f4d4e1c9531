package fit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/fit/budget"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// Limits of "logistic-regression" and "softmax-regression". MaxLogisticWork
// is in the units of logisticCost (about a nanosecond of one core of the
// reference machine each; the model is an upper bound, so
// BenchmarkLogisticWorst and BenchmarkSoftmaxWorst stay well under 2 s).
// The exact solvers run Newton for at most maxExactIters iterations and
// need room for minExactIters of them (measured runs take 3 to 30).
const (
	MaxLogisticWork       = 1.2e9
	MaxLogisticIters      = 1000000 // params.iters
	maxExactIters         = 100
	minExactIters         = 30
	maxLogisticTrace      = 1000
	logisticDefaultLambda = 0.01
)

type logisticParams struct {
	Lambda *float64 `json:"lambda"`
	Solver *string  `json:"solver"`
	Eta    *float64 `json:"eta"`
	Iters  *int     `json:"iters"`
}

const logisticKnown = `lambda (≥ 0, default 0.01), solver ("exact" default, "gd" or "newton"), eta (> 0, gd only; default 1/L), iters (1 to 1000000; gd and newton only; default 1000 for gd, 100 for newton)`

// logisticSetup is a checked request: the solver, λ, η (0 for the
// default 1/L) and the iterations (0 for exact).
type logisticSetup struct {
	solver string
	lambda float64
	eta    float64
	iters  int
}

func (lp logisticParams) setup() (logisticSetup, error) {
	s := logisticSetup{solver: "exact", lambda: logisticDefaultLambda}
	if lp.Lambda != nil {
		if !(*lp.Lambda >= 0) || *lp.Lambda > MaxParam {
			return s, fitreq.Badf("params.lambda is %v; give a number ≥ 0 and at most %g", *lp.Lambda, MaxParam)
		}
		s.lambda = *lp.Lambda
	}
	if lp.Solver != nil {
		switch *lp.Solver {
		case "exact", "gd", "newton":
			s.solver = *lp.Solver
		default:
			return s, fitreq.Badf(`params.solver is %s; use "exact", "gd" or "newton"`, fitreq.Clip(*lp.Solver))
		}
	}
	if lp.Eta != nil && s.solver != "gd" {
		return s, fitreq.Badf(`params.eta is for solver "gd" only; the %q solver has no step size`, s.solver)
	}
	if err := fitreq.Positive("eta", lp.Eta, &s.eta); err != nil {
		return s, err
	}
	switch {
	case lp.Iters != nil && s.solver == "exact":
		return s, fitreq.Badf(`params.iters is for solvers "gd" and "newton"; "exact" iterates until ‖∇J‖ < 1e-10`)
	case lp.Iters != nil && (*lp.Iters < 1 || *lp.Iters > MaxLogisticIters):
		return s, fitreq.Badf("params.iters is %d; give 1 to %d", *lp.Iters, MaxLogisticIters)
	case lp.Iters != nil:
		s.iters = *lp.Iters
	case s.solver == "gd":
		s.iters = 1000
	case s.solver == "newton":
		s.iters = 100
	}
	return s, nil
}

// logisticLabels maps y to ±1: all of y must be −1/+1 or all 0/1 (0 is
// −1), and both classes must occur.
func logisticLabels(y []float64) ([]float64, error) {
	out := make([]float64, len(y))
	zero, minus := -1, -1 // first index of a 0 and of a −1
	for i, v := range y {
		switch {
		case v == 0 && zero < 0:
			zero = i
		case v == -1 && minus < 0:
			minus = i
		case v != 0 && v != 1 && v != -1:
			return nil, fitreq.Badf(`"y[%d]" is %v; logistic-regression labels must be all -1 or +1, or all 0 or 1`, i, v)
		}
		if zero >= 0 && minus >= 0 {
			j := min(zero, minus)
			return nil, fitreq.Badf(`"y[%d]" is %v but "y[%d]" is %v; use labels -1 and +1, or 0 and 1, not both`, i, v, j, y[j])
		}
		out[i] = v
		if v == 0 {
			out[i] = -1
		}
	}
	for _, v := range out[1:] {
		if v != out[0] {
			return out, nil
		}
	}
	return nil, fitreq.Badf(`"y" has only the label %v; logistic regression needs points of both classes`, y[0])
}

// LogisticResponse is the answer for "algorithm": "logistic-regression":
// the (w, b) the solver reached for J(w, b) = (1/n) Σ log(1 + exp(−yᵢ(w·xᵢ
// + b))) + (λ/2)‖w‖², J there, ‖∇J‖, the iterations run, and for each
// predict row its score w·x + b and P(y = +1 | x) = σ(score). Status is
// "converged" (‖∇J‖ < 1e-10), "iteration_limit" or, for "newton",
// "stalled" (no step lowers J any more: rounding).
type LogisticResponse struct {
	Algorithm  string         `json:"algorithm"`
	Solver     string         `json:"solver"`
	W          []float64      `json:"w"`
	B          float64        `json:"b"`
	Objective  float64        `json:"objective"`
	GradNorm   float64        `json:"grad_norm"`
	Iterations int            `json:"iterations"`
	Status     string         `json:"status"`
	Scores     []float64      `json:"scores"`
	Proba      []float64      `json:"proba"`
	TraceEvery int            `json:"trace_every,omitempty"`
	Trace      []LogisticStep `json:"trace,omitempty"`
}

// LogisticStep is the iterate after t iterations (t = 0 is w = 0, b = 0).
type LogisticStep struct {
	T         int       `json:"t"`
	W         []float64 `json:"w"`
	B         float64   `json:"b"`
	Objective float64   `json:"objective"`
	GradNorm  float64   `json:"grad_norm"`
}

func fitLogisticRegression(ctx context.Context, req Request) (*LogisticResponse, error) {
	var lp logisticParams
	if err := fitreq.StrictParams(req.Params, &lp, logisticKnown); err != nil {
		return nil, err
	}
	set, err := lp.setup()
	if err != nil {
		return nil, err
	}
	y, err := logisticLabels(req.Y)
	if err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	cost := newLogisticCost(n, d, len(req.Predict), set)
	iters, err := cost.plan(set)
	if err != nil {
		return nil, err
	}
	p, err := logistic.New(req.X, y, set.lambda)
	if err != nil {
		return nil, inputErr(err)
	}
	if err := checkMinimiser(ctx, p); err != nil {
		return nil, err
	}
	var stepper algos.Method[logistic.State] = logistic.Newton{P: p}
	if set.solver == "gd" {
		if set.eta == 0 {
			set.eta = 1 / p.L()
		}
		stepper = logistic.GD{P: p, Eta: set.eta}
	}
	resp := &LogisticResponse{Algorithm: "logistic-regression", Solver: set.solver}
	every := logisticTraceEvery(iters, d+4)
	if req.Trace {
		resp.TraceEvery = every
	}
	s, err := runLogistic(ctx, stepper, p.Start(), iters, cost, func(s logistic.State, last bool) {
		if !req.Trace || s.T%every != 0 && !last {
			return
		}
		step := LogisticStep{T: s.T, W: append([]float64(nil), s.Model.W...), B: s.Model.B, Objective: s.Objective, GradNorm: s.GradNorm}
		if k := len(resp.Trace); k > 0 && resp.Trace[k-1].T == s.T {
			resp.Trace[k-1] = step // a run that stopped on a state already kept
			return
		}
		resp.Trace = append(resp.Trace, step)
	})
	if err != nil {
		return nil, err
	}
	if err := logisticEnd(s, set, iters); err != nil {
		return nil, err
	}
	resp.W, resp.B, resp.Objective, resp.GradNorm, resp.Iterations = s.Model.W, s.Model.B, s.Objective, s.GradNorm, s.T
	resp.Status = logisticStatus(s, iters)
	resp.Scores = make([]float64, len(req.Predict))
	resp.Proba = make([]float64, len(req.Predict))
	for i, x := range req.Predict {
		resp.Scores[i] = s.Model.Score(x)
		resp.Proba[i] = logistic.Sigmoid(resp.Scores[i])
		if !fitreq.Finite(resp.Scores[i : i+1]) {
			return nil, fmt.Errorf("%w: the score w·x + b of predict[%d] overflowed; rescale x and predict to smaller numbers", ErrUnprocessable, i)
		}
	}
	return resp, nil
}

// checkMinimiser refuses λ = 0 on separable data, where J has no
// minimiser; the linear program's cost is in logisticCost.fixed.
func checkMinimiser(ctx context.Context, p *logistic.Problem) error {
	if p.Lambda > 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fit: logistic regression not started: %w", err)
	}
	sep, err := p.Separable()
	switch {
	case err != nil:
		return fmt.Errorf("%w: %v; give params.lambda > 0", ErrUnprocessable, err)
	case sep:
		return fmt.Errorf("%w: with params.lambda = 0 these data have no minimiser: they are separable (some line has every point on its side or on it), so J keeps falling towards 0 as ‖w‖ grows without bound; give params.lambda > 0 (such as 0.01)", ErrUnprocessable)
	}
	return nil
}

// MaxLogisticCPU is the CPU the iterations of logistic and softmax
// regression may use, whatever MaxLogisticWork allows: the cost model
// counts flops, and subnormal products cost about 100 times one (issue
// 28). Between iterations the runs look at the clock (package budget) and
// stop with an error wrapping context.DeadlineExceeded (a 503) once it is
// spent.
const MaxLogisticCPU = 1400 * time.Millisecond

// logisticCPU is MaxLogisticCPU, lowered by tests of the budget.
var logisticCPU = MaxLogisticCPU

// runLogistic steps m from s0 for at most iters iterations, or until it
// is done, charging each step to cost's meter and stopping with
// ErrUnprocessable before a step that might overrun MaxLogisticWork, or
// with the spent CPU budget (logisticCPU) between steps.
// record sees every state, last set on the final one.
func runLogistic(ctx context.Context, m algos.Method[logistic.State], s logistic.State, iters int, cost logisticCost, record func(logistic.State, bool)) (logistic.State, error) {
	spent := cost.fixed
	b := budget.Start(ctx, logisticCPU)
	defer b.Stop()
	last := 0.0
	for s.T < iters && !m.Status(s).Done() {
		record(s, false)
		if err := b.Spend(int(last)); err != nil {
			return s, fmt.Errorf("fit: logistic regression stopped after %d iterations: %w%s", s.T, err, budget.Hint(err))
		}
		if spent+cost.worst(m) > MaxLogisticWork {
			return s, fmt.Errorf("%w: the Newton line searches took more work than the limit (%.2g) allows after %d iterations; rescale x to numbers near 1 or raise params.lambda", ErrUnprocessable, float64(MaxLogisticWork), s.T)
		}
		next := m.Step(s)
		last = cost.step(m, next.Trials)
		spent += last
		if next.T == s.T { // a terminal state: diverged or stalled
			s = next
			break
		}
		s = next
	}
	record(s, true)
	return s, nil
}

// logisticEnd turns a final state that is no answer into an error: an
// overflow, or an exact solve that did not reach ‖∇J‖ < 1e-10.
func logisticEnd(s logistic.State, set logisticSetup, iters int) error {
	switch {
	case s.Status == algos.Diverged && set.solver == "gd":
		return fmt.Errorf("%w: gradient descent overflowed float64 after %d steps with η = %g; lower params.eta (1/L always decreases J) or raise params.lambda", ErrUnprocessable, s.T, set.eta)
	case s.Status == algos.Diverged:
		return fmt.Errorf("%w: Newton's iterates overflowed float64 after %d steps; rescale x to numbers near 1 or raise params.lambda", ErrUnprocessable, s.T)
	case set.solver == "exact" && s.GradNorm >= logistic.Tol:
		why := fmt.Sprintf("after the %d Newton iterations the work limit allows for this x (a small λ on separable data needs many)", iters)
		if s.T < iters {
			why = fmt.Sprintf("after %d iterations, where no step lowers J any more (rounding)", s.T)
		}
		return fmt.Errorf("%w: the exact solver stopped at ‖∇J‖ = %.3g, above 1e-10, %s; rescale x to numbers near 1, raise params.lambda, or use solver \"newton\" to see the iterates", ErrUnprocessable, s.GradNorm, why)
	}
	return nil
}

func logisticStatus(s logistic.State, iters int) string {
	switch {
	case s.GradNorm < logistic.Tol:
		return algos.Converged.Code()
	case s.Status == algos.Converged:
		return "stalled"
	case s.T >= iters:
		return algos.IterationLimit.Code()
	}
	return s.Status.Code()
}

// logisticTraceEvery returns k: a trace keeps states 0, k, 2k, … and the last,
// at most maxLogisticTrace of them and at most MaxTraceNumbers numbers
// (per numbers each).
func logisticTraceEvery(iters, per int) int {
	entries := max(1, min(maxLogisticTrace, MaxTraceNumbers/per)-2)
	return max(1, (iters+entries-1)/entries)
}

// inputErr maps a logistic problem's input error to the fit's: features
// too large for float64 (logistic.ErrScale) are well-formed numbers the
// solver cannot compute with, 422; any other is a bad request, 400.
func inputErr(err error) error {
	if errors.Is(err, logistic.ErrScale) {
		return fmt.Errorf("%w: %v", ErrUnprocessable, err)
	}
	return fitreq.Badf("%v", err)
}
