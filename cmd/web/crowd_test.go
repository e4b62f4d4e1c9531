package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// newCrowdServer is Margin's handler as run serves it: the test course
// behind the response cache and admission control (crowdHandler).
func newCrowdServer(t *testing.T, l limits) http.Handler {
	t.Helper()
	return crowdHandler(NewServer(discardLogger(), testCourse(t)), l)
}

var testLimits = limits{workPerCore: 1, queue: 16, wait: 2 * time.Second, cacheBytes: 64 << 20}

// parses reports whether body, a CSV or an SVG by its Content-Type, parses.
func parses(contentType string, body []byte) error {
	if bytes.HasPrefix([]byte(contentType), []byte("text/csv")) {
		rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		if err == nil && len(rows) < 10 {
			err = errors.New("fewer than 10 rows")
		}
		return err
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// TestCrowdServesTheEncodingAsked: on a CSV and a plot URL, whatever
// Accept-Encoding the first client sent, the next one of another kind
// gets the encoding it asked for (issue 28 §3): after "GZIP" a plain
// client (curl -O) gets uncompressed bytes that parse, and after
// "gzip;q=0" a browser gets gzip.
func TestCrowdServesTheEncodingAsked(t *testing.T) {
	for _, uri := range []string{
		"/demos/perceptron/data.csv?data=separable&n=300&seed=4242",
		"/plots/perceptron.svg?data=separable&n=300&seed=4242",
	} {
		for _, tt := range []struct{ first, then string }{
			{"GZIP", ""},
			{"gzip;q=0", "gzip, deflate, br"},
			{"*", ""},
			{"identity;q=0", "gzip"},
		} {
			h := newCrowdServer(t, testLimits)
			for _, ae := range []string{tt.first, tt.then} {
				rec := do(t, h, http.MethodGet, uri, nil, map[string]string{"Accept-Encoding": ae})
				if rec.Code != http.StatusOK {
					t.Fatalf("GET %s with %q: %d", uri, ae, rec.Code)
				}
				body := rec.Body.Bytes()
				gzipped := rec.Header().Get("Content-Encoding") == "gzip"
				if want := ae != "" && ae != "gzip;q=0" && ae != "identity;q=0"; gzipped != want {
					t.Errorf("GET %s with %q after %q: gzipped %v, want %v", uri, ae, tt.first, gzipped, want)
				}
				if gzipped {
					zr, err := gzip.NewReader(bytes.NewReader(body))
					if err != nil {
						t.Fatalf("GET %s with %q: %v", uri, ae, err)
					}
					if body, err = io.ReadAll(zr); err != nil {
						t.Fatalf("GET %s with %q: %v", uri, ae, err)
					}
				}
				if err := parses(rec.Header().Get("Content-Type"), body); err != nil {
					t.Errorf("GET %s with %q after %q: the body does not parse: %v", uri, ae, tt.first, err)
				}
			}
		}
	}
}

// TestCrowdHeadFromCache: over a real connection, HEAD of a GIF URL or a
// page that a GET computed is answered from the cache with GET's headers
// and Content-Length and no body (issue 28 §3). internal/serve's
// TestCacheAnswersHead counts the handler's runs.
func TestCrowdHeadFromCache(t *testing.T) {
	srv := httptest.NewServer(newCrowdServer(t, testLimits))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	send := func(method, uri string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+uri, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	for _, uri := range []string{"/plots/perceptron.gif?from=0&to=2", "/lessons/perceptron"} {
		res, body := send("GET", uri)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", uri, res.StatusCode)
		}
		for i := 0; i < 3; i++ {
			hd, hbody := send("HEAD", uri)
			for _, k := range []string{"Content-Type", "Content-Encoding", "ETag", "Cache-Control", "Vary"} {
				if hd.Header.Get(k) != res.Header.Get(k) {
					t.Errorf("HEAD %s: %s %q, GET's %q", uri, k, hd.Header.Get(k), res.Header.Get(k))
				}
			}
			if hd.StatusCode != http.StatusOK || len(hbody) != 0 || hd.ContentLength != int64(len(body)) {
				t.Errorf("HEAD %s: %d, %d bytes of body, Content-Length %d; GET sent %d bytes", uri, hd.StatusCode, len(hbody), hd.ContentLength, len(body))
			}
		}
	}
}
