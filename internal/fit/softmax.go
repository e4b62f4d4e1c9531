package fit

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/fit/budget"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

type softmaxParams struct {
	Lambda *float64 `json:"lambda"`
}

const softmaxKnown = "lambda (> 0, default 0.01)"

// SoftmaxResponse is the answer for "algorithm": "softmax-regression":
// the minimiser (W, b) of J(W, b) = (1/n) Σ −log softmax(Wxᵢ + b)_{yᵢ} +
// (λ/2)‖W‖²_F with Σ_c b_c = 0 (J does not change when the same number is
// added to every b_c; scikit-learn reports this one too), J there, ‖∇J‖,
// the Newton iterations, and for each predict row the c class
// probabilities and the most probable class (ties to the smaller).
type SoftmaxResponse struct {
	Algorithm  string        `json:"algorithm"`
	Classes    int           `json:"classes"`
	W          [][]float64   `json:"W"`
	B          []float64     `json:"b"`
	Objective  float64       `json:"objective"`
	GradNorm   float64       `json:"grad_norm"`
	Iterations int           `json:"iterations"`
	Proba      [][]float64   `json:"proba"`
	Labels     []int         `json:"labels"`
	Trace      []SoftmaxStep `json:"trace,omitempty"`
}

// SoftmaxStep is the objective and gradient norm after t Newton steps.
type SoftmaxStep struct {
	T         int     `json:"t"`
	Objective float64 `json:"objective"`
	GradNorm  float64 `json:"grad_norm"`
}

// softmaxLabels reads y as class numbers 0…c−1, c = max + 1 with
// 2 ≤ c ≤ logistic.MaxClasses, and requires every class to occur: an
// empty class has no finite optimum (its b_c would go to −∞).
func softmaxLabels(y []float64) ([]int, int, error) {
	out := make([]int, len(y))
	c := 0
	for i, v := range y {
		if v != math.Trunc(v) || v < 0 || v >= logistic.MaxClasses {
			return nil, 0, fitreq.Badf(`"y[%d]" is %v; softmax-regression labels are class numbers 0, 1, …, at most %d`, i, v, logistic.MaxClasses-1)
		}
		out[i] = int(v)
		c = max(c, out[i]+1)
	}
	if c < 2 {
		return nil, 0, fitreq.Badf(`"y" has only class 0; softmax regression needs at least two classes, numbered 0, 1, …`)
	}
	seen := make([]bool, c)
	for _, v := range out {
		seen[v] = true
	}
	for k, ok := range seen {
		if !ok {
			return nil, 0, fitreq.Badf(`"y" has classes up to %d but none of class %d; number the classes 0 to c−1 with every class present (a class with no points has no finite optimum: its b would go to −∞)`, c-1, k)
		}
	}
	return out, c, nil
}

// softmaxCost is the work model of softmax Newton, in MaxLogisticWork's
// units (see logisticCost): J and ∇J cost 60 + c(30 + 4(d+1)) per row;
// the Hessian's c(c+1)/2 blocks 3n(d+1) + 1.2n(d+1)² + 10(d+1)² each;
// its Cholesky solve P³/3 + 10P² with P = c(d+1) unknowns.
type softmaxCost struct{ fixed, eval, newton float64 }

func newSoftmaxCost(n, d, c, m int) softmaxCost {
	fn, d1, fc := float64(n), float64(d+1), float64(c)
	p := fc * d1
	sc := softmaxCost{eval: fn * (60 + fc*(30+4*d1))}
	sc.newton = fc*(fc+1)/2*(3*fn*d1+1.2*fn*d1*d1+10*d1*d1) + fn*fc*40 + p*p*p/3 + 10*p*p
	sc.fixed = sc.eval + float64(m)*fc*(40+3*d1)
	return sc
}

// plan returns the most Newton iterations to run, at least minExactIters.
func (sc softmaxCost) plan(n, d, c int) (int, error) {
	typical := sc.newton + 2*sc.eval
	most := int(max(0, (MaxLogisticWork-sc.fixed-(logistic.MaxTrials-2)*sc.eval)/typical))
	if most < minExactIters {
		// What the decision compares with the limit: the fixed costs,
		// minExactIters typical steps and one step's spare trials.
		work := sc.fixed + minExactIters*typical + (logistic.MaxTrials-2)*sc.eval
		return 0, fitreq.Badf("softmax regression needs room for %d Newton steps, which could cost %s units of work on %d rows of %d features in %d classes; the limit is %s; send fewer rows or features (a step costs about c²n·d²/2 + (c·d)³/3)", minExactIters, fitreq.Work(work, MaxLogisticWork), n, d, c, fitreq.Limit(work, MaxLogisticWork))
	}
	return min(most, maxExactIters), nil
}

func fitSoftmaxRegression(ctx context.Context, req Request) (*SoftmaxResponse, error) {
	var sp softmaxParams
	if err := fitreq.StrictParams(req.Params, &sp, softmaxKnown); err != nil {
		return nil, err
	}
	lambda := logisticDefaultLambda
	if err := fitreq.Positive("lambda", sp.Lambda, &lambda); err != nil {
		return nil, err
	}
	y, c, err := softmaxLabels(req.Y)
	if err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	cost := newSoftmaxCost(n, d, c, len(req.Predict))
	iters, err := cost.plan(n, d, c)
	if err != nil {
		return nil, err
	}
	s, err := logistic.NewSoftmax(req.X, y, c, lambda)
	if err != nil {
		return nil, inputErr(err)
	}
	resp := &SoftmaxResponse{Algorithm: "softmax-regression", Classes: c}
	st, err := runSoftmax(ctx, logistic.SoftmaxNewton{S: s}, s.Start(), iters, cost, func(st logistic.SoftmaxState) {
		if req.Trace {
			resp.Trace = append(resp.Trace, SoftmaxStep{T: st.T, Objective: st.Objective, GradNorm: st.GradNorm})
		}
	})
	if err != nil {
		return nil, err
	}
	switch {
	case st.Status == algos.Diverged:
		return nil, fmt.Errorf("%w: Newton's iterates overflowed float64 after %d steps; rescale x to numbers near 1 or raise params.lambda", ErrUnprocessable, st.T)
	case st.GradNorm >= logistic.Tol && st.T >= iters:
		return nil, fmt.Errorf("%w: Newton's method reached ‖∇J‖ = %.3g, not yet below 1e-10, in the %d iterations the work limit allows for this x; raise params.lambda (a small λ on separable data needs many steps), or send fewer rows or features", ErrUnprocessable, st.GradNorm, st.T)
	case st.GradNorm >= logistic.Tol:
		return nil, fmt.Errorf("%w: Newton's method stopped at ‖∇J‖ = %.3g, above 1e-10, after %d iterations, where no step lowers J any more (rounding); rescale x to numbers near 1 or raise params.lambda", ErrUnprocessable, st.GradNorm, st.T)
	}
	resp.W, resp.B, resp.Objective, resp.GradNorm, resp.Iterations = st.Model.W, st.Model.B, st.Objective, st.GradNorm, st.T
	resp.Proba = make([][]float64, len(req.Predict))
	resp.Labels = make([]int, len(req.Predict))
	for i, x := range req.Predict {
		z := st.Model.Scores(x)
		if !fitreq.Finite(z) {
			return nil, fmt.Errorf("%w: the scores of predict[%d] overflowed; rescale x and predict to smaller numbers", ErrUnprocessable, i)
		}
		resp.Proba[i] = st.Model.Proba(x)
		resp.Labels[i] = st.Model.Predict(x)
	}
	return resp, nil
}

// runSoftmax is runLogistic for softmax Newton, with the same CPU budget.
func runSoftmax(ctx context.Context, m logistic.SoftmaxNewton, st logistic.SoftmaxState, iters int, cost softmaxCost, record func(logistic.SoftmaxState)) (logistic.SoftmaxState, error) {
	spent := cost.fixed
	b := budget.Start(ctx, logisticCPU)
	defer b.Stop()
	record(st)
	for st.T < iters && !st.Status.Done() {
		if err := b.Check(); err != nil { // a Newton step is milliseconds at least
			return st, fmt.Errorf("fit: softmax regression stopped after %d iterations: %w%s", st.T, err, budget.Hint(err))
		}
		if spent+cost.newton+logistic.MaxTrials*cost.eval > MaxLogisticWork {
			return st, fmt.Errorf("%w: the Newton line searches took more work than the limit (%.2g) allows after %d iterations; rescale x to numbers near 1 or raise params.lambda", ErrUnprocessable, float64(MaxLogisticWork), st.T)
		}
		next := m.Step(st)
		spent += cost.newton + float64(next.Trials)*cost.eval
		if next.T == st.T {
			return next, nil
		}
		st = next
		record(st)
	}
	return st, nil
}
