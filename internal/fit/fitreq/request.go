// Package fitreq is what every endpoint of the fitting service shares: the
// request and its decoding, the limits it is checked against, the checks
// themselves and the two kinds of error (a bad request, a request that
// cannot be computed). Package fit runs requests; its algorithm packages
// (svmfit) and fit itself build on this one, which imports none of them.
package fitreq

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

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
	// MaxParam bounds the real parameters: C, gamma, coef0, tol and
	// lambda are at most this.
	MaxParam = 1e12
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

// Badf is a bad request (ErrBadRequest) whose message is the formatted
// text alone: what is wrong and what is allowed.
func Badf(format string, args ...any) error {
	return requestError{fmt.Sprintf(format, args...)}
}

// Request is the body of POST /api/v1/fit.
type Request struct {
	Algorithm string          `json:"algorithm"`
	Params    json.RawMessage `json:"params,omitempty"`
	X         [][]float64     `json:"x"`
	Y         []float64       `json:"y"`
	Predict   [][]float64     `json:"predict,omitempty"`
	Trace     bool            `json:"trace"`
}

// requestFields is what a request body holds, for messages.
const requestFields = `{"algorithm", "params", "x", "y", "predict", "trace"}`

var requestNames = []string{"algorithm", "params", "x", "y", "predict", "trace"}

// Decode reads one JSON request strictly (Reader): field names exactly
// and once each, no null, numbers within float64's range, nothing after
// the object, at most MaxBody bytes. x, y and predict are counted as they
// are read, so a body over MaxN rows, MaxPredict rows or MaxD features is
// refused at the limit instead of after it is built.
func Decode(r io.Reader) (Request, error) {
	t := NewReader(r, requestFields)
	var req Request
	err := t.Object(func(key string) (err error) {
		if !slices.Contains(requestNames, key) {
			return t.UnknownField(key)
		}
		// A whole field that is null is one left out, as encoders write
		// nil slices; a null inside x, y, predict or params is refused.
		if null, err := t.Null(); null || err != nil {
			return err
		}
		switch key {
		case "algorithm":
			req.Algorithm, err = t.String(key)
		case "params":
			req.Params, err = t.Params(key)
		case "x":
			req.X, err = t.Matrix(key, MaxN)
		case "y":
			req.Y, err = t.Vector(key, MaxN, "labels")
		case "predict":
			req.Predict, err = t.Matrix(key, MaxPredict)
		case "trace":
			req.Trace, err = t.Bool(key)
		}
		return err
	})
	if err != nil {
		return Request{}, err
	}
	return req, nil
}

// Validate checks the shapes and values of x, y and predict; each
// algorithm checks its labels (SignLabels for the ±1 classifiers).
func (req Request) Validate() error {
	n := len(req.X)
	switch {
	case n == 0:
		return Badf(`"x" is empty; give at least one row`)
	case n > MaxN:
		return Badf(`"x" has %d rows; at most %d are allowed`, n, MaxN)
	case len(req.Y) != n:
		return Badf(`"y" has %d labels but "x" has %d rows; give one label per row`, len(req.Y), n)
	case len(req.Predict) > MaxPredict:
		return Badf(`"predict" has %d rows; at most %d are allowed`, len(req.Predict), MaxPredict)
	}
	d := len(req.X[0])
	if d == 0 || d > MaxD {
		return Badf(`"x" rows have %d features; give 1 to %d`, d, MaxD)
	}
	if err := CheckRows("x", req.X, d); err != nil {
		return err
	}
	return CheckRows("predict", req.Predict, d)
}

// SignLabels checks the labels of a two-class classifier: −1 or +1.
func SignLabels(y []float64) error {
	for i, v := range y {
		if v != 1 && v != -1 {
			return Badf(`"y[%d]" is %v; labels must be -1 or +1`, i, v)
		}
	}
	return nil
}

// BothClasses converts labels already checked to be ±1 to ints, and
// checks that both classes occur, as the SVM trainers need.
func BothClasses(labels []float64) ([]int, error) {
	y := make([]int, len(labels))
	var pos, neg bool
	for i, v := range labels {
		y[i] = int(v)
		pos, neg = pos || v > 0, neg || v < 0
	}
	if !pos || !neg {
		return nil, Badf(`"y" has only %+g labels; an SVM needs points of both classes, -1 and +1`, labels[0])
	}
	return y, nil
}

// CheckRows checks that every row of the matrix called name has d
// features, all finite.
func CheckRows(name string, rows [][]float64, d int) error {
	for i, row := range rows {
		if len(row) != d {
			return Badf(`"%s[%d]" has %d features but "x" rows have %d; rows must all have the same length`, name, i, len(row), d)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Badf(`"%s[%d][%d]" is not a Finite number`, name, i, j)
			}
		}
	}
	return nil
}

// Clip quotes a user's string, cut to 60 characters, so that an error
// never echoes a whole request back.
func Clip(s string) string { return textfmt.Quote(s) }

// ClipErr is err's message cut to 120 characters: decoding errors quote
// field names, which a request chooses.
func ClipErr(err error) string {
	if r := []rune(err.Error()); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return err.Error()
}

// CheckEvery is how many steps pass between looks at the context and at
// the weights: rare enough to cost nothing, often enough (≤ 1 ms of work)
// that a client who left stops the fit at once.
const CheckEvery = 1024

// Finite reports whether every entry of v is a finite number.
func Finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Positive sets *dst to *v, if given, when it is > 0 and ≤ MaxParam
// (the rule for svm's C, gamma and tol and pegasos' lambda, among others).
func Positive(name string, v *float64, dst *float64) error {
	if v == nil {
		return nil
	}
	if !(*v > 0) || *v > MaxParam {
		return Badf("params.%s is %v; give a number > 0 and at most %g", name, *v, MaxParam)
	}
	*dst = *v
	return nil
}
