package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
)

// Order is the order in which each epoch visits the points.
type Order int

const (
	// Cyclic visits i = 0, 1, …, n−1 in every epoch.
	Cyclic Order = iota
	// Random visits a fresh permutation in every epoch, drawn from a PCG
	// generator seeded with (Seed, epoch), so epoch e's order does not
	// depend on how the run got there.
	Random
)

// String returns "cyclic" or "random".
func (o Order) String() string {
	if o == Random {
		return "random"
	}
	return "cyclic"
}

// Multiclass says how more than two classes are reduced to binary problems.
type Multiclass int

const (
	// OneVsAll trains one perceptron per class k (k positive, the rest
	// negative) and predicts argmaxₖ w_k·x + b_k.
	OneVsAll Multiclass = iota
	// OneVsOne trains one perceptron per pair k < l (k positive, l
	// negative, other classes skipped) and predicts
	// argmaxₖ Σ_{l≠k} (w_{k,l}·x + b_{k,l}), with w_{l,k} = −w_{k,l}.
	OneVsOne
)

// String returns "ova" or "ovo".
func (m Multiclass) String() string {
	if m == OneVsOne {
		return "ovo"
	}
	return "ova"
}

// Params are the perceptron's hyperparameters.
type Params struct {
	Order      Order
	Seed       uint64  // seeds Random order; ignored by Cyclic
	MaxEpochs  int     // at least 1
	Eta        float64 // learning rate η > 0
	Margin     float64 // update when y(w·x+b) ≤ Margin; 0 is Algorithm 1
	Average    bool    // report averaged weights (Algorithm 7)
	Multiclass Multiclass
	// FixedEpochs runs all MaxEpochs epochs, as Algorithm 7 (the averaged
	// perceptron, DS 503) does: the run stops neither at a clean epoch
	// nor at a detected cycle, because the average keeps moving towards
	// the final w after the updates stop. The final status is Converged
	// when the last epoch made no update and IterationLimit otherwise.
	FixedEpochs bool
}

// DefaultParams are Algorithm 1 of the notes: cyclic order, η = 1, no
// margin, no averaging, at most 1000 epochs.
func DefaultParams() Params {
	return Params{Order: Cyclic, Seed: 1, MaxEpochs: 1000, Eta: 1}
}

// Data is a labelled training set. X holds n rows of d features. Labels are
// −1 and +1 for a two-class problem; otherwise they are class numbers
// 0, 1, …, K−1 and the problem is reduced by Params.Multiclass.
type Data struct {
	X [][]float64
	Y []int
}

// Sentinel errors returned (wrapped) by Init.
var (
	ErrNoData     = errors.New("perceptron: no data")
	ErrShape      = errors.New("perceptron: inconsistent shape")
	ErrNotFinite  = errors.New("perceptron: NaN or infinite value")
	ErrLabel      = errors.New("perceptron: bad label")
	ErrParameters = errors.New("perceptron: bad parameter")
)

// Task is one binary subproblem: points of class Pos are +1, points of
// class Neg are −1, and when Rest is set every class other than Pos is −1.
// Points of other classes are skipped.
type Task struct {
	Pos, Neg int
	Rest     bool
}

// Label returns the ±1 label of class c in this task, or ok = false when
// the task skips c.
func (t Task) Label(c int) (y float64, ok bool) {
	switch {
	case c == t.Pos:
		return 1, true
	case t.Rest || c == t.Neg:
		return -1, true
	}
	return 0, false
}

// Model is one linear classifier sgn(w·x + b) with the running sums the
// averaged perceptron needs: U = Σ η y c x and Beta = Σ η y c over updates,
// C the example counter (starts at 1, +1 per example seen).
type Model struct {
	W    []float64
	B    float64
	U    []float64
	Beta float64
	C    float64
}

// Averaged returns Algorithm 7's averaged classifier (w − u/c, b − β/c).
// It allocates the vector; AveragedScore scores a point without it.
func (m Model) Averaged() ([]float64, float64) {
	w := make([]float64, len(m.W))
	for j := range w {
		w[j] = m.W[j] - m.U[j]/m.C
	}
	return w, m.B - m.Beta/m.C
}

// Event is what the step that produced a state did.
type Event struct {
	I       int       // index of the point examined, −1 for the initial state
	Updated []bool    // per task: whether the step updated it (false if skipped)
	Seen    []bool    // per task: whether the task includes point I
	Margin  []float64 // per task: y(w·x + b) before the update
	Before  []Model   // per task: the model before the step
}

// State is the run after T points have been examined. Values are shared
// between states and must be treated as read-only.
type State struct {
	T        int // points examined
	Epoch    int // completed epochs
	Pos      int // position in this epoch's order of the next point
	Models   []Model
	Mistakes int // updates made, summed over tasks
	// Violations counts the updates at a score in (0, γ]: margin
	// violations, points on their own side but inside the margin, which
	// only the margin perceptron updates on. Mistakes − Violations are
	// the mistakes proper, the updates at a score ≤ 0.
	Violations    int
	EpochMistakes int // updates made in the current epoch
	Event         Event
	Status        algos.Status

	order []int
	// starts indexes the epoch starts of the run for the cycle check. It
	// is the run's, shared by all its states: each state consults only
	// the epochs before its own, which never change once recorded, so a
	// copy of a state steps on exactly as the original does, whichever
	// Problem of the same data and parameters steps it.
	starts *startIndex
}

// CurrentEpoch is the 1-based epoch of the point examined at the step
// that produced s (1 for the initial state), the number a person counts.
func (s State) CurrentEpoch() int {
	n := len(s.order)
	return max(1, (s.T+n-1)/n)
}

// Order returns the visiting order of the current epoch.
func (s State) Order() []int { return s.order }

// Problem is validated data plus parameters: what Init checked once so
// that Step need not. It holds nothing a run changes: a state from one
// Problem may be stepped by another that Init built from the same data
// and parameters (a demo keeps states between requests, each with its
// own Problem), and steps on as it would have. A state of other data or
// parameters may not.
type Problem struct {
	X       [][]float64
	Classes []int // distinct labels, ascending
	Y       []int
	Tasks   []Task
	P       Params

	seq []int // 0, 1, …, n−1: the order of every Cyclic epoch, shared
}

// Init validates d and p and returns the problem and its state before the
// first iteration, with w = 0 and b = 0 for every task.
func Init(d Data, p Params) (*Problem, State, error) {
	if err := validate(d, p); err != nil {
		return nil, State{}, err
	}
	classes := distinct(d.Y)
	pr := &Problem{X: d.X, Y: d.Y, Classes: classes, Tasks: tasks(classes, p.Multiclass), P: p}
	if isBinary(d.Y) {
		pr.Tasks = []Task{{Pos: 1, Neg: -1}}
	}
	pr.seq = make([]int, len(d.X))
	for i := range pr.seq {
		pr.seq[i] = i
	}
	return pr, pr.start(), nil
}

// start is the state before the first iteration, w = 0 and b = 0 for
// every task, with an index of epoch starts of its own.
func (pr *Problem) start() State {
	dim := len(pr.X[0])
	models := make([]Model, len(pr.Tasks))
	for k := range models {
		models[k] = Model{W: make([]float64, dim), U: make([]float64, dim), C: 1}
	}
	return State{Models: models, Event: Event{I: -1}, order: pr.order(0), starts: &startIndex{}}
}

func validate(d Data, p Params) error {
	n := len(d.X)
	if n == 0 {
		return fmt.Errorf("%w: x has no rows; give at least one point", ErrNoData)
	}
	dim := len(d.X[0])
	if dim == 0 {
		return fmt.Errorf("%w: x rows have no features; give at least one column", ErrShape)
	}
	if len(d.Y) != n {
		return fmt.Errorf("%w: %d rows in x but %d labels in y", ErrShape, n, len(d.Y))
	}
	for i, row := range d.X {
		if len(row) != dim {
			return fmt.Errorf("%w: row %d has %d features, row 0 has %d", ErrShape, i, len(row), dim)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: x[%d][%d] is %v", ErrNotFinite, i, j, v)
			}
		}
	}
	if err := validLabels(d.Y); err != nil {
		return err
	}
	switch {
	case p.MaxEpochs < 1:
		return fmt.Errorf("%w: max epochs is %d; it must be at least 1", ErrParameters, p.MaxEpochs)
	case !(p.Eta > 0) || math.IsInf(p.Eta, 0):
		return fmt.Errorf("%w: learning rate η is %v; it must be a finite number > 0", ErrParameters, p.Eta)
	case !(p.Margin >= 0) || math.IsInf(p.Margin, 0):
		return fmt.Errorf("%w: margin γ is %v; it must be a finite number ≥ 0", ErrParameters, p.Margin)
	case p.Order != Cyclic && p.Order != Random:
		return fmt.Errorf("%w: unknown order %d", ErrParameters, p.Order)
	case p.Multiclass != OneVsAll && p.Multiclass != OneVsOne:
		return fmt.Errorf("%w: unknown multiclass scheme %d", ErrParameters, p.Multiclass)
	}
	return nil
}

// validLabels accepts ±1 (binary) or class numbers 0…K−1 with K ≤ MaxClasses.
func validLabels(y []int) error {
	if isBinary(y) {
		return nil
	}
	for i, c := range y {
		if c < 0 || c >= MaxClasses {
			return fmt.Errorf("%w: y[%d] is %d; labels are −1/+1, or classes 0…%d", ErrLabel, i, c, MaxClasses-1)
		}
	}
	return nil
}

func isBinary(y []int) bool {
	for _, c := range y {
		if c != -1 && c != 1 {
			return false
		}
	}
	return true
}

// MaxClasses bounds the number of classes of a multiclass problem.
const MaxClasses = 10

func distinct(y []int) []int {
	c := slices.Clone(y)
	slices.Sort(c)
	return slices.Compact(c)
}

// tasks returns the multiclass reduction of classes.
func tasks(classes []int, m Multiclass) []Task {
	var ts []Task
	if m == OneVsOne {
		for a, k := range classes {
			for _, l := range classes[a+1:] {
				ts = append(ts, Task{Pos: k, Neg: l})
			}
		}
		return ts
	}
	for _, k := range classes {
		ts = append(ts, Task{Pos: k, Rest: true})
	}
	return ts
}

// order returns the visiting order of epoch e. Cyclic epochs share one
// read-only slice, so a long run allocates nothing per epoch for them.
func (pr *Problem) order(e int) []int {
	n := len(pr.X)
	if pr.P.Order == Random {
		return pr.shuffle(make([]int, n), e)
	}
	if len(pr.seq) == n {
		return pr.seq
	}
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

// shuffle writes epoch e's random order into p, which must have n
// elements, and returns it: a Fisher–Yates shuffle of 0…n−1 by a PCG
// seeded with (Seed, e), the same permutation rand.Perm draws. In-place
// stepping reuses the slice of the previous epoch.
func (pr *Problem) shuffle(p []int, e int) []int {
	for i := range p {
		p[i] = i
	}
	r := rand.New(rand.NewPCG(pr.P.Seed, uint64(e)))
	r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}
