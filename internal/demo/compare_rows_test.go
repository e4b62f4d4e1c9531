package demo_test

import (
	"context"
	"errors"
	"io"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/render"
)

// A toy stepping demo whose counter "count" means another quantity in
// kind b: run a counts mistakes (k of them after k steps), run b updates
// (2k), as the perceptron's margin variant does. Kind c counts mistakes
// too, one more, and writes the error's label with other spacing.
var (
	rowLen  = demo.Int{Key: "len", Label: "length", Doc: "steps in the run", Group: demo.GroupAlgo, Default: 5, Min: 1, Max: 100}
	rowKind = demo.Choice{Key: "kind", Label: "kind", Doc: "kind", Group: demo.GroupAlgo, Default: "a",
		Options: []demo.Option{{Value: "a"}, {Value: "b"}, {Value: "c"}}}
	rowG = demo.Float{Key: "g", Label: "g", Doc: "g", Group: demo.GroupAlgo, Default: 1, Min: 0, Max: 10, Step: "any",
		When: func(s demo.State) bool { return rowKind.Is(s, "b") }}
	rowN = demo.Int{Key: "n", Label: "n", Doc: "points", Group: demo.GroupData, Default: 3, Min: 1, Max: 9}
)

func rowsSpec() demo.Spec {
	return demo.Spec{ID: "toy-rows", Title: "Toy rows", Lesson: "toy", Params: demo.Params(rowLen, rowKind, rowG, rowN),
		Compute: func(_ context.Context, in demo.Input) (demo.Result, error) {
			end := rowLen.Get(in.State)
			if rowKind.Is(in.State, "c") && end > 50 {
				return demo.Result{}, demo.Problems{"len": "kind c runs at most 50 steps", "n": "(a data key)"}
			}
			k := min(in.Step, end)
			draw := func(w io.Writer, _ bool, _ render.Options) (render.Frame, error) {
				_, err := io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg"/>`)
				return render.Frame{}, err
			}
			return demo.Result{Step: k, Done: k == end, Plot: draw, Panel: func() demo.Panel {
				p := demo.Panel{Counters: []demo.Counter{{Label: "step", Value: strconv.Itoa(k), TestID: "step"}}, Status: "running"}
				if k == end {
					p.Status = "stopped"
				}
				switch {
				case rowKind.Is(in.State, "a"):
					p.Counters = append(p.Counters, demo.Counter{Label: "mistakes", Value: strconv.Itoa(k), TestID: "count"},
						demo.Counter{Label: "training error", Value: strconv.Itoa(10*k) + " %", TestID: "err"})
				case rowKind.Is(in.State, "b"):
					p.Counters = append(p.Counters, demo.Counter{Label: "updates", Value: strconv.Itoa(2 * k), TestID: "count"},
						demo.Counter{Label: "g used", Value: strconv.FormatFloat(rowG.Get(in.State), 'g', -1, 64)})
				default:
					p.Counters = append(p.Counters, demo.Counter{Label: "mistakes", Value: strconv.Itoa(k + 1), TestID: "count"},
						demo.Counter{Label: "training  error", Value: strconv.Itoa(10*k) + " %", TestID: "err"})
				}
				return p
			}}, nil
		}}
}

// TestCompareRowsOneQuantity: run b's counter under run a's ID but with
// another label gets a row of its own, with "—" for run a, and neither
// row is marked as differing; the same label up to spacing shares a row.
func TestCompareRowsOneQuantity(t *testing.T) {
	d, err := demo.NewDemo(rowsSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		want []demo.CompareRow
	}{
		{"b.kind=b&step=3", []demo.CompareRow{
			{Label: "step", TestID: "step", A: "3", B: "3", ACell: "a-step", BCell: "b-step"},
			{Label: "mistakes", TestID: "count", A: "3", B: demo.Missing, ACell: "a-count", BCell: "b-count-none"},
			{Label: "training error", TestID: "err", A: "30 %", B: demo.Missing, ACell: "a-err", BCell: "b-err"},
			{Label: "updates", TestID: "count-2", A: demo.Missing, B: "6", ACell: "a-count-2", BCell: "b-count"},
			{Label: "g used", TestID: "g-used", A: demo.Missing, B: "1", ACell: "a-g-used", BCell: "b-g-used"},
			{Label: "status", TestID: "status", A: "running", B: "running", ACell: "a-status", BCell: "b-status"},
		}},
		{"b.kind=c&b.len=3&step=3", []demo.CompareRow{
			{Label: "step", TestID: "step", A: "3", B: "3", ACell: "a-step", BCell: "b-step"},
			{Label: "mistakes", TestID: "count", A: "3", B: "4", Differ: true, ACell: "a-count", BCell: "b-count"},
			{Label: "training error", TestID: "err", A: "30 %", B: "30 %", ACell: "a-err", BCell: "b-err"},
			{Label: "status", TestID: "status", A: "running", B: "stopped", Differ: true, ACell: "a-status", BCell: "b-status"},
		}},
	} {
		v := demotest.CompareRows(t, d, c.q)
		if !slices.Equal(v.Table.Rows, c.want) {
			t.Errorf("%s: rows\n%+v\nwant\n%+v", c.q, v.Table.Rows, c.want)
		}
	}
}

// TestCompareRowsAgreeWithRunsAlone: for one non-default value of each
// b.<key>, every row holds each run's own counter, as the run computed
// alone has it, under its own label.
func TestCompareRowsAgreeWithRunsAlone(t *testing.T) {
	d, err := demo.NewDemo(rowsSpec())
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, q := range []string{
		"b.len=2&step=4",
		"b.kind=b&step=3",
		"b.kind=c&step=end",
		"b.g=2.5&b.kind=b&step=2",
		"kind=b&b.g=3&step=1",
		"kind=b&b.kind=a&len=3&step=end",
	} {
		demotest.CompareRows(t, d, q)
		v, _ := url.ParseQuery(q)
		p, _ := d.ParseCompare(v)
		for _, k := range p.Differs() {
			covered[k] = true
		}
	}
	for _, prm := range d.Params() {
		if prm.Group == demo.GroupAlgo && !covered[prm.Key] {
			t.Errorf("no case changes b.%s", prm.Key)
		}
	}
}

// TestCompareRefusalNamesRunB: a refusal of run b's parameters together
// (Problems from the demo's own check) names b.<key> for run b's
// algorithm keys and keeps the data keys both runs share.
func TestCompareRefusalNamesRunB(t *testing.T) {
	d, err := demo.NewDemo(rowsSpec())
	if err != nil {
		t.Fatal(err)
	}
	v, _ := url.ParseQuery("len=60&b.kind=c")
	p, probs := d.ParseCompare(v)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	_, err = d.ExecuteCompare(context.Background(), p)
	var got demo.Problems
	if !errors.As(err, &got) || got["b.len"] == "" || got["n"] == "" || len(got) != 2 {
		t.Errorf("ExecuteCompare(len=60&b.kind=c) = %v, want problems under b.len and n", err)
	}
}
