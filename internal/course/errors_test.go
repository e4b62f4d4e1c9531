package course_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/internal/topics/regression"
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

// TestComputeStopsWithContext: every demo of the course, at its default
// state and at the end of its run, stops with context.Canceled once the
// request's context ends (here: from the second time it is asked), rather
// than computing on or reporting a bug, and does not keep the stopped
// work (the same state computes normally afterwards). A demo whose
// Compute never asks twice has no loop long enough to stop; at least the
// solver-backed demos must ask, which the count checks.
func TestComputeStopsWithContext(t *testing.T) {
	c := demotest.MustCourse(t, course.Default)
	asked := 0
	for _, cd := range c.Demos {
		d, err := demo.NewDemo(cd.Spec) // outside the course: no cache answers first
		if err != nil {
			t.Fatal(err)
		}
		queries := []string{""}
		if !d.Static {
			queries = append(queries, "step=end")
		}
		for _, q := range queries {
			s := parseState(t, d, q)
			ctx := &endsAfterFirstLook{Context: context.Background()}
			_, err = d.ExecuteFigure(ctx, s, "")
			looks := ctx.looks.Load()
			switch {
			case looks > 1 && !errors.Is(err, context.Canceled):
				t.Errorf("%s?%s went on after its context ended (asked %d times): err = %v", d.ID, q, looks, err)
			case looks <= 1 && err != nil:
				t.Errorf("%s?%s: %v", d.ID, q, err)
			}
			if looks > 1 {
				asked++
			}
			var internal *demo.InternalError
			if errors.As(err, &internal) {
				t.Errorf("%s?%s: a stopped run is reported as a bug: %v", d.ID, q, err)
			}
			if _, err := d.ExecuteFigure(context.Background(), s, ""); err != nil {
				t.Errorf("%s?%s after a stopped run: %v (a stopped solve was kept?)", d.ID, q, err)
			}
		}
	}
	if asked < 8 {
		t.Errorf("only %d states asked their context more than once; the solvers no longer check it?", asked)
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
