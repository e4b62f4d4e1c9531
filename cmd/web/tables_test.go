package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// tdWithoutHeader applies axe's td-has-header rule to every table of
// doc at least 3 by 3: each non-empty <td> needs a <th> with text in its
// row or its column, or a headers attribute naming one. It returns the
// cells that have none, described for the failure message.
func tdWithoutHeader(doc *goquery.Document) []string {
	var bad []string
	doc.Find("table").Each(func(ti int, table *goquery.Selection) {
		rows := table.Find("tr").FilterFunction(func(_ int, tr *goquery.Selection) bool {
			return tr.Closest("table").IsSelection(table)
		})
		grid := make([][]*goquery.Selection, rows.Length())
		cols := 0
		rows.Each(func(r int, tr *goquery.Selection) {
			tr.ChildrenFiltered("td, th").Each(func(_ int, c *goquery.Selection) { grid[r] = append(grid[r], c) })
			cols = max(cols, len(grid[r]))
		})
		if len(grid) < 3 || cols < 3 {
			return
		}
		named := func(c *goquery.Selection) bool {
			return goquery.NodeName(c) == "th" && strings.TrimSpace(c.Text()) != ""
		}
		for r, row := range grid {
			for k, c := range row {
				if goquery.NodeName(c) != "td" || strings.TrimSpace(c.Text()) == "" {
					continue
				}
				ok := false
				if ids, has := c.Attr("headers"); has {
					for _, id := range strings.Fields(ids) {
						ok = ok || named(doc.Find("#"+id))
					}
				}
				for _, other := range row {
					ok = ok || named(other)
				}
				for _, other := range grid {
					ok = ok || k < len(other) && named(other[k])
				}
				if !ok {
					bad = append(bad, fmt.Sprintf("table %d (%q) row %d column %d: %q", ti, table.Find("caption").Text(), r, k, c.Text()))
				}
			}
		}
	})
	return bad
}

// TestEveryPageTablesHaveHeaders: every lesson page and every demo's
// presenter view, at its default state, step 1 and the states that fill
// the softmax probe table and the logistic panels differently (a tie at
// step 0, a run, the triple point), pass axe's td-has-header, which
// Lighthouse failed on the probe table's unheaded arg-max column.
func TestEveryPageTablesHaveHeaders(t *testing.T) {
	h := newTestServer(t)
	course := testCourse(t)
	pages := map[string]bool{}
	for _, d := range course.Demos {
		pages[d.LessonPath()] = true
		pages[d.PresentPath()] = true
		if !d.Static {
			pages[d.PresentPath()+"?step=1"] = true
		}
	}
	for _, p := range []string{
		"/present/softmax?q1=0.5&q2=-1&step=30", "/present/softmax?q1=-0.166&q2=-0.543&step=2154",
		"/present/logistic?data=separable&step=50", "/present/logistic?method=newton&step=6",
	} {
		pages[p] = true
	}
	tables := 0
	for p := range pages {
		rec := follow(t, h, p)
		if rec.Code != 200 {
			t.Errorf("%s: %d", p, rec.Code)
			continue
		}
		doc, err := goquery.NewDocumentFromReader(rec.Body)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		tables += doc.Find("table").Length()
		for _, b := range tdWithoutHeader(doc) {
			t.Errorf("%s: %s has no header", p, b)
		}
	}
	if tables < 10 {
		t.Errorf("%d tables on %d pages: the test checks too little", tables, len(pages))
	}
}

// TestTdWithoutHeader: the rule finds a cell under an empty heading and
// passes row headings, column headings and headers=.
func TestTdWithoutHeader(t *testing.T) {
	for _, tt := range []struct {
		html string
		bad  int
	}{
		{`<table><tr><th>a</th><th>b</th><th></th></tr><tr><td>1</td><td>2</td><td>x</td></tr><tr><td>3</td><td>4</td><td></td></tr></table>`, 1},
		{`<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td>1</td><td>2</td><td>x</td></tr><tr><td>3</td><td>4</td><td></td></tr></table>`, 0},
		{`<table><tr><th>r1</th><td>1</td><td>2</td></tr><tr><th>r2</th><td>3</td><td>4</td></tr><tr><th>r3</th><td>5</td><td>6</td></tr></table>`, 0},
		{`<table><tr><td>1</td><td>2</td><td>3</td></tr><tr><td>4</td><td>5</td><td>6</td></tr><tr><td>7</td><td>8</td><td>9</td></tr></table>`, 9},
		{`<table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr><tr><td>5</td><td>6</td></tr></table>`, 0},
		{`<table><tr><th id="k">k</th></tr></table><table><tr><td headers="k">1</td><td>2</td><td>3</td></tr><tr><td>4</td><td>5</td><td>6</td></tr><tr><td>7</td><td>8</td><td>9</td></tr></table>`, 8},
	} {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(tt.html))
		if err != nil {
			t.Fatal(err)
		}
		if got := tdWithoutHeader(doc); len(got) != tt.bad {
			t.Errorf("%s: %d cells without a header (%v), want %d", tt.html, len(got), got, tt.bad)
		}
	}
}
