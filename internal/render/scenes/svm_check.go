package scenes

import (
	"fmt"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/render"
)

func (sc SVMScene) check() error {
	n := len(sc.X)
	switch {
	case n == 0:
		return fmt.Errorf("%w: an SVM figure needs at least one point", render.ErrNoData)
	case len(sc.Y) != n:
		return fmt.Errorf("%w: %d points, %d labels", render.ErrShape, n, len(sc.Y))
	case sc.Alpha != nil && len(sc.Alpha) != n || sc.Kind != nil && len(sc.Kind) != n || sc.Hull != nil && len(sc.Hull) != n:
		return fmt.Errorf("%w: %d points, %d α, %d kinds, %d λ", render.ErrShape, n, len(sc.Alpha), len(sc.Kind), len(sc.Hull))
	case math.IsNaN(sc.C):
		return fmt.Errorf("C: %w", render.ErrNotFinite)
	case !(sc.C > 0):
		return fmt.Errorf("%w: C = %v; want C > 0, or math.Inf(1) for a hard margin", render.ErrShape, sc.C)
	case sc.W != nil && sc.Decision != nil:
		return fmt.Errorf("%w: set W for a linear SVM or Decision for a kernel SVM, not both", render.ErrShape)
	case sc.DecisionGrid != nil && sc.Decision == nil:
		return fmt.Errorf("%w: DecisionGrid needs Decision, for the values at the points", render.ErrShape)
	case sc.Size != nil && len(sc.Size) != n:
		return fmt.Errorf("%w: %d points, %d sizes", render.ErrShape, n, len(sc.Size))
	}
	if err := render.Finite(sc.Size...); err != nil {
		return fmt.Errorf("size: %w", err)
	}
	for i, v := range sc.Size {
		if v < 0 {
			return fmt.Errorf("%w: point %d has size %v; sizes are ≥ 0", render.ErrShape, i, v)
		}
	}
	for i, x := range sc.X {
		if len(x) != 2 {
			return fmt.Errorf("%w: point %d has %d coordinates; the figure draws d = 2", render.ErrDimension, i, len(x))
		}
		if err := render.Finite(x[0], x[1]); err != nil {
			return fmt.Errorf("point %d: %w", i, err)
		}
		if sc.Y[i] != 1 && sc.Y[i] != -1 {
			return fmt.Errorf("%w: point %d has label %d, want ±1", render.ErrShape, i, sc.Y[i])
		}
		if sc.Kind != nil && !slices.Contains([]string{"", SVMargin, SVInside, SVMisclassified}, sc.Kind[i]) {
			return fmt.Errorf("%w: point %d has kind %q", render.ErrShape, i, sc.Kind[i])
		}
	}
	if err := render.Finite(sc.Alpha...); err != nil {
		return fmt.Errorf("α: %w", err)
	}
	if err := render.Finite(sc.Hull...); err != nil {
		return fmt.Errorf("λ: %w", err)
	}
	if err := checkLine("w", sc.W, sc.B, sc.W == nil); err != nil {
		return err
	}
	if o := sc.Overlay; o != nil {
		if err := checkLine("overlay "+o.Label, o.W, o.B, false); err != nil {
			return err
		}
	}
	for _, i := range sc.Pair {
		if i < -1 || i >= n {
			return fmt.Errorf("%w: SMO pair index %d, want −1…%d", render.ErrShape, i, n-1)
		}
	}
	return nil
}

// checkLine checks a line's weights (two of them, or none when optional)
// and bias.
func checkLine(name string, w []float64, b float64, optional bool) error {
	if len(w) != 2 && !(optional && w == nil) {
		return fmt.Errorf("%w: %s has %d weights, want 2", render.ErrShape, name, len(w))
	}
	if err := render.Finite(append(slices.Clone(w), b)...); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
