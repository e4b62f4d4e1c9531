// Package perceptron implements Rosenblatt's perceptron exactly as
// Algorithm 1 of the course notes, plus the variants the lesson teaches: a
// learning rate η, the margin perceptron (update when y(w·x+b) ≤ γ), the
// averaged perceptron (Algorithm 7 of the DS 503 slides) and one-vs-all /
// one-vs-one training for more than two classes.
//
// # Stepping
//
// Init validates the data and parameters and returns the state before the
// first iteration (w₀ = 0, b₀ = 0). Step examines one point and returns the
// next state; it never modifies its argument, so a demo steps back by
// keeping the earlier state. Trajectory and Run drive the loop. A state
// carries everything its next step depends on (the run's index of epoch
// starts included), so a copy kept from one replay steps on, under any
// Problem Init built from the same data and parameters, exactly as a
// replay from 0 does: a demo keeps a run's states between requests.
//
// # Stopping
//
// A run ends when a whole epoch makes no update (Converged), when the
// weights at the start of an epoch equal those at the start of an earlier
// epoch (CycleDetected), or after MaxEpochs epochs (IterationLimit), and
// in that order of precedence when the last epoch qualifies for several: a
// cycle found by the last allowed epoch is reported as a cycle. A repeated
// (w, b) with updates in between is impossible on linearly separable data,
// because every update raises ⟨(w,b), (w*,b*)⟩ by a positive amount; so
// CycleDetected is a proof that the data are not separable, in cyclic and
// in random order alike; with several perceptrons, that the binary problem
// of each one that updated in between is not (Problem.Cycle names them).
// Only in cyclic order does the run then repeat for ever: a random order
// draws a new permutation each epoch. Cycle detection compares floats exactly: on data
// whose updates do not cancel exactly in floating point a non-separable run
// ends at the epoch limit instead. It costs one hash lookup per epoch.
// Params.FixedEpochs turns the first two stops off, as Algorithm 7 runs a
// fixed number of epochs.
//
// # Determinism
//
// The same data and Params give the same run bit for bit on every machine:
// random order is a seeded PCG, and products are rounded before they are
// added so that no compiler fuses them into FMA instructions.
package perceptron
