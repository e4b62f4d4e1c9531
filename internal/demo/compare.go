package demo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/margin-edu/margin/internal/textfmt"
)

// Comparisons: two runs of one stepping demo on the same data, side by
// side, stepped together (/compare/<ID>). Run a is the demo's own state;
// run b is run a with some algorithm parameters changed, which its URL
// gives as b.<key>=<value>. Data and view parameters are shared: only a
// parameter of GroupAlgo has a b.<key>, and one that is not given
// inherits run a's value. One step k drives both runs; a run that stops
// before k holds its last state.

// BPrefix starts the keys of run b's parameters: b.C=10.
const BPrefix = "b."

// ComparePath is the comparison of two runs of the demo;
// PresentComparePath and EmbedComparePath show it in the presenter and
// the embed view.
func (d *Demo) ComparePath() string        { return "/compare/" + d.ID }
func (d *Demo) PresentComparePath() string { return "/present/compare/" + d.ID }
func (d *Demo) EmbedComparePath() string   { return "/embed/compare/" + d.ID }

// Pair is the state of a comparison: run a's state (which holds the
// shared step) and run b's, which differs from it in algorithm
// parameters only.
type Pair struct {
	A, B State
}

// ParseCompare validates a comparison query: run a's keys as the demo
// page takes them (without point edits), and b.<key> for run b's
// algorithm parameters. A b.<key> of a data or view parameter, of an
// unknown key, or with a bad value is a problem naming b.<key>; a point
// edit (op, px, …) is a problem naming its key. A static
// demo has nothing to step, so nothing to compare: a problem under
// "demo".
func (d *Demo) ParseCompare(q url.Values) (Pair, Problems) {
	probs := Problems{}
	if d.Static {
		probs[KeyDemo] = d.ID + " shows one state and has no run to compare"
		return Pair{}, probs
	}
	aq, bq := url.Values{}, map[string]string{}
	edits := editParams()
	for k, vs := range q {
		if slices.ContainsFunc(edits, func(p Param) bool { return p.Key == k }) {
			probs[k] = "point edits belong on the demo page: add or remove the points there, then compare"
			continue
		}
		if !strings.HasPrefix(k, BPrefix) {
			aq[k] = vs
			continue
		}
		key := strings.TrimPrefix(k, BPrefix)
		raw, ok := single(q, k, probs)
		i, known := d.index[key]
		switch {
		case !known || d.params[i].Group != GroupAlgo:
			probs[k] = "run b takes only algorithm parameters: " + strings.Join(d.bKeys(), ", ")
		case !ok || probs[k] != "":
		default:
			v, err := d.params[i].parse(raw)
			if err != nil {
				probs[k] = err.Error()
				continue
			}
			bq[key] = v
		}
	}
	a, aprobs := d.Parse(aq)
	maps.Copy(probs, aprobs)
	if len(probs) > 0 {
		return Pair{}, probs
	}
	b := a.clone()
	// Every override at once, then one normalisation: b.kernel=rbf with
	// b.gamma=2 must not lose γ to an order in which γ did not apply yet.
	maps.Copy(b.vals, bq)
	b.normalize()
	return Pair{A: a, B: b}, nil
}

// bKeys lists the b.<key> a comparison takes, sorted.
func (d *Demo) bKeys() []string {
	var ks []string
	for _, p := range d.params {
		if p.Group == GroupAlgo {
			ks = append(ks, BPrefix+p.Key)
		}
	}
	slices.Sort(ks)
	if len(ks) == 0 {
		return []string{"none (this demo has no algorithm parameters)"}
	}
	return ks
}

// Differs lists the algorithm parameters (their keys, in form order) on
// which run b differs from run a: those that apply in run b and hold
// another value there.
func (p Pair) Differs() []string {
	var out []string
	for _, q := range p.A.d.params {
		if q.Group == GroupAlgo && p.B.Applies(q.Key) && p.B.vals[q.Key] != p.A.vals[q.Key] {
			out = append(out, q.Key)
		}
	}
	return out
}

// BFields are run b's keys in the canonical URL: b.<key> for each
// parameter Differs names.
func (p Pair) BFields() []Field {
	var out []Field
	for _, k := range p.Differs() {
		out = append(out, Field{BPrefix + k, p.B.vals[k]})
	}
	return out
}

// Query is the canonical query of the comparison: run a's state (its
// step the shared one; no demo=) and the b.<key> that differ from run
// a's, sorted like every Margin URL.
func (p Pair) Query() string {
	v := p.A.Values(ForPage)
	v.Del(KeyDemo)
	for _, f := range p.BFields() {
		v.Set(f.Key, f.Value)
	}
	return encode(v)
}

// URL is the comparison on the page at path (ComparePath or one of its
// views).
func (p Pair) URL(path string) string { return WithQuery(path, p.Query()) }

// AtStep returns the comparison with both runs at step k.
func (p Pair) AtStep(k int) Pair { return Pair{A: p.A.AtStep(k), B: p.B.AtStep(k)} }

// Hidden is the comparison's state as hidden form fields, without step
// and without the keys in except (run a's keys or b.<key>), so a form
// that edits some carries the rest along and starts at step 0.
func (p Pair) Hidden(except ...string) []Field {
	out := p.A.Hidden(except...)
	for _, f := range p.BFields() {
		if !slices.Contains(except, f.Key) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(x, y Field) int { return strings.Compare(x.Key, y.Key) })
	return out
}

// Settings says what run x (a or b) of the comparison sets apart from the
// other: "C = 1, kernel = linear" with the parameters' labels (those
// that apply in x), or "" when the runs do not differ.
func (p Pair) Settings(x State) string {
	var parts []string
	for _, k := range p.Differs() {
		if x.Applies(k) {
			i := p.A.d.index[k]
			parts = append(parts, p.A.d.params[i].Label+" = "+x.vals[k])
		}
	}
	return strings.Join(parts, ", ")
}

// CompareWork is the nominal work (about nanoseconds of ordinary
// arithmetic) the two runs of a comparison may take together, for demos
// that declare their StepWork: with what the page draws, it keeps a
// comparison under issue 28's 2 s of CPU, where two softmax runs of
// 20,000 steps on 500 points took 3.0 s.
const CompareWork = 1_300_000_000

// Comparison is the two runs of a Pair at the step shown.
type Comparison struct {
	Pair
	A, B *Run
	// Step is the step shown: the one asked for, or the last step of the
	// run that goes on longer when both stopped before it.
	Step int
	Done bool // both runs have stopped (or reached MaxStep)
	// MaxStep is the last step the comparison shows: MaxStep, or fewer
	// when the demo's StepWork says two runs that long pass CompareWork.
	MaxStep int
}

// CompareMaxStep is the last step a comparison of p shows on n points:
// MaxStep, or the most steps of both runs that CompareWork pays for when
// the demo declares its StepWork.
func (d *Demo) CompareMaxStep(p Pair, n int) int {
	if d.StepWork == nil {
		return MaxStep
	}
	w := max(d.StepWork(p.A, n)+d.StepWork(p.B, n), 1)
	return int(min(int64(MaxStep), CompareWork/w))
}

// ExecuteCompare runs both runs of p to its step (to the end, for
// StepToEnd, at most CompareMaxStep), under ctx. Errors are of the kinds
// ExecuteFigure's are; a refused value names run b's key (b.<key>) when
// run b refused it, and a step past CompareMaxStep is refused naming
// step, with the last step it may take and what else to lower.
func (d *Demo) ExecuteCompare(ctx context.Context, p Pair) (*Comparison, error) {
	last := MaxStep
	if d.StepWork != nil {
		pts, err := p.A.Points()
		if err != nil {
			return nil, d.kindOf(p.A, err)
		}
		last = d.CompareMaxStep(p, len(pts))
		if p.A.Step != StepToEnd && p.A.Step > last {
			return nil, BadInput(KeyStep, "a comparison runs both runs, and together they may take %s steps on %s: show step %d or less, or use fewer points",
				textfmt.Num(float64(2*last)), textfmt.Count(len(pts), "point", "points"), last)
		}
		if p.A.Step == StepToEnd && last < MaxStep {
			p = p.AtStep(last)
		}
	}
	ra, err := d.ExecuteFigure(ctx, p.A, "")
	if err != nil {
		return nil, err
	}
	rb, err := d.ExecuteFigure(ctx, p.B, "")
	if err != nil {
		return nil, d.prefixB(err)
	}
	k := max(ra.State.Step, rb.State.Step)
	if p.A.Step != StepToEnd {
		k = min(p.A.Step, k)
	}
	c := &Comparison{Pair: p.AtStep(k), A: ra, B: rb, Step: k, MaxStep: last}
	c.Done = k >= last || ((ra.Done || ra.State.Step < k) && (rb.Done || rb.State.Step < k))
	return c, nil
}

// prefixB says that run b's state was refused, naming b.<key> (in an
// *InputError, or each algorithm key of the Problems a demo's check of
// its parameters together found), or that run b cannot be computed.
func (d *Demo) prefixB(err error) error {
	var (
		in    *InputError
		probs Problems
	)
	switch {
	case errors.As(err, &in) && in.Key != "":
		return &InputError{Key: BPrefix + in.Key, Err: in.Err}
	case errors.As(err, &probs):
		out := Problems{}
		for k, msg := range probs {
			if i, ok := d.index[k]; ok && d.params[i].Group == GroupAlgo {
				k = BPrefix + k
			}
			out[k] = msg
		}
		return out
	case errors.Is(err, ErrUncomputable):
		return Uncomputable(err, "run b: "+err.Error())
	}
	return err
}

// Held reports whether run r stopped before the comparison's step, so
// its panel shows its last state: "stopped at step 12".
func (c *Comparison) Held(r *Run) bool { return r.State.Step < c.Step }

// HeldText says where run r stopped, or that it would go on past the
// comparison's last step (Comparison.MaxStep, short of MaxStep), or ""
// while it keeps pace.
func (c *Comparison) HeldText(r *Run) string {
	if !c.Held(r) {
		if c.MaxStep < MaxStep && c.Step >= c.MaxStep && !r.Done {
			return fmt.Sprintf("would go on, but a comparison of this demo shows at most %s steps, as its two runs share one budget; the run alone goes on to step %s",
				textfmt.Num(float64(c.MaxStep)), textfmt.Num(MaxStep))
		}
		return ""
	}
	return fmt.Sprintf("stopped at step %s; it holds its last state", textfmt.Num(float64(r.State.Step)))
}
