package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// deckOf is the deck URL of the presenter paths, at entry at ("" leaves
// at out), escaped as the server writes it.
func deckOf(at string, paths ...string) string {
	var parts []string
	for _, p := range paths {
		parts = append(parts, "d="+url.QueryEscape(p))
	}
	if at != "" {
		parts = append(parts, "at="+at)
	}
	return "/deck?" + strings.Join(parts, "&")
}

func TestDeckPage(t *testing.T) {
	h := newTestServer(t)
	a, b, c := "/present/perceptron?step=3", "/present/svm-soft", "/present/gd?step=2"
	rec := get(t, h, deckOf("2", a, b, c))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET deck = %d: %s", rec.Code, rec.Body)
	}
	doc := parseHTML(t, rec.Body.String())
	for _, tc := range []struct{ sel, want string }{
		{`a[rel="prev"][data-nav="prev"]`, deckOf("1", a, b, c)},
		{`a[rel="next"][data-nav="next"]`, deckOf("3", a, b, c)},
		{`[data-testid="deck-add"]`, deckOf("4", a, b, c, b)},
	} {
		if got := doc.Find(tc.sel).AttrOr("href", ""); got != tc.want {
			t.Errorf("%s href = %q, want %q", tc.sel, got, tc.want)
		}
	}
	if got := doc.Find(`[data-testid="deck-where"]`).Text(); got != "entry 2 of 3" {
		t.Errorf("deck says %q", got)
	}
	if doc.Find(`#panel-svm-soft[data-self="/present/svm-soft"]`).Length() != 1 {
		t.Errorf("the deck does not show entry 2 as the presenter view")
	}
	// The ends: no rel=prev on the first entry, no rel=next on the last.
	first := parseHTML(t, get(t, h, deckOf("1", a, b)).Body.String())
	last := parseHTML(t, get(t, h, deckOf("2", a, b)).Body.String())
	if first.Find(`a[rel="prev"]`).Length() != 0 || first.Find(`a[rel="next"]`).Length() != 1 ||
		last.Find(`a[rel="next"]`).Length() != 0 || last.Find(`a[rel="prev"]`).Length() != 1 {
		t.Errorf("rel=prev/next at the ends of the deck are wrong")
	}
	// A full deck offers no "add this state".
	full := make([]string, maxDeck)
	for i := range full {
		full[i] = a
	}
	doc = parseHTML(t, get(t, h, deckOf("1", full...)).Body.String())
	if doc.Find(`[data-testid="deck-add"]`).Length() != 0 || doc.Find(`[data-testid="deck-full"]`).Length() != 1 {
		t.Errorf("a deck of %d entries offers to add one more", maxDeck)
	}
}

// TestDeckCanonical: a deck URL is redirected to its one spelling: at
// given, each entry's state canonical, the shown entry's step resolved.
func TestDeckCanonical(t *testing.T) {
	h := newTestServer(t)
	for _, tc := range []struct {
		in, want string
		status   int
	}{
		{deckOf("", "/present/perceptron?step=3"), deckOf("1", "/present/perceptron?step=3"), http.StatusMovedPermanently},
		{deckOf("1", "/present/perceptron?step=3&eta=1"), deckOf("1", "/present/perceptron?step=3"), http.StatusMovedPermanently},
		{"/deck?d=/present/perceptron&at=1", deckOf("1", "/present/perceptron"), http.StatusMovedPermanently},
		{deckOf("2", "/present/perceptron?step=end", "/present/perceptron?step=end"), "", http.StatusSeeOther},
	} {
		rec := get(t, h, tc.in)
		loc := rec.Header().Get("Location")
		if rec.Code != tc.status || (tc.want != "" && loc != tc.want) {
			t.Errorf("GET %s = %d to %q, want %d to %q", tc.in, rec.Code, loc, tc.status, tc.want)
		}
		if tc.status == http.StatusSeeOther {
			// The shown entry's step=end becomes its last step; the other
			// entry keeps step=end until it is shown.
			if !strings.Contains(loc, "at=2") || !strings.HasPrefix(loc, deckOf("", "/present/perceptron?step=end")) || strings.Count(loc, "step%3Dend") != 1 {
				t.Errorf("step=end in the shown entry goes to %q", loc)
			}
			if rec := get(t, h, loc); rec.Code != http.StatusOK {
				t.Errorf("GET %s = %d, want 200", loc, rec.Code)
			}
		}
	}
}

// TestDeckRefuses: a bad deck is a 400 that names the entry or key.
func TestDeckRefuses(t *testing.T) {
	h := newTestServer(t)
	many := make([]string, maxDeck+1)
	for i := range many {
		many[i] = "/present/perceptron"
	}
	ok := "/present/perceptron"
	for _, tc := range []struct{ target, want string }{
		{"/deck", "d: give at least one entry"},
		{deckOf("1", many...), "at most 20"},
		{deckOf("0", ok), "at: "},
		{deckOf("2", ok), "from 1 to 1"},
		{deckOf("x", ok), "at: "},
		{deckOf("1", ok) + "&at=1", "at: given more than once"},
		{deckOf("1", ok) + "&x=1", "x: unknown parameter"},
		{deckOf("1", ok, "/present/no-such-demo"), "entry 2 of 2"},
		{deckOf("1", ok, "/lessons/perceptron"), "entry 2 of 2"},
		{deckOf("1", "https://evil.example/present/perceptron"), "entry 1 of 1"},
		{deckOf("1", ok, ok, "/present/perceptron?eta=-5"), "entry 3 of 3"},
		{deckOf("1", ok, ok, "/present/perceptron?eta=-5"), "eta"},
		{deckOf("1", "/present/perceptron?op=add&px=1&py=1&pl=1"), "op: an entry shows a state"},
	} {
		rec := get(t, h, tc.target)
		msg := parseHTML(t, rec.Body.String()).Find(`[data-testid="error-message"]`).Text()
		if rec.Code != http.StatusBadRequest || !strings.Contains(msg, tc.want) {
			t.Errorf("GET %.90s = %d %q, want 400 saying %q", tc.target, rec.Code, msg, tc.want)
		}
	}
}
