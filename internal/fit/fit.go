// Package fit is Margin's JSON fitting service: it decodes a request to
// train one of the course's algorithms on given data, checks it against
// the documented limits, runs the algorithm and shapes the answer. It
// knows nothing of HTTP; cmd/web maps its errors to status codes:
// ErrBadRequest (400), ErrUnprocessable (422) and a done context.
//
// Each algorithm registers nothing globally: Run switches on the name, so
// the list of algorithms is in one place.
package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/margin-edu/margin/internal/textfmt"
)

// Limits on a request. MaxBody is enforced by the caller before decoding
// too; Decode checks it again so the package stands alone. MaxWork and
// MaxTraceNumbers are what keep every request the other limits allow
// under 2 s of CPU and a few tens of MB of answer (see docs/performance.md's
// numbers from BenchmarkFitWorst).
const (
	MaxBody    = 4 << 20 // bytes
	MaxN       = 10000   // rows of x
	MaxD       = 1000    // columns of x
	MaxPredict = 10000   // rows of predict
	MaxEpochs  = 100000  // perceptron max_epochs
	// MaxWork bounds the perceptron's worst case, counted before it runs
	// (perceptronWork): about max_epochs·n·(d+1) multiply-adds.
	MaxWork = 1e8
	// MaxTraceNumbers bounds a trace: (d+2) numbers per step recorded.
	MaxTraceNumbers = 1000000
)

// ErrBadRequest marks every error that is the caller's fault. Its message
// says what is wrong and what is allowed.
var ErrBadRequest = errors.New("bad request")

// ErrUnprocessable marks a valid request whose numbers the algorithm
// cannot compute with, such as weights that overflow to ±Inf. The wrapping
// message says what to change (cmd/web answers 422).
var ErrUnprocessable = errors.New("fit: cannot compute")

// requestError is a bad request whose message is only what to fix.
type requestError struct{ msg string }

func (e requestError) Error() string        { return e.msg }
func (e requestError) Is(target error) bool { return target == ErrBadRequest }

func badf(format string, args ...any) error {
	return requestError{fmt.Sprintf(format, args...)}
}

// Request is the body of POST /api/v1/fit.
type Request struct {
	Algorithm string          `json:"algorithm"`
	Params    json.RawMessage `json:"params"`
	X         [][]float64     `json:"x"`
	Y         []float64       `json:"y"`
	Predict   [][]float64     `json:"predict"`
	Trace     bool            `json:"trace"`
}

// Decode reads one JSON request, rejecting unknown fields, trailing data
// and bodies over MaxBody.
func Decode(r io.Reader) (Request, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return Request{}, badf("reading the body: %v", err)
	}
	if len(body) > MaxBody {
		return Request{}, badf("body is larger than %d bytes (4 MiB)", MaxBody)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		return Request{}, badf("body is not the JSON object expected (%s); send {\"algorithm\", \"params\", \"x\", \"y\", \"predict\", \"trace\"}", clipErr(err))
	}
	if dec.More() {
		return Request{}, badf("body has data after the JSON object; send exactly one object")
	}
	return req, nil
}

// Run validates req and fits it. It stops soon after ctx is done and
// then returns an error wrapping ctx.Err(), so errors.Is tells
// context.Canceled and context.DeadlineExceeded apart; a fit whose numbers
// overflow returns an error wrapping ErrUnprocessable.
func Run(ctx context.Context, req Request) (any, error) {
	// "gd" on a quadratic needs no data; it checks x and y itself when
	// its objective does.
	if req.Algorithm != "gd" {
		if err := req.validData(); err != nil {
			return nil, err
		}
	}
	switch req.Algorithm {
	case "perceptron", "svm", "pegasos", "kernel-pegasos":
		if err := signLabels(req.Y); err != nil {
			return nil, err
		}
	}
	switch req.Algorithm {
	case "perceptron":
		return fitPerceptron(ctx, req)
	case "svm":
		return fitSVM(ctx, req)
	case "pegasos":
		return fitPegasos(ctx, req)
	case "kernel-pegasos":
		return fitKernelPegasos(ctx, req)
	case "linear-regression":
		return fitLinearRegression(ctx, req)
	case "logistic-regression":
		return fitLogisticRegression(ctx, req)
	case "softmax-regression":
		return fitSoftmaxRegression(ctx, req)
	case "gd":
		return fitGD(ctx, req)
	case "knn":
		return fitKNN(ctx, req)
	case "":
		return nil, badf(`"algorithm" is missing; known algorithms: %s`, knownAlgorithms)
	}
	return nil, badf("unknown algorithm %s; known algorithms: %s", clip(req.Algorithm), knownAlgorithms)
}

const knownAlgorithms = "perceptron, svm, pegasos, kernel-pegasos, linear-regression, logistic-regression, softmax-regression, gd, knn"

// validData checks the shapes and values of x, y and predict; each
// algorithm checks its labels (signLabels for the ±1 classifiers).
func (req Request) validData() error {
	n := len(req.X)
	switch {
	case n == 0:
		return badf(`"x" is empty; give at least one row`)
	case n > MaxN:
		return badf(`"x" has %d rows; at most %d are allowed`, n, MaxN)
	case len(req.Y) != n:
		return badf(`"y" has %d labels but "x" has %d rows; give one label per row`, len(req.Y), n)
	case len(req.Predict) > MaxPredict:
		return badf(`"predict" has %d rows; at most %d are allowed`, len(req.Predict), MaxPredict)
	}
	d := len(req.X[0])
	if d == 0 || d > MaxD {
		return badf(`"x" rows have %d features; give 1 to %d`, d, MaxD)
	}
	if err := checkRows("x", req.X, d); err != nil {
		return err
	}
	return checkRows("predict", req.Predict, d)
}

// signLabels checks the labels of a two-class classifier: −1 or +1.
func signLabels(y []float64) error {
	for i, v := range y {
		if v != 1 && v != -1 {
			return badf(`"y[%d]" is %v; labels must be -1 or +1`, i, v)
		}
	}
	return nil
}

// bothClasses converts labels already checked to be ±1 to ints, and
// checks that both classes occur, as the SVM trainers need.
func bothClasses(labels []float64) ([]int, error) {
	y := make([]int, len(labels))
	var pos, neg bool
	for i, v := range labels {
		y[i] = int(v)
		pos, neg = pos || v > 0, neg || v < 0
	}
	if !pos || !neg {
		return nil, badf(`"y" has only %+g labels; an SVM needs points of both classes, -1 and +1`, labels[0])
	}
	return y, nil
}

func checkRows(name string, rows [][]float64, d int) error {
	for i, row := range rows {
		if len(row) != d {
			return badf(`"%s[%d]" has %d features but "x" rows have %d; rows must all have the same length`, name, i, len(row), d)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return badf(`"%s[%d][%d]" is not a finite number`, name, i, j)
			}
		}
	}
	return nil
}

// strictParams decodes params into dst, rejecting unknown names.
func strictParams(raw json.RawMessage, dst any, known string) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return badf(`"params" is not valid (%s); known parameters: %s`, clipErr(err), known)
	}
	return nil
}

// clip quotes a user's string, cut to 60 characters, so that an error
// never echoes a whole request back.
func clip(s string) string { return textfmt.Quote(s) }

// clipErr is err's message cut to 120 characters: decoding errors quote
// field names, which a request chooses.
func clipErr(err error) string {
	if r := []rune(err.Error()); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return err.Error()
}
