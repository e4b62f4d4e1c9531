package svm

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/margin-edu/margin/internal/algos"
)

// Params are the SVM's hyperparameters and the solver's budget.
type Params struct {
	C      float64 // box bound 0 ≤ αᵢ ≤ C, finite and > 0; ignored when Hard
	Hard   bool    // C = +∞: the hard-margin SVM of §1.5
	Kernel Kernel
	// Tol is LIBSVM's ε: the run has converged when the maximal violating
	// pair's gap m(α) − M(α) is at most Tol.
	Tol float64
	// MaxIter is the SMO iteration budget; a run that uses it up without
	// converging ends with algos.IterationLimit.
	MaxIter int
	// Ties chooses Step's working pair by the stated tie rule (see
	// TieTol) instead of LIBSVM's scan, whose ≥ and ≤ let float64
	// rounding decide between candidates equal in exact arithmetic.
	// Solve keeps LIBSVM's scan whatever Ties says.
	Ties bool
	// CacheBytes bounds the memory of the kernel-column cache (Step's, and
	// each Solve's own); 0 means DefaultCacheBytes, and two columns are
	// kept whatever the bound. The cache never changes a result, only
	// the time.
	CacheBytes int
}

// DefaultCacheBytes is the kernel-column cache of a Params with
// CacheBytes 0: at n = 5000 it holds about 800 columns.
const DefaultCacheBytes = 32 << 20

// DefaultParams are the soft-margin linear SVM with C = 1 and LIBSVM's
// default tolerance 1e-3, with a budget of 100000 iterations.
func DefaultParams() Params {
	return Params{C: 1, Kernel: Kernel{Kind: Linear}, Tol: 1e-3, MaxIter: 100000}
}

// Sentinel errors returned (wrapped) by New and the other constructors.
var (
	ErrNoData     = errors.New("svm: no data")
	ErrShape      = errors.New("svm: inconsistent shape")
	ErrNotFinite  = errors.New("svm: NaN or infinite value")
	ErrLabel      = errors.New("svm: bad label")
	ErrParameters = errors.New("svm: bad parameter")
	ErrTooLarge   = errors.New("svm: problem too large")
	// ErrUndecided is returned when the linear program that decides
	// hard-margin separability fails numerically, so New cannot say
	// honestly whether a hard margin exists.
	ErrUndecided = errors.New("svm: could not decide separability")
)

// SVKind classifies a support vector as 003 §2.4 does.
type SVKind int

const (
	// NotSupport: αᵢ is (numerically) zero.
	NotSupport SVKind = iota
	// OnMargin: 0 < αᵢ < C, so yᵢf(xᵢ) = 1: the point lies on H₊ or H₋.
	OnMargin
	// Inside: αᵢ = C and yᵢf(xᵢ) ≥ 0: inside the margin (or on it), still
	// on the right side.
	Inside
	// Misclassified: αᵢ = C and yᵢf(xᵢ) < 0.
	Misclassified
)

var svKindNames = [...]string{"", "margin", "inside", "misclassified"}

// String returns "", "margin", "inside" or "misclassified".
func (k SVKind) String() string {
	if k < 0 || int(k) >= len(svKindNames) {
		return fmt.Sprintf("SVKind(%d)", int(k))
	}
	return svKindNames[k]
}

// State is the SMO run after T iterations. Its slices are read-only: Step
// returns fresh ones, and only Advance writes a state (its own clone).
type State struct {
	T    int // SMO iterations done
	I, J int // the pair the last iteration updated; −1 in state 0
	// OldI and OldJ are αᵢ and αⱼ before that iteration.
	OldI, OldJ float64
	Alpha      []float64
	G          []float64 // ∇D(α) = Qα − 1, LIBSVM's G
	Gap        float64   // m(α) − M(α): the stopping quantity
	Dual       float64   // D(α) = ½αᵀQα − Σαᵢ
	B          float64   // b for this α by LIBSVM's rule (b = −ρ)
	Status     algos.Status

	up int // the index i the next iteration starts from (argmax over I_up)
}

// Problem is validated data and parameters, plus what every iteration
// reads: the kernel diagonal and a cache of kernel columns. It is safe for
// concurrent use: Steps on one Problem take turns at its column cache,
// and each Solve has a cache of its own. Do not change its fields.
type Problem struct {
	X [][]float64
	Y []float64 // ±1
	P Params

	mu    sync.Mutex // guards cache
	c     float64    // the box bound: P.C, or +Inf when Hard
	qd    []float64  // K(xᵢ, xᵢ)
	flat  []float64  // the rows of X, one after the other
	all   []int      // 0, 1, …, n−1
	cache *ColumnCache
	cert  []float64 // Hard and not separable: the Farkas certificate
}

// New validates the data and parameters and returns the problem and state
// 0: α = 0, G = −1, I = J = −1. It needs n ≥ 1 rows of equal length with
// finite values, labels ±1 with at least one point of each class, C > 0
// and finite unless Hard, Tol > 0, MaxIter ≥ 1 and kernel values that do
// not overflow.
//
// With Hard it first decides whether the data are separable in the
// kernel's feature space (see Certificate); when they are not, state 0 has
// Status algos.Infeasible and stepping it changes nothing. A hard margin
// with the polynomial kernel needs at most MaxPolyFeatures monomials
// (ErrTooLarge otherwise).
func New(x [][]float64, y []int, p Params) (*Problem, State, error) {
	if err := validate(x, y, p); err != nil {
		return nil, State{}, err
	}
	n := len(x)
	pr := &Problem{X: x, Y: make([]float64, n), P: p, c: p.C, qd: make([]float64, n)}
	if p.Hard {
		pr.c = math.Inf(1)
	}
	for i := range x {
		pr.all = append(pr.all, i)
		pr.flat = append(pr.flat, x[i]...)
		pr.Y[i] = float64(y[i])
		pr.qd[i] = p.Kernel.Eval(x[i], x[i])
		if math.IsNaN(pr.qd[i]) || math.IsInf(pr.qd[i], 0) {
			return nil, State{}, fmt.Errorf("%w: the kernel of point %d with itself is %v; scale the data or lower γ or the degree", ErrNotFinite, i, pr.qd[i])
		}
	}
	pr.cache = pr.newCache()
	s := pr.initial()
	if p.Hard {
		cert, err := pr.hardFeasibility()
		if err != nil {
			return nil, State{}, err
		}
		if cert != nil {
			pr.cert = cert
			s.Status = algos.Infeasible
		}
	}
	return pr, s, nil
}

func validate(x [][]float64, y []int, p Params) error {
	if err := ValidateData(x, y); err != nil {
		return err
	}
	switch {
	case !p.Hard && (!(p.C > 0) || math.IsInf(p.C, 0)):
		return fmt.Errorf("%w: C is %v; it must be a finite number > 0 (or choose the hard margin)", ErrParameters, p.C)
	case !(p.Tol > 0) || math.IsInf(p.Tol, 0):
		return fmt.Errorf("%w: tolerance is %v; it must be a finite number > 0", ErrParameters, p.Tol)
	case p.MaxIter < 1:
		return fmt.Errorf("%w: max iterations is %d; it must be at least 1", ErrParameters, p.MaxIter)
	case p.CacheBytes < 0:
		return fmt.Errorf("%w: cache size is %d bytes; it must be ≥ 0", ErrParameters, p.CacheBytes)
	}
	if err := p.Kernel.Validate(); err != nil {
		return err
	}
	return nil
}

// ValidateData checks what every trainer (here and in package primal) needs: n ≥ 1 rows of equal,
// non-zero length with finite values, and labels ±1 with both classes
// present.
func ValidateData(x [][]float64, y []int) error {
	n := len(x)
	if n == 0 {
		return fmt.Errorf("%w: x has no rows; give at least one point of each class", ErrNoData)
	}
	dim := len(x[0])
	if dim == 0 {
		return fmt.Errorf("%w: x rows have no features; give at least one column", ErrShape)
	}
	if len(y) != n {
		return fmt.Errorf("%w: %d rows in x but %d labels in y", ErrShape, n, len(y))
	}
	for i, row := range x {
		if len(row) != dim {
			return fmt.Errorf("%w: row %d has %d features, row 0 has %d", ErrShape, i, len(row), dim)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: x[%d][%d] is %v", ErrNotFinite, i, j, v)
			}
		}
	}
	for i, c := range y {
		if c != -1 && c != 1 {
			return fmt.Errorf("%w: y[%d] is %d; labels are −1 and +1", ErrLabel, i, c)
		}
	}
	if !slices.Contains(y, 1) || !slices.Contains(y, -1) {
		return fmt.Errorf("%w: all labels are %d; an SVM needs points of both classes", ErrLabel, y[0])
	}
	return nil
}

// newCache returns an empty column cache within Params.CacheBytes.
func (p *Problem) newCache() *ColumnCache {
	bytes := p.P.CacheBytes
	if bytes == 0 {
		bytes = DefaultCacheBytes
	}
	return NewColumnCache(len(p.X), bytes, p.fill)
}

// initial returns state 0.
func (p *Problem) initial() State {
	n := len(p.X)
	s := State{I: -1, J: -1, Alpha: make([]float64, n), G: make([]float64, n)}
	for k := range s.G {
		s.G[k] = -1
	}
	var t tally
	t.reset()
	for k := range s.G {
		t.see(p.Y[k], 0, -1, k, p.c)
	}
	p.finish(&s, &t)
	return s
}

// fill writes column i of Q, Qₜᵢ = yₜyᵢK(xₜ, xᵢ), into col at the indices
// idx, or at every index when idx is nil. The linear and RBF kernels, the
// ones Solve is timed on, read the points from one flat slice in loops of
// their own; their values are bit for bit Kernel.Eval's.
func (p *Problem) fill(i int, col []float64, idx []int) {
	if idx == nil {
		idx = p.all
	}
	k := p.P.Kernel
	d := len(p.X[0])
	xi, yi := p.flat[i*d:(i+1)*d], p.Y[i]
	switch k.Kind {
	case Linear:
		for _, t := range idx {
			col[t] = yi * p.Y[t] * dot(p.flat[t*d:(t+1)*d], xi)
		}
	case RBF:
		for _, t := range idx {
			col[t] = yi * p.Y[t] * expNeg(k.Gamma*sqdist(p.flat[t*d:(t+1)*d], xi))
		}
	default:
		for _, t := range idx {
			col[t] = yi * p.Y[t] * k.Eval(p.X[t], xi)
		}
	}
}

// Status reports where s stands; with Step, Clone and Advance it makes
// *Problem an algos.Method and algos.InPlace.
func (p *Problem) Status(s State) algos.Status { return s.Status }

// Clone returns a deep copy of s for Advance to change in place.
func (p *Problem) Clone(s State) State {
	s.Alpha = slices.Clone(s.Alpha)
	s.G = slices.Clone(s.G)
	return s
}

// Step does one SMO iteration and returns the new state; s is not
// modified. A terminal state is returned unchanged.
func (p *Problem) Step(s State) State {
	if s.Status.Done() {
		return s
	}
	next := p.Clone(s)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.iterate(&next)
	return next
}

// Advance is Step in place on a state from Clone: the result is bit for
// bit what Step would return.
func (p *Problem) Advance(s *State) {
	if s.Status.Done() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.iterate(s)
}

// Certificate returns, for a hard-margin problem on data that are not
// separable, weights λ ≥ 0 with Σλᵢ = 1, Σλᵢyᵢ = 0 and Σλᵢyᵢφ(xᵢ) = 0: a
// point common to the convex hulls of the two classes (Σ over each class
// of λᵢ is ½), which no hyperplane can separate (Farkas' lemma). With the
// RBF and Laplace kernels this happens only for a point given both labels,
// and λ is ½ on the two copies. It returns nil otherwise. The slice is
// shared: do not modify it.
func (p *Problem) Certificate() []float64 { return p.cert }
