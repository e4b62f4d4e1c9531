package main

import (
	"context"
	"math/rand"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
)

// TestMixesAskCanonicalURLs: the mixes ask for canonical URLs
// only, which the server answers without a redirect: every lecture state
// is a step its run reaches, and the random states of homework and png are
// written as the plot endpoint's canonical query.
func TestMixesAskCanonicalURLs(t *testing.T) {
	w, err := newWorkload()
	if err != nil {
		t.Fatal(err)
	}
	c, err := course.Default()
	if err != nil {
		t.Fatal(err)
	}
	check := func(mix, u string, execute bool) {
		t.Helper()
		path, raw, _ := strings.Cut(u, "?")
		id := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(path, "/plots/"), ".svg"), ".png")
		d := c.Demo(id)
		if d == nil {
			t.Fatalf("%s: %s is no demo's plot", mix, u)
		}
		q, err := url.ParseQuery(raw)
		if err != nil {
			t.Fatal(err)
		}
		s, probs := d.Parse(q)
		if len(probs) > 0 {
			return // a state a cross-parameter rule refuses: a 400, counted as such
		}
		if want := s.FigureQuery(strings.HasSuffix(path, ".png")); raw != want {
			t.Errorf("%s: %s is not canonical; the server redirects it to ?%s", mix, u, want)
		}
		if execute {
			r, err := d.ExecuteFigure(context.Background(), s, demo.PlotFigure)
			if err != nil || r.Step != s.Step {
				t.Errorf("%s: %s: run reaches step %d (%v), so the server redirects it", mix, u, r.Step, err)
			}
		}
	}
	if len(w.lecture) != 180 {
		t.Fatalf("%d lecture states, want 180", len(w.lecture))
	}
	for _, u := range w.lecture {
		check("lecture", u, true)
	}
	r := rand.New(rand.NewSource(1))
	for _, name := range []string{"homework", "png"} {
		m, _ := w.mix(name)
		for range 300 {
			check(name, m.Next(r), false)
		}
	}
}
