// Package linreg fits lines and hyperplanes to real-valued targets the
// way the notes teach regression (000 §1.3, 003 §4): least squares, its
// ridge penalty, gradient descent on the same objective, robust losses
// for a line, and the bias–variance picture of a polynomial fit.
//
// # Least squares and ridge
//
// Fit minimises
//
//	(1/n) Σᵢ (w·xᵢ + b − yᵢ)² + λ‖w‖²,
//
// with b not penalised (000 Def. 1.3.4 with the bias kept apart, as
// scikit-learn's Ridge with alpha = nλ does). It never forms an inverse:
// with an intercept it centres x and y (then b = ȳ − x̄·w), reduces a tall
// design to its d×d triangle R by Householder QR, and reads w off the SVD
// of what is left, w = Σₖ vₖ (uₖ·z)·σₖ/(σₖ² + nλ). That is 000 Prop. 1.3.5
// at work: ridge divides by σ² + nλ, never by a tiny σ². With λ = 0 and a
// rank-deficient design the singular values below a relative cutoff count
// as zero, so w is the minimum-norm minimiser, the pseudo-inverse answer
// that numpy's lstsq and scikit-learn's LinearRegression give.
//
// GD is gradient descent on the same objective, one iteration per Step,
// for algos.Replay; GD.L is the smoothness constant that decides which
// step sizes converge (η < 2/L).
//
// # Robust lines and bias–variance
//
// FitLine fits y ≈ w·x + b under squared, absolute, Huber or
// ε-insensitive loss exactly, for the "loss functions side by side" demo.
// ResampleFits refits a polynomial to fresh noise R times on a fixed
// design and measures bias² and variance (003 §4.4), with the expected
// fit in closed form, since ridge is linear in y.
//
// Everything is deterministic: the same inputs give the same bits.
// Products are rounded before they are added (float64(a*b)) so that no
// compiler fuses them into FMA instructions, and the only randomness,
// ResampleFits' noise, comes from a seeded PCG.
package linreg
