// Package gd is gradient descent as the course teaches it (notes 000
// §1.8, CIS 5200 Feb 1 and Feb 6): the plain step x⁽ᵏ⁾ = x⁽ᵏ⁻¹⁾ − η_k∇f(x⁽ᵏ⁻¹⁾)
// of Definition 1.8.2 with a learning-rate schedule, Newton's method, and
// stochastic / mini-batch gradient descent, on objectives whose answers are
// known, so that a demo can put every iterate next to x*, f* and the bound
// of Theorem 1.8.5.
//
// # Objectives
//
// A Func gives f, ∇f and ∇²f. Quadratic (½xᵀAx − cᵀx, with
// NewQuadratic2D's two-parameter family of condition number κ and
// rotation θ), LeastSquares and Logistic (on data, parameters (w, b)) also
// report their minimiser (the Minimiser interface) and a smoothness
// constant L (the Smooth interface); DoubleWell is non-convex, with two
// minima and a saddle between them, for showing where descent can stop.
//
// # Stepping
//
// GD and SGD are steppers for algos.Replay: Init validates and returns
// state 0 at x⁽⁰⁾; Step returns state k+1 and never touches its argument,
// so stepping back is keeping state k. Every state carries its iterate,
// f, ∇f and ‖∇f‖ and the step size it used. A run stops at its iteration
// budget (IterationLimit), when ‖∇f‖ < Tol (Converged), or when a step
// would put x or f beyond ±Blowup = 10¹⁰⁰, a cap well inside float64's
// range (Diverged): then the state stays on the last iterate the run
// accepted and holds the refused one as Next, so no NaN or Inf ever
// reaches a page's counters. For a quadratic
// the largest stable constant step is 2/L.
//
// # Determinism
//
// The gradient steps are bit-for-bit reproducible: sums run left to right
// over rows in index order, every product is rounded before it is added
// (float64(a*b)) so that no compiler fuses it into an FMA instruction, and
// SGD draws its mini-batches from a seeded PCG carried in the state.
// Logistic uses math.Exp and math.Log1p and NewQuadratic2D math.Sincos,
// which may differ in the last bit across architectures, and Newton's
// steps, L, the minimisers and DoubleWell's stationary points use gonum's
// LAPACK or closed forms left to the compiler, so those are reproducible
// per machine.
package gd
