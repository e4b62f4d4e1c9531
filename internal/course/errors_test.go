package course_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/topics/logistic"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/internal/topics/regression"
	"github.com/margin-edu/margin/internal/topics/svm"
)

// endsAfterFirstLook is a context that is live when ExecuteFigure looks
// at it before calling Compute, and over from then on: an error wrapping
// context.Canceled can then only come from a solver inside Compute that
// was given the request's context and looked at it.
type endsAfterFirstLook struct {
	context.Context
	looks atomic.Int32
}

func (c *endsAfterFirstLook) Err() error {
	if c.looks.Add(1) > 1 {
		return context.Canceled
	}
	return nil
}

func parseState(t *testing.T, d *demo.Demo, query string) demo.State {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		t.Fatalf("%s?%s: %v", d.ID, query, probs)
	}
	return s
}

// TestComputeStopsWithContext: each demo whose Compute runs a solver that
// takes a context stops with context.Canceled when the request's context
// ends, and does not memoise the stopped solve (the same state computes
// normally afterwards). The λ are ones no other test uses, so that no
// memoised optimum answers first.
func TestComputeStopsWithContext(t *testing.T) {
	for _, tc := range []struct {
		spec  demo.Spec
		query string
	}{
		{logistic.LogisticSpec(), "lambda=0.0123"},
		{logistic.SoftmaxSpec(), "lambda=0.0123"},
		{svm.SGDSpec(), "lambda=0.0123"},
		{svm.KernelPegasosSpec(), "lambda=0.0123"},
	} {
		d, err := demo.NewDemo(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		s := parseState(t, d, tc.query)
		_, err = d.ExecuteFigure(&endsAfterFirstLook{Context: context.Background()}, s, "")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s?%s under an ending context: err = %v, want context.Canceled", d.ID, tc.query, err)
		}
		var internal *demo.InternalError
		if errors.As(err, &internal) {
			t.Errorf("%s: a stopped run is reported as a bug: %v", d.ID, err)
		}
		if _, err := d.ExecuteFigure(context.Background(), s, ""); err != nil {
			t.Errorf("%s?%s after a stopped run: %v (a stopped solve was memoised?)", d.ID, tc.query, err)
		}
	}
}

// TestErrorKinds: an error of no kind from Compute comes back as an
// *InternalError naming the demo and the state; a refused point edit is
// an *InputError naming its key; the bias-variance demo on custom points
// is uncomputable and says what to change.
func TestErrorKinds(t *testing.T) {
	spec := perceptron.PerceptronSpec()
	spec.Compute = func(context.Context, demo.Input) (demo.Result, error) {
		return demo.Result{}, errors.New("toy: forced bug")
	}
	d, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.ExecuteFigure(context.Background(), parseState(t, d, "eta=0.5"), "")
	var internal *demo.InternalError
	if !errors.As(err, &internal) || internal.Demo != "perceptron" || !strings.Contains(internal.Query, "eta=0.5") ||
		!strings.Contains(err.Error(), "toy: forced bug") || !strings.Contains(string(internal.Stack()), "ExecuteFigure") {
		t.Errorf("forced bug: err = %v (%T)", err, err)
	}

	p, err := demo.NewDemo(perceptron.PerceptronSpec())
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.ExecuteFigure(context.Background(), parseState(t, p, "del=400"), "")
	var input *demo.InputError
	if !errors.As(err, &input) || input.Key != "del" || !strings.Contains(err.Error(), "point 400 does not exist") {
		t.Errorf("del=400: err = %v (%T)", err, err)
	}

	bv, err := demo.NewDemo(regression.BiasVarianceSpec())
	if err != nil {
		t.Fatal(err)
	}
	_, err = bv.ExecuteFigure(context.Background(), parseState(t, bv, "data=custom&add=0,0~0.5,1~1,0"), "")
	if !errors.Is(err, demo.ErrUncomputable) || !strings.Contains(err.Error(), "choose a built-in data set") {
		t.Errorf("bias-variance on custom points: err = %v", err)
	}
}
