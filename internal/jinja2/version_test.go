package jinja2

import "testing"

// TestVersionRange: the runtime runs at least the code its own generator writes
// (MaxVersion), and code of version 0 is older than any.
func TestVersionRange(t *testing.T) {
	if MinVersion < 1 || MinVersion > MaxVersion {
		t.Errorf("the runtime runs generated code of versions %d to %d", MinVersion, MaxVersion)
	}
}
