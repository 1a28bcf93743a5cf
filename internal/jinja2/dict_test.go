package jinja2

import (
	"strings"
	"testing"
)

// TestDictStrKeys: a str key is found whether the lookup's bytes are the key's own (a
// key of parsed JSON that internStr shares with the literals) or a copy, and an equal
// length is not enough.
func TestDictStrKeys(t *testing.T) {
	v, err := ParseJSON([]byte(`{"role": 1, "rolf": 2, "content": 3, "zzzz": 4}`))
	if err != nil {
		t.Fatal(err)
	}
	d := v.dict()
	tests := []struct {
		key  string
		want int64 // -1: not found
	}{
		{"role", 1}, {strings.Clone("role"), 1}, {"rolf", 2}, {strings.Clone("content"), 3}, {"content", 3},
		{"zzzz", 4}, {"type", -1}, {"rol", -1}, {"", -1},
	}
	for _, tt := range tests {
		key, want := tt.key, tt.want
		got, ok := d.GetStr(key)
		if want < 0 {
			if ok {
				t.Errorf("%q: found %v, want none", key, got)
			}
			continue
		}
		if n, isInt := got.AsInt(); !ok || !isInt || n != want {
			t.Errorf("%q: got %v (found %v), want %d", key, got, ok, want)
		}
	}
}
