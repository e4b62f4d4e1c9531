package components

import (
	"context"
	"html"
	"net/url"
	"strings"

	"github.com/margin-edu/margin/internal/demo"
)

// originKey holds the public origin in a request's context (WithOrigin).
type originKey struct{}

// WithOrigin returns ctx carrying origin ("https://margin.example"), the
// address students and slides reach the server at. The share components
// write absolute URLs with it; without it they write root-relative URLs,
// which web/static/share.js completes with the page's own origin, so a
// page never depends on the Host it was asked for (the response cache
// keys pages by path and query alone).
func WithOrigin(ctx context.Context, origin string) context.Context {
	return context.WithValue(ctx, originKey{}, origin)
}

// Origin is the origin WithOrigin put in ctx, or "".
func Origin(ctx context.Context) string {
	o, _ := ctx.Value(originKey{}).(string)
	return o
}

// QRMaxBytes is the longest absolute URL the QR endpoint draws: what a
// version 20 code (97 × 97 modules) holds in byte mode at error
// correction level M. A larger code is too fine for a phone to read from
// a seat in a hall, so a longer permalink gets a sentence instead.
const QRMaxBytes = 666

// qrOriginAllowance is what the presenter view allows for the origin when
// it does not know it (no -public-url): "https://" and a long host name.
const qrOriginAllowance = len("https://") + 40

// QRPath is the QR endpoint's URL for the permalink path.
func QRPath(path string) string { return "/qr.svg?u=" + url.QueryEscape(path) }

// qrFits reports whether the permalink path, behind the origin (or the
// allowance for one), fits a QR code a phone reads.
func qrFits(ctx context.Context, path string) bool {
	n := len(Origin(ctx))
	if n == 0 {
		n = qrOriginAllowance
	}
	return n+len(path) <= QRMaxBytes
}

// DeckStart is the lecture deck that starts with the presenter view at
// present (a /present/<demo>?<state> path).
func DeckStart(present string) string {
	return "/deck?d=" + url.QueryEscape(present) + "&at=1"
}

// SlideItem is one line of the "copy for slides" box: what it is and the
// text to copy.
type SlideItem struct{ Label, TestID, Text string }

// SlideItems are what the "copy for slides" box offers for d's state:
// the plot's SVG and PNG URLs, an <img> tag, an <iframe> tag of the embed
// view and the GIF URL (demos that step), absolute when ctx carries the
// origin.
func SlideItems(ctx context.Context, d *demo.DemoView) []SlideItem {
	o := Origin(ctx)
	svg, png, embed := o+d.Links.SVG, o+d.Links.PNG, o+d.Links.Embed
	items := []SlideItem{
		{"SVG URL", "slides-svg", svg},
		{"PNG URL", "slides-png", png},
		{"<img> tag", "slides-img", `<img src="` + html.EscapeString(png) + `" alt="` + html.EscapeString(d.Title) + `" width="800">`},
		{"<iframe> tag (live demo)", "slides-iframe", `<iframe src="` + html.EscapeString(embed) + `" title="` + html.EscapeString(d.Title+" demo") +
			`" width="800" height="450" style="border:0" loading="lazy"></iframe>`},
	}
	if d.Links.GIF != "" {
		items = append(items, SlideItem{"GIF URL (" + gifSteps(d.Links.GIF) + ")", "slides-gif", o + d.Links.GIF})
	}
	return items
}

// gifSteps reads the steps a GIF URL animates, for its label: "steps 0
// to 29".
func gifSteps(gif string) string {
	_, q, _ := strings.Cut(gif, "?")
	v, _ := url.ParseQuery(q)
	from := v.Get("from")
	if from == "" {
		from = "0"
	}
	return "steps " + from + " to " + v.Get("to")
}
