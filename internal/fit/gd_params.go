package fit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// problem validates pp against req.
func (pp gdParams) problem(req Request) (*gdProblem, error) {
	pr := &gdProblem{iters: 100, seed: 1}
	var err error
	switch pr.name = deref(pp.Objective, ""); pr.name {
	case "quadratic":
		err = pp.quadratic(req, pr)
	case "least-squares", "logistic":
		err = pp.data(req, pr)
	case "":
		err = fitreq.Badf(`params.objective is missing; give "quadratic", "least-squares" or "logistic"`)
	default:
		err = fitreq.Badf(`params.objective is %s; give "quadratic", "least-squares" or "logistic"`, fitreq.Clip(pr.name))
	}
	if err == nil {
		err = pp.run(pr)
	}
	if err != nil {
		return nil, err
	}
	pr.x0 = make([]float64, pr.d)
	if pp.X0 != nil && len(pp.X0) != pr.d {
		return nil, fitreq.Badf("params.x0 has %d numbers; give d = %d (for data: one weight per feature, then b)", len(pp.X0), pr.d)
	}
	copy(pr.x0, pp.X0)
	if err := gdBounded("x0", pp.X0); err != nil {
		return nil, err
	}
	return pr, nil
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func (pp gdParams) quadratic(req Request, pr *gdProblem) error {
	switch d := len(pp.A); {
	case len(req.X) > 0 || len(req.Y) > 0 || len(req.Predict) > 0:
		return fitreq.Badf(`"x", "y" and "predict" do not apply to objective "quadratic"; leave them out`)
	case pp.Lambda != nil || pp.Batch != nil:
		return fitreq.Badf(`params.lambda and params.batch apply only to objectives "least-squares" and "logistic"`)
	case d == 0:
		return fitreq.Badf("params.A is missing; give the d×d symmetric matrix of f = ½xᵀAx − cᵀx")
	case d > MaxGDDim:
		return fitreq.Badf("params.A has %d rows; at most %d are allowed", d, MaxGDDim)
	}
	for i, row := range pp.A {
		if err := gdBounded(fmt.Sprintf("A[%d]", i), row); err != nil {
			return err
		}
	}
	c := pp.C
	if c == nil {
		c = make([]float64, len(pp.A))
	}
	// NewQuadratic checks that A is square and symmetric and c's length;
	// its messages name them ("A is not symmetric: …", "c has 2 entries …").
	q, err := gd.NewQuadratic(pp.A, c)
	if err != nil {
		return fitreq.Badf("params.%s", strings.TrimPrefix(err.Error(), gd.ErrShape.Error()+": "))
	}
	pr.f, pr.d = q, len(pp.A)
	return gdBounded("c", c)
}

func (pp gdParams) data(req Request, pr *gdProblem) error {
	if err := req.Validate(); err != nil {
		return err
	}
	switch {
	case len(req.Predict) > 0:
		return fitreq.Badf(`"predict" does not apply to "gd"; the answer is the iterate x = (w, b)`)
	case pp.A != nil || pp.C != nil:
		return fitreq.Badf(`params.A and params.c apply only to objective "quadratic"`)
	}
	lambda := 0.0
	if pr.name == "logistic" {
		lambda = 0.01
	}
	lambda = deref(pp.Lambda, lambda)
	if !(lambda >= 0) || lambda > MaxParam {
		return fitreq.Badf("params.lambda is %v; give a number ≥ 0 and at most %g", lambda, MaxParam)
	}
	var err error
	if pr.name == "logistic" {
		var y []float64
		if y, err = gdLabels(req.Y); err == nil {
			pr.f, err = gd.NewLogistic(req.X, y, lambda)
		}
	} else {
		pr.f, err = gd.NewLeastSquares(req.X, req.Y, lambda)
	}
	if err != nil {
		return fitreq.Badf("%v", err)
	}
	pr.n, pr.d, pr.lambda = len(req.X), len(req.X[0])+1, lambda
	return nil
}

// gdLabels maps labels all in {−1, +1} or all in {0, 1} to ±1 (0 ↦ −1).
// One class alone is allowed: descent runs all the same.
func gdLabels(y []float64) ([]float64, error) {
	out := make([]float64, len(y))
	zeroOne := slices.Contains(y, 0)
	for i, v := range y {
		switch {
		case v != 1 && v != -1 && v != 0:
			return nil, fitreq.Badf(`"y[%d]" is %v; logistic labels are -1 and +1, or 0 and 1`, i, v)
		case zeroOne && v == -1:
			return nil, fitreq.Badf(`"y[%d]" is -1 but other labels are 0; use -1 and +1, or 0 and 1, not both`, i)
		}
		if out[i] = v; v == 0 {
			out[i] = -1
		}
	}
	return out, nil
}

// run reads the method, step size, schedule, iterations, batch and tol.
func (pp gdParams) run(pr *gdProblem) error {
	switch m := deref(pp.Method, "gd"); m {
	case "gd":
	case "newton":
		pr.method = gd.Newton
		if pp.Eta != nil || pp.Schedule != nil || pp.Decay != nil || pp.Warmup != nil || pp.Batch != nil {
			return fitreq.Badf(`params.eta, schedule, decay, warmup and batch apply only to method "gd"; Newton's method takes the full step ∇²f⁻¹∇f`)
		}
	default:
		return fitreq.Badf(`params.method is %s; give "gd" or "newton"`, fitreq.Clip(m))
	}
	if pr.iters = deref(pp.Iters, 100); pr.iters < 1 || pr.iters > MaxGDIters {
		return fitreq.Badf("params.iters is %d; give 1 to %d", pr.iters, MaxGDIters)
	}
	if pr.eta = pp.Eta; pp.Eta != nil {
		if err := fitreq.Positive("eta", pp.Eta, new(float64)); err != nil {
			return err
		}
	}
	if pp.Batch != nil && (*pp.Batch < 1 || *pp.Batch > pr.n) {
		return fitreq.Badf("params.batch is %d; give 1 to n = %d rows", *pp.Batch, pr.n)
	}
	pr.batch, pr.seed = deref(pp.Batch, 0), uint64(deref(pp.Seed, 1))
	if pr.tol = deref(pp.Tol, 0); !(pr.tol >= 0) || pr.tol > MaxParam {
		return fitreq.Badf("params.tol is %v; give a number ≥ 0 and at most %g", pr.tol, MaxParam)
	}
	return pp.schedule(pr)
}

func (pp gdParams) schedule(pr *gdProblem) error {
	switch name := deref(pp.Schedule, "constant"); name {
	case "constant":
	case "exp-decay":
		pr.sched.Kind = gd.ExpDecay
	case "warmup-linear":
		pr.sched.Kind = gd.WarmupLinear
	default:
		return fitreq.Badf(`params.schedule is %s; give "constant", "exp-decay" or "warmup-linear"`, fitreq.Clip(name))
	}
	switch {
	case pp.Decay != nil && pr.sched.Kind != gd.ExpDecay:
		return fitreq.Badf(`params.decay applies only to schedule "exp-decay"`)
	case pp.Warmup != nil && pr.sched.Kind != gd.WarmupLinear:
		return fitreq.Badf(`params.warmup applies only to schedule "warmup-linear"`)
	}
	if pr.sched.Decay = deref(pp.Decay, gd.DefaultDecay); !(pr.sched.Decay > 0 && pr.sched.Decay <= 1) {
		return fitreq.Badf("params.decay is %v; give 0 < decay ≤ 1", pr.sched.Decay)
	}
	if pr.sched.Warmup = deref(pp.Warmup, 0); pr.sched.Warmup < 0 || pr.sched.Warmup > pr.iters {
		return fitreq.Badf("params.warmup is %d; give 0 to params.iters (%d)", pr.sched.Warmup, pr.iters)
	}
	return nil
}

// gdBounded checks that every entry of v is at most MaxParam in size.
func gdBounded(name string, v []float64) error {
	for i, x := range v {
		if !(math.Abs(x) <= MaxParam) {
			return fitreq.Badf("params.%s[%d] is %v; give numbers from %g to %g", name, i, x, -MaxParam, MaxParam)
		}
	}
	return nil
}
