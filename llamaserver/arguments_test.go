package llamaserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// TestObjectArguments checks objectArguments, which gives a template that reads tool
// calls' arguments as objects the request's object itself where it can, against what it
// shortcuts: the JSON text llama-server dumps the arguments into, parsed back.
func TestObjectArguments(t *testing.T) {
	texts := []string{
		`{}`, `[]`, `{"city": "Paris", "unit": "c"}`, `{"query": "umbrella", "limit": 2}`,
		`{"u64": 18446744073709551615, "i64": -9223372036854775808, "beyond": 99999999999999999999999}`,
		`{"huge": 1` + strings.Repeat("0", 400) + `}`,
		`{"f": 1.5, "g": 1e300, "h": 1e400, "z": -0.0, "one": 1.0, "tiny": 5e-324}`,
		`{"nan": NaN, "inf": Infinity, "minf": -Infinity}`,
		`[1, "x", null, true, false, {"a": [{"b": {}}]}]`, `5`, `null`, `true`, `2.5`,
		`{"s": "quote \" backslash \\ newline \n tab \t nul \u0000 é 😀 \u2028"}`,
		`{"a": 1, "b": {"a": 2}}`,
		strings.Repeat("[", 60) + strings.Repeat("]", 60),
		strings.Repeat(`{"k": `, 80) + "1" + strings.Repeat("}", 80), // beyond maxRoundTripDepth
	}
	var values []jinja2.Value
	for _, text := range texts {
		v, err := jinja2.ParseJSON([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		values = append(values, v)
	}
	// keys the JSON text turns into strs, a tuple it turns into a list
	withKeys := jinja2.NewDict(4)
	withKeys.Set(jinja2.Int(1), jinja2.Str("int key"))
	withKeys.Set(jinja2.Bool(true), jinja2.Str("bool key"))
	withKeys.Set(jinja2.None(), jinja2.Str("None key"))
	withKeys.Set(jinja2.Float(2.5), jinja2.Str("float key"))
	values = append(values, jinja2.DictValue(withKeys), jinja2.NewTuple(jinja2.Int(1), jinja2.Str("t")))

	for _, v := range values {
		dumped := jinja2.CompactJSON(llamacpp.NlohmannNumbers(v))
		want, wantErr := llamacpp.ParseJSON(dumped, new(jinja2.Arena))
		got, err := objectArguments(v, true), error(nil)
		if got.Kind() == jinja2.KindString { // the text, which the rewrite parses next
			got, err = llamacpp.ParseJSON(str(got), new(jinja2.Arena))
		}
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("arguments %s: the template reads them with error %v, want %v", dumped, err, wantErr)
		} else if g, w := got.Repr(), want.Repr(); g != w || got.Kind() != want.Kind() {
			t.Errorf("arguments %s: the template reads %s (%s), want %s (%s)", dumped, g, got.TypeName(), w, want.TypeName())
		}
		if got := objectArguments(v, false); got.Kind() != jinja2.KindString || str(got) != dumped {
			t.Errorf("arguments %s, read as text: %s, want the text", dumped, got.Repr())
		}
	}
}
