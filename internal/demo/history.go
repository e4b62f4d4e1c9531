// The history a stepping demo charts: which steps a costly scalar is
// sampled at, and a recorder of an objective against its optimum.

package demo

import (
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// maxErrorSamples bounds the states whose training error the history
// records: each costs a prediction per point.
const maxErrorSamples = 2000

// SampleClock picks up to maxErrorSamples evenly spaced steps of a run of
// k steps, always the first (and the recorders add the last): the steps
// at which a history records a scalar that costs a pass over the points,
// such as a training error or a primal objective.
type SampleClock struct {
	every   float64 // spacing in steps
	n, next int     // samples taken; the next step to sample
}

func NewSampleClock(k int) SampleClock {
	c := SampleClock{every: 1}
	if k+1 > maxErrorSamples {
		c.every = float64(k) / float64(maxErrorSamples-1)
	}
	return c
}

// Due reports whether step k is sampled, and if so moves on to the next.
func (c *SampleClock) Due(k int) bool {
	if k != c.next {
		return false
	}
	c.n++
	c.next = int(math.Round(float64(c.n) * c.every))
	return true
}

// objectiveRecorder samples a run's objective at up to maxErrorSamples
// evenly spaced steps, as the perceptron's recorder samples its error.
type objectiveRecorder[S any] struct {
	clock SampleClock
	f     func(S) (t int, objective float64)
	s     chart.Series
	On    bool // Replay was given it
}

func NewObjectiveRecorder[S any](k int, f func(S) (int, float64)) *objectiveRecorder[S] {
	return &objectiveRecorder[S]{clock: NewSampleClock(k), f: f}
}

// Record implements algos.Recorder.
func (r *objectiveRecorder[S]) Record(k int, s S) error {
	if r.clock.Due(k) {
		r.sample(s)
	}
	return nil
}

func (r *objectiveRecorder[S]) sample(s S) {
	t, v := r.f(s)
	r.s.T, r.s.Y = append(r.s.T, float64(t)), append(r.s.Y, v)
}

// Recorders is rec when the request draws the history, else none.
func Recorders[S any](in Input, rec *objectiveRecorder[S]) []algos.Recorder[S] {
	if !in.Wants(HistoryFigure) {
		return nil
	}
	rec.On = true
	return []algos.Recorder[S]{rec}
}

// History charts the objective against the optimum, and their difference
// on a log scale, after sampling the last state; nil when the recorder was
// not used.
func (r *objectiveRecorder[S]) History(s S, name string, optimum float64) *chart.History {
	if !r.On {
		return nil
	}
	if t, _ := r.f(s); len(r.s.T) == 0 || r.s.T[len(r.s.T)-1] != float64(t) {
		r.sample(s)
	}
	t, v := r.f(s)
	gap := chart.Series{Label: "above optimum", Log: true, Lines: true, T: r.s.T, Y: make([]float64, len(r.s.Y))}
	for i, y := range r.s.Y {
		gap.Y[i] = y - optimum
	}
	r.s.Label, r.s.Lines = "objective", true
	r.s.Compare = &chart.Series{Label: "exact optimum", T: []float64{0, float64(t)}, Y: []float64{optimum, optimum}, Lines: true}
	title := fmt.Sprintf("after iteration %d: %s = %s · optimum %s", t, name, textfmt.Sig(v), textfmt.Sig(optimum))
	above := "now " + textfmt.Sig(v-optimum)
	if v-optimum <= 0 {
		// A log scale has no place for it: the objective is at the
		// optimum to rounding.
		above = fmt.Sprintf("now %s, which a log scale cannot show: at the optimum to rounding", textfmt.Sig(v-optimum))
	}
	return &chart.History{
		Title: title, Name: "Primal training history: " + title, XLabel: "iteration t", Now: float64(t),
		Desc: fmt.Sprintf("Two panels against the iteration t from 0 to %d. Top: the %s, now %s, against the exact optimum %s "+
			"(dashed). Bottom: how far above the optimum it is, on a log scale, %s.", t, name, textfmt.Sig(v), textfmt.Sig(optimum), above),
		Series: []chart.Series{r.s, gap},
	}
}
