// Package knn is the k-nearest-neighbours classifier of the CIS 5200
// notes (Jan 25): h(x) = mode{ y' : (x', y') ∈ N_x }, where the
// neighbourhood N_x holds the k training points closest to x, together
// with the experiment behind the notes' warning that in high dimensions
// all points look equally far apart.
//
// # Exactly which neighbours, exactly which vote
//
// "The k nearest" and "the mode" both need tie rules to be a function:
//
//   - Training points are ranked by (distance, index): among equal
//     distances the lower training index comes first, so N_x is always the
//     first k points of that order.
//   - The vote goes to the label with the most points in N_x; among labels
//     with equally many, the smallest label wins.
//
// Distances are compared as computed in float64: Σⱼ (xⱼ − qⱼ)² for
// Euclidean (the square root is never taken: it is increasing, so the
// order is the same, and skipping it keeps apart sums that sqrt would
// round together) and Σⱼ |xⱼ − qⱼ| for Manhattan, coordinate by coordinate
// in order, each product rounded before it is added (no fused
// multiply-add). Every code path (the k-d tree, the selection scan, the
// brute-force reference in the tests) computes the same float for the
// same pair, so a tie is an exact tie everywhere: points at equal distance
// on an integer grid tie. Distances that float64 cannot hold (squares
// that would overflow to +Inf, from coordinates beyond about 1e154, or
// underflow to 0, from differences below about 1e-154) are not tied by
// that: when a training point or the query has a coordinate outside
// [2⁻⁴⁵⁰, 2⁴⁵⁰] (zero aside), every distance of that query is computed
// scaled by the power of two that bounds its largest coordinate
// difference, with the exponent kept apart (wide.go), so 1.9e200 ranks
// after 1e199 and 1e-171 before 2.9e-170, and a tie is a tie of the
// rounded distances, as in range.
//
// # Speed
//
// In few dimensions New builds a k-d tree. A query searches it with a
// heap while k is small next to n and otherwise scans all n points,
// selecting the k nearest in linear time. PredictAll, the call that fills
// a decision-region grid, also uses the tree to carry each query's k-th
// distance over to the next (ring.go), so that nearby queries cost work
// in proportion to the points near that distance rather than to k. A
// 121 × 121 grid against 500 points in 2-D (BenchmarkRegions) takes, in
// CPU time of one core: 2.4 ms at k = 1, 4.4 ms at k = 5, 8 ms at 15,
// 14 ms at 51, 24 ms at 250 (the slowest k) and 4 ms at 500; scanning
// every point takes 50–100 ms. Every path returns exactly the
// brute-force answer, which the tests check.
package knn
