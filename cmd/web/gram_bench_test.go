package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// gramBody is n random 2-D points (two decimals) for the rbf kernel.
func gramBody(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf("[%.2f,%.2f]", r.NormFloat64(), r.NormFloat64())
	}
	return `{"kernel":"rbf","gamma":0.5,"x":[` + strings.Join(rows, ",") + `]}`
}

func benchGram(b *testing.B, n int, header map[string]string) {
	h := NewServer(discardLogger(), testCourse(b))
	body := gramBody(n)
	var size int
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/gram", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("POST /api/v1/gram = %d %.200s", rec.Code, rec.Body)
		}
		size = rec.Body.Len()
	}
	b.ReportMetric(float64(size)/1e6, "MB/op")
}

// BenchmarkGram1000 is POST /api/v1/gram with 1000 2-D points and the rbf
// kernel, through the handler: the Gram matrix, its eigenvalues and a
// 20 MB answer. Its numbers are in the README.
func BenchmarkGram1000(b *testing.B) { benchGram(b, 1000, nil) }

// BenchmarkGram1000Gzip is the same for a client that accepts gzip, as
// browsers do.
func BenchmarkGram1000Gzip(b *testing.B) {
	benchGram(b, 1000, map[string]string{"Accept-Encoding": "gzip"})
}

// BenchmarkGram2000 is the largest n allowed.
func BenchmarkGram2000(b *testing.B) { benchGram(b, 2000, nil) }

// BenchmarkGram2000Gzip is the largest n for a client that accepts gzip.
func BenchmarkGram2000Gzip(b *testing.B) {
	benchGram(b, 2000, map[string]string{"Accept-Encoding": "gzip"})
}
