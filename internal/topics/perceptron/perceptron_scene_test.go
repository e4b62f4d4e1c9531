package perceptron

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/scenes"
)

// sceneRun runs the perceptron on a data set up to step k.
func sceneRun(t *testing.T, spec dataset.Spec, k int, params func(*perceptron.Params)) (*perceptron.Problem, []perceptron.State) {
	t.Helper()
	set, err := dataset.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	p := perceptron.DefaultParams()
	if params != nil {
		params(&p)
	}
	pr, states, err := perceptron.Trajectory(perceptron.Data{X: set.X, Y: set.Y}, p, k)
	if err != nil {
		t.Fatal(err)
	}
	return pr, states
}

// TestPerceptronScene draws render's perceptron golden cases (the same
// runs as internal/render's perceptron_test.go) from the scene this
// package builds, and wants render's golden files byte for byte: the
// plain scene carries everything the plot showed when render read the
// algorithm's state itself.
func TestPerceptronScene(t *testing.T) {
	cases := []struct {
		name   string
		set    dataset.Spec
		k      int
		params func(*perceptron.Params)
	}{
		{"or_step0", dataset.Spec{Name: "or"}, 0, nil},
		{"or_step3", dataset.Spec{Name: "or"}, 3, nil},
		{"xor_cycle", dataset.Spec{Name: "xor"}, 1000, nil},
		{"separable_averaged", dataset.Spec{Name: "separable", N: 40, Margin: 0.3, Seed: 1}, 49,
			func(p *perceptron.Params) { p.Average = true }},
		{"margin", dataset.Spec{Name: "separable", N: 40, Margin: 0.5, Seed: 2}, 53,
			func(p *perceptron.Params) { p.Margin = 1 }},
		{"blobs_ova", dataset.Spec{Name: "blobs", N: 60, Seed: 1}, 33, nil},
		{"blobs_ovo", dataset.Spec{Name: "blobs", N: 60, Seed: 1}, 9,
			func(p *perceptron.Params) { p.Multiclass = perceptron.OneVsOne }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("..", "..", "render", "scenes", "testdata", "perceptron_"+c.name+"_golden.svg"))
			if err != nil {
				t.Fatal(err)
			}
			pr, states := sceneRun(t, c.set, c.k, c.params)
			var b bytes.Buffer
			if _, err := scenes.PerceptronSVGFrame(&b, perceptronScene(pr, states[len(states)-1]), render.Options{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("the plot drawn from perceptronScene differs from render's golden perceptron_%s (%d bytes, want %d)",
					c.name, b.Len(), len(want))
			}
		})
	}
}

// TestPerceptronSceneForeignState: a state that is not from the problem
// gives a scene render refuses, not a panic.
func TestPerceptronSceneForeignState(t *testing.T) {
	prOr, or := sceneRun(t, dataset.Spec{Name: "or"}, 2, nil)
	prBlobs, blobs := sceneRun(t, dataset.Spec{Name: "blobs", N: 30, Seed: 1}, 2, nil)
	foreign := or[2]
	foreign.Event.I = 99
	for _, tt := range []struct {
		name string
		pr   *perceptron.Problem
		s    perceptron.State
		want error
	}{
		{"zero state", prOr, perceptron.State{}, render.ErrNoState},
		{"multiclass state, binary problem", prOr, blobs[1], render.ErrNoState},
		{"binary state, multiclass problem", prBlobs, or[1], render.ErrNoState},
		{"event out of range", prOr, foreign, render.ErrNoState},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := scenes.PerceptronSVGFrame(&bytes.Buffer{}, perceptronScene(tt.pr, tt.s), render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("error = %v, want %v", err, tt.want)
			}
		})
	}
}
