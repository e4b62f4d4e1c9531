package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/web/templates/components"
)

// qrPath is the QR endpoint: /qr.svg?u=<path> draws the absolute URL of
// u, a permalink of this site (sitePath), as an SVG QR code.
const qrPath = "/qr.svg"

// qrLevel is the QR codes' error correction: M restores 15 % of the
// modules, enough for a washed-out projector or a glare.
const qrLevel = qr.M

// handleQR draws a QR code of a permalink on this site, for students in
// the hall to open the state on their phones. The origin is the public
// URL when set, else the request's Host; a loopback host (localhost,
// 127.0.0.1, ::1) is drawn with a caption saying that phones cannot open
// it and that -public-url fixes it. A URL longer than
// components.QRMaxBytes is a 422 that says so, not a code too fine to
// read.
func handleQR(course *demo.Course, cfg Config) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		for k, vs := range q {
			if k != "u" {
				return bad(fmt.Errorf("%s: unknown parameter; the QR code takes only u, a path of this site", k))
			}
			if len(vs) > 1 {
				return bad(errors.New("u: given more than once; give it once"))
			}
		}
		u := q.Get("u")
		if err := sitePath(course, u); err != nil {
			return err
		}
		origin := cfg.PublicURL
		if origin == "" {
			if origin, err = requestOrigin(r); err != nil {
				return err
			}
		}
		abs := origin + u
		if len(abs) > components.QRMaxBytes {
			return unprocessable(fmt.Sprintf("this permalink is %d characters long, too long for a QR code that a phone reads from a seat (at most %d): remove some added points, or share the link another way", len(abs), components.QRMaxBytes))
		}
		code, err := encodeQR(abs)
		if err != nil {
			return unprocessable("this permalink does not fit a QR code; share the link another way")
		}
		var note []string
		if cfg.PublicURL == "" && loopback(r.Host) {
			note = []string{"Phones cannot open " + hostOnly(r.Host) + ":", "start Margin with -public-url", "(or MARGIN_PUBLIC_URL)."}
		}
		h := c.Response().Header()
		if cfg.PublicURL != "" {
			h.Set(echo.HeaderCacheControl, "public, max-age=86400")
		} else {
			// The code depends on the Host it was asked for.
			h.Set(echo.HeaderCacheControl, "no-cache")
			varyOn(c, "Host")
		}
		return c.Blob(http.StatusOK, "image/svg+xml", qrSVG(code, abs, note))
	}
}

// unprocessable is a 422: valid input Margin will not draw.
func unprocessable(msg string) error {
	return echo.NewHTTPError(http.StatusUnprocessableEntity, msg)
}

// requestOrigin is the origin the request was sent to: https when it came
// over TLS or a proxy says so (X-Forwarded-Proto), and its Host, which
// must look like a host name or address with an optional port.
func requestOrigin(r *http.Request) (string, error) {
	host := r.Host
	if host == "" || strings.Trim(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") != "" {
		return "", bad(errors.New("Host: not a host name; start Margin with -public-url to say where students reach it"))
	}
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + host, nil
}

// hostOnly is host without its port.
func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return host
}

// loopback reports whether host names this machine only: localhost (and
// names under it) or a loopback address, which no phone can open.
func loopback(host string) bool {
	h := strings.ToLower(strings.Trim(hostOnly(host), "[]"))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// encodeQR encodes text as a QR code at qrLevel.
func encodeQR(text string) (*qr.Code, error) { return qr.Encode(text, qrLevel) }

// qrQuiet is the blank border around a code, in modules, that the QR
// standard asks for.
const qrQuiet = 4

// qrSVG draws code as an SVG: one path of dark modules (a run of dark
// modules in a row is one rectangle) on white, in module units, with the
// URL as its title and the note's lines under the code.
func qrSVG(code *qr.Code, title string, note []string) []byte {
	n := code.Size + 2*qrQuiet
	const lineH = 2.6 // a caption line, in modules
	h := float64(n)
	if len(note) > 0 {
		h += float64(len(note))*lineH + 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %s" width="%d" height="%s" shape-rendering="crispEdges" role="img">`,
		n, num(h), n*8, num(h*8))
	b.WriteString("<title>QR code of " + escapeXML(title) + "</title>")
	fmt.Fprintf(&b, `<rect width="%d" height="%s" fill="#fff"/><path fill="#000" d="`, n, num(h))
	for y := range code.Size {
		for x := 0; x < code.Size; {
			if !code.Black(x, y) {
				x++
				continue
			}
			run := 1
			for x+run < code.Size && code.Black(x+run, y) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+qrQuiet, y+qrQuiet, run, run)
			x += run
		}
	}
	b.WriteString(`"/>`)
	for i, line := range note {
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="sans-serif" font-size="2" text-anchor="middle" fill="#a00">%s</text>`,
			num(float64(n)/2), num(float64(n)+float64(i+1)*lineH-0.4), escapeXML(line))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// escapeXML escapes text for an SVG element's content.
func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
