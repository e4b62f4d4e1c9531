package demo

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"gonum.org/v1/gonum/floats"
)

// TestLogisticTrackIsReplay: a tracked run reached in any order of
// requests gives the very state (and scalars) a replay from 0 gives, for a
// run that goes on (GD on separable data) and one that stops (Newton).
func TestLogisticTrackIsReplay(t *testing.T) {
	set, err := dataset.New(dataset.Spec{Name: "separable", N: 40, Seed: 7, Margin: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float64, len(set.Y))
	for i, c := range set.Y {
		y[i] = float64(c)
	}
	pr, err := logistic.New(set.X, y, 0)
	if err != nil {
		t.Fatal(err)
	}
	scalars := func(s logistic.State) (float64, float64) { return s.Objective, floats.Norm(s.Model.W, 2) }
	for _, m := range []algos.Method[logistic.State]{logistic.GD{P: pr, Eta: 1}, logistic.Newton{P: pr}} {
		cache := NewCache(64 << 20)
		key := FloatsKey(fmt.Sprintf("%T", m))
		for _, k := range []int{70, 33, 64, 65, 0, 200, 71, 31, 32, 1000} {
			got, gk, a, b, err := RunTracked(context.Background(), cache, key, m, pr.Start(), k, 1000, scalars)
			if err != nil {
				t.Fatal(err)
			}
			want, wk, _ := algos.Replay(m, pr.Start(), k)
			if gk != wk || !reflect.DeepEqual(got, want) {
				t.Errorf("%T: track at %d = step %d %+v, replay = step %d %+v", m, k, gk, got, wk, want)
			}
			if len(a) != gk+1 || len(b) != gk+1 || a[gk] != want.Objective || b[gk] != floats.Norm(want.Model.W, 2) {
				t.Errorf("%T: %d, %d scalars, at %d = %v, %v; want %v, %v", m, len(a), len(b), gk, a[gk], b[gk], want.Objective, floats.Norm(want.Model.W, 2))
			}
		}
	}
}
