package budget

import "time"

var epoch = time.Now()

// monotonic is the wall clock since the process started, the fallback
// where no thread CPU clock is read: wall time bounds one thread's CPU.
func monotonic() time.Duration { return time.Since(epoch) }
