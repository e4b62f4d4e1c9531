// The history a stepping demo charts: which steps a costly scalar is
// sampled at, a recorder of an objective against its optimum, and the
// trail of an optimiser's iterates a plot draws.

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
	// Approx says the optimum the run is charted against is a lower bound
	// from a solver that could not finish within its work budget: Gap
	// bounds how far the true optimum is above it.
	Approx bool
	Gap    float64
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
	ref, refShort, refWord := "the exact optimum", "optimum", "optimum"
	if r.Approx {
		ref = fmt.Sprintf("a lower bound on the optimum (its solver stopped at its work budget; the optimum is at most %s above it)", textfmt.Sig(r.Gap))
		refShort, refWord = "optimum ≥", "lower bound"
		gap.Label = "above the lower bound"
	}
	r.s.Label, r.s.Lines = "objective", true
	r.s.Compare = &chart.Series{Label: refShort, T: []float64{0, float64(t)}, Y: []float64{optimum, optimum}, Lines: true}
	if !r.Approx {
		r.s.Compare.Label = "exact optimum"
	}
	title := fmt.Sprintf("after iteration %d: %s = %s · %s %s", t, name, textfmt.Sig(v), refShort, textfmt.Sig(optimum))
	now := "now " + textfmt.Sig(v-optimum)
	if v-optimum <= 0 {
		// A log scale has no place for it: the objective is at the
		// optimum to rounding.
		now = fmt.Sprintf("now %s, which a log scale cannot show: at the %s to rounding", textfmt.Sig(v-optimum), refWord)
	}
	return &chart.History{
		Title: title, Name: "Primal training history: " + title, XLabel: "iteration t", Now: float64(t),
		Desc: fmt.Sprintf("Two panels against the iteration t from 0 to %d. Top: the %s, now %s, against %s %s "+
			"(dashed). Bottom: how far above the %s it is, on a log scale, %s.", t, name, textfmt.Sig(v), ref, textfmt.Sig(optimum), refWord, now),
		Series: []chart.Series{r.s, gap},
	}
}

// Trail bounds, shared by every demo that draws an optimiser's path.
// MaxTrail bounds the iterates a Trail keeps, so memory and drawing stay
// small on a run of MaxStep steps; FarIterate bounds the coordinates
// drawn, since a diverging run's would overflow page coordinates.
const (
	MaxTrail   = 2000
	FarIterate = 1e9
)

// Trail keeps the 2-D iterates of a run for its plot: a read-only
// observer of a replay, fed one iterate per state by Add. It keeps every
// stride-th iterate, k = 0, stride, 2·stride, …; when that fills MaxTrail
// it drops every other one and doubles stride. Which iterates are kept
// depends only on k, so a plot URL always draws the same path, and the
// start is always kept. It stops at the first iterate too far out to
// draw (beyond ±FarIterate): a diverging run leaves the view for good.
type Trail struct {
	xy     [][2]float64
	stride int
	start  [2]float64
	far    bool
}

// NewTrail returns an empty Trail.
func NewTrail() *Trail { return &Trail{stride: 1} }

// Add records iterate k, x; call it for k = 0, 1, 2, … in order.
func (r *Trail) Add(k int, x [2]float64) {
	if k == 0 {
		r.start = x
	}
	if r.far = r.far || !Drawable(x); r.far || k%r.stride != 0 {
		return
	}
	r.xy = append(r.xy, x)
	if len(r.xy) >= MaxTrail {
		kept := r.xy[:0]
		for i := 0; i < len(r.xy); i += 2 {
			kept = append(kept, r.xy[i])
		}
		r.xy, r.stride = kept, 2*r.stride
	}
}

// Start returns iterate 0.
func (r *Trail) Start() [2]float64 { return r.start }

// Iterates returns the path to draw whose current iterate is x: the kept
// ones, ending with x, and the index of x, or −1 when x is too far out to
// draw. The slice is a copy the caller may keep.
func (r *Trail) Iterates(x [2]float64) ([][2]float64, int) {
	xy := append([][2]float64(nil), r.xy...)
	if !Drawable(x) {
		return xy, -1
	}
	if n := len(xy); n == 0 || xy[n-1] != x {
		xy = append(xy, x)
	}
	return xy, len(xy) - 1
}

// Drawable reports whether x is near enough to draw: both coordinates
// within ±FarIterate.
func Drawable(x [2]float64) bool {
	return math.Abs(x[0]) <= FarIterate && math.Abs(x[1]) <= FarIterate
}
