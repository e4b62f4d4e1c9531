package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestRemoveByNumber: the data tools' remove form asks for the number the
// plot gives a point (x₁ … xₙ), not its index from 0, and sends it as pn;
// pi (a click on the plot, older URLs) still counts from 0. Which point
// went is read back from the CSV download.
func TestRemoveByNumber(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, get(t, h, "/lessons/perceptron"))
	in := doc.Find(`[data-testid="data-tools"] form input[name="pn"]`)
	if in.Length() != 1 || in.AttrOr("min", "") != "1" || doc.Find(`[data-testid="data-tools"] input[name="pi"]`).Length() != 0 {
		t.Fatalf("the remove form's field: %d pn inputs (min %q), want one from 1 and no pi", in.Length(), in.AttrOr("min", ""))
	}
	if label := in.Parent().Text(); strings.Contains(label, "index") || !strings.Contains(label, "plot") {
		t.Errorf("the remove form asks %q, want the number as the plot shows it", label)
	}
	all := csvOf(t, h, "perceptron", "/lessons/perceptron")
	rows := strings.SplitAfter(all, "\n")[1:5] // x₁ … x₄
	tests := []struct {
		query string
		gone  int // which row of the default CSV went, from 0
	}{
		{"op=remove&pn=1", 0},
		{"op=remove&pn=2", 1},
		{"op=remove&pn=4", 3},
		{"op=remove&pi=1", 1}, // the old spelling: index from 0
		{"op=remove&pi=0", 0},
	}
	for _, tt := range tests {
		rec := get(t, h, "/lessons/perceptron?"+tt.query)
		loc := rec.Header().Get("Location")
		if rec.Code != http.StatusSeeOther {
			t.Errorf("%s = %d (%s), want 303", tt.query, rec.Code, errorLines(rec))
			continue
		}
		got := csvOf(t, h, "perceptron", loc)
		if strings.Contains(got, rows[tt.gone]) {
			t.Errorf("%s (to %s) kept row %q", tt.query, loc, rows[tt.gone])
		}
		for i, r := range rows {
			if i != tt.gone && !strings.Contains(got, r) {
				t.Errorf("%s (to %s) removed row %d %q too", tt.query, loc, i, r)
			}
		}
	}
	bad := []struct{ query, want string }{
		{"op=remove&pn=0", "pn: \"0\" is not a point's number"},
		{"op=remove&pn=x", "pn: \"x\" is not"},
		{"op=remove&pn=99", "pn: there is no point x₉₉; the points are x₁ to x"},
		{"op=remove&pn=1&pi=0", "not both"},
		{"op=remove&pn=1&pn=2", "not both"},
	}
	for _, tt := range bad {
		rec := get(t, h, "/lessons/perceptron?"+tt.query)
		if msg := errorLines(rec); rec.Code != http.StatusBadRequest || !strings.Contains(msg, tt.want) {
			t.Errorf("%s = %d %q, want 400 saying %q", tt.query, rec.Code, msg, tt.want)
		}
	}
}
