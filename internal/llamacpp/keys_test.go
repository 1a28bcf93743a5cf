package llamacpp_test

import (
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// TestKeysAreNoBuiltins: no jinja2.Key is the name of a dict's builtin, which
// ItemAttrKey and ItemStrKey take for granted; and they give what ItemAttr and ItemStr
// give, for a dict with the key, a dict without it and values of other types.
func TestKeysAreNoBuiltins(t *testing.T) {
	msg, err := jinja2.ParseJSON([]byte(`{"role": "user", "content": null, "name": "n"}`))
	if err != nil {
		t.Fatal(err)
	}
	copied := jinja2.NewDict(1)
	copied.AddStr(strings.Clone("role"), jinja2.Str("user")) // a key equal to a Key, not made from one
	values := []jinja2.Value{msg, jinja2.DictValue(copied), jinja2.DictValue(jinja2.NewDict(0)), jinja2.Str("s"), jinja2.None()}
	for k := range jinja2.NumKeys {
		if llamacpp.IsDictBuiltin(k.String()) {
			t.Errorf("%q is a dict's builtin", k)
		}
		for _, v := range values {
			if a, b := llamacpp.ItemAttrKey(v, k), llamacpp.ItemAttr(v, k.String()); a.Repr() != b.Repr() || a.Kind() != b.Kind() {
				t.Errorf("ItemAttrKey(%s, %v) = %s, ItemAttr %s", v.Repr(), k, a.Repr(), b.Repr())
			}
			if a, b := llamacpp.ItemStrKey(v, k), llamacpp.ItemStr(v, k.String()); a.Repr() != b.Repr() || a.Kind() != b.Kind() {
				t.Errorf("ItemStrKey(%s, %v) = %s, ItemStr %s", v.Repr(), k, a.Repr(), b.Repr())
			}
		}
	}
}
