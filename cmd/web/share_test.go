package main

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/margin-edu/margin/internal/demo"
)

// parseHTML reads a page for goquery.
func parseHTML(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestEmbedFraming: only embed responses may be framed by other sites;
// every other page, and the embed's neighbours, keep frame-ancestors
// 'self', and nothing sends X-Frame-Options.
func TestEmbedFraming(t *testing.T) {
	h := newTestServer(t)
	for _, tc := range []struct {
		target string
		status int
		want   string
	}{
		{"/embed/perceptron", http.StatusOK, "frame-ancestors * file:"},
		{"/embed/perceptron?step=3", http.StatusOK, "frame-ancestors * file:"},
		{"/embed/perceptron?eta=x", http.StatusBadRequest, "frame-ancestors * file:"},
		{"/lessons/perceptron", http.StatusOK, "frame-ancestors 'self'"},
		{"/present/perceptron", http.StatusOK, "frame-ancestors 'self'"},
		{"/deck?d=%2Fpresent%2Fperceptron&at=1", http.StatusOK, "frame-ancestors 'self'"},
		{"/embed/no-such-demo", http.StatusNotFound, "frame-ancestors 'self'"},
		{"/", http.StatusOK, "frame-ancestors 'self'"},
	} {
		rec := get(t, h, tc.target)
		csp := rec.Header().Get(headerCSP)
		if rec.Code != tc.status || !strings.HasSuffix(csp, tc.want) {
			t.Errorf("GET %s = %d, CSP %q; want %d, CSP ending %q", tc.target, rec.Code, csp, tc.status, tc.want)
		}
		if xfo := rec.Header().Get("X-Frame-Options"); xfo != "" {
			t.Errorf("GET %s sends X-Frame-Options %q", tc.target, xfo)
		}
	}
}

// TestEmbedStaysUnderEmbed renders every demo's embed view and checks
// that it is the demo alone (no site header, footer or prose) and that
// every link, form and htmx request in it leads back under /embed/<id>,
// except links that open a new tab on purpose.
func TestEmbedStaysUnderEmbed(t *testing.T) {
	h := newTestServer(t)
	for _, d := range testCourse(t).Demos {
		target := d.EmbedPath()
		if !d.Static {
			target += "?step=2"
		}
		rec := follow(t, h, target)
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s = %d: %s", target, rec.Code, rec.Body)
			continue
		}
		doc := parseHTML(t, rec.Body.String())
		if n := doc.Find("header.site, footer.site, nav.toc, .prose, .present-bar").Length(); n > 0 {
			t.Errorf("%s: %d pieces of site chrome or prose", target, n)
		}
		if doc.Find(`[data-testid="plot"]`).Length() != 1 || doc.Find(`[data-testid="slides"]`).Length() != 1 {
			t.Errorf("%s: want one plot and one copy-for-slides box", target)
		}
		under := d.EmbedPath()
		check := func(what, v string) {
			if v != under && !strings.HasPrefix(v, under+"?") {
				t.Errorf("%s: %s %q leaves %s", target, what, v, under)
			}
		}
		doc.Find("a[href]").Each(func(_ int, a *goquery.Selection) {
			href, _ := a.Attr("href")
			if _, blank := a.Attr("target"); !blank && !a.Is("[download]") && !strings.HasPrefix(href, "/plots/") {
				check("link", href)
			}
		})
		doc.Find("form[method=get]").Each(func(_ int, f *goquery.Selection) { check("form", f.AttrOr("action", "")) })
		doc.Find("[hx-get]").Each(func(_ int, e *goquery.Selection) { check("hx-get", e.AttrOr("hx-get", "")) })
		doc.Find("[data-self]").Each(func(_ int, e *goquery.Selection) { check("data-self", e.AttrOr("data-self", "")) })
		if doc.Find(`form[method=post]`).Length() > 0 {
			t.Errorf("%s: a POST form, whose answer would leave the embed", target)
		}
	}
}

// TestEmbedPartial: an htmx step in the embed swaps the panel and pushes
// the embed permalink.
func TestEmbedPartial(t *testing.T) {
	h := newTestServer(t)
	rec := do(t, h, http.MethodGet, "/embed/perceptron?step=4", nil, map[string]string{hxRequest: "true"})
	if rec.Code != http.StatusOK || rec.Header().Get(hxPushURL) != "/embed/perceptron?step=4" || strings.Contains(rec.Body.String(), "<html") {
		t.Errorf("htmx GET = %d, %s %q, want the panel alone and the embed permalink", rec.Code, hxPushURL, rec.Header().Get(hxPushURL))
	}
	if rec := get(t, h, "/embed/perceptron?step=end"); rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/embed/perceptron?step=") {
		t.Errorf("step=end = %d to %q, want 303 to the embed's canonical step", rec.Code, rec.Header().Get("Location"))
	}
}

// TestCopyForSlides: the lesson, presenter and embed views offer the SVG,
// PNG, <img>, <iframe> and GIF of the state shown, as the kit builds their
// URLs; with a public URL they are absolute.
func TestCopyForSlides(t *testing.T) {
	course := testCourse(t)
	d := course.Demo("perceptron")
	s, probs := d.Parse(url.Values{"step": {"7"}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	run, err := d.ExecuteFigure(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	view, err := demo.NewView(run, d.PresentPath())
	if err != nil {
		t.Fatal(err)
	}
	l := view.Links
	if l.Embed != "/embed/perceptron?step=7" || !strings.HasPrefix(l.GIF, "/plots/perceptron.gif") || !strings.HasPrefix(l.PNG, "/plots/perceptron.png?") {
		t.Fatalf("the kit's links: embed %q, GIF %q, PNG %q", l.Embed, l.GIF, l.PNG)
	}
	for _, tc := range []struct {
		cfg    Config
		origin string
	}{{Config{}, ""}, {Config{PublicURL: "https://margin.example"}, "https://margin.example"}} {
		h := NewServerConfig(discardLogger(), course, tc.cfg)
		for _, page := range []string{"/lessons/perceptron?step=7", "/present/perceptron?step=7", "/embed/perceptron?step=7"} {
			rec := get(t, h, page)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s = %d", page, rec.Code)
			}
			doc := parseHTML(t, rec.Body.String())
			box := doc.Find(`#panel-perceptron [data-testid="slides"]`)
			val := func(id string) string { return box.Find(`[data-testid="`+id+`"]`).AttrOr("value", "") }
			o := tc.origin
			want := map[string]string{
				"slides-svg":    o + l.SVG,
				"slides-png":    o + l.PNG,
				"slides-img":    `<img src="` + html.EscapeString(o+l.PNG) + `" alt="Perceptron" width="800">`,
				"slides-iframe": `<iframe src="` + o + `/embed/perceptron?step=7" title="Perceptron demo" width="800" height="450" style="border:0" loading="lazy"></iframe>`,
				"slides-gif":    o + l.GIF,
			}
			for id, w := range want {
				if got := val(id); got != w {
					t.Errorf("%s (public URL %q): %s = %q, want %q", page, tc.cfg.PublicURL, id, got, w)
				}
			}
			_, relative := box.Find(".slides-list").Attr("data-relative")
			if relative != (o == "") {
				t.Errorf("%s: data-relative = %v with public URL %q", page, relative, o)
			}
		}
	}
}

// TestCopyForSlidesStatic: a static demo has no run, so no GIF.
func TestCopyForSlidesStatic(t *testing.T) {
	h := newTestServer(t)
	for _, d := range testCourse(t).Demos {
		if !d.Static {
			continue
		}
		doc := parseHTML(t, get(t, h, d.EmbedPath()).Body.String())
		if doc.Find(`[data-testid="slides-svg"]`).Length() != 1 || doc.Find(`[data-testid="slides-gif"]`).Length() != 0 {
			t.Errorf("%s: a static demo's copy-for-slides box should offer the SVG and no GIF", d.ID)
		}
		return
	}
	t.Fatal("the course has no static demo")
}

func TestNewConfig(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"https://margin.example", "https://margin.example"},
		{"https://margin.example/", "https://margin.example"},
		{" http://10.0.0.5:8080 ", "http://10.0.0.5:8080"},
	} {
		cfg, err := newConfig(tc.in)
		if err != nil || cfg.PublicURL != tc.want {
			t.Errorf("newConfig(%q) = %q, %v; want %q", tc.in, cfg.PublicURL, err, tc.want)
		}
	}
	for _, in := range []string{"margin.example", "ftp://margin.example", "https://margin.example/sub", "https://x@margin.example", "https://margin.example?x=1", "https://"} {
		if _, err := newConfig(in); err == nil || !strings.Contains(err.Error(), "-public-url") {
			t.Errorf("newConfig(%q) = %v, want an error naming -public-url", in, err)
		}
	}
}
