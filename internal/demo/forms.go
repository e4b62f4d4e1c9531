package demo

import (
	"math"
	"strconv"
)

// Form is one group of a demo's controls: the data form or the algorithm
// form. Every attribute comes from the parameters' declarations.
type Form struct {
	Legend   string
	Class    string // "data-form" or "param-form"
	Hidden   []Field
	Controls []Control
}

// Control is one input or select.
type Control struct {
	Key, Label, Value string
	Select            bool
	Min, Max, Step    string // number inputs
	// Range says what a number may be in the words of the server's
	// refusal ("a number greater than 0 up to 100"), for the page's
	// message when the browser refuses a value (app.js).
	Range string
	// Log is a slider over log₁₀ of the value from LogMin to LogMax,
	// which the page's script copies into the number input.
	Log            bool
	LogMin, LogMax string
	LogValue       string
	LogZero        bool // the slider's leftmost stop means 0
	Options        []SelectOption
}

// SelectOption is one entry of a select.
type SelectOption struct {
	Value, Label string
	Selected     bool
}

// Forms returns the data form (for demos with data) and the algorithm
// form, each with the controls that apply in s. A data form carries the
// added points along but not the removed ones, whose indices belong to
// the set being replaced; every form starts again from step 0.
func (d *Demo) Forms(s State) []Form {
	var out []Form
	for _, g := range []struct {
		group         Group
		legend, class string
	}{{GroupData, "Data", "data-form"}, {GroupAlgo, "Algorithm", "param-form"}} {
		f := Form{Legend: g.legend, Class: g.class}
		except := []string{}
		for _, p := range d.params {
			if p.Group != g.group {
				continue
			}
			except = append(except, p.Key)
			if p.Hidden || (p.When != nil && !p.When(s)) {
				continue
			}
			f.Controls = append(f.Controls, control(p, s.Value(p.Key)))
		}
		if g.group == GroupData {
			except = append(except, keyDel)
		}
		if len(f.Controls) == 0 {
			continue
		}
		f.Hidden = s.Hidden(except...)
		out = append(out, f)
	}
	return out
}

func control(p Param, value string) Control {
	c := Control{Key: p.Key, Label: p.Label, Value: value}
	switch p.Kind {
	case KindChoice:
		c.Select = true
		for _, o := range p.Options {
			label := o.Label
			if label == "" {
				label = o.Value
			}
			c.Options = append(c.Options, SelectOption{o.Value, label, o.Value == value})
		}
	case KindInt:
		c.Min, c.Max, c.Step = FmtNum(p.Min), FmtNum(p.Max), "1"
		c.Range = "a whole number from " + FmtNum(p.Min) + " to " + FmtNum(p.Max)
	case KindFloat:
		c.Min, c.Max, c.Step = FmtNum(p.Min), FmtNum(p.Max), p.Step
		c.Range = "a number " + p.rangeText()
		if p.OpenMin {
			c.Min = "" // the input cannot say "greater than"; the server checks
		}
		if c.Step == "" {
			c.Step = "any"
		}
		lo := p.Min
		if p.Min == 0 && p.LogZero > 0 {
			lo, c.LogZero = p.LogZero, true
		}
		if p.Log && lo > 0 {
			c.Log = true
			c.LogMin, c.LogMax = FmtNum(math.Log10(lo)), FmtNum(math.Log10(p.Max))
			switch v, err := strconv.ParseFloat(value, 64); {
			case err == nil && v > 0:
				c.LogValue = strconv.FormatFloat(math.Log10(max(v, lo)), 'f', 3, 64)
			case err == nil && v == 0 && c.LogZero:
				c.LogValue = c.LogMin
			}
		}
	}
	return c
}
