package course

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestConformance holds every demo of the course to the kit's contract,
// from one loop, so a new demo gets these checks by existing:
//   - random valid states parse, encode and parse again to the same
//     canonical URL (one state, one URL);
//   - a bad value of each key is a problem that names that key;
//   - every figure draws at the default, step 1, mid-run and the end,
//     with no NaN or Inf in it, byte for byte the same when drawn twice.
//
// TestCaptionsAgreeWithState reads the words of the same states.
func TestConformance(t *testing.T) {
	t.Parallel() // one of the course-wide loops: they share the two cores
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Demos {
		t.Run(d.ID, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(d.ID))))
			for i := 0; i < 50; i++ {
				q := randomState(d, rng)
				s, probs := d.Parse(q)
				if len(probs) > 0 {
					t.Errorf("random valid state %s refused: %v", q.Encode(), probs)
					continue
				}
				enc := s.Encode(demo.ForPage)
				again, probs := d.Parse(mustQuery(t, enc))
				if len(probs) > 0 || again.Encode(demo.ForPage) != enc {
					t.Errorf("%s encodes to %q, which parses to %q (%v)", q.Encode(), enc, again.Encode(demo.ForPage), probs)
				}
			}
			for _, p := range d.Params() {
				for _, bad := range badValues(p) {
					q := url.Values{p.Key: {bad}}
					if d.Secondary {
						q.Set(demo.KeyDemo, d.ID)
					}
					if _, probs := d.Parse(q); probs[p.Key] == "" {
						t.Errorf("%s=%q accepted, want a problem naming %s", p.Key, bad, p.Key)
					}
				}
			}
			for _, s := range conformanceStates(t, d) {
				checkFigures(t, d, s)
			}
		})
	}
}

// randomState draws a value for each of d's parameters from its declared
// range: a choice, a whole number, or a number (log-uniform on a log
// slider).
func randomState(d *demo.Demo, rng *rand.Rand) url.Values {
	q := url.Values{}
	if d.Secondary {
		q.Set(demo.KeyDemo, d.ID)
	}
	for _, p := range d.Params() {
		if rng.IntN(2) == 0 {
			continue // leave some at their defaults
		}
		switch p.Kind {
		case demo.KindChoice:
			o := p.Options[rng.IntN(len(p.Options))].Value
			if o == demo.Custom {
				continue // a custom set needs added points
			}
			q.Set(p.Key, o)
		case demo.KindInt:
			q.Set(p.Key, strconv.Itoa(int(p.Min)+rng.IntN(int(p.Max-p.Min)+1)))
		case demo.KindFloat:
			v := p.Min + rng.Float64()*(p.Max-p.Min)
			if p.Log && p.Min > 0 {
				v = math.Exp(math.Log(p.Min) + rng.Float64()*(math.Log(p.Max)-math.Log(p.Min)))
			}
			if p.OpenMin && v == p.Min {
				v = p.Max
			}
			q.Set(p.Key, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	if !d.Static {
		q.Set(demo.KeyStep, strconv.Itoa(rng.IntN(50)))
	}
	return q
}

// badValues are values a parameter must refuse.
func badValues(p demo.Param) []string {
	switch p.Kind {
	case demo.KindChoice:
		return []string{"no-such-" + p.Key} // a blank value means the default (an empty form field)
	case demo.KindInt:
		return []string{"x", fmt.Sprint(p.Max + 1), fmt.Sprint(p.Min - 1), "1.5", "NaN"}
	}
	bad := []string{"x", "NaN", "Inf", strconv.FormatFloat(p.Max*2+1, 'g', -1, 64)}
	if p.OpenMin {
		bad = append(bad, strconv.FormatFloat(p.Min, 'g', -1, 64))
	}
	return bad
}

func mustQuery(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// conformanceStates are a demo's default, and for a stepping demo its
// step 1, the middle of its run and its end.
func conformanceStates(t *testing.T, d *demo.Demo) []demo.State {
	t.Helper()
	def := d.Default()
	out := []demo.State{def}
	if d.Static {
		return out
	}
	end, err := demotest.Execute(d, def.AtStep(demo.StepToEnd))
	if err != nil {
		t.Fatalf("%s at its end: %v", d.ID, err)
	}
	last := end.State.Step
	return append(out, def.AtStep(1), def.AtStep(last/2), def.AtStep(last))
}

// checkFigures runs s twice and draws every figure of each run: the two
// must be byte for byte the same, with no NaN or Inf in them.
func checkFigures(t *testing.T, d *demo.Demo, s demo.State) {
	t.Helper()
	where := s.URL(d.PresentPath())
	runs := [2]*demo.Run{}
	for i := range runs {
		r, err := demotest.Execute(d, s)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			return
		}
		runs[i] = r
	}
	draw := func(r *demo.Run, name string, png bool) ([]byte, bool) {
		var b bytes.Buffer
		ok, err := r.WriteFigure(&b, name, png)
		if err != nil {
			t.Errorf("%s figure %s: %v", where, name, err)
		}
		return b.Bytes(), ok && err == nil
	}
	for _, name := range append([]string{demo.PlotFigure, demo.HistoryFigure}, d.Panels...) {
		a, ok := draw(runs[0], name, false)
		if !ok {
			continue
		}
		if b, _ := draw(runs[1], name, false); !bytes.Equal(a, b) {
			t.Errorf("%s figure %s: two runs draw it differently", where, name)
		}
		svg := string(a)
		for _, bad := range []string{"NaN", "Inf", "inf\"", "e+308"} {
			if strings.Contains(svg, bad) {
				t.Errorf("%s figure %s contains %q", where, name, bad)
			}
		}
	}
	if png, ok := draw(runs[0], demo.PlotFigure, true); ok && !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("%s: the PNG plot is not a PNG", where)
	}
}
