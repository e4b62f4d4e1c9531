package primal

import (
	"reflect"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// TestKernelPegasosGivenGram: a trainer given an earlier trainer's Gram
// matrix shares it and runs the same steps; a matrix of the wrong size is
// computed again.
func TestKernelPegasosGivenGram(t *testing.T) {
	x, y := svm.NoisyData(40, 3)
	p := KernelPegasosParams{Kernel: svm.Kernel{Kind: svm.Poly, Gamma: 1, Coef0: 1, Degree: 3}, Lambda: 0.01, T: 300, Seed: 5}
	kp, s0, err := NewKernelPegasos(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := algos.Replay[KernelPegasosState](kp, s0, 300)
	for _, g := range [][]float64{kp.Gram(), nil, kp.Gram()[:10]} {
		kq, q0, err := NewKernelPegasosGram(x, y, p, g)
		if err != nil {
			t.Fatal(err)
		}
		if len(kq.Gram()) != 40*40 || !reflect.DeepEqual(kq.Gram(), kp.Gram()) {
			t.Fatalf("given %d numbers, the trainer's Gram matrix has %d", len(g), len(kq.Gram()))
		}
		got, _, _ := algos.Replay[KernelPegasosState](kq, q0, 300)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("given %d numbers of Gram matrix, the run differs", len(g))
		}
	}
	if &kp.Gram()[0] != &func() []float64 { k, _, _ := NewKernelPegasosGram(x, y, p, kp.Gram()); return k.Gram() }()[0] {
		t.Error("a given Gram matrix is copied, not shared")
	}
}
