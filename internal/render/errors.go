package render

import (
	"errors"
	"fmt"
	"math"
)

// Errors returned (wrapped, so test with errors.Is) for input a figure
// cannot show. The figures never panic on user input: they return one of
// these instead, and write nothing.
var (
	ErrNoData    = errors.New("render: no data to draw")
	ErrNoState   = errors.New("render: no state to draw")
	ErrDimension = errors.New("render: data are not two-dimensional")
	// ErrNotFinite is returned for NaN or infinite input, which would
	// draw nothing or garbage.
	ErrNotFinite = errors.New("render: NaN or infinite value")
	// ErrShape is returned for inputs whose parts do not fit together:
	// series of different lengths, ragged matrices, indices out of range.
	ErrShape = errors.New("render: inconsistent input")
)

// Finite returns ErrNotFinite when any of vs is NaN or ±Inf.
func Finite(vs ...float64) error {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %v", ErrNotFinite, v)
		}
	}
	return nil
}
