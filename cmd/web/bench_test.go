package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// The targets, on one core: a demo page at step 100 on 200 points
// under 10 ms, its SVG under 5 ms and 100 KB. Run with make bench.
const benchState = "data=separable&n=200&sep=0.2&step=100"

func benchGet(b *testing.B, target string, header map[string]string) {
	h := NewServer(discardLogger(), testCourse(b))
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

// worstState is the most expensive demo state the limits allow that we
// know of: ten classes, one-vs-one (45 perceptrons), 60 points that no
// line separates, at the last step a demo shows.
func worstState() string {
	var pts []string
	for i := range 60 {
		x1 := float64((i*37)%101)/10 - 5
		x2 := float64((i*53)%97)/10 - 5
		pts = append(pts, fmt.Sprintf("%g,%g,%d", x1, x2, (i*7)%10))
	}
	return "add=" + strings.Join(pts, "~") + "&data=custom&multi=ovo&step=20000"
}

// BenchmarkWorstPage is the worst allowed page: its time and bytes
// allocated (B/op) must stay bounded by the recorded series, not by the
// 20000 states of the run.
func BenchmarkWorstPage(b *testing.B) {
	benchGet(b, "/lessons/perceptron?"+worstState(), nil)
}

// BenchmarkWorstNoisyPage: 500 points at step 20000.
func BenchmarkWorstNoisyPage(b *testing.B) {
	benchGet(b, "/lessons/perceptron?data=noisy&n=500&step=20000", nil)
}

// The SVM issue's targets, on one core, at n = 200 and the solution: a
// demo page under 10 ms, its SVG under 3 ms and 100 KB.
const (
	svmHardState = "n=200&sep=0.2&step=375"
	svmSoftState = "n=200&step=396"
	svmSGDState  = "n=200&step=2000"
)

func BenchmarkSVMHardPage(b *testing.B) { benchGet(b, "/lessons/hard-margin-svm?"+svmHardState, nil) }
func BenchmarkSVMSoftPage(b *testing.B) { benchGet(b, "/lessons/soft-margin-svm?"+svmSoftState, nil) }
func BenchmarkSVMSGDPage(b *testing.B) {
	benchGet(b, "/lessons/soft-margin-svm?demo=svm-sgd&"+svmSGDState, nil)
}
func BenchmarkSVMHardSVG(b *testing.B) { benchGet(b, "/plots/svm-hard.svg?"+svmHardState, nil) }
func BenchmarkSVMSoftSVG(b *testing.B) { benchGet(b, "/plots/svm-soft.svg?"+svmSoftState, nil) }
func BenchmarkSVMSGDSVG(b *testing.B)  { benchGet(b, "/plots/svm-sgd.svg?"+svmSGDState, nil) }

// The slowest SVM states the limits allow that we know of: 500 points,
// 20000 steps, a nearly hard margin that has not converged by then, and
// Pegasos and subgradient descent for 20000 iterations.
func BenchmarkSVMWorstPage(b *testing.B) {
	benchGet(b, "/lessons/soft-margin-svm?C=1000&data=separable&n=500&sep=0&step=20000", nil)
}
func BenchmarkSVMWorstSGDPage(b *testing.B) {
	benchGet(b, "/lessons/soft-margin-svm?T=20000&demo=svm-sgd&lambda=0.0001&n=500&step=20000", nil)
}
func BenchmarkSVMWorstSubgradientPage(b *testing.B) {
	benchGet(b, "/lessons/soft-margin-svm?C=1000&T=20000&demo=svm-sgd&method=subgradient&n=500&step=20000", nil)
}

// The kernel issue's targets, on one core: the kernel SVM page with the
// RBF kernel on 300 points, solved, under 30 ms with its shaded regions,
// and its SVG under 8 ms and 100 KB.
const kernelSVMState = "n=300&step=99"

func BenchmarkKernelSVMPage(b *testing.B) {
	benchGet(b, "/lessons/kernels?demo=kernel-svm&"+kernelSVMState, nil)
}
func BenchmarkKernelSVMSVG(b *testing.B) { benchGet(b, "/plots/kernel-svm.svg?"+kernelSVMState, nil) }
func BenchmarkKernelGammaSVG(b *testing.B) {
	benchGet(b, "/plots/kernel-svm-gamma.svg?"+kernelSVMState, nil)
}
func BenchmarkKernelPegasosPage(b *testing.B) {
	benchGet(b, "/lessons/kernels?demo=kernel-pegasos&n=300&step=2000", nil)
}
func BenchmarkKernelGramPage(b *testing.B) { benchGet(b, "/lessons/kernels?demo=kernel-gram", nil) }

// The regression lessons' pages draw every demo at its state; the SVGs
// are the plot URLs a slide embeds (goals: page < 10 ms, SVG < 5 ms and
// < 100 KB).
func BenchmarkRegressionPage(b *testing.B) { benchGet(b, "/lessons/linear-regression", nil) }
func BenchmarkRegressionPartialLSGD(b *testing.B) {
	benchGet(b, "/lessons/linear-regression?demo=ls-gd&step=100", map[string]string{"HX-Request": "true"})
}
func BenchmarkRegressionSVGInterpolation(b *testing.B) {
	benchGet(b, "/plots/interpolation.svg?degree=9", nil)
}
func BenchmarkRegressionSVGDegree(b *testing.B) { benchGet(b, "/plots/interpolation-degree.svg", nil) }
func BenchmarkRegressionSVGRidge(b *testing.B)  { benchGet(b, "/plots/ridge.svg?lambda=0.01", nil) }
func BenchmarkRegressionSVGLosses(b *testing.B) { benchGet(b, "/plots/reg-losses.svg", nil) }
func BenchmarkRegressionSVGLSGD(b *testing.B)   { benchGet(b, "/plots/ls-gd.svg?step=100", nil) }
func BenchmarkRegressionSVGBiasVariance(b *testing.B) {
	benchGet(b, "/plots/bias-variance.svg", nil)
}
func BenchmarkLogisticLessonPage(b *testing.B) { benchGet(b, "/lessons/logistic-regression", nil) }

// BenchmarkRegressionPageCold shows the interpolation and bias–variance
// demos on data never seen before (a new seed each time), so their
// memoised sweeps (21 degrees; 26 settings × 50 refits) are computed.
func BenchmarkRegressionPageCold(b *testing.B) {
	h := NewServer(discardLogger(), testCourse(b))
	b.ReportAllocs()
	seed := 1000
	for b.Loop() {
		seed++
		for _, q := range []string{"?seed=", "?demo=bias-variance&seed="} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/lessons/linear-regression"+q+strconv.Itoa(seed), nil))
			if rec.Code != http.StatusOK {
				b.Fatalf("seed %d: %d", seed, rec.Code)
			}
		}
	}
}

// The gradient descent contour plot at the default resolution, under
// 15 ms and 150 KB (κ = 100 has the most contour line; step 200 a long
// path).
func BenchmarkGDContourSVG(b *testing.B) {
	benchGet(b, "/plots/gd.svg?kappa=100&step=200&t=0.01", nil)
}

func BenchmarkGDContourSVGDoubleWell(b *testing.B) {
	benchGet(b, "/plots/gd.svg?objective=double-well&step=100", nil)
}

// The kNN region plot at n = 500, the most points a demo takes: 161 × 161
// grid queries through PredictAll and the margin at the nodes beside the
// border, the Bayes boundary and the points; and the whole demo page, its
// k sweep (memoised after the first request) included.
func BenchmarkKNNRegionsSVG(b *testing.B) { benchGet(b, "/plots/knn.svg?n=500", nil) }
func BenchmarkKNNPage(b *testing.B)       { benchGet(b, "/present/knn?n=500", nil) }

// A logistic page (n = 200, step 1000, gradient descent) well under 10 ms,
// its SVG under 5 ms and 100 KB, after the first view. Separable data, so
// the run does not stop early.
const logisticBenchState = "data=separable&n=200&step=1000"

func BenchmarkLogisticPage(b *testing.B) {
	benchGet(b, "/lessons/logistic-regression?"+logisticBenchState, nil)
}

func BenchmarkLogisticSVG(b *testing.B) {
	benchGet(b, "/plots/logistic.svg?"+logisticBenchState, nil)
}

func BenchmarkSoftmaxPage(b *testing.B) {
	benchGet(b, "/lessons/logistic-regression?demo=softmax&n=200&step=1000", nil)
}

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
