package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
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
