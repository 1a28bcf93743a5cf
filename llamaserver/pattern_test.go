package llamaserver

import "testing"

// TestPatternError checks patternError against llama-server b10587's answers to a
// request whose schema of the answer has a string of each pattern (recorded through the
// oracle driver): the reason of an invalid pattern, "" for one it takes or does not
// support (which it answers with a warning).
func TestPatternError(t *testing.T) {
	for _, tt := range []struct{ pattern, why string }{
		{"^(ab$", "unbalanced parentheses"},
		{"^ab)$", "unbalanced parentheses"},
		{"^[ab$", "unterminated character class"},
		{"^*a$", "nothing to repeat"},
		{"^a{2}$", ""},
		{"^{2}$", "nothing to repeat"},
		{"^a\\\\$", ""},
		{"^(?=a)b)$", ""},
		{"^a\\d(b$", ""},
		{"^\\q)$", ""},
		{"^a|*$", ""},
		{"^(|*)$", ""},
		{"^a{x}$", ""},
		{"^a{,}$", ""},
		{"^((((a)))$", "unbalanced parentheses"},
		{"^[\\q]($", ""},
		{"^x]($", ""},
		{"^\"a\"+$", ""},
		{"^[a-z]+(\\.[a-z]+)*$", ""},
		{"^\\u12G4)$", ""},
		{"^a{1,2,3})$", ""},
		{"abc)", ""},
		{"^a??$", ""},
		{"^(a)(b))$", "unbalanced parentheses"},
	} {
		if got := patternError(tt.pattern); got != tt.why {
			t.Errorf("patternError(%q) = %q, want %q", tt.pattern, got, tt.why)
		}
	}
}
