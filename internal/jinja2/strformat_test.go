package jinja2

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestStrFormatPython checks str.format with random format strings and arguments
// against what Jinja2's sandbox gives, recorded by testdata/strformat/record.py.
func TestStrFormatPython(t *testing.T) {
	var cases []struct {
		F    string
		A, K json.RawMessage
		answer
	}
	readCases(t, "strformat", &cases)
	for _, c := range cases {
		args, kwargs := mustJSON(t, c.A).Items(), kwargsOf(t, c.K)
		got, e := raised(func() string { return CallMethod(Str(c.F), "format", args, kwargs).String() })
		c.check(t, fmt.Sprintf("%q.format(*%s, **%s)", c.F, c.A, c.K), got, e)
	}
}
