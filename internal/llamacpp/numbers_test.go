package llamacpp

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestJSONNumbers: ints beyond int64 become what llama.cpp's engine and nlohmann::json
// hold (the values testdata/fields' big_ints cases record from llama-server), and a
// value without one is returned as it is, not copied.
func TestJSONNumbers(t *testing.T) {
	for _, c := range []struct{ in, engine, nlohmann string }{
		{`[9223372036854775807, -9223372036854775808]`, `[9223372036854775807, -9223372036854775808]`, `[9223372036854775807, -9223372036854775808]`},
		{`{"u": 12345678901234567890, "max": 18446744073709551615}`, `{'u': -6101065172474983726, 'max': -1}`, `{'u': 12345678901234567890, 'max': 18446744073709551615}`},
		{`{"a": [1, {"h": 123456789012345678901234}], "n": -9223372036854775809}`, `{'a': [1, {'h': 1.2345678901234569e+23}], 'n': -9.223372036854776e+18}`, `{'a': [1, {'h': 1.2345678901234569e+23}], 'n': -9.223372036854776e+18}`},
		{`18446744073709551616`, `1.8446744073709552e+19`, `1.8446744073709552e+19`},
	} {
		v, err := jinja2.ParseJSON([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := JSONNumbers(v).Repr(); got != c.engine {
			t.Errorf("JSONNumbers(%s) = %s, want %s", c.in, got, c.engine)
		}
		if got := NlohmannNumbers(v).Repr(); got != c.nlohmann {
			t.Errorf("NlohmannNumbers(%s) = %s, want %s", c.in, got, c.nlohmann)
		}
	}
	v, err := jinja2.ParseJSON([]byte(`{"messages": [{"role": "user", "content": "hi", "n": 9223372036854775807}], "x": 1.5}`))
	if err != nil {
		t.Fatal(err)
	}
	if JSONNumbers(v) != v {
		t.Error("JSONNumbers copied a value without an int beyond int64")
	}
}
