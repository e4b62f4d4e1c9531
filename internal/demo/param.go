package demo

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/textfmt"
)

// Kind is the type of a parameter's value.
type Kind int

const (
	// KindInt is a whole number in [Min, Max].
	KindInt Kind = iota
	// KindFloat is a finite number in [Min, Max], or (Min, Max] when OpenMin.
	KindFloat
	// KindChoice is one of Choices.
	KindChoice
)

// Group says which form of a demo a parameter sits in.
type Group int

const (
	// GroupData parameters choose the data; changing one keeps added
	// points but forgets removed ones (their indices belong to the old set).
	GroupData Group = iota
	// GroupAlgo parameters set the algorithm.
	GroupAlgo
	// GroupView parameters change only how the state is shown; they have
	// no form of their own (the step buttons, speed menu and plot size).
	GroupView
)

// Option is one allowed value of a Choice parameter and its label.
type Option struct{ Value, Label string }

// Param declares one URL parameter of a demo, once: parsing, validation,
// canonical encoding, the form control and the docs/demos limits table all
// read it, so a default or limit is never written twice.
type Param struct {
	Key   string
	Label string // the form control's label
	Doc   string // what it means, for the docs/demos table
	Kind  Kind
	Group Group
	// Default is the value's canonical spelling when the URL leaves the
	// key out. DefaultFrom, when set, names a parameter whose value is
	// the default instead (an algorithm seed that follows the data seed).
	Default     string
	DefaultFrom string
	Min, Max    float64
	OpenMin     bool
	// Step is the input's step attribute: "1", "0.1" or "any".
	Step string
	// Log puts a slider on a log scale beside a Float's number input (Min
	// must be > 0): for a value such as C that matters by its order of
	// magnitude. The URL keeps the number itself.
	Log bool
	// LogZero, with Log and Min 0, starts the slider at LogZero and makes
	// its leftmost stop mean 0: a ridge λ that matters by its order of
	// magnitude but whose natural default is none at all.
	LogZero float64
	Options []Option
	// When reports whether the parameter applies in state s; nil means
	// always. A parameter that does not apply keeps its default, is left
	// out of URLs and has no form control.
	When func(s State) bool
	// PageOnly parameters (play speed, the class a click adds) shape the
	// page but not the plots, so plot and CSV URLs leave them out.
	PageOnly bool
	// Hidden parameters have no control in the parameter forms.
	Hidden bool
	// AllowedDoc, when set, replaces the generated "allowed" of docs/demos.
	AllowedDoc string
}

// parse checks raw against the declaration and returns its canonical
// spelling, or a problem that names what is allowed.
func (p *Param) parse(raw string) (string, error) {
	switch p.Kind {
	case KindInt:
		v, err := strconv.Atoi(raw)
		if err != nil || float64(v) < p.Min || float64(v) > p.Max {
			return "", fmt.Errorf("%s is not a whole number from %s to %s", textfmt.Quote(raw), FmtNum(p.Min), FmtNum(p.Max))
		}
		return strconv.Itoa(v), nil
	case KindFloat:
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(v) || v < p.Min || v > p.Max || (p.OpenMin && v == p.Min) {
			return "", fmt.Errorf("%s is not a number %s", textfmt.Quote(raw), p.rangeText())
		}
		return FmtNum(v), nil
	}
	for _, o := range p.Options {
		if raw == o.Value {
			return raw, nil
		}
	}
	return "", fmt.Errorf("%s is not one of %s", textfmt.Quote(raw), strings.Join(p.values(), ", "))
}

func (p *Param) values() []string {
	vs := make([]string, len(p.Options))
	for i, o := range p.Options {
		vs[i] = o.Value
	}
	return vs
}

// rangeText says what a number may be: "from 0 up to 10", "greater than 0
// up to 100".
func (p *Param) rangeText() string {
	if p.OpenMin {
		return "greater than " + FmtNum(p.Min) + " up to " + FmtNum(p.Max)
	}
	return "from " + FmtNum(p.Min) + " up to " + FmtNum(p.Max)
}

// Allowed describes the allowed values for docs/demos: "4–500",
// "(0, 100]", "cyclic, random".
func (p *Param) Allowed() string {
	if p.AllowedDoc != "" {
		return p.AllowedDoc
	}
	switch p.Kind {
	case KindInt:
		return FmtNum(p.Min) + "–" + FmtNum(p.Max)
	case KindFloat:
		if p.OpenMin {
			return "(" + FmtNum(p.Min) + ", " + FmtNum(p.Max) + "]"
		}
		return FmtNum(p.Min) + "–" + FmtNum(p.Max)
	}
	return strings.Join(p.values(), ", ")
}

// FmtNum writes the shortest decimal that parses back to v exactly: in
// plain form while that takes at most 21 characters, in exponent form
// beyond, so values round-trip and 5e-324 stays six characters long
// instead of 326. It is the form used in URLs and CSV.
func FmtNum(v float64) string {
	if v == 0 {
		return "0" // also folds −0, which would otherwise be a second URL
	}
	if f := strconv.FormatFloat(v, 'f', -1, 64); len(f) <= 21 {
		return f
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// MaxSeed is the largest seed a URL may give.
const MaxSeed = math.MaxInt32
