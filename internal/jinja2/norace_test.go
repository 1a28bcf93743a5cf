//go:build !race

package jinja2

// raceEnabled reports that the tests run with the race detector (see race_test.go).
const raceEnabled = false
