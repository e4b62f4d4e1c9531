package demo

import (
	"strconv"
	"strings"
)

// compareLink is the comparison that starts from state s, or "" for a
// static demo: in the presenter view, the presenter view's; elsewhere the
// page's (an embed's iframe, sized for one demo, opens it in a new tab;
// /embed/compare/<ID> is there for a slide that embeds a comparison).
// Run b starts as a copy of run a: what to change is the reader's choice,
// and the comparison shows run b's form beside run a's for it.
func (d *Demo) compareLink(s State, page string) string {
	if d.Static {
		return ""
	}
	p := Pair{A: s, B: s}
	if page == d.PresentPath() {
		return p.URL(d.PresentComparePath())
	}
	return p.URL(d.ComparePath())
}

// CompareView is the view model of a comparison: one set of controls
// (Controls, a DemoView whose links and forms lead to the comparison and
// step both runs), the two runs' own views, and the table of their
// counters at the step shown.
type CompareView struct {
	ID, Title string
	// Controls drives both runs: its PanelID is the element htmx swaps,
	// its Links step the comparison, its Forms are the shared data form,
	// run a's and run b's.
	Controls *DemoView
	A, B     CompareRun
	Table    CompareTable
	Same     bool // run b has run a's settings
	Present  bool
	Embed    bool
	// Links to the comparison in its three views, and to run a alone (on
	// its lesson page; in the presenter view, in the presenter view).
	Self, Normal, PresentURL, EmbedURL, Lesson string
}

// CompareRun is one run of a comparison: its name ("a" or "b"), what sets
// it apart, its own view at the step it shows, and, when it stopped
// before the comparison's step, where.
type CompareRun struct {
	Name, Settings string
	View           *DemoView
	Held           string
}

// CompareTable compares the runs' counters, a row to a quantity, and
// their status: the column heads name what differs ("a: C = 1").
type CompareTable struct {
	HeadA, HeadB string
	Rows         []CompareRow
}

// CompareRow is one quantity in both runs: a counter of run a and one of
// run b with the same TestID (or, without one, label) and the same label.
// A run without that quantity shows Missing. Differ marks a row whose two
// values differ, never a row one run lacks: its values are not two values
// of one quantity. TestID is the row's, unique in the table; ACell and
// BCell are its cells' test ids: "a-" or "b-" and the counter's own
// TestID where the run has the counter.
type CompareRow struct {
	Label, TestID, A, B string
	Differ              bool
	ACell, BCell        string
}

// Missing is what the table shows for a counter one run lacks.
const Missing = "—"

// CompareViewOn builds the view of c on page, one of the demo's
// ComparePath, PresentComparePath or EmbedComparePath.
func CompareViewOn(c *Comparison, page string) (*CompareView, error) {
	d := c.A.State.d
	present, embed := page == d.PresentComparePath(), page == d.EmbedComparePath()
	runPage := d.LessonPath()
	if present {
		runPage = d.PresentPath()
	}
	va, err := NewViewWith(c.A, runPage, ViewOptions{Hall: present})
	if err != nil {
		return nil, err
	}
	vb, err := NewViewWith(c.B, runPage, ViewOptions{Hall: present})
	if err != nil {
		return nil, err
	}
	p := c.Pair
	v := &CompareView{ID: d.ID, Title: d.Title, Present: present, Embed: embed, Same: len(p.Differs()) == 0,
		Self: p.URL(page), Normal: p.URL(d.ComparePath()), PresentURL: p.URL(d.PresentComparePath()),
		EmbedURL: p.URL(d.EmbedComparePath()), Lesson: va.Links.Lesson}
	if present {
		v.Lesson = va.Links.Present // run a alone, in the presenter view too
	}
	v.A = CompareRun{Name: "a", Settings: p.Settings(p.A), View: va, Held: c.HeldText(c.A)}
	v.B = CompareRun{Name: "b", Settings: p.Settings(p.B), View: vb, Held: c.HeldText(c.B)}
	v.Table = compareTable(v.A, v.B)
	v.Controls = c.controls(page, present, embed)
	return v, nil
}

// controls is the DemoView of the comparison's one set of controls.
func (c *Comparison) controls(page string, present, embed bool) *DemoView {
	d, p := c.A.State.d, c.Pair
	at := func(k int) string { return p.AtStep(k).URL(page) }
	l := Links{Self: p.URL(page), Reset: at(0), Prev: at(max(c.Step-1, 0)), Next: at(min(c.Step+1, c.MaxStep)), End: at(StepToEnd)}
	if c.Done {
		l.Next, l.End = "", ""
	}
	if c.Step == 0 {
		l.Prev = ""
	}
	v := &DemoView{ID: d.ID, Title: d.Title, SectionID: "compare-" + d.ID, PanelID: "panel-compare-" + d.ID, Page: page,
		Present: present, Embed: embed, Step: c.Step, Speed: speedParam.Get(p.A), Links: l, MaxStep: c.MaxStep, Hidden: p.Hidden}
	// Run a's form, run b's beside it, then the data both share.
	b := p.BFields()
	var data []Form
	for _, f := range d.Forms(p.A) {
		f.Hidden = append(f.Hidden, b...)
		if f.Class == "data-form" {
			f.Legend = "Data (both runs)"
			data = append(data, f)
			continue
		}
		f.Legend, f.Class = "Run a", "param-form a-form"
		v.Forms = append(v.Forms, f)
	}
	if bf := c.bForm(); len(bf.Controls) > 0 {
		v.Forms = append(v.Forms, bf)
	}
	v.Forms = append(v.Forms, data...)
	return v
}

// bForm is run b's algorithm form: a b.<key> control for each algorithm
// parameter that applies in run b, at run b's value, with min, max and
// step from the declarations; run a's state rides along hidden.
func (c *Comparison) bForm() Form {
	d, p := c.A.State.d, c.Pair
	f := Form{Legend: "Run b", Class: "param-form b-form"}
	var except []string
	for _, q := range d.params {
		if q.Group != GroupAlgo {
			continue
		}
		except = append(except, BPrefix+q.Key)
		if q.Hidden || (q.When != nil && !q.When(p.B)) {
			continue
		}
		ctl := control(q, p.B.vals[q.Key])
		ctl.Key = BPrefix + q.Key
		f.Controls = append(f.Controls, ctl)
	}
	f.Hidden = p.Hidden(except...)
	return f
}

// compareTable pairs the two runs' counters, in run a's order and then
// run b's extras, and adds their status. Two counters share a row only
// when they have one TestID (by label when a counter has none) and one
// label, spaces aside: a run b whose counter under that ID means
// something else (updates where run a counts mistakes, the averaged
// model's error where run a's is the current one's) has it in its own
// row, since a row that showed run a's label over run b's number would
// say run b's number is what it is not.
func compareTable(a, b CompareRun) CompareTable {
	t := CompareTable{HeadA: "a", HeadB: "b"}
	if a.Settings != "" {
		t.HeadA, t.HeadB = "a: "+a.Settings, "b: "+b.Settings
	}
	id := func(c Counter) string {
		if c.TestID != "" {
			return c.TestID
		}
		return strings.Join(strings.Fields(c.Label), "-")
	}
	type quantity struct{ id, label string }
	index := map[quantity]int{}
	taken := map[string]bool{} // row test ids
	add := func(c Counter, isA bool) {
		q := quantity{id(c), strings.Join(strings.Fields(c.Label), " ")}
		i, ok := index[q]
		if !ok {
			i = len(t.Rows)
			index[q] = i
			rowID := q.id
			for n := 2; taken[rowID]; n++ {
				rowID = q.id + "-" + strconv.Itoa(n)
			}
			taken[rowID] = true
			t.Rows = append(t.Rows, CompareRow{Label: c.Label, TestID: rowID, A: Missing, B: Missing})
		}
		if isA {
			t.Rows[i].A, t.Rows[i].ACell = c.Value, "a-"+q.id
		} else {
			t.Rows[i].B, t.Rows[i].BCell = c.Value, "b-"+q.id
		}
	}
	for _, c := range a.View.Panel.Counters {
		add(c, true)
	}
	for _, c := range b.View.Panel.Counters {
		add(c, false)
	}
	if a.View.Panel.Status != "" || b.View.Panel.Status != "" {
		add(Counter{Label: "status", Value: orMissing(a.View.Panel.Status), TestID: "status"}, true)
		add(Counter{Label: "status", Value: orMissing(b.View.Panel.Status), TestID: "status"}, false)
	}
	// A cell a run lacks is named by its row, unless a cell of that run
	// elsewhere already holds the name (the counter's own, in its row).
	cells := map[string]bool{}
	for _, r := range t.Rows {
		cells[r.ACell], cells[r.BCell] = true, true
	}
	missing := func(run, row string) string {
		if c := run + "-" + row; !cells[c] {
			return c
		}
		return run + "-" + row + "-none"
	}
	for i := range t.Rows {
		r := &t.Rows[i]
		if r.ACell == "" {
			r.ACell = missing("a", r.TestID)
		}
		if r.BCell == "" {
			r.BCell = missing("b", r.TestID)
		}
		r.Differ = r.A != Missing && r.B != Missing && strings.TrimSpace(r.A) != strings.TrimSpace(r.B)
	}
	return t
}

func orMissing(s string) string {
	if s == "" {
		return Missing
	}
	return s
}
