//go:build race

package jinja2

// raceEnabled reports that the tests run with the race detector, whose instrumentation
// allocates: allocation counts are not the program's then.
const raceEnabled = true
