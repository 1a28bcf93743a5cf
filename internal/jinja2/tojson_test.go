package jinja2

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestToJSONPython checks the tojson filter (transformers') on random values and
// keyword arguments against Python's answers recorded by testdata/tojson/record.py.
func TestToJSONPython(t *testing.T) {
	var cases []struct {
		V, K json.RawMessage
		answer
	}
	readCases(t, "tojson", &cases)
	for _, c := range cases {
		v, kwargs := mustJSON(t, c.V), kwargsOf(t, c.K)
		got, e := raised(func() string { return CallFilter("tojson", v, nil, kwargs).String() })
		c.check(t, fmt.Sprintf("%s | tojson(**%s)", c.V, c.K), got, e)
	}
}
