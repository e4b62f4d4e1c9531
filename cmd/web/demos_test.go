package main

import (
	"bytes"
	"cmp"
	"image/png"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestEveryDemo serves every demo of the course, in its default state and
// in each state its Spec.Examples name, and checks through HTTP what every
// demo must do against what the kit computes for that state
// (demotest.Execute), so a new demo gets these checks by existing (what
// the loop cannot derive is data in demo_facts_test.go):
//   - its lesson page and presenter view answer 200 with no id twice and
//     show the run's Panel (counters, status, notes, step box, tables; no
//     box empty), plot, history and panels; the htmx partial is the panel;
//   - each figure URL (plot as SVG and PNG, history, panels) answers the
//     bytes the run draws, or a 404 for a figure the run lacks;
//   - the no-JS Step, Back and Run to end links lead to the canonical
//     states k+1, k−1 and the end, each link and form of a lesson page
//     ends with the demo's anchor, and a form submitted as it stands
//     leads to the state at step 0; a note's link answers 200;
//   - a demo with points serves them as CSV;
//   - a bad value of each declared key is a 400 naming the key.
func TestEveryDemo(t *testing.T) {
	course := testCourse(t)
	h := NewServer(discardLogger(), course)
	for _, d := range course.Demos {
		t.Run(d.ID, func(t *testing.T) {
			queries := []string{""}
			for _, ex := range d.Examples {
				queries = append(queries, ex.Query)
			}
			for _, q := range queries {
				run, err := demotest.Execute(d, demotest.MustParse(t, d, q))
				if err != nil {
					t.Fatalf("%q: %v", q, err)
				}
				panels := checkPages(t, h, run)
				checkFigures(t, h, run)
				checkStepLinks(t, h, run, panels)
				checkForms(t, h, run, panels[d.LessonPath()])
				checkCSV(t, h, run)
			}
			checkBadValues(t, h, d)
		})
	}
}

// checkPages checks the lesson page, the presenter view and the htmx
// partial of run's state against its panel, and returns the demo's panel
// on each page, by path.
func checkPages(t *testing.T, h http.Handler, run *demo.Run) map[string]*goquery.Selection {
	t.Helper()
	d := run.State.Demo()
	lesson := run.State.URL(d.LessonPath())
	panels := map[string]*goquery.Selection{}
	for _, page := range []string{d.LessonPath(), d.PresentPath()} {
		target := run.State.URL(page)
		rec := get(t, h, target)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d, want 200: %.200s", target, rec.Code, rec.Body)
		}
		doc := parse(t, rec)
		noDuplicateIDs(t, doc)
		if panels[page] = doc.Find("#panel-" + d.ID); panels[page].Length() != 1 {
			t.Fatalf("%s: %d panels of the demo, want 1", target, panels[page].Length())
		}
		checkPanel(t, target, panels[page], run)
	}
	for _, n := range run.Panel().Notes {
		if n.Href == "" {
			continue
		}
		if rec := get(t, h, n.Href); rec.Code != http.StatusOK {
			t.Errorf("%s: note %s links to %s = %d", lesson, n.TestID, n.Href, rec.Code)
		}
	}
	// The htmx partial is the panel alone; it pushes the permalink, with
	// the demo's anchor on a lesson page.
	for page, anchor := range map[string]string{d.LessonPath(): d.Anchor(), d.PresentPath(): ""} {
		target := run.State.URL(page)
		rec := do(t, h, http.MethodGet, target, nil, map[string]string{"HX-Request": "true"})
		if !strings.HasPrefix(strings.TrimSpace(rec.Body.String()), `<div id="panel-`+d.ID+`"`) || strings.Contains(rec.Body.String(), "<html") {
			t.Errorf("htmx GET %s = %d, not just the panel: %.100s", target, rec.Code, rec.Body)
		}
		if got := rec.Header().Get("HX-Push-Url"); got != target+anchor {
			t.Errorf("htmx GET %s pushes %q, want %q", target, got, target+anchor)
		}
		// Both headers choose between the page and the partial, so a
		// shared cache must key on both.
		if vary := strings.Join(rec.Header().Values("Vary"), ","); !strings.Contains(vary, hxRequest) || !strings.Contains(vary, hxHistoryRestore) {
			t.Errorf("htmx GET %s: Vary %q; want %s and %s", target, vary, hxRequest, hxHistoryRestore)
		}
		checkAnchors(t, target, panels[page], anchor)
	}
	back := panels[d.PresentPath()].Find(`[data-testid="share"] a[href^="/lessons/"]`).AttrOr("href", "")
	if want := lesson + d.Anchor(); back != want {
		t.Errorf("%s: the link back to the lesson = %q, want %q", run.State.URL(d.PresentPath()), back, want)
	}
	return panels
}

// checkPanel compares a demo panel with the run's Panel and figures.
func checkPanel(t *testing.T, target string, p *goquery.Selection, run *demo.Run) {
	t.Helper()
	d, want := run.State.Demo(), run.Panel()
	var wantC, gotC []string
	for _, c := range want.Counters {
		wantC = append(wantC, c.Label+" = "+c.Value)
	}
	if want.Status != "" {
		wantC = append(wantC, "status = "+want.Status)
	}
	p.Find(".counters > div").Each(func(_ int, s *goquery.Selection) {
		gotC = append(gotC, s.Find("dt").Text()+" = "+s.Find("dd").Text())
	})
	if strings.Join(gotC, "\n") != strings.Join(wantC, "\n") {
		t.Errorf("%s: counters\n%s\nwant\n%s", target, strings.Join(gotC, "\n"), strings.Join(wantC, "\n"))
	}
	seen := map[string]int{}
	for _, n := range want.Notes {
		el := p.Find(`p[data-testid="` + n.TestID + `"]`).Eq(seen[n.TestID])
		seen[n.TestID]++
		if got := words(el.Text()); !strings.Contains(got, words(n.Text)) || !strings.Contains(got, words(n.Fine)) {
			t.Errorf("%s: note %s reads %q, want %q", target, n.TestID, got, words(n.Text+" "+n.Fine))
		}
	}
	if got := p.Find(`[data-testid="limit"]`).Length() == 1; got != run.AtLimit() {
		t.Errorf("%s: step-limit note shown %v, want %v", target, got, run.AtLimit())
	}
	update := words(p.Find(`[data-testid="update"]`).Text())
	lines := append([]string{cmp.Or(want.Examined, want.Start)}, want.Lines...)
	for _, m := range want.Model {
		for _, f := range m.Facts {
			lines = append(lines, f.Sym+" = "+f.Value)
		}
	}
	for _, w := range lines {
		if !strings.Contains(update, words(w)) {
			t.Errorf("%s: the step box %q lacks %q", target, update, w)
		}
	}
	for _, tb := range want.Tables {
		var rows []string
		p.Find(`[data-testid="` + tb.TestID + `"] tbody tr`).Each(func(_ int, r *goquery.Selection) {
			var cells []string
			r.Find("td").Each(func(_ int, c *goquery.Selection) { cells = append(cells, c.Text()) })
			rows = append(rows, words(strings.Join(cells, " ")))
		})
		var wantRows []string
		for _, r := range tb.Rows {
			wantRows = append(wantRows, words(strings.Join(r, " ")))
		}
		if strings.Join(rows, "\n") != strings.Join(wantRows, "\n") {
			t.Errorf("%s: table %s rows\n%s\nwant\n%s", target, tb.TestID, strings.Join(rows, "\n"), strings.Join(wantRows, "\n"))
		}
	}
	// No box is drawn empty (the loss gallery's step box once was).
	p.Find(`[data-testid="update"], [data-testid="status"], .counters dd, .panel-table`).Each(func(_ int, s *goquery.Selection) {
		if strings.TrimSpace(s.Text()) == "" {
			html, _ := goquery.OuterHtml(s)
			t.Errorf("%s: an empty box: %.200s", target, html)
		}
	})
	has := func(sel string) bool { return p.Find(sel).Length() == 1 }
	if has(".stepper") == d.Static || !has(`[data-testid="plot"] svg`) {
		t.Errorf("%s: step controls shown %v for a demo static %v, or no plot", target, has(".stepper"), d.Static)
	}
	if has(`[data-testid="history"] svg`) != (run.History != nil) {
		t.Errorf("%s: a history shown %v where the run has one %v", target, has(`[data-testid="history"] svg`), run.History != nil)
	}
	for _, name := range d.Panels {
		if got, want := has(`[data-testid="panel-`+name+`"] svg`), run.Panels[name] != nil; got != want {
			t.Errorf("%s: figure %s shown %v, want %v", target, name, got, want)
		}
	}
	click := map[bool]string{true: "points"}[d.HasPoints()]
	if d.Data.Graph {
		click = "graph"
	} else if d.Data.Start[0] != "" {
		click = "start"
	}
	if got := p.Find(`figure.plot`).AttrOr("data-click", ""); got != click {
		t.Errorf("%s: a click on the plot does %q, want %q", target, got, click)
	}
}

// checkAnchors: each link and form of a demo panel to a state ends with
// anchor (so it lands on the demo without JavaScript, copied or reloaded:
// a link to the SGD demo opened 13,000 px above it); htmx's requests not.
func checkAnchors(t *testing.T, target string, p *goquery.Selection, anchor string) {
	t.Helper()
	p.Find(`a[data-action]`).Each(func(_ int, a *goquery.Selection) {
		href, get := a.AttrOr("href", ""), a.AttrOr("hx-get", "")
		if !strings.HasSuffix(href, anchor) || strings.Count(href, "#") != min(len(anchor), 1) || get+anchor != href {
			t.Errorf("%s: %s link %q requests %q; want it to end with %q, the request without it", target, a.AttrOr("data-action", "?"), href, get, anchor)
		}
	})
	if v := p.Find(`[data-action="copy-link"]`).AttrOr("data-href", anchor); !strings.HasSuffix(v, anchor) {
		t.Errorf("%s: copy link = %q, want it to end with %q", target, v, anchor)
	}
	p.Find(`form[method="get"]`).Each(func(_ int, f *goquery.Selection) {
		if action := f.AttrOr("action", ""); !strings.HasSuffix(action, anchor) || strings.Contains(f.AttrOr("hx-get", ""), "#") {
			t.Errorf("%s: form action %q, hx-get %q; want the action to end with %q, the request without it", target, action, f.AttrOr("hx-get", ""), anchor)
		}
	})
}

// checkFigures fetches each figure of run's state and compares it with
// what the run draws.
func checkFigures(t *testing.T, h http.Handler, run *demo.Run) {
	t.Helper()
	d, q := run.State.Demo(), run.State.Encode(demo.ForPlot)
	figures := map[string]string{demo.PlotFigure: d.PlotPath("svg"), demo.HistoryFigure: d.PanelPath(demo.HistoryFigure)}
	for _, name := range d.Panels {
		figures[name] = d.PanelPath(name)
	}
	for name, path := range figures {
		target := demo.WithQuery(path, q)
		var want bytes.Buffer
		ok, err := run.WriteFigure(&want, name, false)
		if err != nil {
			t.Errorf("%s: %v", target, err)
			continue
		}
		rec := get(t, h, target)
		switch {
		case !ok:
			if rec.Code != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404: the run has no %s", target, rec.Code, name)
			}
		case rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/svg+xml":
			t.Errorf("GET %s = %d %s, want 200 with an SVG", target, rec.Code, rec.Header().Get("Content-Type"))
		case !bytes.Equal(rec.Body.Bytes(), want.Bytes()):
			t.Errorf("GET %s: %q, not the run's figure %q", target, demotest.SVGText(rec.Body.String()), demotest.SVGText(want.String()))
		}
	}
	target := demo.WithQuery(d.PlotPath("png"), q)
	rec := get(t, h, target)
	img, err := png.Decode(bytes.NewReader(rec.Body.Bytes()))
	if rec.Code != http.StatusOK || err != nil || rec.Header().Get("Content-Type") != "image/png" {
		t.Errorf("GET %s = %d %s: %v", target, rec.Code, rec.Header().Get("Content-Type"), err)
	} else if s := img.Bounds().Size(); s.X != run.PlotOptions().Width || s.Y != run.PlotOptions().Height {
		t.Errorf("GET %s: %v pixels, want %d×%d", target, s, run.PlotOptions().Width, run.PlotOptions().Height)
	}
}

// checkStepLinks follows the no-JS Step, Back and Run to end links of a
// stepping demo on its lesson page and in the presenter view.
func checkStepLinks(t *testing.T, h http.Handler, run *demo.Run, panels map[string]*goquery.Selection) {
	t.Helper()
	d, s := run.State.Demo(), run.State
	if d.Static {
		return
	}
	end, err := demotest.Execute(d, s.AtStep(demo.StepToEnd))
	if err != nil {
		t.Fatal(err)
	}
	final := run.Done || s.Step >= demo.MaxStep
	for _, page := range []string{d.LessonPath(), d.PresentPath()} {
		anchor := map[bool]string{true: d.Anchor()}[page == d.LessonPath()]
		p := panels[page]
		for _, l := range []struct {
			action string
			to     demo.State
			shown  bool
		}{
			{"next", s.AtStep(s.Step + 1), !final},
			{"prev", s.AtStep(s.Step - 1), s.Step > 0},
			{"end", end.State, !final},
		} {
			href, ok := p.Find(`a[data-action="` + l.action + `"]`).Attr("href")
			if ok != l.shown {
				t.Errorf("%s: link %s shown %v, want %v", s.URL(page), l.action, ok, l.shown)
			}
			if !ok {
				continue
			}
			// Run to end asks for step=end, which the server redirects.
			link, _, _ := strings.Cut(href, "#")
			if l.action == "end" {
				if want := s.AtStep(demo.StepToEnd).URL(page) + anchor; href != want {
					t.Errorf("%s: end links to %s, want %s", s.URL(page), href, want)
				}
				rec := get(t, h, link)
				if link = rec.Header().Get("Location"); rec.Code != http.StatusSeeOther {
					t.Errorf("GET %s = %d, want 303", href, rec.Code)
				}
				href = link + anchor
			}
			if want := l.to.URL(page); link != want || href != link+anchor {
				t.Errorf("%s: %s leads to %s, want %s%s", s.URL(page), l.action, href, want, anchor)
			} else if rec := get(t, h, link); rec.Code != http.StatusOK {
				t.Errorf("GET %s = %d, want 200", link, rec.Code)
			}
		}
	}
}

// checkForms submits each of the demo's forms as the page shows it, as a
// browser without JavaScript does: it leads to the state at step 0.
func checkForms(t *testing.T, h http.Handler, run *demo.Run, panel *goquery.Selection) {
	t.Helper()
	d := run.State.Demo()
	page := run.State.URL(d.LessonPath())
	want := run.State.AtStep(0).URL(d.LessonPath())
	panel.Find(`form.controls`).Each(func(i int, f *goquery.Selection) {
		q := url.Values{}
		f.Find("input[name], select[name]").Each(func(_ int, in *goquery.Selection) {
			v := in.AttrOr("value", "")
			if in.Is("select") {
				v = in.Find("option[selected]").AttrOr("value", in.Find("option").First().AttrOr("value", ""))
			}
			q.Add(in.AttrOr("name", ""), v)
		})
		action, _, _ := strings.Cut(f.AttrOr("action", ""), "#")
		target := action + "?" + q.Encode()
		rec := follow(t, h, target)
		if got := rec.Header().Get("Location"); rec.Code != http.StatusOK {
			t.Errorf("%s: form %d submits to %s = %d %s", page, i, target, rec.Code, got)
		} else if self := parse(t, rec).Find("#panel-"+d.ID).AttrOr("data-self", ""); self != want+d.Anchor() {
			t.Errorf("%s: form %d leads to %s, want %s", page, i, self, want+d.Anchor())
		}
	})
}

// checkCSV downloads the points of a demo that has them.
func checkCSV(t *testing.T, h http.Handler, run *demo.Run) {
	t.Helper()
	d := run.State.Demo()
	if !d.HasPoints() {
		return
	}
	var want bytes.Buffer
	if err := d.WriteCSV(&want, run.Points); err != nil {
		t.Fatal(err)
	}
	target := demo.WithQuery(d.CSVPath(), run.State.Encode(demo.ForData))
	if rec := get(t, h, target); rec.Code != http.StatusOK || rec.Body.String() != want.String() ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
		t.Errorf("GET %s = %d %q, want %q", target, rec.Code, rec.Body, want.String())
	}
}

// checkBadValues asks for a bad value of each of d's keys, on its lesson
// page, in the presenter view and on its plot: each is a 400 naming it.
func checkBadValues(t *testing.T, h http.Handler, d *demo.Demo) {
	t.Helper()
	type refusal struct {
		key, value string
		page       bool // the key is page-only
	}
	var bads []refusal
	for _, p := range d.Params() {
		for _, v := range badValues(p) {
			bads = append(bads, refusal{p.Key, v, p.PageOnly})
		}
	}
	if d.Static {
		bads = append(bads, refusal{demo.KeyStep, "1", false})
	} else {
		bads = append(bads, refusal{demo.KeyStep, "x", false}, refusal{demo.KeyStep, strconv.Itoa(demo.MaxStep + 1), false})
	}
	for _, b := range bads {
		q := url.Values{b.key: {b.value}}
		targets := []string{demo.WithQuery(d.PresentPath(), q.Encode())}
		if !b.page {
			targets = append(targets, demo.WithQuery(d.PlotPath("svg"), q.Encode()))
		}
		if d.Secondary {
			q.Set(demo.KeyDemo, d.ID)
		}
		for _, target := range append(targets, demo.WithQuery(d.LessonPath(), q.Encode())) {
			if rec := get(t, h, target); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), b.key+": ") {
				t.Errorf("GET %s = %d %.200q, want 400 naming %s", target, rec.Code, rec.Body, b.key)
			}
		}
	}
}

// badValues are values a parameter must refuse: not a number, out of its
// range at either end, not a whole number, not one of its choices.
func badValues(p demo.Param) []string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch p.Kind {
	case demo.KindChoice:
		return []string{"no-such-" + p.Key}
	case demo.KindInt:
		return []string{"x", "1.5", num(p.Min - 1), num(p.Max + 1)}
	}
	out := []string{"x", "NaN", "Inf", num(p.Min - 1 - p.Max + p.Min), num(p.Max*2 + 1)}
	return append(out, map[bool][]string{true: {num(p.Min)}}[p.OpenMin]...)
}
