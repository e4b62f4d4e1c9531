package budget

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSpendStops spins on floating-point work until the budget stops it,
// and checks that it stopped for the CPU (ErrSpent, which a caller maps
// like a done context) after at least the limit.
func TestSpendStops(t *testing.T) {
	b := Start(context.Background(), 20*time.Millisecond) // 20·raceFactor ms
	defer b.Stop()
	x := 1.0
	var err error
	for err == nil {
		for range 1000 {
			x = x*1.0000001 + 1e-9
		}
		err = b.Spend(1000)
	}
	if !IsSpent(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want ErrSpent wrapping context.DeadlineExceeded", err)
	}
	if used := b.Used(); used < 20*time.Millisecond*raceFactor {
		t.Errorf("stopped after %v of CPU, before the 20 ms limit", used)
	}
	if b.Spend(1) != err || b.Err() != err {
		t.Error("the verdict changed after the budget was spent")
	}
	_ = x
}

// TestSpendContext: a cancelled context stops the work at the next look.
func TestSpendContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := Start(ctx, time.Hour)
	defer b.Stop()
	if err := b.Spend(Stride - 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := b.Spend(1); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v after cancel; want context.Canceled", err)
	}
	var none *Budget
	if none.Spend(1<<30) != nil || none.Check() != nil {
		t.Error("a nil budget refused work")
	}
}
