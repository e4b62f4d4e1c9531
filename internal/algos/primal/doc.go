// Package primal trains linear and kernel SVMs in the primal, one
// stochastic or full-batch subgradient step at a time, the way the notes
// teach them (001's Pegasos, 000 §1.8's subgradient descent), beside the
// dual SMO solver of package svm that gives their exact optima.
//
// # Trainers
//
// Pegasos is 001's stochastic subgradient procedure with averaging, on
// λ‖θ‖² + mean hinge with the bias folded into θ; PegasosOptimum solves
// that objective exactly with svm's SMO (through svm.Mirror) so a lesson
// can plot the gap. Subgradient is 000 §1.8's full-batch subgradient
// descent on the primal of eq. 1.6.a. KernelPegasos is 001's kernelized
// procedure (β, α⁽ᵗ⁾ = β⁽ᵗ⁾/(2λt), the averaged ᾱ, a score with no bias),
// and KernelPegasosOptimum solves its objective exactly by dual coordinate
// descent, which needs no equality constraint because there is no bias.
//
// Each trainer is a stepper in the house shape: NewX validates and returns
// the trainer and state 0, Step never modifies its argument (so stepping
// back is keeping state k−1), Advance is the same step in place for
// algos.Replay, and Status reports IterationLimit once the T iterations
// are done (Subgradient: Diverged if a step leaves float64's range).
//
// # Shared with package svm
//
// The kernels (svm.Kernel), the kernel expansion a model scores with
// (svm.Expansion), the data checks (svm.ValidateData), the kernel-column
// cache and the sentinel errors are svm's, so a caller tests
// errors.Is(err, svm.ErrParameters) whichever trainer refused its input.
//
// # Determinism
//
// The same inputs give the same iterates bit for bit: random draws come
// from a PCG seeded by Params.Seed, nothing runs concurrently, and
// products are rounded before they are added (float64(a*b)), so no
// compiler fuses them into FMA instructions.
package primal
