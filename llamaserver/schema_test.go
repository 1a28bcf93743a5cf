package llamaserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestSchemaErrorHostile checks that schemas llama.cpp's converter would recurse on
// forever (a component of allOf that is a $ref to itself) or revisit at every ref (a
// failing target referenced many times) end, within maxSchemaWork; the schemas llama.cpp
// answers are checked against its answers in testdata/fields (cases schema_*).
func TestSchemaErrorHostile(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"type": "object", "properties": {`)
	for i := range 100000 {
		fmt.Fprintf(&many, `"a%d": {"$ref": "#/$defs/A"}, `, i)
	}
	many.WriteString(`"b": 1}, "$defs": {"A": {"type": "object", "properties": {"x": {"type": "double"}, "y": {"$ref": "#/$defs/A"}}}}}`)
	for name, text := range map[string]string{
		"self allOf":   `{"allOf": [{"$ref": "#/allOf/0"}]}`,
		"self ref":     `{"$ref": "#"}`,
		"ref cycle":    `{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}`,
		"many refs":    many.String(),
		"deep anyOf":   strings.Repeat(`{"anyOf": [`, 300) + `{"type": "int"}` + strings.Repeat(`]}`, 300),
		"index":        `{"$defs": [{"type": "string"}], "properties": {"a": {"$ref": "#/$defs/-1"}, "b": {"$ref": "#/$defs/99999999999999999999"}}}`,
		"not a schema": `[1, "x", null]`,
	} {
		v, err := jinja2.ParseJSON([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		msg := schemaError(v) // must return, not panic nor overflow the stack
		if len(msg) > maxSchemaErrors+len(text)+100 {
			t.Errorf("%s: %d bytes of errors, more than maxSchemaErrors", name, len(msg))
		}
		t.Logf("%s: %.120q", name, msg)
	}
}
