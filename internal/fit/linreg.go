package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// Limits of "linear-regression". MaxLinRegWork bounds linRegWork, in
// units of about 1 ns of CPU on one core here (BenchmarkLinearRegressionWorst
// times the largest requests it allows); MaxLinRegIters caps gd's iters;
// maxLinRegTrace caps the trace's entries (fewer when d is large, so that
// it stays within MaxTraceNumbers).
const (
	MaxLinRegWork  = 1.5e9
	MaxLinRegIters = 100000
	maxLinRegTrace = 1000
)

type linRegParams struct {
	Lambda       *float64 `json:"lambda"`
	FitIntercept *bool    `json:"fit_intercept"`
	Solver       *string  `json:"solver"`
	Eta          *float64 `json:"eta"`
	Iters        *int     `json:"iters"`
}

const linRegKnown = `lambda (≥ 0, at most 1e12, default 0), fit_intercept (true or false, default true), solver ("exact" or "gd", default "exact"), and for "gd" only: eta (step size > 0, default 1/L, where L is the largest eigenvalue of the objective's Hessian; it converges for eta < 2/L) and iters (1 to 100000, default 1000)`

// linRegSetup is a validated request.
type linRegSetup struct {
	lambda    float64
	intercept bool
	gd        bool
	eta       float64 // 0: 1/L
	iters     int
}

func (lp linRegParams) setup() (linRegSetup, error) {
	s := linRegSetup{intercept: true, iters: 1000}
	if lp.Lambda != nil {
		if !(*lp.Lambda >= 0) || *lp.Lambda > MaxParam {
			return s, fitreq.Badf("params.lambda is %v; give a number ≥ 0 and at most %g", *lp.Lambda, MaxParam)
		}
		s.lambda = *lp.Lambda
	}
	if lp.FitIntercept != nil {
		s.intercept = *lp.FitIntercept
	}
	if lp.Solver != nil {
		switch *lp.Solver {
		case "exact":
		case "gd":
			s.gd = true
		default:
			return s, fitreq.Badf(`params.solver is %s; use "exact" or "gd"`, fitreq.Clip(*lp.Solver))
		}
	}
	if !s.gd && (lp.Eta != nil || lp.Iters != nil) {
		return s, fitreq.Badf(`params.eta and params.iters apply only to params.solver "gd"; drop them or set solver to "gd"`)
	}
	if err := fitreq.Positive("eta", lp.Eta, &s.eta); err != nil {
		return s, err
	}
	if lp.Iters != nil {
		if *lp.Iters < 1 || *lp.Iters > MaxLinRegIters {
			return s, fitreq.Badf("params.iters is %d; give 1 to %d", *lp.Iters, MaxLinRegIters)
		}
		s.iters = *lp.Iters
	}
	return s, nil
}

// LinearRegressionResponse is the answer for "algorithm":
// "linear-regression": the model w, b, its objective
// (1/n) Σ (w·xᵢ + b − yᵢ)² + λ‖w‖² and the scores w·x + b of the predict
// rows. With solver "gd" it adds the iterations run, how the run ended
// (status "converged" or "iteration_limit"), the step eta used, L, and
// with "trace" the iterates.
type LinearRegressionResponse struct {
	Algorithm  string       `json:"algorithm"`
	Solver     string       `json:"solver"`
	W          []float64    `json:"w"`
	B          float64      `json:"b"`
	Objective  float64      `json:"objective"`
	Scores     []float64    `json:"scores"`
	Iterations *int         `json:"iterations,omitempty"`
	Status     string       `json:"status,omitempty"`
	Eta        float64      `json:"eta,omitempty"`
	L          float64      `json:"L,omitempty"`
	TraceEvery int          `json:"trace_every,omitempty"`
	Trace      []LinRegStep `json:"trace,omitempty"`
}

// LinRegStep is gradient descent's iterate after step t.
type LinRegStep struct {
	T         int       `json:"t"`
	W         []float64 `json:"w"`
	B         float64   `json:"b"`
	Objective float64   `json:"objective"`
}

// The cost model, in ns of CPU on one core here, fitted to CPU times of
// the worst requests (TestLinearRegressionWorstCPU) on a 2-core machine
// loaded by other jobs, so on the safe side. Decoding costs decodeCost
// per number of x and predict. The exact solver costs qrCost·n·d² for the
// Householder QR of a tall design (n > d) and then svdCost·d³ for the SVD
// of its d×d triangle, or svdCost·n²·d for the SVD of a design with
// n ≤ d. gd costs gramCost·n·d̃² + eigCost·d̃³ for L (d̃ = d + 1 with an
// intercept) and gdStep·n·(d + 2) per iteration (a pass over the data
// for the residuals, the gradient and the objective). Both add the
// objective and the scores, (n + m)(d + 1).
const (
	decodeCost = 100
	qrCost     = 0.8
	svdCost    = 4.5
	gramCost   = 0.5
	eigCost    = 0.5
	gdStep     = 2.4
)

// linRegWork returns the work of s on n rows of d features with m predict
// rows, and for gd the most iterations the limit allows (< 1 if none).
func linRegWork(s linRegSetup, n, d, m int) (work float64, most int) {
	fn, fd := float64(n), float64(d)
	fixed := (fn + float64(m)) * (fd*decodeCost + fd + 1)
	if !s.gd {
		if n > d {
			return fixed + qrCost*fn*fd*fd + svdCost*fd*fd*fd, 0
		}
		return fixed + svdCost*fn*fn*fd, 0
	}
	dt := fd
	if s.intercept {
		dt++
	}
	fixed += gramCost*fn*dt*dt + eigCost*dt*dt*dt
	per := gdStep * fn * (fd + 2)
	return fixed + per*float64(s.iters), int(math.Floor((MaxLinRegWork - fixed) / per))
}

func fitLinearRegression(ctx context.Context, req Request) (*LinearRegressionResponse, error) {
	var lp linRegParams
	if err := fitreq.StrictParams(req.Params, &lp, linRegKnown); err != nil {
		return nil, err
	}
	s, err := lp.setup()
	if err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	if work, most := linRegWork(s, n, d, len(req.Predict)); work > MaxLinRegWork {
		if s.gd && most >= 1 {
			return nil, fitreq.Badf("params.iters = %d could cost %s units of work on %d rows of %d features; the limit is %s; lower params.iters to at most %d for this x, or send fewer rows or features",
				s.iters, fitreq.Work(work, MaxLinRegWork), n, d, fitreq.Limit(work, MaxLinRegWork), most)
		}
		return nil, fitreq.Badf("solving on %d rows of %d features could cost %s units of work (about 1 ns each); the limit is %s: %s",
			n, d, fitreq.Work(work, MaxLinRegWork), fitreq.Limit(work, MaxLinRegWork), linRegAdvice(s, n, d))
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: linear regression not started: %w", err)
	}
	resp := &LinearRegressionResponse{Algorithm: "linear-regression", Solver: "exact"}
	if s.gd {
		err = runLinRegGD(ctx, req, s, resp)
	} else {
		err = fitExactScaled(req, s, resp)
	}
	if err != nil {
		return nil, linRegError(err)
	}
	if err := resp.finish(req, s.lambda); err != nil {
		return nil, err
	}
	return resp, nil
}

// linRegAdvice says how to bring a request within the limit: the most
// rows it allows for these features, and the most features for these
// rows (the work grows with both).
func linRegAdvice(s linRegSetup, n, d int) string {
	fits := func(r, f int) bool { w, _ := linRegWork(s, r, f, 0); return w <= MaxLinRegWork }
	rows := sort.Search(n+1, func(r int) bool { return !fits(r, d) }) - 1
	feats := sort.Search(d+1, func(f int) bool { return !fits(n, f) }) - 1
	switch {
	case rows >= 1 && feats >= 1:
		return fmt.Sprintf("send at most %d rows of these %d features, or at most %d features for these %d rows", rows, d, feats, n)
	case rows >= 1:
		return fmt.Sprintf("send at most %d rows of these %d features", rows, d)
	case feats >= 1:
		return fmt.Sprintf("send at most %d features for these %d rows", feats, n)
	}
	return "send fewer rows and features"
}

// runLinRegGD runs gradient descent for s.iters steps, looking at ctx
// before each, and fills resp.
func runLinRegGD(ctx context.Context, req Request, s linRegSetup, resp *LinearRegressionResponse) error {
	g, st, err := linreg.NewGD(req.X, req.Y, s.lambda, 1, s.intercept)
	if err != nil {
		return err
	}
	l := g.L()
	g.Eta = s.eta
	if g.Eta == 0 {
		g.Eta = 1
		if l > 0 {
			g.Eta = 1 / l
		}
	}
	if !(g.Eta > 0) || math.IsInf(g.Eta, 0) || math.IsInf(l, 0) {
		return fmt.Errorf("%w: the objective's curvature L = %v overflows float64; rescale x to smaller numbers", ErrUnprocessable, l)
	}
	d := len(req.X[0])
	every := linRegTraceEvery(s.iters, d)
	if req.Trace {
		resp.TraceEvery = every
	}
	for st.T < s.iters && !st.Status.Done() {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("fit: gradient descent stopped after %d iterations: %w", st.T, err)
		}
		st = g.Step(st)
		if st.Status == algos.Diverged {
			return fmt.Errorf("%w: gradient descent diverged: with eta = %g the objective grew to %.3g by iteration %d and the next step leaves float64's safe range; the largest stable step is 2/L = %g (L = %g): set params.eta below it, or omit it for 1/L",
				ErrUnprocessable, g.Eta, st.Objective, st.T, 2/l, l)
		}
		if req.Trace && (st.T%every == 0 || st.T == s.iters || st.Status.Done()) {
			resp.Trace = append(resp.Trace, LinRegStep{T: st.T, W: append([]float64(nil), st.W...), B: st.B, Objective: st.Objective})
		}
	}
	status := st.Status
	if status == algos.Running {
		status = algos.IterationLimit
	}
	iters := st.T
	resp.Solver, resp.Iterations, resp.Status, resp.Eta, resp.L = "gd", &iters, status.Code(), g.Eta, l
	resp.W, resp.B = st.W, st.B
	return nil
}

// linRegTraceEvery returns k: the trace holds iterates k, 2k, … and the
// last, at most maxLinRegTrace of them and at most MaxTraceNumbers
// numbers (d + 2 per entry).
func linRegTraceEvery(iters, d int) int {
	entries := min(maxLinRegTrace, MaxTraceNumbers/(d+2))
	return (iters + entries - 1) / entries
}

// finish computes the objective and the scores, unless the exact solver
// did in its scaled space, refusing overflow.
func (resp *LinearRegressionResponse) finish(req Request, lambda float64) error {
	m := linreg.Model{W: resp.W, B: resp.B}
	if resp.Solver != "exact" {
		resp.Objective = linreg.Objective(req.X, req.Y, m, lambda)
	}
	if !fitreq.Finite(resp.W) || !fitreq.Finite([]float64{resp.B, resp.Objective}) {
		return fmt.Errorf("%w: the fitted weights or the objective overflow float64; rescale x and y to smaller numbers (or raise params.lambda)", ErrUnprocessable)
	}
	if resp.Solver == "exact" {
		return nil // fitExactScaled scored the predict rows
	}
	resp.Scores = make([]float64, len(req.Predict))
	for i, x := range req.Predict {
		resp.Scores[i] = m.Predict(x)
		if !fitreq.Finite(resp.Scores[i : i+1]) {
			return fmt.Errorf("%w: the score w·x + b of predict[%d] overflows float64 (the largest |w| is %.3g): that row is far larger than the rows of x; send predict rows of x's scale, or rescale x and predict by the same factor", ErrUnprocessable, i, maxAbs(resp.W))
		}
	}
	return nil
}

// maxAbs is the largest |v| in v, 0 for none.
func maxAbs(v []float64) float64 {
	var m float64
	for _, t := range v {
		m = max(m, math.Abs(t))
	}
	return m
}

// linRegError maps linreg's errors: overflow is a 422, anything the
// checks above let through a 400.
func linRegError(err error) error {
	switch {
	case errors.Is(err, ErrUnprocessable), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, linreg.ErrNotFinite):
		return fmt.Errorf("%w: %v", ErrUnprocessable, err)
	case errors.Is(err, linreg.ErrParameters):
		return fitreq.Badf("%v", err)
	}
	return err
}
