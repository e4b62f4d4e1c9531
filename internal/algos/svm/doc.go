// Package svm trains support vector machines the way the notes teach them
// (CS480 §1.5–1.7, 003 §2) and the way LIBSVM solves them, so that a
// student can step through the solver and a result can be checked against
// LIBSVM or scikit-learn on unseen data.
//
// # The dual and SMO
//
// New sets up the dual of eq. 1.6.b with a kernel (§1.7),
//
//	min D(α) = −Σαᵢ + ½ΣᵢΣⱼ αᵢαⱼyᵢyⱼK(xᵢ, xⱼ)  s.t. 0 ≤ αᵢ ≤ C, Σαᵢyᵢ = 0,
//
// and Step performs one iteration of sequential minimal optimisation as
// LIBSVM does: the pair (i, j) is chosen by second-order working-set
// selection (Fan, Chen & Lin, 2005), αᵢ and αⱼ move to the minimum of D
// along Σαᵢyᵢ = 0 and are clipped to the box, and the gradient G = Qα − 1
// is updated. The run stops when the maximal violating pair's gap
// m(α) − M(α) is at most Tol (LIBSVM's -e), and b is LIBSVM's −ρ: the mean
// of −yᵢGᵢ over the free multipliers, or the midpoint of the interval the
// bounded ones allow. Q is kept in float64, where LIBSVM rounds it to
// float32, so results agree with svm-train to about single precision.
//
// LIBSVM's scan breaks a tie between candidates by floating point (the
// later one wins when it is at least as good), so two candidates equal in
// exact arithmetic, as the pair just optimised is after a step that is
// not clipped, are ordered by rounding. Params.Ties replaces the scan in
// Step by one stated rule, TieTol: values within 8·2⁻⁵² times the
// largest tie, and the last index wins, for i and for j. The teaching
// demos use it; the fit API keeps LIBSVM's scan.
//
// Step never modifies its argument, so stepping back is keeping state
// k−1; Advance is the same iteration in place, and algos.Replay uses it.
// Solve is the fast path from state 0 to the end: it adds LIBSVM's
// shrinking and a private column cache, so its iterates differ from
// Step's (the pairs come in another order) while its optimum meets the
// same stopping rule. Kernel columns are cached up to Params.CacheBytes.
//
// # Hard margin
//
// The hard margin (§1.5) is C = +∞: no upper bound. It exists only for
// separable data, and a solver run on inseparable data would let α grow
// without bound. New decides separability first, exactly rather than by
// capping α (a cap would also fire on separable data with a thin margin):
// by Farkas' lemma the data are inseparable iff the convex hulls of the
// two classes meet, i.e. iff some λ ≥ 0 has Σλᵢ = 1, Σλᵢyᵢ = 0 and
// Σλᵢyᵢφ(xᵢ) = 0. For the linear kernel (φ(x) = x) and the polynomial one
// (φ its monomials, at most MaxPolyFeatures of them) that is a small
// linear program which gonum's Simplex decides. The RBF and Laplace
// kernels are strictly positive definite, so distinct points are always
// separable and only a point given both labels is not. Inseparable data
// give Status algos.Infeasible and the hull point λ as Certificate.
//
// # Kernels and what they share
//
// Every kernel model's score is an Expansion Σᵢ cᵢK(xᵢ, x) + b over the
// training points, as the representer theorem says; its Grid evaluates
// one on a plotting grid fast (the RBF kernel factorises along the axes).
// Gram and Eigenvalues give a function's Gram matrix and its spectrum,
// for checking Mercer's condition; Sigmoid and NegSqDist are functions
// that fail it, which the trainers refuse.
//
// The primal trainers of package primal (Pegasos, subgradient descent,
// kernel Pegasos) build on this package: its Kernel, Expansion,
// ValidateData, ColumnCache and sentinel errors, and its SMO for their
// exact optima (on Mirror's points for a model without bias).
//
// # Determinism
//
// The same inputs give the same iterates bit for bit: no map is iterated,
// nothing runs concurrently, the cache only ever returns what the kernel
// function computes, and random draws come from a seeded PCG. Products
// are rounded before they are added (float64(a*b)), so no compiler fuses
// them into FMA instructions; math.Exp itself may differ across
// architectures, so RBF and Laplace runs are reproducible per machine.
package svm
