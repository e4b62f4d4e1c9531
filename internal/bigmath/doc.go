// Package bigmath is exact-enough arithmetic for tests that check a
// float64 algorithm by a second route: exp and log as series on
// math/big.Float at a fixed precision (Prec = 200 bits), so a predict
// question's answer can be replayed far from float64's rounding
// (issue 27 §5). It is a test support package: no production code path
// uses it.
package bigmath
