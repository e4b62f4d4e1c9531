// Package fit is Margin's JSON fitting service: it decodes a request to
// train one of the course's algorithms on given data, checks it against
// the documented limits, runs the algorithm and shapes the answer. It
// knows nothing of HTTP; cmd/web maps its errors to status codes:
// ErrBadRequest (400), ErrUnprocessable (422) and a done context.
//
// Each algorithm registers nothing globally: Run switches on the name, so
// the list of algorithms is in one place. The request, its limits, checks
// and error kinds are package fitreq's (shared with the algorithm
// packages), re-exported here; the SVM trainers' fitters ("svm",
// "pegasos", "kernel-pegasos") are package svmfit's.
package fit

import (
	"context"
	"io"

	"github.com/margin-edu/margin/internal/fit/fitreq"
	"github.com/margin-edu/margin/internal/fit/svmfit"
)

// Limits on a request (fitreq's): MaxBody is enforced by the caller before
// decoding too; Decode checks it again so the package stands alone. MaxWork
// and MaxTraceNumbers are what keep every request the other limits allow
// under 2 s of CPU and a few tens of MB of answer (see docs/performance.md's
// numbers from BenchmarkFitWorst).
const (
	MaxBody    = fitreq.MaxBody    // bytes
	MaxN       = fitreq.MaxN       // rows of x
	MaxD       = fitreq.MaxD       // columns of x
	MaxPredict = fitreq.MaxPredict // rows of predict
	MaxEpochs  = fitreq.MaxEpochs  // perceptron max_epochs
	// MaxWork bounds the perceptron's worst case, counted before it runs
	// (perceptronWork): about max_epochs·n·(d+1) multiply-adds.
	MaxWork = fitreq.MaxWork
	// MaxTraceNumbers bounds a trace: (d+2) numbers per step recorded.
	MaxTraceNumbers = fitreq.MaxTraceNumbers
	// MaxParam bounds C, gamma, coef0, tol and lambda.
	MaxParam = fitreq.MaxParam
)

// ErrBadRequest marks every error that is the caller's fault. Its message
// says what is wrong and what is allowed. It is fitreq.ErrBadRequest.
var ErrBadRequest = fitreq.ErrBadRequest

// ErrUnprocessable marks a valid request whose numbers the algorithm
// cannot compute with, such as weights that overflow to ±Inf. The wrapping
// message says what to change (cmd/web answers 422). It is
// fitreq.ErrUnprocessable.
var ErrUnprocessable = fitreq.ErrUnprocessable

// Request is the body of POST /api/v1/fit.
type Request = fitreq.Request

// Decode reads one JSON request strictly (fitreq.Decode): field names
// exactly and once each, no null inside x, y, predict or params, numbers
// within float64's range, nothing after the object, at most MaxBody bytes,
// with x, y and predict refused at their limits as they are read.
func Decode(r io.Reader) (Request, error) { return fitreq.Decode(r) }

// Run validates req and fits it. It stops soon after ctx is done and
// then returns an error wrapping ctx.Err(), so errors.Is tells
// context.Canceled and context.DeadlineExceeded apart; a fit whose numbers
// overflow returns an error wrapping ErrUnprocessable.
func Run(ctx context.Context, req Request) (any, error) {
	// "gd" on a quadratic needs no data; it checks x and y itself when
	// its objective does.
	if req.Algorithm != "gd" {
		if err := req.Validate(); err != nil {
			return nil, err
		}
	}
	switch req.Algorithm {
	case "svm", "pegasos", "kernel-pegasos": // the perceptron reads its own labels (classes 0, 1, … too)
		if err := fitreq.SignLabels(req.Y); err != nil {
			return nil, err
		}
	}
	switch req.Algorithm {
	case "perceptron":
		return fitPerceptron(ctx, req)
	case "svm":
		return svmfit.SVM(ctx, req)
	case "pegasos":
		return svmfit.Pegasos(ctx, req)
	case "kernel-pegasos":
		return svmfit.KernelPegasos(ctx, req)
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
		return nil, fitreq.Badf(`"algorithm" is missing; known algorithms: %s`, knownAlgorithms)
	}
	return nil, fitreq.Badf("unknown algorithm %s; known algorithms: %s", fitreq.Clip(req.Algorithm), knownAlgorithms)
}

const knownAlgorithms = "perceptron, svm, pegasos, kernel-pegasos, linear-regression, logistic-regression, softmax-regression, gd, knn"
