package fit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// worstBodies are the most expensive requests the limits allow, found by
// timing every shape at its largest allowed max_epochs: many rows of one
// feature (the per-step cost dominates), every step an update (margin
// 1e300), on numbers whose products are subnormal (slow on every x86), in
// cyclic and random order; and a run that cycles at its last allowed
// epoch, so the cycle check recomputes the run's epoch starts once.
func worstBodies() map[string]string {
	bodies := map[string]string{}
	for _, order := range []perceptron.Order{perceptron.Cyclic, perceptron.Random} {
		p := perceptron.DefaultParams()
		p.Order = order
		_, epochs := perceptronWork(p, MaxN, 1, 1)
		bodies["subnormal-"+order.String()] = fmt.Sprintf(`{"algorithm":"perceptron","x":[%s],"y":[%s],`+
			`"params":{"order":%q,"max_epochs":%d,"margin":1e300,"eta":1e-300},"predict":[[1]]}`,
			rows(`[1e-10]`, MaxN), rows(`1`, MaxN), order, epochs)
	}
	// 1-D points 1 (+1), 1 (−1), 0 (+1): b creeps up by η per epoch until
	// it passes γ, then the run falls into a cycle, after ≈ γ/1000 epochs.
	_, epochs := perceptronWork(perceptron.DefaultParams(), 3000, 1, 1)
	bodies["late-cycle"] = fmt.Sprintf(`{"algorithm":"perceptron","x":[%s],"y":[%s],"params":{"max_epochs":%d,"margin":%d}}`,
		rows(`[1],[1],[0]`, 1000), rows(`1,-1,1`, 1000), epochs, 1000*(epochs-2))
	return bodies
}

// BenchmarkFitWorst times the worst allowed requests from body to encoded
// answer (without HTTP); its numbers are in the README.
func BenchmarkFitWorst(b *testing.B) {
	for name, body := range worstBodies() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, err := Decode(strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				resp, err := Run(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
