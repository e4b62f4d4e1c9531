package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/web/templates/components"

	tl "github.com/margin-edu/margin/web/templates/lessons"
)

// Config is what run's flags tell the server beyond the course.
type Config struct {
	// PublicURL is the origin students and slides reach Margin at
	// (-public-url, MARGIN_PUBLIC_URL), such as "https://margin.example":
	// QR codes encode it and "copy for slides" writes it. "" means the
	// request's own Host for QR codes, and the page's own origin (filled in
	// by share.js) for copied URLs.
	PublicURL string
}

// newConfig checks the -public-url flag: an http or https origin, with
// no path, query or fragment (Margin's routes sit at the root).
func newConfig(publicURL string) (Config, error) {
	publicURL = strings.TrimSuffix(strings.TrimSpace(publicURL), "/")
	if publicURL == "" {
		return Config{}, nil
	}
	u, err := url.Parse(publicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return Config{}, fmt.Errorf("-public-url %q: give an origin such as https://margin.example, with no path", publicURL)
	}
	return Config{PublicURL: u.Scheme + "://" + u.Host}, nil
}

// publicOrigin puts the public URL, when there is one, in each request's
// context, where the share components read it (components.WithOrigin).
func publicOrigin(origin string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if origin == "" {
			return next
		}
		return func(c echo.Context) error {
			r := c.Request()
			c.SetRequest(r.WithContext(components.WithOrigin(r.Context(), origin)))
			return next(c)
		}
	}
}

// addShareRoutes installs the lecture deck and the QR codes; the embed
// view is in addRoutes' loop over the demos.
func addShareRoutes(e *echo.Echo, course *demo.Course, cfg Config) {
	e.GET(deckPath, handleDeck(course))
	e.GET(qrPath, handleQR(course, cfg))
}

// embedFraming is the frame-ancestors of the embed view: any site may
// show it in an iframe (a course platform, a reveal.js deck), and so may
// a page opened from a file, as a reveal.js deck on the lecturer's laptop
// often is: "*" alone matches only network schemes, and Chromium refuses
// a file:// parent.
const embedFraming = "* file:"

// handleEmbed serves demo d alone, in the state the query gives, for
// another site's iframe: no header, navigation, footer or prose, and
// every link and form leading back under /embed/ (the view's page). Its
// route alone allows framing (allowFraming(embedFraming)).
func handleEmbed(d *demo.Demo) echo.HandlerFunc {
	return func(c echo.Context) error {
		return serveDemo(c, d, d.EmbedPath(), func(v *demo.DemoView, _ *demo.Run) templ.Component { return tl.EmbedPage(v) })
	}
}

// serveDemo runs the state in the request's query for demo d shown on
// page and answers as the presenter view does: a redirect to the
// canonical URL when the query is not canonical (303 after an edit or
// step=end), the demo panel alone for htmx, else the page full renders.
func serveDemo(c echo.Context, d *demo.Demo, page string, full func(*demo.DemoView, *demo.Run) templ.Component) error {
	r := c.Request()
	q, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		return err
	}
	if hasAnswer(q) {
		return answerPredict(c, d, q, page)
	}
	run, edited, err := demoRun(r.Context(), d, q, demo.ForPage, "")
	if err != nil {
		return err
	}
	partial := isPartial(r)
	if !partial && r.URL.RawQuery != run.State.QueryAt(page) {
		status := http.StatusMovedPermanently
		if edited || q.Get("step") == "end" {
			status = http.StatusSeeOther
		}
		return c.Redirect(status, run.State.URL(page))
	}
	view, err := demo.NewView(run, page)
	if err != nil {
		return err
	}
	varyOn(c, hxRequest)
	if partial {
		c.Response().Header().Set(hxPushURL, view.Links.Self)
		return renderHTML(c, http.StatusOK, tl.Demo(view))
	}
	return renderHTML(c, http.StatusOK, full(view, run))
}

// sitePath checks that u is a permalink of this site that a QR code may
// carry: a demo's presenter or embed view, a lesson page, or a deck, each
// with a valid state. Anything else (another host, //host, a scheme, a
// path Margin does not serve, a state it refuses) is an error naming what
// is allowed, so the QR endpoint never encodes arbitrary text.
func sitePath(course *demo.Course, u string) error {
	const allowed = "u: give a path of this site: /present/<demo>?<state>, /embed/<demo>?<state>, /lessons/<lesson>?<state> or /deck?<entries>"
	if !strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//") || strings.ContainsAny(u, "\\ \t\r\n") {
		return bad(errors.New(allowed))
	}
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "" || p.Host != "" || p.Opaque != "" {
		return bad(errors.New(allowed))
	}
	q, err := url.ParseQuery(p.RawQuery)
	if err != nil {
		return bad(errors.New("u: its query is malformed"))
	}
	var d *demo.Demo
	switch path := p.EscapedPath(); {
	case path == deckPath && p.Fragment == "":
		_, err := parseDeck(course, q)
		return err
	case strings.HasPrefix(path, "/present/"):
		d = course.Demo(strings.TrimPrefix(path, "/present/"))
	case strings.HasPrefix(path, "/embed/"):
		d = course.Demo(strings.TrimPrefix(path, "/embed/"))
	case strings.HasPrefix(path, "/lessons/"):
		slug := strings.TrimPrefix(path, "/lessons/")
		if len(course.LessonDemos(slug)) == 0 {
			return bad(errors.New(allowed))
		}
		if d, err = course.Active(slug, q); err != nil {
			return bad(fmt.Errorf("u: %w", err))
		}
		if p.Fragment != "" && "#"+p.Fragment != d.Anchor() {
			return bad(errors.New("u: the only fragment a lesson permalink takes is its demo's anchor"))
		}
	}
	if d == nil || (p.Fragment != "" && !strings.HasPrefix(p.Path, "/lessons/")) {
		return bad(errors.New(allowed))
	}
	return stateProblems(d, q, "u")
}

// stateProblems checks q as a state of d, without edits: a 400 whose
// message starts with what, naming each bad key.
func stateProblems(d *demo.Demo, q url.Values, what string) error {
	if _, _, edited, _ := d.SplitEdit(q); edited {
		return bad(fmt.Errorf("%s: op: a permalink shows a state; edits belong on the demo page", what))
	}
	if _, probs := d.Parse(q); len(probs) > 0 {
		return bad(fmt.Errorf("%s: %s state: %v", what, d.ID, probs))
	}
	return nil
}
