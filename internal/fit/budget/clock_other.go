//go:build !linux

package budget

import "time"

func threadCPU() time.Duration { return monotonic() }
