package demo

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
)

// Typed parameters. A demo declares each of its URL parameters once, as a
// value of one of these types, puts the value in its Spec's Params, and
// reads the parameter's value through the same value:
//
//	var eta = demo.Float{Key: "eta", Label: "η", Doc: "learning rate", Group: demo.GroupAlgo,
//		Default: 1, Min: 0, OpenMin: true, Max: 100, Step: "any"}
//	…
//	Params:  demo.Params(eta, …),
//	…
//	p.Eta = eta.Get(in.State)
//
// so the key is written once, the Go type of the value is the declaration's,
// and a read of a parameter the demo does not declare panics in a test
// binary (the conformance and caption loops run every demo, so they find
// it); Choice.Is also refuses a value that is not one of its options.

// Declarer is anything that declares one parameter: Int, Float, Choice, or
// a Param itself.
type Declarer interface{ Param() Param }

// Params lists the declarations of ps, in form order.
func Params(ps ...Declarer) []Param {
	out := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = p.Param()
	}
	return out
}

// Param returns p itself, so a raw Param can stand among typed ones.
func (p Param) Param() Param { return p }

// Int declares a whole-number parameter in [Min, Max].
type Int struct {
	Key, Label, Doc string
	Group           Group
	Default         int
	// DefaultFrom names a parameter whose value is the default instead
	// (an algorithm seed that follows the data seed).
	DefaultFrom      string
	Min, Max         int
	When             func(s State) bool
	PageOnly, Hidden bool
	AllowedDoc       string
}

// Param is p's declaration.
func (p Int) Param() Param {
	d := strconv.Itoa(p.Default)
	if p.DefaultFrom != "" {
		d = ""
	}
	return Param{Key: p.Key, Label: p.Label, Doc: p.Doc, Kind: KindInt, Group: p.Group, Default: d,
		DefaultFrom: p.DefaultFrom, Min: float64(p.Min), Max: float64(p.Max), When: p.When,
		PageOnly: p.PageOnly, Hidden: p.Hidden, AllowedDoc: p.AllowedDoc}
}

// Get returns p's value in s.
func (p Int) Get(s State) int {
	v, _ := strconv.Atoi(s.valOf(p.Key, KindInt))
	return v
}

// Float declares a finite real parameter in [Min, Max], or (Min, Max]
// when OpenMin.
type Float struct {
	Key, Label, Doc string
	Group           Group
	Default         float64
	Min, Max        float64
	OpenMin         bool
	// Step is the number input's step attribute: "0.1", or "any" (the
	// default).
	Step string
	// Log puts a slider on a log scale beside the number input (Min > 0),
	// for a value that matters by its order of magnitude; LogZero, with
	// Min 0, starts that slider at LogZero and makes its leftmost stop 0.
	Log              bool
	LogZero          float64
	When             func(s State) bool
	PageOnly, Hidden bool
	AllowedDoc       string
}

// Param is p's declaration.
func (p Float) Param() Param {
	return Param{Key: p.Key, Label: p.Label, Doc: p.Doc, Kind: KindFloat, Group: p.Group, Default: FmtNum(p.Default),
		Min: p.Min, Max: p.Max, OpenMin: p.OpenMin, Step: p.Step, Log: p.Log, LogZero: p.LogZero, When: p.When,
		PageOnly: p.PageOnly, Hidden: p.Hidden, AllowedDoc: p.AllowedDoc}
}

// Get returns p's value in s.
func (p Float) Get(s State) float64 {
	v, _ := strconv.ParseFloat(s.valOf(p.Key, KindFloat), 64)
	return v
}

// Choice declares a parameter whose value is one of Options.
type Choice struct {
	Key, Label, Doc  string
	Group            Group
	Default          string
	Options          []Option
	When             func(s State) bool
	PageOnly, Hidden bool
	AllowedDoc       string
}

// Param is p's declaration.
func (p Choice) Param() Param {
	return Param{Key: p.Key, Label: p.Label, Doc: p.Doc, Kind: KindChoice, Group: p.Group, Default: p.Default,
		Options: p.Options, When: p.When, PageOnly: p.PageOnly, Hidden: p.Hidden, AllowedDoc: p.AllowedDoc}
}

// Get returns p's value in s.
func (p Choice) Get(s State) string { return s.valOf(p.Key, KindChoice) }

// Is reports whether p has the value v in s. Asking about a value that is
// not one of p's options is a typo: it panics in a test binary.
func (p Choice) Is(s State, v string) bool {
	if testing.Testing() && !slices.ContainsFunc(p.Options, func(o Option) bool { return o.Value == v }) {
		panic(fmt.Sprintf("demo: %s has no option %q", p.Key, v))
	}
	return p.Get(s) == v
}

// valOf is the canonical value of key, which a typed parameter of kind k
// reads: in a test binary, reading a key the demo does not declare, or
// declares with another kind, panics.
func (s State) valOf(key string, k Kind) string {
	if i, ok := s.d.index[key]; ok && s.d.params[i].Kind != k && testing.Testing() {
		panic(fmt.Sprintf("demo: demo %s reads %q as another kind than it declares", s.d.ID, key))
	}
	return s.val(key)
}

// Parameters several demos declare alike: the λ of 001's SGD procedures,
// a stochastic method's sampling seed and an iteration budget.

// Limits of λ, listed in docs/demos with each demo that declares it.
const (
	MinLambda = 1e-4 // λ runs over [MinLambda, MaxLambda] on a log slider
	MaxLambda = 10.0
)

var (
	// Lambda is the λ of 001's SGD procedures, on a log slider.
	Lambda = Float{Key: "lambda", Label: "λ", Doc: "regularisation λ", Group: GroupAlgo,
		Default: 0.01, Min: MinLambda, Max: MaxLambda, Step: "any", Log: true}
	// Aseed seeds a stochastic method's sampling, the data's seed unless
	// set.
	Aseed = Int{Key: "aseed", Label: "sampling seed", Doc: "seeds the sampling", Group: GroupAlgo,
		DefaultFrom: "seed", Min: 0, Max: MaxSeed}
	// Iterations is the T of an iterative trainer.
	Iterations = Int{Key: "T", Label: "iterations T", Doc: "iterations to run", Group: GroupAlgo,
		Default: 2000, Min: 1, Max: MaxStep}
)

// LambdaParam is Lambda with a demo's own wording, applying when when says.
func LambdaParam(doc string, when func(State) bool) Param {
	p := Lambda
	p.Doc, p.When = doc, when
	return p.Param()
}

// AseedParam is Aseed with a demo's own wording, applying when when says.
func AseedParam(doc string, when func(State) bool) Param {
	p := Aseed
	p.Doc, p.When = doc, when
	return p.Param()
}

// Tweak returns a copy of p changed by f: a demo's own wording, default,
// limits or When for a parameter declared once for several demos. The copy
// keeps p's key and kind, so code shared by those demos reads it through
// either value.
func (p Int) Tweak(f func(*Int)) Int { f(&p); return p }

// Tweak returns a copy of p changed by f, as Int.Tweak.
func (p Float) Tweak(f func(*Float)) Float { f(&p); return p }

// Tweak returns a copy of p changed by f, as Int.Tweak.
func (p Choice) Tweak(f func(*Choice)) Choice { f(&p); return p }
