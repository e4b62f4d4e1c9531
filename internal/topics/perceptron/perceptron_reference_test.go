package perceptron

import (
	"math/rand/v2"
	"slices"

	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
)

// refRun is the demo's run written out again as plainly as the notes
// state it, sharing nothing with internal/algos/perceptron but the
// parameters: the second route every number and word of the panel is
// checked against (issue 27 §5).
type refRun struct {
	x       [][]float64
	y       []int
	classes []int
	tasks   []perceptron.Task // the reduction the notes describe
	p       perceptron.Params
}

// refState is the run after t points.
type refState struct {
	t, epoch                    int
	w, u                        [][]float64
	b, beta, c                  []float64
	updates, violations         int
	i                           int // the point the last step examined, −1 at t = 0
	seen, updated               []bool
	score                       []float64
	status                      string // as algos.Status prints it
	cycleFrom                   int    // the epoch a cycle returned to
	cycleTasks                  []bool // the tasks that updated in the cycle
	epochUpd                    int    // updates in the current epoch
	starts                      [][]float64
	startUpd                    [][]int // per epoch start, updates per task
	taskUpd                     []int
	before                      [][]float64 // (w, b) per task before the last step
	order                       []int
	mistakesProper              int // updates at a score ≤ 0
	trainingErr, trainingErrAvg float64
}

func newRef(pts []demo.Point, p perceptron.Params) *refRun {
	x, yf := demo.Columns(pts)
	y := make([]int, len(yf))
	for i, v := range yf {
		y[i] = int(v)
	}
	r := &refRun{x: x, y: y, p: p}
	binary := true
	for _, c := range y {
		binary = binary && (c == 1 || c == -1)
	}
	r.classes = slices.Compact(slices.Sorted(slices.Values(slices.Clone(y))))
	switch {
	case binary:
		r.tasks = []perceptron.Task{{Pos: 1, Neg: -1}}
	case p.Multiclass == perceptron.OneVsOne:
		for a, k := range r.classes {
			for _, l := range r.classes[a+1:] {
				r.tasks = append(r.tasks, perceptron.Task{Pos: k, Neg: l})
			}
		}
	default:
		for _, k := range r.classes {
			r.tasks = append(r.tasks, perceptron.Task{Pos: k, Rest: true})
		}
	}
	return r
}

func (r *refRun) binary() bool { return len(r.tasks) == 1 && r.tasks[0].Neg == -1 && !r.tasks[0].Rest }

// label is task k's ±1 label of class c, 0 when it skips c.
func (r *refRun) label(k, c int) float64 {
	t := r.tasks[k]
	switch {
	case c == t.Pos:
		return 1
	case t.Rest || c == t.Neg:
		return -1
	}
	return 0
}

// orderOf is epoch e's visiting order: rand.Perm of a PCG seeded with
// (seed, e), which the package documents its shuffle draws.
func (r *refRun) orderOf(e int) []int {
	if r.p.Order == perceptron.Random {
		return rand.New(rand.NewPCG(r.p.Seed, uint64(e))).Perm(len(r.x))
	}
	o := make([]int, len(r.x))
	for i := range o {
		o[i] = i
	}
	return o
}

func dot(w []float64, b float64, x []float64) float64 {
	s := b
	for j := range w {
		s += float64(w[j] * x[j])
	}
	return s
}

// states returns the states 0…k (fewer when the run stops).
func (r *refRun) states(k int) []refState {
	n, d, nt := len(r.x), len(r.x[0]), len(r.tasks)
	s := refState{i: -1, status: "running", order: r.orderOf(0), taskUpd: make([]int, nt)}
	for range nt {
		s.w, s.u = append(s.w, make([]float64, d)), append(s.u, make([]float64, d))
		s.b, s.beta, s.c = append(s.b, 0), append(s.beta, 0), append(s.c, 1)
	}
	snap := func(s *refState) []float64 {
		var v []float64
		for k := range s.w {
			v = append(append(v, s.w[k]...), s.b[k])
		}
		return v
	}
	s.starts, s.startUpd = [][]float64{snap(&s)}, [][]int{slices.Clone(s.taskUpd)}
	out := []refState{r.finish(s)}
	for len(out) <= k && s.status == "running" {
		next := s
		next.w, next.u = cloneAll(s.w), cloneAll(s.u)
		next.b, next.beta, next.c = slices.Clone(s.b), slices.Clone(s.beta), slices.Clone(s.c)
		next.taskUpd = slices.Clone(s.taskUpd)
		next.before = nil
		for kk := range s.w {
			next.before = append(next.before, append(slices.Clone(s.w[kk]), s.b[kk]))
		}
		pos := s.t % n
		i := s.order[pos]
		next.t++
		next.i = i
		next.seen, next.updated, next.score = make([]bool, nt), make([]bool, nt), make([]float64, nt)
		for kk := range r.tasks {
			yv := r.label(kk, r.y[i])
			if yv == 0 {
				continue
			}
			next.seen[kk] = true
			sc := yv * dot(next.w[kk], next.b[kk], r.x[i])
			next.score[kk] = sc
			if sc <= r.p.Margin {
				ey := float64(r.p.Eta * yv)
				eyc := float64(ey * next.c[kk])
				for j := range next.w[kk] {
					next.w[kk][j] += float64(ey * r.x[i][j])
					next.u[kk][j] += float64(eyc * r.x[i][j])
				}
				next.b[kk] += ey
				next.beta[kk] += eyc
				next.updated[kk] = true
				next.updates++
				next.epochUpd++
				next.taskUpd[kk]++
				if sc > 0 {
					next.violations++
				}
			}
			next.c[kk]++
		}
		if next.t%n == 0 {
			next.epoch++
			last := next.epoch >= r.p.MaxEpochs
			start := snap(&next)
			cycle := -1
			for e, st := range next.starts {
				if cycle < 0 && slices.Equal(st, start) {
					cycle = e
				}
			}
			switch {
			case r.p.FixedEpochs && last && next.epochUpd == 0:
				next.status = "converged"
			case r.p.FixedEpochs && last:
				next.status = "iteration limit"
			case r.p.FixedEpochs:
			case next.epochUpd == 0:
				next.status = "converged"
			case cycle >= 0:
				next.status = "cycle detected"
				next.cycleFrom = cycle
				next.cycleTasks = make([]bool, nt)
				for kk := range nt {
					next.cycleTasks[kk] = next.taskUpd[kk] > next.startUpd[cycle][kk]
				}
			case last:
				next.status = "iteration limit"
			}
			next.starts = append(slices.Clone(next.starts), start)
			next.startUpd = append(slices.Clone(next.startUpd), slices.Clone(next.taskUpd))
			next.epochUpd = 0
			next.order = r.orderOf(next.epoch)
		}
		s = next
		out = append(out, r.finish(s))
	}
	return out
}

func cloneAll(v [][]float64) [][]float64 {
	out := make([][]float64, len(v))
	for i := range v {
		out[i] = slices.Clone(v[i])
	}
	return out
}

// finish fills in the training errors of s, by the course's prediction
// rule: sgn with sgn(0) = −1 for two classes, else the largest vote, a
// tie going to the lowest class.
func (r *refRun) finish(s refState) refState {
	s.mistakesProper = s.updates - s.violations
	s.trainingErr, s.trainingErrAvg = r.errorOf(s, false), r.errorOf(s, true)
	return s
}

func (r *refRun) errorOf(s refState, avg bool) float64 {
	wrong := 0
	for i, x := range r.x {
		score := func(k int) float64 {
			if !avg {
				return dot(s.w[k], s.b[k], x)
			}
			w := make([]float64, len(x))
			for j := range w {
				w[j] = s.w[k][j] - s.u[k][j]/s.c[k]
			}
			return dot(w, s.b[k]-s.beta[k]/s.c[k], x)
		}
		pred := -1
		if r.binary() {
			if score(0) > 0 {
				pred = 1
			}
		} else {
			votes := map[int]float64{}
			for k, t := range r.tasks {
				votes[t.Pos] += score(k)
				if !t.Rest {
					votes[t.Neg] -= score(k)
				}
			}
			pred = r.classes[0]
			for _, c := range r.classes[1:] {
				if votes[c] > votes[pred] {
					pred = c
				}
			}
		}
		if pred != r.y[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(r.x))
}
