package course

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// TestExtremesAreNoBug: every numeric key of every demo at the ends of
// its range (and just inside an open minimum), and every choice, alone
// and at the end of the run, and custom points at the edge of the plane,
// either computes or is refused as the
// client's to change (a key, or a 422): never an internal error, which
// the server would answer with a 500.
func TestExtremesAreNoBug(t *testing.T) {
	t.Parallel() // one of the course-wide loops: they share the two cores
	if testing.Short() {
		t.Skip("runs every demo at every extreme")
	}
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, d := range course.Demos {
		for _, p := range d.Spec.Params {
			var vals []string
			switch p.Kind {
			case demo.KindInt:
				vals = []string{strconv.Itoa(int(p.Min)), strconv.Itoa(int(p.Max))}
			case demo.KindFloat:
				lo := p.Min
				if p.OpenMin {
					lo = p.Min + 1e-300
				}
				vals = []string{strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(p.Max, 'g', -1, 64)}
			case demo.KindChoice:
				for _, o := range p.Options {
					vals = append(vals, o.Value)
				}
			}
			for _, v := range vals {
				for _, step := range []string{"", "end"} {
					q := url.Values{p.Key: {v}}
					if step != "" && !d.Static {
						q.Set(demo.KeyStep, step)
					}
					runs += noInternalError(t, d, q)
				}
			}
		}
	}
	// Custom points at the edge of what a point may be, one class or two,
	// and the same point twice.
	for _, d := range course.Demos {
		if !d.HasPoints() {
			continue
		}
		for _, add := range []string{
			"1000000,1000000,1~-1000000,-1000000,-1~0,0,1", "1000000,1000000,1~1000000,1000000,-1",
			"1000000,-1000000,1", "0,0,0~1000000,1000000,1~-1000000,1,2",
			"1000000,1000000~-1000000,-1000000~0,0", "1000000,1000000~1000000,-1000000", "5,5",
		} {
			for _, step := range []string{"", "end"} {
				q := url.Values{demo.KeyData: {demo.Custom}, demo.KeyAdd: {add}}
				if step != "" && !d.Static {
					q.Set(demo.KeyStep, step)
				}
				runs += noInternalError(t, d, q)
			}
		}
	}
	if runs < 200 {
		t.Errorf("only %d states ran: the extremes are mostly refused at parse", runs)
	}
	t.Logf("%d states", runs)
}

// noInternalError runs q's state if it parses, fails the test on an
// internal error, and counts the run.
func noInternalError(t *testing.T, d *demo.Demo, q url.Values) int {
	t.Helper()
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		return 0
	}
	_, err := d.ExecuteFigure(context.Background(), s, "")
	var internal *demo.InternalError
	if errors.As(err, &internal) {
		t.Errorf("%s?%s: %v", d.ID, q.Encode(), err)
	}
	return 1
}
