package llamaserver

import "testing"

// TestBaseVar: baseVar finds each of baseVarNames at its index, and no other name.
func TestBaseVar(t *testing.T) {
	for i, name := range baseVarNames {
		if got := baseVar(name); got != i {
			t.Errorf("baseVar(%q) = %d, want %d", name, got, i)
		}
	}
	for _, name := range []string{"", "message", "add_generation_prompt", "Tools", "date_strings"} {
		if got := baseVar(name); got != -1 {
			t.Errorf("baseVar(%q) = %d, want -1", name, got)
		}
	}
}
