package main

import (
	"fmt"
	"image"
	"image/color"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/margin-edu/margin/web/templates/components"
)

// decodeQRSVG draws the QR endpoint's SVG as a phone's camera would see
// it (each module 6 × 6 pixels, the quiet zone white) and decodes it with
// a QR reader, gozxing.
func decodeQRSVG(t *testing.T, svg string) string {
	t.Helper()
	vb := regexp.MustCompile(`viewBox="0 0 (\d+) `).FindStringSubmatch(svg)
	d := regexp.MustCompile(` d="([^"]*)"`).FindStringSubmatch(svg)
	if vb == nil || d == nil {
		t.Fatalf("no viewBox or path in %.200s", svg)
	}
	var n int
	fmt.Sscan(vb[1], &n)
	const px = 6
	img := image.NewGray(image.Rect(0, 0, n*px, n*px))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for _, run := range strings.Split(strings.TrimSuffix(d[1], "z"), "z") {
		var x, y, w, w2 int
		if _, err := fmt.Sscanf(run, "M%d %dh%dv1h-%d", &x, &y, &w, &w2); err != nil || w != w2 {
			t.Fatalf("path piece %q: %v", run, err)
		}
		for yy := y * px; yy < (y+1)*px; yy++ {
			for xx := x * px; xx < (x+w)*px; xx++ {
				img.SetGray(xx, yy, color.Gray{})
			}
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("the QR code does not decode: %v", err)
	}
	return res.GetText()
}

// TestQRDecodes: the presenter view's QR code decodes to the absolute
// permalink: the public URL's origin when set, else the request's Host.
func TestQRDecodes(t *testing.T) {
	course := testCourse(t)
	perm := "/present/perceptron?add=0.5,0.5,1~-1,2,-1&step=3"
	for _, tc := range []struct {
		cfg    Config
		host   string
		origin string
		note   bool
	}{
		{Config{}, "margin.lan:8080", "http://margin.lan:8080", false},
		{Config{}, "localhost:8080", "http://localhost:8080", true},
		{Config{}, "127.0.0.1:8080", "http://127.0.0.1:8080", true},
		{Config{PublicURL: "https://margin.example"}, "localhost:8080", "https://margin.example", false},
	} {
		h := NewServerConfig(discardLogger(), course, tc.cfg)
		req, _ := http.NewRequest(http.MethodGet, components.QRPath(perm), nil)
		req.Host = tc.host
		rec := serveReq(h, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("%s on %s = %d %s: %s", req.URL, tc.host, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		svg := rec.Body.String()
		if got, want := decodeQRSVG(t, svg), tc.origin+perm; got != want {
			t.Errorf("QR on %s decodes to %q, want %q", tc.host, got, want)
		}
		if got := strings.Contains(svg, "-public-url"); got != tc.note {
			t.Errorf("QR on %s (public URL %q): says to set -public-url = %v, want %v", tc.host, tc.cfg.PublicURL, got, tc.note)
		}
	}
}

// TestQRRefuses: the QR endpoint draws only permalinks of this site, and
// says when one is too long instead of drawing a code no phone reads.
func TestQRRefuses(t *testing.T) {
	h := newTestServer(t)
	for _, tc := range []struct {
		u      string
		status int
		want   string
	}{
		{"https://evil.example/", http.StatusBadRequest, "path of this site"},
		{"//evil.example/present/perceptron", http.StatusBadRequest, "path of this site"},
		{"/plots/perceptron.svg", http.StatusBadRequest, "path of this site"},
		{"/present/no-such-demo", http.StatusBadRequest, "path of this site"},
		{"/present/perceptron?hello=world", http.StatusBadRequest, "hello"},
		{"/present/perceptron?step=3&op=add&px=1&py=1&pl=1", http.StatusBadRequest, "op"},
		{"/present/perceptron#x", http.StatusBadRequest, "path of this site"},
		{"/lessons/perceptron#elsewhere", http.StatusBadRequest, "anchor"},
		{"/deck?d=%2Fpresent%2Fnope", http.StatusBadRequest, "entry 1"},
		{"/present/perceptron?add=" + strings.Repeat("0.123,0.456,1~", 60) + "1,1,1", http.StatusUnprocessableEntity, "too long"},
	} {
		rec := get(t, h, components.QRPath(tc.u))
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("QR of %.60q = %d, want %d saying %q; body %.300s", tc.u, rec.Code, tc.status, tc.want, rec.Body)
		}
	}
	for _, target := range []string{"/qr.svg", "/qr.svg?u=/present/perceptron&x=1", "/qr.svg?u=/present/perceptron&u=/present/perceptron"} {
		if rec := get(t, h, target); rec.Code != http.StatusBadRequest {
			t.Errorf("GET %s = %d, want 400", target, rec.Code)
		}
	}
	for _, u := range []string{"/lessons/perceptron?step=2#demo-perceptron", "/embed/perceptron?step=2", "/deck?d=%2Fpresent%2Fperceptron&at=1"} {
		if rec := get(t, h, components.QRPath(u)); rec.Code != http.StatusOK {
			t.Errorf("QR of %s = %d, want 200: %s", u, rec.Code, rec.Body)
		}
	}
}

// TestQRPresenterView: the presenter view shows the QR code of its
// permalink, or says the state is too long for one; the lesson page has
// none.
func TestQRPresenterView(t *testing.T) {
	h := newTestServer(t)
	doc := parseHTML(t, get(t, h, "/present/perceptron?step=3").Body.String())
	if src := doc.Find(`[data-testid="qr"]`).AttrOr("src", ""); src != components.QRPath("/present/perceptron?step=3") {
		t.Errorf("presenter view's QR src = %q", src)
	}
	if href := doc.Find(`[data-testid="deck-start"]`).AttrOr("href", ""); href != "/deck?d="+url.QueryEscape("/present/perceptron?step=3")+"&at=1" {
		t.Errorf("start a deck here = %q", href)
	}
	long := "/present/perceptron?add=" + strings.Repeat("0.123,0.456,1~", 60) + "1,1,1"
	rec := follow(t, h, long)
	doc = parseHTML(t, rec.Body.String())
	if doc.Find(`[data-testid="qr"]`).Length() != 0 || !strings.Contains(doc.Find(`[data-testid="qr-too-long"]`).Text(), "too long for a QR code") {
		t.Errorf("a long state's presenter view (%d) draws a QR code or does not say why not", rec.Code)
	}
	// The note that phones cannot open localhost is on the page, hidden
	// (share.js shows it on a loopback host), unless the server knows its
	// public URL.
	if doc := parseHTML(t, get(t, h, "/present/perceptron").Body.String()); !doc.Find(`[data-testid="qr-local"]`).Is("[hidden]") {
		t.Errorf("without -public-url the presenter view has no hidden note about localhost")
	}
	hp := NewServerConfig(discardLogger(), testCourse(t), Config{PublicURL: "https://margin.example"})
	if n := parseHTML(t, get(t, hp, "/present/perceptron").Body.String()).Find(`[data-testid="qr-local"]`).Length(); n != 0 {
		t.Errorf("with -public-url the presenter view still has the note about localhost")
	}
	if n := parseHTML(t, get(t, h, "/lessons/perceptron").Body.String()).Find(`[data-testid="qr-box"]`).Length(); n != 0 {
		t.Errorf("the lesson page has %d QR boxes, want none", n)
	}
}

// TestQRMaxBytes: a URL of QRMaxBytes bytes fits the version-20 code the
// limit promises, and so decodes.
func TestQRMaxBytes(t *testing.T) {
	u := "https://m.example/" + strings.Repeat("a", components.QRMaxBytes-len("https://m.example/"))
	code, err := encodeQR(u)
	if err != nil {
		t.Fatal(err)
	}
	if v := (code.Size - 17) / 4; v > 20 {
		t.Errorf("a %d-byte URL takes version %d, want at most 20", len(u), v)
	}
	if got := decodeQRSVG(t, string(qrSVG(code, u, nil))); got != u {
		t.Errorf("decoded %q", got)
	}
}

// serveReq serves req on h.
func serveReq(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
