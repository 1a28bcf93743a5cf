//go:build race

package testenv

// RaceEnabled reports that the tests run with the race detector: its instrumentation
// allocates, and sync.Pool drops what it is given at random, so allocation counts are
// not the program's then.
const RaceEnabled = true
