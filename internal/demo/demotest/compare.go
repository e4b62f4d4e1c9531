package demotest

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// CompareRows runs the comparison query q of demo d (as /compare/<ID>
// reads it) and checks its table against each run computed alone, at the
// step the comparison shows, from the run's own page query: every counter
// of run a (b) is in exactly one row, in the a (b) column, under its own
// label, with its own value; every value in a column is one of that
// run's counters (or its status); a row bolded as differing holds two
// values of one quantity; row and cell test ids are unique. It returns
// the comparison's view for further checks.
func CompareRows(t *testing.T, d *demo.Demo, q string) *demo.CompareView {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	pair, probs := d.ParseCompare(v)
	if len(probs) > 0 {
		t.Fatalf("ParseCompare(%q): %v", q, probs)
	}
	cmp, err := d.ExecuteCompare(context.Background(), pair)
	if err != nil {
		t.Fatalf("ExecuteCompare(%q): %v", q, err)
	}
	view, err := demo.CompareViewOn(cmp, d.ComparePath())
	if err != nil {
		t.Fatal(err)
	}
	rows, cells := map[string]bool{}, map[string]bool{}
	for _, r := range view.Table.Rows {
		if rows[r.TestID] {
			t.Errorf("%s: two rows %q", q, r.TestID)
		}
		rows[r.TestID] = true
		for _, c := range []string{r.ACell, r.BCell} {
			if cells[c] {
				t.Errorf("%s: two cells %q", q, c)
			}
			cells[c] = true
		}
		if r.Differ && (r.A == demo.Missing || r.B == demo.Missing) {
			t.Errorf("%s: row %q (%s | %s) is marked as differing but one run lacks it", q, r.Label, r.A, r.B)
		}
	}
	for _, run := range []struct {
		name  string
		state demo.State
		cell  func(demo.CompareRow) (string, string)
	}{
		{"a", pair.A, func(r demo.CompareRow) (string, string) { return r.ACell, r.A }},
		{"b", pair.B, func(r demo.CompareRow) (string, string) { return r.BCell, r.B }},
	} {
		alone := runAlone(t, d, run.state, cmp.Step)
		p := alone.Panel()
		want := map[string]demo.Counter{} // by cell test id
		for _, c := range p.Counters {
			want[run.name+"-"+CounterID(c)] = c
		}
		if p.Status != "" {
			want[run.name+"-status"] = demo.Counter{Label: "status", Value: p.Status, TestID: "status"}
		}
		found := map[string]bool{}
		for _, r := range view.Table.Rows {
			id, value := run.cell(r)
			c, ok := want[id]
			switch {
			case !ok && value != demo.Missing:
				t.Errorf("%s: row %q shows %q for run %s, which has no such counter alone", q, r.Label, value, run.name)
			case !ok:
			case squashLabel(r.Label) != squashLabel(c.Label):
				t.Errorf("%s: run %s's %q = %s sits in the row labelled %q", q, run.name, c.Label, c.Value, r.Label)
			case value != c.Value:
				t.Errorf("%s: row %q shows %q for run %s; the run alone (step %d) says %q", q, r.Label, value, run.name, alone.State.Step, c.Value)
			default:
				found[id] = true
			}
		}
		for id, c := range want {
			if !found[id] {
				t.Errorf("%s: run %s's %q = %s is in no row of its own", q, run.name, c.Label, c.Value)
			}
		}
	}
	return view
}

// runAlone is state s of d computed on its own, from its page query, at
// step k.
func runAlone(t *testing.T, d *demo.Demo, s demo.State, k int) *demo.Run {
	t.Helper()
	v := s.Values(demo.ForPage)
	v.Del("step")
	own, probs := d.Parse(v)
	if len(probs) > 0 {
		t.Fatalf("run alone %s: %v", v.Encode(), probs)
	}
	own.Step = k
	r, err := Execute(d, own)
	if err != nil {
		t.Fatalf("run alone %s at step %d: %v", v.Encode(), k, err)
	}
	return r
}

// CounterID is the id a counter goes by in a comparison and on a page:
// its TestID, or its label's words joined by "-".
func CounterID(c demo.Counter) string {
	if c.TestID != "" {
		return c.TestID
	}
	return strings.Join(strings.Fields(c.Label), "-")
}

func squashLabel(s string) string { return strings.Join(strings.Fields(s), " ") }
