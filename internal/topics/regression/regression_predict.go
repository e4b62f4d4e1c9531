package regression

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// stepSets spread a question's three candidates along the step the run
// takes: the true one is the multiple 1, and the set a state uses is
// seeded by the state, so the true one is the smallest, middle or
// largest alike.
var stepSets = [3][3]float64{{0.25, 0.5, 1}, {0.5, 1, 2}, {1, 2, 4}}

// seedOf hashes the state's data and parameters and the step: which
// question a step asks.
func seedOf(st demo.State, k int) uint32 {
	h := fnv.New32a()
	h.Write([]byte(st.AtStep(0).Encode(demo.ForPlot)))
	return h.Sum32() + uint32(k)*2654435761
}

// predictLSGD asks about the iteration after in.Step of gradient descent
// on least squares: will J go down, or, on every other step, which
// (w, b) it reaches among three on the line of its step.
func predictLSGD(ctx context.Context, in demo.Input) (*demo.Question, error) {
	_, xs, ys := graphXY(in.Points)
	st := in.State
	x := linreg.PolyRows(xs, 1)
	g, s0, err := linreg.NewGD(x, ys, lsgdLambda.Get(st), lsgdEta.Get(st), true)
	if err != nil {
		return nil, demo.UncomputableIf(err, linreg.ErrNotFinite)
	}
	s, k, _, err := keptLSGD(ctx, in, x, ys, g, s0, false)
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := g.Step(s)
	// The step asked about may be the run's last: the cap on J refuses
	// the one after it, and the reveal says so.
	var stops string
	if after := g.Step(next); after.Status == algos.Diverged {
		stops = " " + stopReason(g, after)
	}
	// Three candidates a quarter of the step apart must read apart, so a
	// step too small for that asks whether J goes down.
	visible := math.Hypot(next.W[0]-s.W[0], next.B-s.B) >= 0.08*(1+math.Hypot(s.W[0], s.B))
	at := fmt.Sprintf("θ = (w, b) = (%s, %s), J = %s", coef(s.W[0]), coef(s.B), textfmt.Sig(s.Objective))
	h := seedOf(st, k)
	if h%2 == 1 && visible {
		set := stepSets[(h/2)%3]
		labels := make([]string, 3)
		right := 0
		for i, c := range set {
			w, b := s.W[0]+c*(next.W[0]-s.W[0]), s.B+c*(next.B-s.B)
			if c == 1 {
				w, b, right = next.W[0], next.B, i
			}
			labels[i] = fmt.Sprintf("w = %s, b = %s", textfmt.Sig(w), textfmt.Sig(b))
		}
		if labels[0] != labels[1] && labels[1] != labels[2] && labels[0] != labels[2] {
			choices, r := demo.LetteredChoices(labels, right)
			return &demo.Question{
				Prompt:  fmt.Sprintf("Iteration %d starts at %s, with η = %s. Where is θ after it?", k+1, at, textfmt.Sig(lsgdEta.Get(st))),
				Choices: choices, Right: r,
				Why: fmt.Sprintf("θ ← θ − η∇J(θ) with ∇J = (%s, %s) gives (w, b) = (%s, %s); the others are steps %s and %s times as long.",
					textfmt.Sig(s.GradW[0]), textfmt.Sig(s.GradB), coef(next.W[0]), coef(next.B),
					textfmt.Num(set[(right+1)%3]), textfmt.Num(set[(right+2)%3])) + stops,
			}, nil
		}
	}
	if math.Abs(next.Objective-s.Objective) <= lsgdRounding(g, s, next) {
		return demo.NoQuestion(fmt.Sprintf("J changes by less than its rounding error at this step (from %s to %s)",
			textfmt.Sig(s.Objective), textfmt.Sig(next.Objective))), nil
	}
	down := next.Objective < s.Objective
	why := fmt.Sprintf("J goes from %s to %s.", textfmt.Sig(s.Objective), textfmt.Sig(next.Objective))
	why += stops
	return &demo.Question{
		Prompt:  fmt.Sprintf("Iteration %d starts at %s, with η = %s. Will J go down?", k+1, at, textfmt.Sig(lsgdEta.Get(st))),
		Choices: demo.YesNo(), Right: demo.YesOrNo(down), Why: why,
	}, nil
}

// predictLasso asks about the coordinate step after in.Step: will wⱼ be
// exactly 0 after it, or, on every other step, which value it takes among
// 0, ρⱼ/zⱼ (no penalty) and (ρⱼ − sign(ρⱼ)α)/zⱼ (the shrink without the
// threshold), marked in the (w₁, w₂) plane.
func predictLasso(ctx context.Context, in demo.Input) (*demo.Question, error) {
	st := in.State
	alpha := lassoAlpha.Get(st)
	x, y := lassoData(lassoN.Get(st), lassoCorr.Get(st), lassoNoise.Get(st), uint64(lassoSeed.Get(st)))
	l, s0, err := linreg.NewLasso(x, y, alpha, demo.MaxStep)
	if err != nil {
		return nil, demo.UncomputableIf(err, linreg.ErrNotFinite)
	}
	s, k, _, err := keptLasso(ctx, in, x, y, l, s0, false)
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := l.Step(s)
	st1 := next.Last
	if math.Abs(math.Abs(st1.Rho)-alpha) <= rhoRounding(l, s.W, st1.J) {
		return demo.NoQuestion(fmt.Sprintf("|ρ%s| = %s is within its rounding error of α = %s, so rounding, not the rule, would decide whether w%s is cut to 0",
			sub(st1.J), textfmt.Sig(math.Abs(st1.Rho)), textfmt.Sig(alpha), sub(st1.J))), nil
	}
	w := "w" + sub(st1.J)
	head := fmt.Sprintf("Step %d updates %s alone (now %s), with α = %s and w = (%s, %s).", k+1, w, coef(st1.Old), textfmt.Sig(alpha), coef(s.W[0]), coef(s.W[1]))
	why := fmt.Sprintf("ρ%s = %s and z%s = %s: ", sub(st1.J), textfmt.Sig(st1.Rho), sub(st1.J), textfmt.Sig(st1.Z))
	if math.Abs(st1.Rho) <= alpha {
		why += fmt.Sprintf("|ρ%s| ≤ α, so S(ρ%s, α) = 0 and %s = 0 exactly.", sub(st1.J), sub(st1.J), w)
	} else {
		why += fmt.Sprintf("|ρ%s| > α, so %s = (ρ%s − sign(ρ%s)·α)/z%s = %s.", sub(st1.J), w, sub(st1.J), sub(st1.J), sub(st1.J), coef(st1.New))
	}
	if h := seedOf(st, k); h%2 == 1 {
		if vals, right, ok := lassoCandidates(st1.Rho, st1.Z, alpha, st1.New, h/2); ok {
			letters := demo.Letters(3, func(i, j int) int { return int(math.Copysign(1, vals[i]-vals[j])) })
			q := &demo.Question{Prompt: head + " Which value does it take?", Right: letters[right], Why: why}
			for i, v := range vals {
				q.Choices = append(q.Choices, demo.Option{Value: letters[i], Label: letters[i] + ": " + w + " = " + coef(v)})
				m := demo.Mark{Label: letters[i], X1: s.W[0], X2: s.W[1]}
				if st1.J == 0 {
					m.X1 = v
				} else {
					m.X2 = v
				}
				q.Marks = append(q.Marks, m)
			}
			return q, nil
		}
	}
	return &demo.Question{Prompt: head + " Will " + w + " be exactly 0 after it?", Choices: demo.YesNo(), Right: demo.YesOrNo(st1.New == 0), Why: why}, nil
}

// lassoCandidates are three values wⱼ might take, the true one among
// them: a window of three consecutive values, chosen by seed, of the
// sorted pool 0, ρ/z (no penalty), (ρ − sα)/z (the soft threshold's
// shrink, s = sign ρ), (ρ − 2sα)/z (shrunk twice) and (ρ + sα)/z (shrunk
// the wrong way), so the truth is the smallest, middle or largest alike.
// ok is false when the pool has fewer than three values that print apart.
func lassoCandidates(rho, z, alpha, truth float64, seed uint32) (vals []float64, right int, ok bool) {
	sgn := math.Copysign(1, rho)
	pool := []float64{0, rho / z, (rho - sgn*alpha) / z, (rho - 2*sgn*alpha) / z, (rho + sgn*alpha) / z}
	if math.Abs(rho) > alpha {
		pool[2] = truth // the very float the step computed
	}
	slices.Sort(pool)
	pool = slices.CompactFunc(pool, func(a, b float64) bool { return coef(a) == coef(b) })
	i := slices.Index(pool, truth)
	if len(pool) < 3 || i < 0 {
		return nil, 0, false
	}
	lo, hi := max(0, i-2), min(i, len(pool)-3)
	start := lo + int(seed)%(hi-lo+1)
	return pool[start : start+3], i - start, true
}
