//go:build !race

package testenv

// RaceEnabled reports that the tests run with the race detector (see race.go).
const RaceEnabled = false
