package fit

import (
	"fmt"
	"syscall"
	"strings"
	"testing"
	"time"
	"context"
	"github.com/margin-edu/margin/internal/algos/perceptron"
)

func body(n, d int, epochs int, order string, x string, extra string) string {
	row := "[" + strings.Repeat(x+",", d-1) + x + "]"
	if n*d > 1000000 { row = "[" + strings.Repeat("1,", d-1) + x + "]" }
	return fmt.Sprintf(`{"algorithm":"perceptron","x":[%s],"y":[%s],"params":{"max_epochs":%d,"order":%q%s}}`,
		strings.Repeat(row+",", n-1)+row, strings.Repeat("1,", n-1)+"1", epochs, order, extra)
}

func TestZZCalib(t *testing.T) {
	for _, c := range []struct{ n, d int; x, eta string }{
		{1, 1, "1", "1e-300"},
		{2, 1, "1", "1e-300"},
		{10, 1, "1", "1e-300"},
		{10000, 1, "1", "1e-300"},
		{10000, 1, "1e-10", "1e-300"},
		{1, 10, "1", "1e-300"},
		{1, 10, "1e-10", "1e-300"},
		{1, 1000, "1", "1e-300"},
		{1, 1000, "1e-10", "1e-300"},
		{1000, 1000, "1", "1e-300"},
		{650, 1000, "1e-10", "1e-300"},
		{2000, 1000, "1", "1e-300"},
		{2000, 1000, "1e-10", "1e-300"},
		{10000, 200, "1e-300", "1e-300"},
		{10000, 200, "1", "1e-300"},
	} {
		for _, order := range []string{"cyclic", "random"} {
			p := perceptron.DefaultParams()
			if order == "random" { p.Order = perceptron.Random }
			_, e := perceptronWork(p, c.n, c.d)
			e = min(e, MaxEpochs)
			b := body(c.n, c.d, e, order, c.x, `,"margin":1e300,"eta":`+c.eta)
			req, err := Decode(strings.NewReader(b))
			if err != nil { t.Fatal(len(b), c, err) }
			var r any
			el := time.Hour
			for range 3 {
				c0 := cpu()
				r, err = Run(context.Background(), req)
				el = min(el, cpu()-c0)
			}
			steps := 0
			if err == nil { steps = r.(*PerceptronResponse).Iterations }
			fmt.Printf("n=%d d=%d e=%d x=%s %s: %v steps=%d err=%v\n", c.n, c.d, e, c.x, order, el, steps, err)
		}
	}
}

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
