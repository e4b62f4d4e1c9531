package algos

import (
	"errors"
	"fmt"
	"strings"
)

// Status says where a run stands, after optimize.Status. The zero value is
// Running; every other value is terminal, and Step on a terminal state
// returns it unchanged.
type Status int

const (
	// Running: more iterations may change the model.
	Running Status = iota
	// Converged: a whole pass over the data made no update.
	Converged
	// IterationLimit: the run stopped at its iteration or epoch budget.
	IterationLimit
	// CycleDetected: the model came back to a state it had been in at the
	// same point of the visiting order, so it will repeat forever. For the
	// perceptron this proves the data are not linearly separable.
	CycleDetected
	// Infeasible: the problem has no solution (e.g. a hard-margin SVM on
	// data that no hyperplane separates).
	Infeasible
	// Diverged: the iterates grew past what float64 holds (gradient
	// descent with too large a step); the state kept is the last finite one.
	Diverged
	// Stalled: the next step would leave the iterate exactly where it is
	// although the run has not converged, and so would every step after
	// it (Newton's method where the Hessian is singular along the
	// gradient); the state kept is the last one reached.
	Stalled
)

var statusNames = [...]string{"running", "converged", "iteration limit", "cycle detected", "infeasible", "diverged", "stalled"}

// String returns a short lower-case name, fit for a page or a log line.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// Code is the name in snake_case, as the fit API spells it ("converged",
// "iteration_limit", "cycle_detected", …; docs/api.md lists them).
func (s Status) Code() string { return strings.ReplaceAll(s.String(), " ", "_") }

// Done reports whether the run has stopped.
func (s Status) Done() bool { return s != Running }

// Sentinel errors for terminal statuses that are not a success.
var (
	ErrIterationLimit = errors.New("algos: iteration limit reached before convergence")
	ErrCycle          = errors.New("algos: cycle detected; the data are not linearly separable")
	ErrInfeasible     = errors.New("algos: problem infeasible")
	ErrDiverged       = errors.New("algos: the iterates diverged; lower the step size")
	ErrStalled        = errors.New("algos: the iterates stopped moving before convergence")
)

// Err returns nil for Running and Converged and a sentinel error for the
// other statuses, so callers can use errors.Is.
func (s Status) Err() error {
	switch s {
	case IterationLimit:
		return ErrIterationLimit
	case CycleDetected:
		return ErrCycle
	case Infeasible:
		return ErrInfeasible
	case Diverged:
		return ErrDiverged
	case Stalled:
		return ErrStalled
	}
	return nil
}
