package fit

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// Limits of "gd". MaxGDWork is in gdWork's units, about a nanosecond of
// one core of the reference machine each: BenchmarkGDWorst's worst cases
// (subnormal products included) took 0.8–1.3 ns of CPU per unit on a busy
// machine, so every allowed request answers in well under 2 s. A trace
// holds at most maxGDTrace entries and MaxTraceNumbers numbers, d + 4 per
// entry.
const (
	MaxGDDim   = 1000    // d of a quadratic objective
	MaxGDIters = 1000000 // iters
	MaxGDWork  = 1.2e9
	maxGDTrace = 10000
)

type gdParams struct {
	Objective *string     `json:"objective"`
	A         [][]float64 `json:"A"`
	C         []float64   `json:"c"`
	Lambda    *float64    `json:"lambda"`
	X0        []float64   `json:"x0"`
	Method    *string     `json:"method"`
	Eta       *float64    `json:"eta"`
	Iters     *int        `json:"iters"`
	Schedule  *string     `json:"schedule"`
	Decay     *float64    `json:"decay"`
	Warmup    *int        `json:"warmup"`
	Batch     *int        `json:"batch"`
	Seed      *int64      `json:"seed"`
	Tol       *float64    `json:"tol"`
}

const gdKnown = `objective ("quadratic": f = ½xᵀAx − cᵀx with A (d×d, symmetric, d ≤ 1000) and c (d numbers, default zeros), no x or y; ` +
	`"least-squares": (1/n)Σ(w·xᵢ + b − yᵢ)² + lambda‖w‖², or "logistic": (1/n)Σ log(1 + exp(−yᵢ(w·xᵢ + b))) + (lambda/2)‖w‖² with y ±1 or 0/1, on x and y), ` +
	`lambda (≥ 0; default 0 for least-squares, 0.01 for logistic), x0 (d numbers, default zeros; for least-squares and logistic d = features + 1, the last being b), ` +
	`method ("gd" default, or "newton"), eta (> 0, default 1/L; gd only), iters (1 to 1000000, default 100), ` +
	`schedule ("constant" default, "exp-decay", "warmup-linear"; gd only), decay (exp-decay: 0 < decay ≤ 1, default 0.99), ` +
	`warmup (warmup-linear: 0 to iters, default 0), batch (least-squares and logistic with gd: rows per step, 1 to n, default n), ` +
	`seed (integer, default 1: the batches' generator), tol (≥ 0, default 0: stop once ‖∇f‖ < tol)`

// GDResponse is the answer for "algorithm": "gd". X is the last iterate
// (for least-squares and logistic, (w, b) with b last) and F its value;
// L is the largest eigenvalue of the Hessian for "quadratic" and
// "least-squares" (where constant steps above 2/L diverge), and for
// "logistic" the bound λ_max(X̃ᵀX̃)/(4n) + lambda. Eta is η₀ as used (1/L
// by default; 0 for newton). The trace holds the state after iterations
// k = e, 2e, 3e, … (e = trace_every) and always the last one.
type GDResponse struct {
	Algorithm  string    `json:"algorithm"`
	Objective  string    `json:"objective"`
	Method     string    `json:"method"`
	X          []float64 `json:"x"`
	F          float64   `json:"f"`
	GradNorm   float64   `json:"grad_norm"`
	F0         float64   `json:"f0"`
	Iterations int       `json:"iterations"`
	Status     string    `json:"status"`
	L          float64   `json:"L"`
	Eta        float64   `json:"eta"`
	TraceEvery int       `json:"trace_every"`
	Trace      []GDStep  `json:"trace"`
}

// GDStep is the state after iteration K: x⁽ᴷ⁾, f(x⁽ᴷ⁾), ‖∇f(x⁽ᴷ⁾)‖ and
// the step size η_K that iteration used (1 for newton).
type GDStep struct {
	K        int       `json:"k"`
	X        []float64 `json:"x"`
	F        float64   `json:"f"`
	GradNorm float64   `json:"grad_norm"`
	Eta      float64   `json:"eta"`
}

// gdProblem is a validated request: the objective and its run.
type gdProblem struct {
	name   string
	f      gd.Func
	n, d   int // rows (0 for quadratic) and parameters
	lambda float64
	x0     []float64
	method gd.Method
	sched  gd.Schedule
	eta    *float64
	iters  int
	batch  int // 0: full gradient
	seed   uint64
	tol    float64
}

func fitGD(ctx context.Context, req Request) (*GDResponse, error) {
	var pp gdParams
	if err := fitreq.StrictParams(req.Params, &pp, gdKnown); err != nil {
		return nil, err
	}
	pr, err := pp.problem(req)
	if err != nil {
		return nil, err
	}
	if work, most := gdWork(pr); work > MaxGDWork {
		lower := "send a smaller problem"
		if most >= 1 {
			lower = fmt.Sprintf("lower params.iters to at most %d for this problem, or send a smaller one", most)
		}
		return nil, fitreq.Badf("%s with %s on %d parameters (n = %d) for %d iterations could cost %s units of work; the limit is %s; %s",
			pr.name, pr.method, pr.d, pr.n, pr.iters, fitreq.Work(work, MaxGDWork), fitreq.Limit(work, MaxGDWork), lower)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: gd not started: %w", err)
	}
	L := pr.f.(gd.Smooth).L()
	eta := 0.0
	if pr.method == gd.Gradient {
		if pr.eta != nil {
			eta = *pr.eta
		} else if eta = 1 / L; !(L > 0) || eta > MaxParam {
			return nil, fitreq.Badf("params.eta has no default here: L = %.3g, so 1/L is no step size (A has no positive eigenvalue, or it is tiny); give params.eta > 0", L)
		}
	}
	st, s, err := pr.stepper(eta)
	switch {
	case errors.Is(err, gd.ErrNotFinite):
		return nil, fmt.Errorf("%w: %v", ErrUnprocessable, err)
	case err != nil:
		return nil, fitreq.Badf("%v", err)
	}
	resp := &GDResponse{Algorithm: "gd", Objective: pr.name, Method: pr.method.String(), F0: s.F, L: L, Eta: eta}
	s, err = runGD(ctx, st, s, pr, resp)
	if err != nil {
		return nil, err
	}
	if s.Status == algos.Diverged {
		return nil, gdDiverged(pr, s, L, eta)
	}
	resp.X, resp.F, resp.GradNorm = s.X, s.F, s.GradNorm
	resp.Iterations, resp.Status = s.K, s.Status.Code()
	return resp, nil
}

// stepper returns the run's stepper (SGD when batch is set) and state 0.
func (pr *gdProblem) stepper(eta float64) (gdStepper, gd.State, error) {
	var st gdStepper = &gd.GD{F: pr.f, Eta: eta, Schedule: pr.sched, Method: pr.method, Iters: pr.iters, Tol: pr.tol}
	if pr.batch > 0 {
		st = &gd.SGD{F: pr.f.(gd.Sum), Eta: eta, Schedule: pr.sched, Batch: pr.batch, Seed: pr.seed, Iters: pr.iters, Tol: pr.tol}
	}
	s, err := st.Init(pr.x0)
	return st, s, err
}

type gdStepper interface {
	algos.InPlace[gd.State]
	Status(gd.State) algos.Status
	Init(x0 []float64) (gd.State, error)
}

// runGD advances s to the end of the run, recording the trace into resp
// and looking at ctx about every millisecond of work.
func runGD(ctx context.Context, st gdStepper, s gd.State, pr *gdProblem, resp *GDResponse) (gd.State, error) {
	entries := min(maxGDTrace, MaxTraceNumbers/(pr.d+4))
	resp.TraceEvery = (pr.iters + entries - 1) / entries
	resp.Trace = make([]GDStep, 0, min(entries, pr.iters)+1)
	check := max(1, int(1e6/gdStepWork(pr)))
	s = st.Clone(s)
	for !st.Status(s).Done() {
		if s.K%check == 0 {
			if err := ctx.Err(); err != nil {
				return s, fmt.Errorf("fit: gd stopped after %d iterations: %w", s.K, err)
			}
		}
		k := s.K
		st.Advance(&s)
		if s.K == k { // diverged: no new iterate
			break
		}
		if s.K%resp.TraceEvery == 0 || st.Status(s).Done() {
			resp.Trace = append(resp.Trace, GDStep{K: s.K, X: append([]float64(nil), s.X...), F: s.F, GradNorm: s.GradNorm, Eta: s.Eta})
		}
	}
	return s, nil
}

// gdDiverged explains a run that left float64's range.
func gdDiverged(pr *gdProblem, s gd.State, L, eta float64) error {
	why := fmt.Sprintf("lower params.eta: the largest stable constant step is 2/L = %.4g", 2/L)
	switch {
	case pr.name == "logistic" && pr.method == gd.Gradient:
		why = fmt.Sprintf("lower params.eta: constant steps below 2/L = %.4g are stable (L bounds the curvature)", 2/L)
	case pr.method == gd.Newton:
		why = `Newton's method is not safe far from a minimum; use method "gd" with a small eta`
		if pr.name == "logistic" {
			why += ", or give lambda > 0"
		}
	case pr.name == "quadratic":
		if ev := pr.f.(*gd.Quadratic).Eigenvalues(); len(ev) > 0 && ev[0] < 0 {
			why = fmt.Sprintf("A has a negative eigenvalue (%.4g), so f is unbounded below and no step size converges", ev[0])
		}
	}
	return fmt.Errorf("%w: gradient descent diverged: iteration %d took x or f(x) past ±1e100 (η₀ = %.4g, L = %.4g); %s",
		ErrUnprocessable, s.K+1, eta, L, why)
}

// gd's cost model, in MaxGDWork's units (≈ 1 ns; BenchmarkGDWorst): a
// multiply-add of a gradient costs 1, and these the rest.
const (
	gdStepCost  = 100 // an iteration's bookkeeping
	gdExpCost   = 40  // a row's exp and log1p (logistic)
	gdSyrkCost  = 0.2 // a multiply-add of X̃ᵀX̃
	gdEigCost   = 0.6 // ·d³: eigenvalues for L
	gdSolveCost = 1.5 // ·d³: the worst Newton solve (eigenvectors, for a Hessian not positive definite)
)

// gdStepWork is the work of one iteration of pr.
func gdStepWork(pr *gdProblem) float64 {
	n, d := float64(pr.n), float64(pr.d)
	if pr.n == 0 { // quadratic: one pass over A per value and gradient
		w := d*d + 4*d + gdStepCost
		if pr.method == gd.Newton {
			w += d*d + gdSolveCost*d*d*d
		}
		return w
	}
	row := 2*d + 2
	if pr.name == "logistic" {
		row += gdExpCost
	}
	w := n*row + 4*d + gdStepCost
	if pr.batch > 0 {
		w += float64(pr.batch)*row + n/64
	}
	if pr.method == gd.Newton {
		w += n*(d+gdExpCost) + gdSyrkCost*n*d*d + gdSolveCost*d*d*d
	}
	return w
}

// gdWork returns the work of pr, L included, and the most iterations the
// limit allows.
func gdWork(pr *gdProblem) (work float64, most int) {
	n, d := float64(pr.n), float64(pr.d)
	fixed := gdEigCost * d * d * d // L of a quadratic
	if pr.n > 0 {
		m := math.Min(n, d) // L from the smaller of X̃ᵀX̃ and X̃X̃ᵀ
		if pr.name == "least-squares" && pr.lambda > 0 {
			m = d // the Hessian itself
		}
		fixed = 3*n*d + gdSyrkCost*n*d*m + gdEigCost*m*m*m
	}
	per := gdStepWork(pr)
	return fixed + float64(pr.iters)*per, int((MaxGDWork - fixed) / per)
}
