package svmfit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/budget"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// Limits of "svm" beyond the shared ones. MaxSVMWork is in svmCost's
// units (about a nanosecond of one idle core of the reference machine
// each); with decoding and encoding it keeps every allowed request under
// 2 s (BenchmarkSVMWorst). maxSVMCache bounds the kernel-column cache.
const (
	MaxIter    = 10000000 // svm max_iter
	MaxSVMWork = 1.5e9
	// MaxSVMCPU is the CPU SMO may use, whatever MaxSVMWork allows:
	// subnormal products cost about 100 times the model's units, and
	// large γ or C can make the model's column count an underestimate
	// (issue 28: 3.2–4.2 s at the documented limits). The run then stops
	// with status iteration_limit and the state reached.
	MaxSVMCPU    = 1400 * time.Millisecond
	maxSVMCache  = 200e6
	svmTraceStep = 8 // numbers per SMO step in a trace
)

type svmParams struct {
	C       *float64 `json:"C"`
	Hard    *bool    `json:"hard"`
	Kernel  *string  `json:"kernel"`
	Gamma   *float64 `json:"gamma"`
	Degree  *int     `json:"degree"`
	Coef0   *float64 `json:"coef0"`
	Tol     *float64 `json:"tol"`
	MaxIter *int     `json:"max_iter"`
}

const svmKnown = `C (> 0, default 1), hard (bool, default false), kernel ("linear" default, "poly", "rbf" or "laplace"), gamma (> 0, default 1), degree (1 to 10, default 2), coef0 (≥ 0, default 1), tol (> 0, default 1e-8), max_iter (1 to 10000000; default the most the work limit allows)`

// SVMResponse is the answer for "algorithm": "svm". W, PrimalObjective
// and Margin are for the linear kernel only (Margin also needs w ≠ 0).
type SVMResponse struct {
	Algorithm       string    `json:"algorithm"`
	Kernel          string    `json:"kernel"`
	Alpha           []float64 `json:"alpha"`
	B               float64   `json:"b"`
	W               []float64 `json:"w,omitempty"`
	Support         []int     `json:"support"`
	SupportKind     []string  `json:"support_kind"`
	DualObjective   float64   `json:"dual_objective"`
	PrimalObjective *float64  `json:"primal_objective,omitempty"`
	Margin          *float64  `json:"margin,omitempty"`
	Gap             float64   `json:"gap"`
	Iterations      int       `json:"iterations"`
	MaxIter         int       `json:"max_iter"`
	Status          string    `json:"status"`
	Scores          []float64 `json:"scores"`
	Trace           []SMOStep `json:"trace,omitempty"`
}

// SMOStep is the state after one SMO iteration: the pair it updated, their
// new multipliers, and b, D(α) and the gap m(α) − M(α) after it.
type SMOStep struct {
	T             int     `json:"t"`
	I             int     `json:"i"`
	J             int     `json:"j"`
	AlphaI        float64 `json:"alpha_i"`
	AlphaJ        float64 `json:"alpha_j"`
	B             float64 `json:"b"`
	DualObjective float64 `json:"dual_objective"`
	Gap           float64 `json:"gap"`
}

// svmCPU is MaxSVMCPU, lowered by tests of the budget.
var svmCPU = MaxSVMCPU

func (sp svmParams) params() (svm.Params, error) {
	p := svm.DefaultParams()
	p.Tol = 1e-8
	p.Kernel = svm.Kernel{Kind: svm.Linear, Gamma: 1, Degree: 2, Coef0: 1}
	if sp.Kernel != nil {
		k, err := parseTrainingKernel(*sp.Kernel)
		if err != nil {
			return p, err
		}
		p.Kernel.Kind = k
	}
	if sp.Hard != nil {
		p.Hard = *sp.Hard
	}
	for _, f := range []struct {
		name   string
		v, dst *float64
	}{{"C", sp.C, &p.C}, {"gamma", sp.Gamma, &p.Kernel.Gamma}, {"tol", sp.Tol, &p.Tol}} {
		if err := fitreq.Positive(f.name, f.v, f.dst); err != nil {
			return p, err
		}
	}
	if sp.Coef0 != nil {
		if !(*sp.Coef0 >= 0) || *sp.Coef0 > fitreq.MaxParam {
			return p, fitreq.Badf("params.coef0 is %v; give a number ≥ 0 and at most %g (a negative one can make the kernel indefinite)", *sp.Coef0, fitreq.MaxParam)
		}
		p.Kernel.Coef0 = *sp.Coef0
	}
	if sp.Degree != nil {
		if *sp.Degree < 1 || *sp.Degree > svm.MaxDegree {
			return p, fitreq.Badf("params.degree is %d; give an integer from 1 to %d", *sp.Degree, svm.MaxDegree)
		}
		p.Kernel.Degree = *sp.Degree
	}
	p.MaxIter = 0 // the default is set from the work limit
	if sp.MaxIter != nil {
		if *sp.MaxIter < 1 || *sp.MaxIter > MaxIter {
			return p, fitreq.Badf("params.max_iter is %d; give 1 to %d", *sp.MaxIter, MaxIter)
		}
		p.MaxIter = *sp.MaxIter
	}
	return p, nil
}

// parseTrainingKernel reads params.kernel for a trainer: one of the four
// Mercer kernels. The non-kernels sigmoid and neg-sqdist, which
// POST /api/v1/gram accepts, are refused with the reason.
func parseTrainingKernel(name string) (svm.KernelKind, error) {
	k, err := svm.ParseFunctionKind(name)
	switch {
	case err != nil:
		return 0, fitreq.Badf(`params.kernel is %s; use "linear", "poly", "rbf" or "laplace"`, fitreq.Clip(name))
	case !k.Mercer():
		return 0, fitreq.Badf(`params.kernel is %q, which is not a kernel: its Gram matrix can have negative eigenvalues, so the training problem is not convex; use "linear", "poly", "rbf" or "laplace" (POST /api/v1/gram shows its eigenvalues)`, k)
	}
	return k, nil
}

// SVM fits "svm": LIBSVM's SMO (package svm) with the requested C or hard
// margin, kernel, tolerance and iteration budget, refused up front when
// its cost model says it would run past MaxSVMWork. req has passed
// fit.Run's checks (Validate, SignLabels).
func SVM(ctx context.Context, req fitreq.Request) (*SVMResponse, error) {
	var sp svmParams
	if err := fitreq.StrictParams(req.Params, &sp, svmKnown); err != nil {
		return nil, err
	}
	p, err := sp.params()
	if err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	y, err := fitreq.BothClasses(req.Y)
	if err != nil {
		return nil, err
	}
	if err := kernelOverflow(p.Kernel, req.X); err != nil {
		return nil, err
	}
	cost := newSVMCost(p, n, d, len(req.Predict))
	most := cost.most()
	if most < 1 {
		hint := ""
		if p.Hard {
			hint = ", or use a soft margin (hard false): deciding whether the data are separable is what costs most here"
		}
		return nil, fitreq.Badf("the fit would cost %s units of work with a single iteration; the limit is %s; send fewer rows, features or predict rows%s",
			fitreq.Work(cost.work(1), MaxSVMWork), fitreq.Limit(cost.work(1), MaxSVMWork), hint)
	}
	metered := p.MaxIter == 0
	if metered {
		// No max_iter: the run is budgeted by the work it does (cost.meter),
		// not by the iterations the worst case would allow, so shrinking's
		// cheap late iterations count as cheap (issue 18: a separable
		// n = 2000, d = 50 hard margin stopped at 44,317 of the ~450,000
		// iterations svm-train needs).
		p.MaxIter = MaxIter
	} else if p.MaxIter > most {
		return nil, fitreq.Badf("params.max_iter = %d could cost %s units of work on %d rows of %d features; the limit is %s; lower params.max_iter to at most %d for this x, or send fewer rows or features",
			p.MaxIter, fitreq.Work(cost.work(p.MaxIter), MaxSVMWork), n, d, fitreq.Limit(cost.work(p.MaxIter), MaxSVMWork), most)
	}
	p.CacheBytes, _ = svmCache(n)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: svm not started: %w", err)
	}
	b := budget.Start(ctx, svmCPU)
	defer b.Stop()
	pr, s, err := svm.New(req.X, y, p)
	if err != nil {
		return nil, svmError(err)
	}
	if s.Status == algos.Infeasible {
		return nil, infeasible(p.Kernel)
	}
	var trace []SMOStep
	if req.Trace {
		s, trace, err = stepSVM(ctx, pr, s, cost, metered, b)
	} else {
		s, err = pr.SolvePolled(ctx, cost.meter(metered, b), func(units int) bool { return b.Spend(units) == nil })
		if err == nil && b.Err() != nil && !budget.IsSpent(b.Err()) {
			err = b.Err() // the context, seen by the meter
		}
		if err != nil {
			err = fmt.Errorf("fit: svm stopped after %d iterations: %w", s.T, err)
		}
	}
	if err != nil {
		return nil, err
	}
	if s.Status == algos.Infeasible {
		return nil, indistinguishable(pr, s, p.Kernel)
	}
	return svmResponse(pr, s, p, req.Predict, trace)
}

// indistinguishable is the 422 of a hard margin whose solver met two
// points of different labels that the kernel cannot tell apart:
// K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ) = ‖φ(xᵢ) − φ(xⱼ)‖² rounds to 0, so
// φ(xᵢ) = φ(xⱼ) in float64 and no hyperplane in feature space puts them
// on opposite sides (issue 28: rbf on [0, 0] and [1e-9, 0] ran 6.9 M
// iterations to α = 1.4e19).
func indistinguishable(pr *svm.Problem, s svm.State, k svm.Kernel) error {
	return fmt.Errorf("%w: the data are not separable in the %s kernel's feature space as float64 computes it: points %d and %d have different labels, but their kernel values agree to rounding (K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ) = ‖φ(xᵢ) − φ(xⱼ)‖² is 0), so no hard margin exists; use a soft margin (set params.hard to false), or rescale x or raise params.gamma so that the kernel tells them apart",
		fitreq.ErrUnprocessable, k, s.I, s.J)
}

// stepSVM runs SMO one recorded step at a time (without Solve's
// shrinking, so these are the iterates a lesson steps through).
func stepSVM(ctx context.Context, pr *svm.Problem, s svm.State, cost svmCost, metered bool, b *budget.Budget) (svm.State, []SMOStep, error) {
	maxTrace := fitreq.MaxTraceNumbers / svmTraceStep
	var trace []SMOStep
	s = pr.Clone(s)
	step := int(cost.perIter + 2*cost.col) // an iteration's nominal work, at most
	for !s.Status.Done() {
		if err := b.Spend(step); budget.IsSpent(err) {
			s.Status = algos.IterationLimit
			break
		} else if err != nil {
			return s, nil, fmt.Errorf("fit: svm stopped after %d iterations: %w", s.T, err)
		}
		if len(trace) == maxTrace {
			return s, nil, fitreq.Badf("the trace would hold more than %d numbers (%d per SMO step, so %d steps); set trace to false, or lower params.max_iter to at most %d",
				fitreq.MaxTraceNumbers, svmTraceStep, maxTrace, maxTrace)
		}
		if metered && cost.work(s.T+1) > MaxSVMWork {
			s.Status = algos.IterationLimit
			break
		}
		pr.Advance(&s)
		if pr.Indistinguishable(s) {
			s.Status = algos.Infeasible
			break
		}
		trace = append(trace, SMOStep{T: s.T, I: s.I, J: s.J, AlphaI: s.Alpha[s.I], AlphaJ: s.Alpha[s.J],
			B: s.B, DualObjective: s.Dual, Gap: s.Gap})
	}
	return s, trace, nil
}

func svmResponse(pr *svm.Problem, s svm.State, p svm.Params, predict [][]float64, trace []SMOStep) (*SVMResponse, error) {
	resp := &SVMResponse{
		Algorithm: "svm", Kernel: p.Kernel.String(), Alpha: s.Alpha, B: s.B,
		Support: []int{}, SupportKind: []string{},
		DualObjective: s.Dual, Gap: s.Gap, Iterations: s.T, MaxIter: p.MaxIter,
		Status: s.Status.Code(), Scores: make([]float64, len(predict)), Trace: trace,
	}
	resp.Support = append(resp.Support, pr.Support(s)...)
	resp.SupportKind = supportKinds(pr, s, p, resp.Support)
	if !fitreq.Finite(s.Alpha) || !fitreq.Finite([]float64{s.B, s.Dual}) {
		return nil, errSVMOverflow
	}
	if w := pr.Weights(s); w != nil {
		resp.W = w
		primal := pr.Primal(s)
		resp.PrimalObjective = &primal
		if m := 1 / math.Sqrt(linearScore(w, 0, w)); !math.IsInf(m, 0) {
			resp.Margin = &m
		}
		if !fitreq.Finite(w) || !fitreq.Finite([]float64{primal}) {
			return nil, errSVMOverflow
		}
		// Weak duality: the soft margin's P(w, b) ≥ −D(α) for every
		// feasible α, so a primal below the dual's value by more than
		// rounding means the sums lost it. (A hard margin's ½‖w‖² is a
		// primal value only once w separates the data, at convergence.)
		if !p.Hard && primal+s.Dual < -1e-9*max(1, math.Abs(primal), math.Abs(s.Dual)) {
			return nil, fmt.Errorf("%w: the SVM's primal objective %g is below its dual's value %g by more than rounding; rescale x to smaller numbers, or lower C", fitreq.ErrUnprocessable, primal, -s.Dual)
		}
	}
	for i, x := range predict {
		if resp.W != nil {
			resp.Scores[i] = linearScore(resp.W, s.B, x)
		} else {
			resp.Scores[i] = pr.Decision(s, x)
		}
		if !fitreq.Finite(resp.Scores[i : i+1]) {
			return nil, fmt.Errorf("%w: the score f(x) of predict[%d] overflowed; rescale x and predict to smaller numbers", fitreq.ErrUnprocessable, i)
		}
	}
	return resp, nil
}

// supportKinds classifies the support vectors sv of s by svm's Kind
// rules: "margin" when 0 < αᵢ < C (always with a hard margin); at the
// bound αᵢ ≥ C, "misclassified" when yᵢf(xᵢ) < 0, else "inside". It
// applies them here because Kind recomputes the support threshold, an
// O(n) pass, for every vector; TestSupportKinds checks the two agree.
func supportKinds(pr *svm.Problem, s svm.State, p svm.Params, sv []int) []string {
	kinds := make([]string, len(sv))
	for k, i := range sv {
		switch margin := s.G[i] + 1 + pr.Y[i]*s.B; {
		case p.Hard || s.Alpha[i] < p.C:
			kinds[k] = svm.OnMargin.String()
		case margin < 0:
			kinds[k] = svm.Misclassified.String()
		default:
			kinds[k] = svm.Inside.String()
		}
	}
	return kinds
}

func infeasible(k svm.Kernel) error {
	where := "linearly separable"
	if k.Kind != svm.Linear {
		where = fmt.Sprintf("linearly separable in the %s kernel's feature space (a point appears with both labels, or the classes' hulls meet there)", k)
	}
	return fmt.Errorf("%w: the data are not %s, so no hard margin exists; use a soft margin instead: set params.hard to false and choose params.C (> 0, default 1), which lets points inside the margin at a cost", fitreq.ErrUnprocessable, where)
}

// svmError maps an error of svm.New: a parameter or shape the fit's own
// checks let through is the caller's to fix (400); numbers the solver
// cannot compute with are a 422.
func svmError(err error) error {
	switch {
	case errors.Is(err, svm.ErrNotFinite):
		return fmt.Errorf("%w: %v", fitreq.ErrUnprocessable, err)
	case errors.Is(err, svm.ErrUndecided):
		return fmt.Errorf("%w: %v; use a soft margin (set params.hard to false)", fitreq.ErrUnprocessable, err)
	case errors.Is(err, svm.ErrParameters), errors.Is(err, svm.ErrLabel), errors.Is(err, svm.ErrShape),
		errors.Is(err, svm.ErrNoData), errors.Is(err, svm.ErrTooLarge):
		return fitreq.Badf("%v", err)
	}
	return err
}

var errSVMOverflow = fmt.Errorf("%w: the SVM's multipliers or objective overflowed to ±Inf or NaN; rescale x to smaller numbers, or lower C or gamma", fitreq.ErrUnprocessable)
