package svm

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// smoPair is a candidate working pair with the numbers that rank it.
type smoPair struct {
	i, j   int
	vi, vj float64 // vₜ = −yₜ ∂D/∂αₜ
	a      float64 // aᵢⱼ = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ (τ when ≤ 0)
	gain   float64 // (vᵢ − vⱼ)²/aᵢⱼ, twice the decrease of D of a full step
}

func (p smoPair) value() string {
	return strconv.Itoa(p.i+1) + "-" + strconv.Itoa(p.j+1)
}

// smoV returns every vₜ = −yₜGₜ of state s.
func smoV(pr *svm.Problem, s svm.State) []float64 {
	v := make([]float64, len(s.G))
	for t, g := range s.G {
		v[t] = -pr.Y[t] * g
	}
	return v
}

// inUp and inLow report whether t is in I_up or I_low of state s.
func inUp(pr *svm.Problem, s svm.State, t int) bool {
	if pr.Y[t] > 0 {
		return pr.P.Hard || s.Alpha[t] < pr.P.C
	}
	return s.Alpha[t] > 0
}

func inLow(pr *svm.Problem, s svm.State, t int) bool {
	if pr.Y[t] > 0 {
		return s.Alpha[t] > 0
	}
	return pr.P.Hard || s.Alpha[t] < pr.P.C
}

// ranked is how the solver's rule picks among candidates by a value
// (vₜ for i, the gain for j): win is the winner's position, tied the
// positions of the candidates it ties with (itself included), and close
// the position of a candidate whose value lies so near the tie boundary
// that rounding, not the rule, could decide (−1 when there is none).
type ranked struct {
	win, close int
	tied       []int
}

// rank applies the solver's rule to vals, whose tie tolerance is
// svm.TieTol(scale). With ties (the demos' rule, Params.Ties) values
// within the tolerance of the best tie and the last of them wins; a value
// between half and twice the tolerance below the best is too close to
// call. Without (LIBSVM's scan) the last of the largest wins, and any
// other value within twice the tolerance of it, equal in float64 or not,
// makes a tie that rounding decided: values equal in exact arithmetic
// need not be equal in float64, nor the other way round.
func rank(vals []float64, scale float64, ties bool) ranked {
	r := ranked{win: -1, close: -1}
	if len(vals) == 0 {
		return r
	}
	best := slices.Max(vals)
	tol := svm.TieTol(scale)
	for k, v := range vals {
		d := best - v
		switch {
		case ties && d <= tol:
			r.win = k
			r.tied = append(r.tied, k)
		case !ties && d == 0:
			r.win = k
		}
		if ties && d > tol/2 && d <= 2*tol {
			r.close = k
		}
	}
	if !ties {
		r.tied = []int{r.win}
		for k, v := range vals {
			if k != r.win && best-v <= 2*tol {
				r.close = k
			}
		}
	}
	return r
}

// vScale is max over all t of |vₜ|, the scale of the tie tolerance of v.
func vScale(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// partners ranks the j ∈ I_low that violate with i (vᵢ − vⱼ above the tie
// tolerance, or > 0 by LIBSVM's scan) by the second-order rule, best
// first: the rule's winner, then by gain, the later index first among
// equals. The ranking of their gains is returned with the positions
// replaced by the points' indices.
func partners(pr *svm.Problem, s svm.State, v []float64, i int) ([]smoPair, ranked) {
	var out []smoPair
	qi := pr.Column(i)
	tol := svm.TieTol(vScale(v))
	if !pr.P.Ties {
		tol = 0
	}
	var gains []float64
	for t := range v {
		diff := v[i] - v[t]
		if !inLow(pr, s, t) || !(diff > tol) {
			continue
		}
		a := pr.Curvature(i, t, qi)
		out = append(out, smoPair{i: i, j: t, vi: v[i], vj: v[t], a: a, gain: diff * diff / a})
		gains = append(gains, diff*diff/a)
	}
	if len(out) == 0 {
		return nil, ranked{win: -1, close: -1}
	}
	r := rank(gains, slices.Max(gains), pr.P.Ties)
	// Positions to indices, in index order as out is still.
	r.win = out[r.win].j
	if r.close >= 0 {
		r.close = out[r.close].j
	}
	for k, pos := range r.tied {
		r.tied[k] = out[pos].j
	}
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && out[b].gain >= out[b-1].gain; b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	w := slices.IndexFunc(out, func(p smoPair) bool { return p.j == r.win })
	win := out[w]
	copy(out[1:w+1], out[:w])
	out[0] = win
	return out, r
}

// smoChoice is the pair question's candidates with what decided the
// pair: the tie sets of i and j, or why rounding could decide it.
type smoChoice struct {
	pairs  []smoPair
	tiedI  []int // the points of I_up tied for i, the winner last
	tiedJ  []int // the partners tied for j, the winner last
	undone string
}

// smoCandidates are the pairs the pair question offers, the one SMO's
// rule picks first: i, the point of I_up with the largest vᵢ (the last
// one on a tie), with its best partner a by the second-order rule. The
// others are built so that no index stands out by how often it appears:
// i with a second partner b (the maximal violating pair's j, the smallest
// vⱼ, when it is not a; else i's second-best partner), and the runner-up
// i₂ for the first index with the same a and b where they are partners
// of i₂ (else with i₂'s own best ones). Pairs are unique as sets; at most
// four.
func smoCandidates(pr *svm.Problem, s svm.State) smoChoice {
	v := smoV(pr, s)
	var up []int
	var upv []float64
	for t := range v {
		if inUp(pr, s, t) {
			up, upv = append(up, t), append(upv, v[t])
		}
	}
	var ch smoChoice
	ri := rank(upv, vScale(v), pr.P.Ties)
	if ri.win < 0 {
		return ch
	}
	first := up[ri.win]
	for _, k := range ri.tied {
		ch.tiedI = append(ch.tiedI, up[k])
	}
	if ri.close >= 0 {
		ch.undone = fmt.Sprintf("v of %s and %s differ by %s, too near the tie tolerance 8·2⁻⁵²·max|v| = %s for the rule to tell a tie from an order",
			render.PointName(up[ri.close]), render.PointName(first), textfmt.Sig(math.Abs(v[first]-v[up[ri.close]])), textfmt.Sig(svm.TieTol(vScale(v))))
		if !pr.P.Ties {
			ch.undone = fmt.Sprintf("v of %s and %s agree but for rounding (they differ by %s), so float64 rounding, not the rule, would choose i",
				render.PointName(up[ri.close]), render.PointName(first), textfmt.Sig(math.Abs(v[first]-v[up[ri.close]])))
		}
	}
	// The runner-up for i: the best of the others by the same rule.
	second := -1
	for k, t := range up {
		if t != first && (second < 0 || upv[k] >= v[second]) {
			second = t
		}
	}
	ps, rj := partners(pr, s, v, first)
	if len(ps) == 0 {
		return ch
	}
	ch.tiedJ = rj.tied
	if rj.close >= 0 && ch.undone == "" {
		ch.undone = fmt.Sprintf("for j, the gains of %s and %s are too near the tie tolerance 8·2⁻⁵²·(largest gain) for the rule to tell a tie from an order",
			render.PointName(rj.close), render.PointName(ps[0].j))
		if !pr.P.Ties {
			ch.undone = fmt.Sprintf("for j, the gains of %s and %s agree but for rounding, so float64 rounding, not the rule, would choose j",
				render.PointName(rj.close), render.PointName(ps[0].j))
		}
	}
	mvp := ps[0]
	for _, p := range ps {
		if p.vj < mvp.vj || p.vj == mvp.vj && p.j > mvp.j {
			mvp = p
		}
	}
	mine := []smoPair{ps[0]}
	if mvp.j != ps[0].j {
		mine = append(mine, mvp)
	} else if len(ps) > 1 {
		mine = append(mine, ps[1])
	}
	add := func(p smoPair) bool {
		for _, q := range ch.pairs {
			if (p.i == q.i && p.j == q.j) || (p.i == q.j && p.j == q.i) {
				return false
			}
		}
		ch.pairs = append(ch.pairs, p)
		return true
	}
	for _, p := range mine {
		add(p)
	}
	if second < 0 {
		return ch
	}
	// The runner-up's pairs: with i's partners where it can take them,
	// then with its own best ones, as many as i has.
	theirs, _ := partners(pr, s, v, second)
	n := 0
	for _, m := range mine {
		for _, p := range theirs {
			if p.j == m.j && n < len(mine) && add(p) {
				n++
			}
		}
	}
	for _, p := range theirs {
		if n < len(mine) && add(p) {
			n++
		}
	}
	return ch
}
