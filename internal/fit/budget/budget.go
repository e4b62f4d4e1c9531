// Package budget bounds the CPU one computation of the fit API may use,
// whatever its numbers cost. The fitters' cost models count work in
// nominal units (about a nanosecond of ordinary arithmetic each), decided
// before they run; numbers whose products are subnormal make every flop
// about 100 times dearer, which no model decided from the shape can see
// (issue 28: 1000 rows of ±1e-160 cost 28 s of CPU in a fit the model
// allowed). A Budget measures what the work really costs: the calling
// goroutine is locked to its thread while the budget runs, and Spend
// reads that thread's CPU clock every Stride units of nominal work, so
// the clock is read at least every Stride·(100 ns) ≈ 3 ms even at
// subnormal speed, and at ordinary speed about every 30 µs (under 1 % of
// the time).
package budget

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// Stride is the nominal work (about ns of ordinary arithmetic) between
// two looks at the clock and the context.
const Stride = 1 << 15

// ErrSpent is returned (wrapped) once the CPU budget is used up. It
// unwraps to context.DeadlineExceeded, so a caller mapping a done
// context to 503 maps it the same way.
var ErrSpent error = spent{}

type spent struct{}

func (spent) Error() string { return "fit: the request's CPU budget is spent" }
func (spent) Unwrap() error { return context.DeadlineExceeded }

// IsSpent reports whether err is (or wraps) ErrSpent.
func IsSpent(err error) bool { return errors.Is(err, ErrSpent) }

// Hint is what to add to an error's message when it is a spent budget
// (empty otherwise): the likely cause, subnormal products, and the cure.
func Hint(err error) string {
	if !IsSpent(err) {
		return ""
	}
	return "; numbers whose products are subnormal (below 2.2e-308, as 1e-160·1e-160 is) cost about 100 times as much: rescale x"
}

// A Budget is a CPU allowance for the computation of one goroutine. The
// zero value and nil are unlimited budgets that only look at nothing;
// use Start.
type Budget struct {
	ctx    context.Context
	start  time.Duration // thread CPU at Start
	limit  time.Duration
	units  int // nominal work since the last look
	err    error
	locked bool
}

// Start returns a budget of limit CPU for the calling goroutine, which
// it locks to its OS thread until Stop (so that the thread's CPU clock is
// the goroutine's). ctx is consulted at every look as well. Under the
// race detector the limit is 20 times longer, as its instrumentation
// makes the work.
func Start(ctx context.Context, limit time.Duration) *Budget {
	runtime.LockOSThread()
	return &Budget{ctx: ctx, start: threadCPU(), limit: limit * raceFactor, locked: true}
}

// Stop unlocks the goroutine from its thread. The budget keeps its
// verdict.
func (b *Budget) Stop() {
	if b != nil && b.locked {
		b.locked = false
		runtime.UnlockOSThread()
	}
}

// Used returns the CPU used since Start.
func (b *Budget) Used() time.Duration {
	if b == nil {
		return 0
	}
	return threadCPU() - b.start
}

// Spend counts units of nominal work and, every Stride of them, looks at
// the context and the clock. It returns the context's error, ErrSpent
// once the CPU passes the limit, or nil; once it has returned an error it
// returns the same one at every call.
func (b *Budget) Spend(units int) error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	b.units += units
	if b.units < Stride {
		return nil
	}
	return b.Check()
}

// Check looks at the context and the clock now.
func (b *Budget) Check() error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	b.units = 0
	if err := b.ctx.Err(); err != nil {
		b.err = err
	} else if used := threadCPU() - b.start; used > b.limit {
		b.err = fmt.Errorf("%w: %.2f s of CPU used, the limit is %.2f s", ErrSpent, used.Seconds(), b.limit.Seconds())
	}
	return b.err
}

// Err returns the budget's verdict so far without looking again.
func (b *Budget) Err() error {
	if b == nil {
		return nil
	}
	return b.err
}
