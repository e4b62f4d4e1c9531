package gd

import (
	"fmt"
	"math"
)

// ScheduleKind names a learning-rate schedule (CIS 5200, Feb 1).
type ScheduleKind int

const (
	// Constant: η_k = η₀, Definition 1.8.2's fixed step.
	Constant ScheduleKind = iota
	// ExpDecay: η_k = η₀·decay^(k−1), "η_{t+1} = 0.99η_t".
	ExpDecay
	// WarmupLinear: a linear rise over W steps, a plateau of H steps at
	// η₀, then a linear fall to 0 at the last iteration, as transformers
	// are trained ("increase η in the beginning, keep it at that max for
	// a while, and then linearly decrease it").
	WarmupLinear
)

// String returns "constant", "exp-decay" or "warmup-linear".
func (k ScheduleKind) String() string {
	switch k {
	case ExpDecay:
		return "exp-decay"
	case WarmupLinear:
		return "warmup-linear"
	}
	return "constant"
}

// DefaultDecay is ExpDecay's factor when Schedule.Decay is 0.
const DefaultDecay = 0.99

// Schedule gives the step size of each iteration from the base step η₀.
// The zero value is Constant.
type Schedule struct {
	Kind   ScheduleKind
	Decay  float64 // ExpDecay: the factor per step, 0 < Decay ≤ 1; 0 means DefaultDecay
	Warmup int     // WarmupLinear: W, the steps of the rise, 0 ≤ W ≤ the run's iterations
	Hold   int     // WarmupLinear: H, the steps at η₀ after the rise, H ≥ 0 and W + H ≤ the run's iterations
}

// Eta returns η_k, the step size of iteration k = 1, 2, …, T of a run of
// T = iters iterations (iteration k moves x⁽ᵏ⁻¹⁾ to x⁽ᵏ⁾):
//
//	constant:       η_k = η₀
//	exp-decay:      η_k = η₀ · decay^(k−1)                      (math.Pow)
//	warmup-linear:  η_k = η₀ · k / W                for 1 ≤ k ≤ W
//	                η_k = η₀                        for W < k ≤ W + H
//	                η_k = η₀ · (T − k) / (T − W − H)  for W + H < k ≤ T
//
// So exp-decay's first step is η₀, and warmup-linear rises from η₀/W at
// k = 1 to η₀ at k = W, stays at η₀ for the H steps of its plateau, then
// falls by η₀/(T − W − H) per step to exactly 0 at k = T (the last step
// does not move). W = 0 has no rise, H = 0 no plateau (η_{W+1} =
// η₀(T − W − 1)/(T − W)); W + H = T has no fall. The products and
// quotients are evaluated left to right, (η₀·k)/W, each rounded once.
// Outside 1 ≤ k ≤ T the warm-up schedule gives 0.
func (s Schedule) Eta(eta0 float64, k, iters int) float64 {
	switch s.Kind {
	case ExpDecay:
		decay := s.Decay
		if decay == 0 {
			decay = DefaultDecay
		}
		return eta0 * math.Pow(decay, float64(k-1))
	case WarmupLinear:
		switch {
		case k < 1 || k > iters:
			return 0
		case k <= s.Warmup:
			return eta0 * float64(k) / float64(s.Warmup)
		case k <= s.Warmup+s.Hold:
			return eta0
		}
		return eta0 * float64(iters-k) / float64(iters-s.Warmup-s.Hold)
	}
	return eta0
}

// validate checks s for a run of iters iterations.
func (s Schedule) validate(iters int) error {
	switch s.Kind {
	case Constant:
	case ExpDecay:
		if !(s.Decay >= 0 && s.Decay <= 1) {
			return fmt.Errorf("%w: decay is %v; give 0 < decay ≤ 1 (0 means %v)", ErrParameters, s.Decay, DefaultDecay)
		}
	case WarmupLinear:
		if s.Warmup < 0 || s.Warmup > iters {
			return fmt.Errorf("%w: warmup is %d; give 0 to the number of iterations, %d", ErrParameters, s.Warmup, iters)
		}
		if s.Hold < 0 || s.Hold > iters-s.Warmup {
			return fmt.Errorf("%w: hold is %d; give 0 to the iterations left after the warm-up, %d", ErrParameters, s.Hold, iters-s.Warmup)
		}
	default:
		return fmt.Errorf("%w: unknown schedule %d", ErrParameters, int(s.Kind))
	}
	return nil
}
