//go:build race

package main

// raceBuild is true under -race, whose instrumentation makes the same
// computation cost 5 to 20 times the CPU.
const raceBuild = true
