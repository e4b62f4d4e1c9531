package svmfit

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/budget"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// MaxKernelPegasosWork bounds kernelPegasosCost.work, in MaxSVMWork's
// units (about 1 ns of one core of the reference machine each); with
// decoding and encoding it keeps every allowed "kernel-pegasos" request
// under 2 s (BenchmarkKernelPegasosWorst). T is capped by MaxPegasosT, as
// for "pegasos".
const MaxKernelPegasosWork = 1.2e9

type kernelPegasosParams struct {
	Lambda *float64 `json:"lambda"`
	T      *int     `json:"T"`
	Seed   *int64   `json:"seed"`
	Kernel *string  `json:"kernel"`
	Gamma  *float64 `json:"gamma"`
	Degree *int     `json:"degree"`
	Coef0  *float64 `json:"coef0"`
}

const kernelPegasosKnown = `lambda (> 0, default 0.01), T (iterations, 1 to 10000000, default 2000; fewer for large x), seed (integer, default 1), kernel ("linear" default, "poly", "rbf" or "laplace"), gamma (> 0, default 1), degree (1 to 10, default 2), coef0 (≥ 0, default 1)`

// KernelPegasosResponse is the answer for "algorithm": "kernel-pegasos":
// alpha is the average ᾱ of the iterates α⁽¹⁾, …, α⁽ᵀ⁾, the model is
// f(x) = Σᵢ ᾱᵢK(xᵢ, x) with no bias (scores are f of the predict rows),
// and objective is its value of λ ᾱᵀKᾱ + (1/n) Σᵢ max(0, 1 − yᵢ(Kᾱ)ᵢ).
type KernelPegasosResponse struct {
	Algorithm  string              `json:"algorithm"`
	Kernel     string              `json:"kernel"`
	Alpha      []float64           `json:"alpha"`
	Objective  float64             `json:"objective"`
	Iterations int                 `json:"iterations"`
	Scores     []float64           `json:"scores"`
	TraceEvery int                 `json:"trace_every,omitempty"`
	Trace      []KernelPegasosStep `json:"trace,omitempty"`
}

// KernelPegasosStep is iteration t: the point i it sampled, its margin
// yᵢ Σⱼ αⱼK(xⱼ, xᵢ) under the iterate α⁽ᵗ⁾ and whether that was below 1
// (so β was updated), α⁽ᵗ⁾ itself, and the average of α⁽¹⁾, …, α⁽ᵗ⁾.
type KernelPegasosStep struct {
	T        int       `json:"t"`
	I        int       `json:"i"`
	Violated bool      `json:"violated"`
	Margin   float64   `json:"margin"`
	Alpha    []float64 `json:"alpha"`
	Avg      []float64 `json:"avg_alpha"`
}

func (kp kernelPegasosParams) params() (primal.KernelPegasosParams, error) {
	pp, err := pegasosParams{Lambda: kp.Lambda, T: kp.T, Seed: kp.Seed}.params()
	if err != nil {
		return primal.KernelPegasosParams{}, err
	}
	p := primal.KernelPegasosParams{Lambda: pp.Lambda, T: pp.T, Seed: pp.Seed,
		Kernel: svm.Kernel{Kind: svm.Linear, Gamma: 1, Degree: 2, Coef0: 1}}
	if kp.Kernel != nil {
		if p.Kernel.Kind, err = parseTrainingKernel(*kp.Kernel); err != nil {
			return p, err
		}
	}
	if err := fitreq.Positive("gamma", kp.Gamma, &p.Kernel.Gamma); err != nil {
		return p, err
	}
	if kp.Coef0 != nil {
		if !(*kp.Coef0 >= 0) || *kp.Coef0 > fitreq.MaxParam {
			return p, fitreq.Badf("params.coef0 is %v; give a number ≥ 0 and at most %g (a negative one can make the kernel indefinite)", *kp.Coef0, fitreq.MaxParam)
		}
		p.Kernel.Coef0 = *kp.Coef0
	}
	if kp.Degree != nil {
		if *kp.Degree < 1 || *kp.Degree > svm.MaxDegree {
			return p, fitreq.Badf("params.degree is %d; give an integer from 1 to %d", *kp.Degree, svm.MaxDegree)
		}
		p.Kernel.Degree = *kp.Degree
	}
	return p, nil
}

// Kernel Pegasos' cost model, in MaxKernelPegasosWork's units. Every
// iteration t costs kpStepCost plus kpPointCost for each of the n points
// (α = β/(2λt), then the running average: two divisions and an add),
// plus the margin of the sampled point: one term per αᵢ ≠ 0, of which
// there are at most min(t−1, n) (β gains at most one non-zero a step, and
// never loses one). svm.KernelPegasos keeps the Gram matrix when
// n ≤ kpFullGram (svm's fullGramMax), and a term is then a multiply-add,
// kpGramTermCost; beyond, it is a kernel value, d·kpFeatureCost +
// kernelCost[kind]. kpFeatureCost is svmFeatureCost's 1.2 raised to what a
// feature costs when its products and sums are subnormal (−‖x − z‖² of
// points near 1e-160: 2.1 ns, against 0.56 for ordinary numbers). The setup computes the n² kernel values
// of that matrix, or the n of its diagonal; the answer's objective costs
// n margins over the min(T, n) non-zero ᾱᵢ, and each predict row as many
// kernel values.
const (
	kpStepCost     = 100
	kpPointCost    = 4
	kpGramTermCost = 1.5
	kpFeatureCost  = 2.1
	kpFullGram     = 1000
)

type kernelPegasosCost struct {
	n, m  int
	fixed float64 // the setup: the Gram matrix or its diagonal
	point float64 // the per-iteration work on every point
	term  float64 // one term of a margin
	kval  float64 // one kernel value
}

func newKernelPegasosCost(k svm.Kernel, n, d, m int) kernelPegasosCost {
	c := kernelPegasosCost{n: n, m: m, kval: float64(d)*kpFeatureCost + kernelCost[k.Kind],
		point: kpStepCost + float64(n)*kpPointCost}
	c.fixed, c.term = float64(n)*c.kval, c.kval
	if n <= kpFullGram {
		c.fixed, c.term = float64(n)*float64(n)*c.kval, kpGramTermCost
	}
	return c
}

// terms is the most margin terms T iterations can add up:
// Σ_{t=1…T} min(t−1, n) ≤ Σ min(t, n).
func (c kernelPegasosCost) terms(T int) float64 {
	t, n := float64(T), float64(c.n)
	if t <= n {
		return t * (t + 1) / 2
	}
	return n*(n+1)/2 + (t-n)*n
}

// work returns the worst-case work of T iterations, with the answer.
func (c kernelPegasosCost) work(T int) float64 {
	nnz := float64(min(T, c.n))
	answer := float64(c.n)*nnz*c.term + float64(c.m)*nnz*c.kval
	return c.fixed + float64(T)*c.point + c.terms(T)*c.term + answer
}

// most returns the most iterations within MaxKernelPegasosWork and
// MaxPegasosT, 0 when not even one fits.
func (c kernelPegasosCost) most() int {
	return sort.Search(MaxPegasosT, func(T int) bool { return c.work(T+1) > MaxKernelPegasosWork })
}

// KernelPegasos fits "kernel-pegasos": T steps of primal.KernelPegasos,
// with the averaged coefficients, the objective and, when asked, a trace,
// refused up front past MaxKernelPegasosWork. req has passed fit.Run's
// checks (Validate, SignLabels).
func KernelPegasos(ctx context.Context, req fitreq.Request) (*KernelPegasosResponse, error) {
	var kpp kernelPegasosParams
	if err := fitreq.StrictParams(req.Params, &kpp, kernelPegasosKnown); err != nil {
		return nil, err
	}
	p, err := kpp.params()
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
	cost := newKernelPegasosCost(p.Kernel, n, d, len(req.Predict))
	if work := cost.work(p.T); work > MaxKernelPegasosWork {
		if most := cost.most(); most >= 1 {
			return nil, fitreq.Badf("params.T = %d could cost %s units of work on %d rows of %d features with the %s kernel; the limit is %s; lower params.T to at most %d for this x, or send fewer rows or features",
				p.T, fitreq.Work(work, MaxKernelPegasosWork), n, d, p.Kernel, fitreq.Limit(work, MaxKernelPegasosWork), most)
		}
		return nil, fitreq.Badf("the fit would cost %s units of work with a single iteration on %d rows of %d features (computing the kernel values); the limit is %s; send fewer rows, features or predict rows",
			fitreq.Work(cost.work(1), MaxKernelPegasosWork), n, d, fitreq.Limit(cost.work(1), MaxKernelPegasosWork))
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: kernel-pegasos not started: %w", err)
	}
	b := budget.Start(ctx, kernelPegasosCPU)
	defer b.Stop()
	gram, err := kernelPegasosGram(p.Kernel, req.X, b)
	if err != nil {
		return nil, err
	}
	kp, s, err := primal.NewKernelPegasosGram(req.X, y, p, gram)
	if err != nil {
		return nil, svmError(err)
	}
	resp := &KernelPegasosResponse{Algorithm: "kernel-pegasos", Kernel: p.Kernel.String(), Scores: make([]float64, len(req.Predict))}
	every := kernelPegasosTraceEvery(p.T, n)
	if req.Trace {
		resp.TraceEvery = every
	}
	s = kp.Clone(s)
	for !s.Status.Done() {
		if err := b.Spend(int(cost.point + float64(min(s.T, n))*cost.term)); err != nil {
			return nil, fmt.Errorf("fit: kernel-pegasos stopped after %d iterations: %w%s", s.T, err, budget.Hint(err))
		}
		kp.Advance(&s)
		if req.Trace && (s.T%every == 0 || s.T == p.T) {
			resp.Trace = append(resp.Trace, KernelPegasosStep{T: s.T, I: s.I, Violated: s.Violated, Margin: s.Margin,
				Alpha: append([]float64(nil), s.Alpha...), Avg: append([]float64(nil), s.Avg...)})
		}
	}
	resp.Alpha = s.Avg
	resp.Objective = kp.Objective(s.Avg)
	resp.Iterations = s.T
	if !fitreq.Finite(s.Avg) || !fitreq.Finite([]float64{resp.Objective}) {
		return nil, fmt.Errorf("%w: kernel Pegasos' iterates or objective overflowed to ±Inf or NaN (α = β/(2λt)); raise params.lambda, lower gamma or the degree, or rescale x to smaller numbers", fitreq.ErrUnprocessable)
	}
	for i, x := range req.Predict {
		resp.Scores[i] = kp.Score(s, x)
		if !fitreq.Finite(resp.Scores[i : i+1]) {
			return nil, fmt.Errorf("%w: the score Σᵢ ᾱᵢK(xᵢ, x) of predict[%d] overflowed; rescale x and predict to smaller numbers", fitreq.ErrUnprocessable, i)
		}
	}
	return resp, nil
}

// MaxKernelPegasosCPU is the CPU kernel Pegasos (and linear Pegasos) may use, whatever
// MaxKernelPegasosWork allows: the cost model charges subnormal kernel
// values 2.1 units a feature, but a linear kernel's subnormal products
// and sums cost about 45 ns each (issue 28: 25 s for the Gram matrix of
// 1000 rows of 550 features near 1e-160). Past it the fit stops with an
// error wrapping context.DeadlineExceeded (a 503).
const MaxKernelPegasosCPU = 1200 * time.Millisecond

// kernelPegasosCPU is MaxKernelPegasosCPU, lowered by tests of the budget.
var kernelPegasosCPU = MaxKernelPegasosCPU

// kernelPegasosGram computes the Gram matrix primal.NewKernelPegasos
// would, bit for bit and in its order (column j at [j·n, (j+1)·n), each
// value k.Eval(xᵢ, xⱼ), refused when not finite), looking at b every few
// milliseconds of work; nil beyond kpFullGram points, where the trainer
// keeps none.
func kernelPegasosGram(k svm.Kernel, x [][]float64, b *budget.Budget) ([]float64, error) {
	n := len(x)
	if n > kpFullGram {
		return nil, nil
	}
	gram := make([]float64, n*n)
	cost := len(x[0]) + 8
	for j, xj := range x {
		for i, xi := range x {
			v := k.Eval(xi, xj)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, svmError(fmt.Errorf("%w: K(x%d, x%d) is %v; scale the data or lower γ or the degree", svm.ErrNotFinite, i, j, v))
			}
			gram[j*n+i] = v
			if err := b.Spend(cost); err != nil {
				return nil, fmt.Errorf("fit: kernel-pegasos stopped while computing its Gram matrix: %w%s", err, budget.Hint(err))
			}
		}
	}
	return gram, nil
}

// kernelPegasosTraceEvery returns k: the trace holds iterates k, 2k, …
// and the last, at most maxPegasosTrace of them and at most
// fitreq.MaxTraceNumbers numbers (2n+4 per entry).
func kernelPegasosTraceEvery(T, n int) int {
	entries := min(maxPegasosTrace, fitreq.MaxTraceNumbers/(2*n+4))
	return (T + entries - 1) / entries
}
