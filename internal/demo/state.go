package demo

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/textfmt"
)

// State is the whole state of a demo, as its URL carries it: every
// parameter's canonical value (defaults filled in), the points added and
// removed, and the step shown. It is a value; With returns a changed copy.
type State struct {
	d    *Demo
	vals map[string]string
	Add  []Point
	Del  []int // indices of data-set points removed, ascending, no repeats
	Step int   // StepToEnd, or 0…MaxStep
	// Predict is the page's predict-then-reveal state (predict_state.go).
	Predict Predicting
}

// Problems maps a query key to what is wrong with it. It is empty when the
// query is valid.
type Problems map[string]string

// List returns one "key: problem" line per key, in key order.
func (p Problems) List() []string {
	out := make([]string, 0, len(p))
	for _, k := range slices.Sorted(maps.Keys(p)) {
		out = append(out, textfmt.Clip(k)+": "+p[k])
	}
	return out
}

// Error lists the problems on one line.
func (p Problems) Error() string { return strings.Join(p.List(), "; ") }

// Default returns the demo's state when its URL has no query.
func (d *Demo) Default() State {
	s, _ := d.Parse(url.Values{})
	return s
}

// Parse validates a demo query. Every key has a default, so an empty
// query is valid. Unknown and repeated keys are problems, so a mistyped
// permalink says so instead of silently showing something else.
func (d *Demo) Parse(q url.Values) (State, Problems) {
	probs := Problems{}
	one := func(key string) (string, bool) { return single(q, key, probs) }
	s := State{d: d, vals: make(map[string]string, len(d.params))}
	given := map[string]bool{}
	for _, p := range d.params {
		raw, ok := one(p.Key)
		s.vals[p.Key] = p.Default
		if !ok {
			continue
		}
		v, err := p.parse(raw)
		if err != nil {
			probs[p.Key] = err.Error()
			continue
		}
		s.vals[p.Key], given[p.Key] = v, true
	}
	for _, p := range d.params {
		if p.DefaultFrom != "" && !given[p.Key] {
			s.vals[p.Key] = s.vals[p.DefaultFrom]
		}
	}
	s.normalize()
	if raw, ok := one(KeyStep); ok {
		s.Step = parseStep(raw, probs)
		if d.Static && s.Step != 0 && probs[KeyStep] == "" {
			probs[KeyStep] = "this demo shows one state and has no steps; leave step out"
		}
	}
	s.Predict = d.parsePredict(one, probs, s.Step)
	if raw, ok := one(KeyAdd); ok {
		s.Add = d.parsePoints(raw, probs)
	}
	if raw, ok := one(keyDel); ok {
		s.Del = parseDel(raw, probs)
	}
	if !d.HasPoints() && (len(s.Add) > 0 || len(s.Del) > 0) {
		probs[KeyAdd] = "this demo has no data points to add or remove"
	}
	if id, ok := one(KeyDemo); ok && (!d.Secondary || id != d.ID) {
		probs[KeyDemo] = fmt.Sprintf("%s does not name this demo", textfmt.Quote(id))
	}
	for k := range q {
		if _, known := d.index[k]; !known && k != KeyStep && k != KeyAdd && k != keyDel && k != KeyDemo && k != KeyPredict && (d.Predict == nil || !isPredictKey(k)) {
			probs[k] = "unknown parameter; known ones are " + strings.Join(d.keys(), ", ")
		}
	}
	return s, probs
}

// single returns the one non-blank value of key, recording a problem
// when the key is given more than once.
func single(q url.Values, key string, probs Problems) (string, bool) {
	vs := q[key]
	if len(vs) > 1 {
		probs[key] = "given more than once; give it once"
	}
	if len(vs) == 0 {
		return "", false
	}
	v := strings.TrimSpace(vs[0])
	return v, v != ""
}

// normalize resets every parameter that does not apply to its default, so
// equal states are equal values with one URL.
func (s *State) normalize() {
	for _, p := range s.d.params {
		if p.When != nil && !p.When(*s) {
			s.vals[p.Key] = s.def(p)
		}
	}
}

func (s State) def(p Param) string {
	if p.DefaultFrom != "" {
		return s.vals[p.DefaultFrom]
	}
	return p.Default
}

func (d *Demo) keys() []string {
	ks := []string{KeyAdd, keyDel, KeyStep}
	if d.Predict != nil {
		ks = append(ks, KeyPredict, KeyScore, KeyLast)
	}
	for _, p := range d.params {
		ks = append(ks, p.Key)
	}
	slices.Sort(ks)
	return ks
}

func parseStep(raw string, probs Problems) int {
	if raw == "end" {
		return StepToEnd
	}
	k, err := strconv.Atoi(raw)
	if err != nil || k < 0 || k > MaxStep {
		probs[KeyStep] = fmt.Sprintf("%s is not a whole number from 0 to %d, or end", textfmt.Quote(raw), MaxStep)
		return 0
	}
	return k
}

// parseDel reads del=i,j,…: distinct indices of data-set points.
func parseDel(raw string, probs Problems) []int {
	fields := strings.Split(raw, ",")
	if len(fields) > MaxPoints {
		probs[keyDel] = fmt.Sprintf("%d indices; at most %d", len(fields), MaxPoints)
		return nil
	}
	del := make([]int, 0, len(fields))
	for _, f := range fields {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 0 || i >= MaxPoints {
			probs[keyDel] = fmt.Sprintf("%s is not a point index from 0 to %d", textfmt.Quote(f), MaxPoints-1)
			return nil
		}
		if slices.Contains(del, i) {
			probs[keyDel] = fmt.Sprintf("index %d is given twice; give each once", i)
			return nil
		}
		del = append(del, i)
	}
	slices.Sort(del)
	return del
}

// Demo returns the demo the state belongs to.
func (s State) Demo() *Demo { return s.d }

// Has reports whether the demo declares the parameter key: code shared by
// several demos asks before reading a key only some of them have.
func (s State) Has(key string) bool {
	_, ok := s.d.index[key]
	return ok
}

// DataSet names the data set the state shows, or "" for a demo without
// points.
func (s State) DataSet() string {
	if !s.Has(KeyData) {
		return ""
	}
	return s.vals[KeyData]
}

// val is the canonical value of a declared key. Reading a key the demo
// never declared is a bug in the demo (a typo, or code shared with a demo
// that has it): in a test binary it panics, so the caption grid and the
// page tests, which run every demo, find it; a server reads "" and the
// zero value, as it always did.
func (s State) val(key string) string {
	if !s.Has(key) && testing.Testing() {
		panic(fmt.Sprintf("demo: demo %s reads %q, a parameter it does not declare", s.d.ID, key))
	}
	return s.vals[key]
}

// Value returns the canonical spelling of key's value, for code that
// handles every parameter alike (forms, tests); a demo reads its own
// parameters through their typed declarations (typed.go).
func (s State) Value(key string) string { return s.val(key) }

// Applies reports whether the parameter key applies in s.
func (s State) Applies(key string) bool {
	i, ok := s.d.index[key]
	if !ok {
		return false
	}
	p := s.d.params[i]
	return p.When == nil || p.When(s)
}

// With returns s with key set to the canonical form of value, after
// validating it; parameters that stop applying go back to their defaults.
func (s State) With(key, value string) (State, error) {
	i, ok := s.d.index[key]
	if !ok {
		return s, fmt.Errorf("%s: unknown parameter", key)
	}
	v, err := s.d.params[i].parse(value)
	if err != nil {
		return s, fmt.Errorf("%s: %v", key, err)
	}
	c := s.clone()
	c.vals[key] = v
	c.normalize()
	return c, nil
}

// AtStep returns s showing step k, reached by a plain step (no answer:
// Predict.Last is cleared).
func (s State) AtStep(k int) State { s.Step, s.Predict.Last = k, ""; return s }

func (s State) clone() State {
	c := s
	c.vals = maps.Clone(s.vals)
	c.Add = slices.Clone(s.Add)
	c.Del = slices.Clone(s.Del)
	return c
}

// Scope selects which keys a URL carries.
type Scope int

const (
	// ForPage: the whole state.
	ForPage Scope = iota
	// ForPlot: everything that changes a plot (no page-only keys).
	ForPlot
	// ForData: only what chooses the points.
	ForData
	// ForRun: what a run depends on, the data's and the algorithm's keys,
	// never the step or how it is shown (a key for kept runs, which a
	// 300 px presenter plot and a 600 px page share).
	ForRun
)

// Values encodes s as a query, leaving out keys at their defaults and
// keys that do not apply, so that one state has one URL.
func (s State) Values(scope Scope) url.Values {
	v := url.Values{}
	for _, p := range s.d.params {
		switch {
		case scope == ForPlot && p.PageOnly, scope == ForData && p.Group != GroupData, scope == ForRun && p.Group == GroupView:
			continue
		case p.When != nil && !p.When(s), s.vals[p.Key] == s.def(p):
			continue
		}
		v.Set(p.Key, s.vals[p.Key])
	}
	if len(s.Add) > 0 {
		v.Set(KeyAdd, s.d.formatPoints(s.Add))
	}
	if len(s.Del) > 0 {
		parts := make([]string, len(s.Del))
		for i, k := range s.Del {
			parts[i] = strconv.Itoa(k)
		}
		v.Set(keyDel, strings.Join(parts, ","))
	}
	if scope == ForPage && s.d.Secondary {
		v.Set(KeyDemo, s.d.ID)
	}
	switch {
	case scope == ForData, scope == ForRun:
	case s.Step == StepToEnd:
		v.Set(KeyStep, "end")
	case s.Step != 0:
		v.Set(KeyStep, strconv.Itoa(s.Step))
	}
	if scope == ForPage {
		s.Predict.encode(v, s.Step)
	}
	return v
}

// Encode returns the canonical query string of s for scope. Keys are
// sorted; commas and tildes stay unescaped (both are legal in a query)
// so that point lists stay readable.
func (s State) Encode(scope Scope) string {
	return encode(s.Values(scope))
}

func encode(v url.Values) string {
	return strings.ReplaceAll(v.Encode(), "%2C", ",")
}

// URL returns the state on the page at path.
func (s State) URL(path string) string { return WithQuery(path, s.QueryAt(path)) }

// QueryAt returns the canonical query of the state on the page at path:
// the whole state, with demo=<ID> only on a lesson page where the demo is
// not the first.
func (s State) QueryAt(path string) string {
	v := s.Values(ForPage)
	if path != s.d.LessonPath() {
		v.Del(KeyDemo)
	}
	return encode(v)
}

// WithQuery is path with query appended, if any.
func WithQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}

// Field is a query key and value, for the hidden inputs of a form.
type Field struct{ Key, Value string }

// Hidden returns s's non-default keys other than except and step, so a
// form that edits some keys carries the rest of the state along and
// starts again from step 0.
func (s State) Hidden(except ...string) []Field {
	v := s.Values(ForPage)
	v.Del(KeyStep)
	v.Del(KeyLast)
	for _, k := range except {
		v.Del(k)
	}
	out := make([]Field, 0, len(v))
	for _, k := range slices.Sorted(maps.Keys(v)) {
		out = append(out, Field{k, v.Get(k)})
	}
	return out
}
