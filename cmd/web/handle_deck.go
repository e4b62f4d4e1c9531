package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/web/templates/pages"
)

// The lecture deck: /deck?d=<escaped /present/<demo>?<state>>&d=…&at=<k>
// is a list of presenter views in order and the one shown (1-based). It
// lives in its URL alone; nothing is stored.
const (
	deckPath = "/deck"
	// maxDeck is the most entries a deck holds: twenty states of up to
	// a few hundred bytes each stay well under the query cap (maxQuery).
	maxDeck = 20
)

// deckEntry is one entry of a deck: a demo and its state.
type deckEntry struct {
	d *demo.Demo
	s demo.State
}

// deck is a parsed deck URL.
type deck struct {
	entries []deckEntry
	at      int // 1-based
}

// parseDeck validates a deck's query: one or more d, at most maxDeck,
// each the presenter path of a known demo with a valid state and no edit,
// and at (default 1) from 1 to their number. The 400 names the entry.
func parseDeck(course *demo.Course, q url.Values) (deck, error) {
	for k := range q {
		if k != "d" && k != "at" {
			return deck{}, bad(fmt.Errorf("%s: unknown parameter; a deck takes d (each entry, an escaped /present/<demo>?<state>) and at", k))
		}
	}
	ds := q["d"]
	switch {
	case len(ds) == 0:
		return deck{}, bad(errors.New("d: give at least one entry, an escaped /present/<demo>?<state>"))
	case len(ds) > maxDeck:
		return deck{}, bad(fmt.Errorf("d: %d entries; a deck holds at most %d", len(ds), maxDeck))
	}
	k := deck{at: 1}
	if vs := q["at"]; len(vs) > 1 {
		return deck{}, bad(errors.New("at: given more than once; give it once"))
	} else if len(vs) == 1 {
		at, err := strconv.Atoi(vs[0])
		if err != nil || at < 1 || at > len(ds) {
			return deck{}, bad(fmt.Errorf("at: %q is not an entry; give a whole number from 1 to %d", vs[0], len(ds)))
		}
		k.at = at
	}
	for i, raw := range ds {
		e, err := deckItem(course, raw)
		if err != nil {
			return deck{}, bad(fmt.Errorf("d (entry %d of %d): %v", i+1, len(ds), err))
		}
		k.entries = append(k.entries, e)
	}
	return k, nil
}

// deckItem reads one entry: /present/<demo>?<state>.
func deckItem(course *demo.Course, raw string) (deckEntry, error) {
	path, query, _ := strings.Cut(raw, "?")
	id, ok := strings.CutPrefix(path, "/present/")
	d := course.Demo(id)
	if !ok || d == nil || strings.Contains(raw, "#") {
		return deckEntry{}, fmt.Errorf("%q is not a presenter view; give /present/<demo>?<state>, such as /present/%s?step=3", clip(raw), course.Demos[0].ID)
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return deckEntry{}, errors.New("its query is malformed")
	}
	if _, _, edited, _ := d.SplitEdit(q); edited {
		return deckEntry{}, errors.New("op: an entry shows a state; edits belong on the demo page")
	}
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		return deckEntry{}, probs
	}
	return deckEntry{d, s}, nil
}

// deckURL is the deck of the presenter paths entries, showing entry at.
func deckURL(entries []string, at int) string {
	var b strings.Builder
	b.WriteString(deckPath + "?")
	for _, e := range entries {
		b.WriteString("d=" + url.QueryEscape(e) + "&")
	}
	b.WriteString("at=" + strconv.Itoa(at))
	return b.String()
}

// handleDeck serves a lecture deck: entry at as the presenter view, with
// the deck's navigation (rel=next and rel=prev links, which n and p
// follow, each a history entry) and "add this state". A deck URL that is
// not canonical (an entry's state spelt another way, a missing at, a step
// past the end of the shown entry's run) is redirected to the canonical
// one. Stepping inside the entry swaps the panel from /present/ and
// deck.js writes the new state into the entry (replaceState).
func handleDeck(course *demo.Course) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		k, err := parseDeck(course, q)
		if err != nil {
			return err
		}
		cur := k.entries[k.at-1]
		run, err := cur.d.ExecuteFigure(r.Context(), cur.s, "")
		if err != nil {
			return err
		}
		paths := make([]string, len(k.entries))
		for i, e := range k.entries {
			paths[i] = e.s.URL(e.d.PresentPath())
		}
		paths[k.at-1] = run.State.URL(cur.d.PresentPath())
		canonical := deckURL(paths, k.at)
		if err := deckFits(canonical); err != nil {
			return err
		}
		if r.URL.RequestURI() != canonical {
			status := http.StatusMovedPermanently
			if cur.s.Step == demo.StepToEnd {
				status = http.StatusSeeOther // where the run ends depends on the run
			}
			return c.Redirect(status, canonical)
		}
		view, err := demo.NewView(run, cur.d.PresentPath())
		if err != nil {
			return err
		}
		return renderHTML(c, http.StatusOK, pages.DeckPage(deckView(k, paths, view)))
	}
}

// deckFits refuses, with 414, a deck whose canonical URL has a query
// longer than maxQuery: the redirect to it would be answered 414 by
// limitURL, and so would every link of its page. A request can be
// shorter than its canonical URL (entries written with commas unescaped,
// states in short spellings), so this is checked on what the server
// would write, and the message gives both sizes.
func deckFits(canonical string) error {
	_, q, _ := strings.Cut(canonical, "?")
	if len(q) <= maxQuery {
		return nil
	}
	return echo.NewHTTPError(http.StatusRequestURITooLong, fmt.Sprintf(
		"this deck's URL, written out in full as Margin links to it, has a query of %d bytes, more than the %s Margin reads; use fewer entries, or entries with fewer added points",
		len(q), byteSize(maxQuery)))
}

// deckView is the deck page's view model.
func deckView(k deck, paths []string, view *demo.DemoView) pages.Deck {
	v := pages.Deck{View: view, At: k.at, N: len(paths), Self: deckURL(paths, k.at), Paths: paths}
	for i, e := range k.entries {
		v.Entries = append(v.Entries, pages.DeckEntry{Title: e.d.Title, URL: deckURL(paths, i+1), At: i + 1, Current: i+1 == k.at})
	}
	if k.at > 1 {
		v.Prev = deckURL(paths, k.at-1)
	}
	if k.at < len(paths) {
		v.Next = deckURL(paths, k.at+1)
	}
	if len(paths) < maxDeck {
		v.Add = deckURL(append(paths[:len(paths):len(paths)], paths[k.at-1]), len(paths)+1)
	}
	v.Max = maxDeck
	return v
}
