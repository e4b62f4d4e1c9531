// Package bayes is the Bayes optimal classifier of the CIS 5200 notes
// (Jan 25) on a distribution known exactly, so that a lesson can show
// the best any classifier can do next to what kNN learns from samples.
//
// The distribution is a two-class mixture of two Gaussians in the plane:
// y = +1 with probability π, and x | y ~ N(μ_y, Σ_y). Then
// η(x) = P(y = +1 | x) is known in closed form, the Bayes classifier is
// h*(x) = +1 when η(x) > ½ and −1 otherwise (at η = ½ the notes say +1;
// Margin sends every tie to the lower label, −1, as kNN's vote does, at
// no cost in risk), and its risk, the Bayes error R(h*) = E_x[min(η, 1 − η)], is
// computed by numerical integration with a stated error bound.
//
// # How the Bayes error is integrated
//
// R(h*) = π P₊(ℓ ≤ 0) + (1 − π) P₋(ℓ > 0), where ℓ = log(η/(1 − η)) is
// quadratic in x. For each class the plane is whitened (x = μ + Lz, z
// standard normal) and written in polar coordinates z = r(cos θ, sin θ).
// Along a ray ℓ is a quadratic in r, so the set of r where the class is
// misclassified is at most two intervals with closed-form ends, and the
// radial integral of the density, r e^{−r²/2}, is closed form too. What
// is left is a one-dimensional integral over θ ∈ [0, 2π) of a bounded,
// continuous function that is smooth except at angles where the
// quadratic's roots appear, merge or pass through infinity; those angles
// are themselves closed form, so the integral is split there and each
// piece is integrated by adaptive Gauss–Legendre quadrature (24 points,
// checked against 12). This is an exact two-dimensional integral, with
// any covariances: nothing assumes the boundary is a line.
//
// The bound BayesError returns is the sum over the final panels of
// |Q₂₄ − Q₁₂| (the 12-point rule's error, an overestimate of the 24-point
// rule's), plus 1e-14 for rounding. The tests check the result against
// Φ(−Δ/(2σ)) for a symmetric mixture, against the closed form of a
// shared-covariance mixture, against a product-rule cubature of
// E[min(η, 1 − η)], and against Monte Carlo.
//
// # Determinism
//
// Sample and Risk draw from rand.New(rand.NewPCG(seed, …)) in a fixed
// order and round every product before adding it, so the same seed gives
// the same points bit for bit on every machine.
package bayes
