package codegen

import (
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestKeyConsts: the constant generated code names for a Key is "Key" and the Key's
// name in camel case, initialisms as Go writes them, for each Key in order.
func TestKeyConsts(t *testing.T) {
	for i, name := range keyConsts {
		k := jinja2.Key(i)
		want := "Key"
		for _, part := range strings.Split(k.String(), "_") {
			if part == "id" {
				want += "ID"
			} else {
				want += strings.ToUpper(part[:1]) + part[1:]
			}
		}
		if name != want {
			t.Errorf("keyConsts[%d] = %s, want %s (Key %q)", i, name, want, k)
		}
		if got, ok := jinja2.KeyOf(k.String()); !ok || got != k {
			t.Errorf("KeyOf(%q) = %v, %v, want %d", k, got, ok, i)
		}
	}
	if k, ok := jinja2.KeyOf("enum"); !ok || int(k) != len(keyConsts)-1 {
		t.Errorf("the last Key is %v, not keyConsts' last", k)
	}
}
