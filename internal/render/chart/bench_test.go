package chart

import (
	"io"
	"math"
	"testing"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/render"
)

func BenchmarkHistorySVG(b *testing.B) {
	set, err := dataset.New(dataset.Spec{Name: "separable", N: 200, Margin: 0.3, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	pr, states, err := perceptron.Trajectory(perceptron.Data{X: set.X, Y: set.Y}, perceptron.DefaultParams(), 100)
	if err != nil {
		b.Fatal(err)
	}
	h := perceptronHistory(pr, states)
	b.ReportAllocs()
	for b.Loop() {
		if err := HistorySVG(io.Discard, h, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMatrixSVG200(b *testing.B) {
	m := Matrix{Values: make([][]float64, 200)}
	for i := range m.Values {
		m.Values[i] = make([]float64, 200)
		for j := range m.Values[i] {
			m.Values[i][j] = math.Exp(-math.Abs(float64(i-j)) / 20)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := MatrixSVG(io.Discard, m, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
