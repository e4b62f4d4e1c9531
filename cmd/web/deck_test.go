package main

import (
	"fmt"
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

// TestDeckTooLong: a deck whose canonical URL would pass the query limit
// is refused with a 414 giving the limit and the canonical size, never
// redirected to a URL that cannot be served (issue 28 §4: 20 entries of
// 110 added points, 26 KB with unescaped commas, 301'd to 34 KB).
func TestDeckTooLong(t *testing.T) {
	h := newTestServer(t)
	var pts []string
	for i := range 110 {
		pts = append(pts, fmt.Sprintf("%.2f,%.2f,%d", float64(i%11)/10-0.5, float64(i/11)/10-0.5, 1-2*(i%2)))
	}
	entry := "/present/perceptron?add=" + strings.Join(pts, "~") + "&data=custom"
	// Escaped as a hand-written link might be: only what the query needs.
	short := strings.NewReplacer("&", "%26", "=", "%3D", "?", "%3F").Replace(entry)
	// The entry as the server spells it, from the redirect of a deck of one.
	one := get(t, h, "/deck?d="+short+"&at=1")
	canon, ok := strings.CutSuffix(strings.TrimPrefix(one.Header().Get("Location"), "/deck?"), "&at=1")
	if one.Code != http.StatusMovedPermanently || !ok {
		t.Fatalf("a deck of one entry = %d to %q, want a 301 to its canonical URL", one.Code, one.Header().Get("Location"))
	}
	for _, n := range []int{20, 8} {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = "d=" + short
		}
		target := "/deck?" + strings.Join(parts, "&") + "&at=1"
		full := "/deck?" + strings.Repeat(canon+"&", n) + "at=1"
		fits := len(full)-len("/deck?") <= maxQuery
		if len(target)-len("/deck?") > maxQuery {
			t.Fatalf("%d entries: the request's query is %d bytes, over the limit itself; the test needs a shorter one", n, len(target))
		}
		rec := get(t, h, target)
		switch msg := parseHTML(t, rec.Body.String()).Find(`[data-testid="error-message"]`).Text(); {
		case !fits && (rec.Code != http.StatusRequestURITooLong || !strings.Contains(msg, "32 KiB") ||
			!strings.Contains(msg, fmt.Sprintf("%d bytes", len(full)-len("/deck?")))):
			t.Errorf("%d entries (canonical query %d bytes): %d %q, want 414 naming 32 KiB and the size", n, len(full)-len("/deck?"), rec.Code, msg)
		case fits && rec.Code != http.StatusMovedPermanently && rec.Code != http.StatusOK:
			t.Errorf("%d entries (canonical query %d bytes): %d %q, want it served", n, len(full)-len("/deck?"), rec.Code, msg)
		case fits && rec.Code == http.StatusMovedPermanently:
			if rec := get(t, h, rec.Header().Get("Location")); rec.Code != http.StatusOK {
				t.Errorf("%d entries: the redirect's target answers %d, want 200", n, rec.Code)
			}
		}
		if n == 20 && fits {
			t.Errorf("20 entries: the canonical query is %d bytes, within the limit; the test checks nothing", len(full)-len("/deck?"))
		}
	}
}
