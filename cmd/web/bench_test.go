package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// The targets, on one core: a demo page at step 100 on 200 points
// under 10 ms, its SVG under 5 ms and 100 KB. Run with make bench.
const benchState = "data=separable&n=200&sep=0.2&step=100"

func benchGet(b *testing.B, target string, header map[string]string) {
	h := NewServer(discardLogger())
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	var size int
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s = %d", target, rec.Code)
		}
		size = rec.Body.Len()
	}
	b.ReportMetric(float64(size)/1024, "KB/op")
}

func BenchmarkPerceptronPage(b *testing.B) {
	benchGet(b, "/lessons/perceptron?"+benchState, nil)
}

func BenchmarkPerceptronPartial(b *testing.B) {
	benchGet(b, "/lessons/perceptron?"+benchState, map[string]string{"HX-Request": "true"})
}

func BenchmarkPerceptronSVG(b *testing.B) {
	benchGet(b, "/plots/perceptron.svg?"+benchState, nil)
}

func BenchmarkPerceptronPNG(b *testing.B) {
	benchGet(b, "/plots/perceptron.png?"+benchState, nil)
}
