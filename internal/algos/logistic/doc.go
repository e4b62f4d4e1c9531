// Package logistic fits logistic regression (000 §1.4, 002's CIS 5200
// lecture of Feb 8) and its multinomial form, softmax regression, the
// way a student meets them: as smooth convex objectives that gradient
// descent decreases step by step, and that Newton's method solves in a
// handful of steps.
//
// # Binary
//
// Problem is J(w, b) = (1/n) Σ log(1 + exp(−yᵢ(w·xᵢ + b))) + (λ/2)‖w‖²
// with labels ±1 and an unpenalised b, the objective scikit-learn's
// LogisticRegression minimises with C = 1/(nλ). GD and Newton are
// steppers for algos.Replay: Step never modifies its argument. Solve is
// Newton from zero to a gradient norm below 1e-10.
//
// With λ = 0 the minimiser need not exist: on separable data (some
// hyperplane has every point on its side or on it, at least one
// strictly) J keeps falling towards 0 as ‖w‖ grows, which GD shows and
// Solve refuses with ErrNoMinimiser. Separable decides this exactly with
// a linear program (Stiemke's alternative), so it does not confuse a
// thin margin with none.
//
// # Multinomial
//
// Softmax is J(W, b) = (1/n) Σ −log softmax(Wxᵢ + b)_{yᵢ} + (λ/2)‖W‖²_F
// on classes 0…C−1, λ > 0. With C = 2 it is the binary problem with
// w = W₁ − W₀, b = b₁ − b₀ and half the λ: the optimum has W₀ = −W₁, so
// (λ/2)(‖W₀‖² + ‖W₁‖²) = (λ/4)‖w‖². The shift b → b + t·1 changes
// nothing; Solve reports Σ_c b_c = 0. scikit-learn's multinomial
// LogisticRegression reports the same one (checked with 1.2: lbfgs,
// newton-cg, sag and saga all give Σ_c b_c ≈ 1e-14): its solvers start
// at 0 and every gradient has b entries summing to 0, so the sum stays
// where it started.
//
// # Numerics and determinism
//
// Losses use softplus and log-sum-exp, probabilities the stable sigmoid
// and a max-shifted softmax, so no score overflows them. Newton's system
// is solved by Cholesky (gonum mat), or as a minimum-norm least-squares
// problem when the Hessian is singular (λ = 0 with dependent features).
// Nothing is random and nothing runs concurrently: the same input gives
// the same iterates bit for bit on one machine.
package logistic
