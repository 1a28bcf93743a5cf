package llamaserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// TestNonStringArguments checks which arguments of a tool a handler that writes each
// argument in a tag of its own puts in its grammar, case by case of llama.cpp's
// common_schema_info::resolves_to_string (b10587, json-schema-to-grammar.cpp); the
// requests llama-server answers are checked against its answers in testdata/fields
// (cases tool_schema_*).
func TestNonStringArguments(t *testing.T) {
	params := `{"type": "object", "$defs": {"S": {"type": "string"}, "N": {"type": "number"}, "C": {"$ref": "#/$defs/C"}}, "properties": {
		"string": {"type": "string"},
		"nullable": {"type": ["null", "string"]},
		"number_or_string": {"type": ["number", "string"]},
		"number": {"type": "number"},
		"any_of": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
		"one_of": {"oneOf": [{"type": "integer"}]},
		"all_of": {"allOf": [{"type": "string"}, {"minLength": 1}]},
		"all_of_mixed": {"allOf": [{"type": "string"}, {"type": "integer"}]},
		"empty_all_of": {"allOf": []},
		"const": {"const": "x"},
		"const_number": {"const": 1},
		"enum": {"enum": [1, "a"]},
		"enum_numbers": {"enum": [1, 2]},
		"pattern": {"pattern": "^a"},
		"max_length": {"maxLength": 3},
		"format_date": {"format": "date"},
		"format_uuid4": {"format": "uuid4"},
		"format_other": {"format": "int32"},
		"ref_string": {"$ref": "#/$defs/S"},
		"ref_number": {"$ref": "#/$defs/N"},
		"ref_cycle": {"$ref": "#/$defs/C"},
		"ref_missing": {"$ref": "#/$defs/X"},
		"no_type": {}
	}}`
	want := []string{"number", "one_of", "all_of_mixed", "const_number", "enum_numbers", "format_other", "ref_number", "ref_cycle", "ref_missing", "no_type"}
	p, err := jinja2.ParseJSON([]byte(params))
	if err != nil {
		t.Fatal(err)
	}
	props, _ := p.AsDict().GetStr("properties")
	names := map[string]string{} // each property's schema, as JSON, to its name
	for _, k := range props.AsDict().Keys() {
		v, _ := props.AsDict().Get(k)
		names[jinja2.CompactJSON(v)] = k.String()
	}
	var got []string
	for _, s := range appendNonStringArguments(nil, p) {
		got = append(got, names[jinja2.CompactJSON(s)])
	}
	if len(got) != len(want) {
		t.Fatalf("the arguments in the grammar are %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("the arguments in the grammar are %q, want %q", got, want)
		}
	}

	// a format that is no string throws, as nlohmann::json's get<std::string> does
	bad, _ := jinja2.ParseJSON([]byte(`{"properties": {"a": {"format": 3}}}`))
	if msg := catchTypeError(func() { appendNonStringArguments(nil, bad) }); msg != "[json.exception.type_error.302] type must be string, but is number" {
		t.Errorf("a format 3: %q", msg)
	}
}

// TestGrammarRefusalHostile checks that the grammar check of hostile tools ends: deep
// alternatives and long chains of refs in arguments a handler checks one by one, and
// many tools.
func TestGrammarRefusalHostile(t *testing.T) {
	deep := strings.Repeat(`{"anyOf": [`, 400) + `{"type": "int"}` + strings.Repeat(`]}`, 400)
	var chain strings.Builder
	chain.WriteString(`{"type": "object", "$defs": {`)
	for i := range 2000 {
		fmt.Fprintf(&chain, `"d%d": {"$ref": "#/$defs/d%d"}, `, i, i+1)
	}
	chain.WriteString(`"d2000": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/d0"}, "b": ` + deep + `}}`)
	var many strings.Builder
	many.WriteString(`[`)
	for i := range 200 {
		if i > 0 {
			many.WriteString(", ")
		}
		fmt.Fprintf(&many, `{"type": "function", "function": {"name": "f%d", "description": "", "parameters": %s}}`, i, chain.String())
	}
	many.WriteString(`]`)
	tools, err := jinja2.ParseJSON([]byte(many.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, handler := range []string{"qwen3_coder", "gpt_oss", "generic"} {
		tmpl := &tmplgen.Template{Name: "hostile", Caps: llamacpp.Capabilities{Handler: handler, ToolArguments: "tagged", ToolTrigger: true}}
		err := grammarRefusal(tmpl, tools, "required", jinja2.Value{})
		if err == nil || !strings.Contains(err.Error(), `Unrecognized schema: {"type":"int"}`) {
			t.Errorf("%s: %.200v", handler, err)
		}
	}
}
