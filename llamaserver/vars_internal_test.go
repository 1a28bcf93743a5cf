package llamaserver

import (
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestBaseVar: baseVar finds each of baseVarNames at its index, and no other name.
func TestBaseVar(t *testing.T) {
	for i, name := range baseVarNames {
		if got := baseVar(name); got != i {
			t.Errorf("baseVar(%q) = %d, want %d", name, got, i)
		}
	}
	for _, name := range []string{"", "message", "add_generation_prompt", "Tools", "date_strings"} {
		if got := baseVar(name); got != -1 {
			t.Errorf("baseVar(%q) = %d, want -1", name, got)
		}
	}
}

// TestReadMessageFields: read, which takes a {"role", "content"} message without
// walking its keys, reads every message as readKeys does.
func TestReadMessageFields(t *testing.T) {
	for _, msg := range []string{
		`{"role": "user", "content": "hi"}`,
		`{"content": "hi", "role": "user"}`,
		`{"role": "assistant", "content": null}`,
		`{"role": "user", "content": [{"type": "text", "text": "hi"}]}`,
		`{"role": 1, "content": "hi"}`,
		`{"role": "user", "content": "hi", "name": "n"}`,
		`{"role": "user"}`,
		`{"role": "tool", "content": "r", "tool_call_id": "c"}`,
		`{"role": "assistant", "content": "", "reasoning_content": "r"}`,
		`{"role": "user", "content": "a", "role": "system"}`,
	} {
		v, err := jinja2.ParseJSON([]byte(msg))
		if err != nil {
			t.Fatal(err)
		}
		built := jinja2.NewDict(2) // the same keys, made by the program rather than decoded
		for i, k := range v.AsDict().Keys() {
			built.SetStr(strings.Clone(k.Text()), v.AsDict().Values()[i])
		}
		for _, d := range []*jinja2.Dict{v.AsDict(), built} {
			var got, want messageFields
			got.read(d)
			want.readKeys(d)
			if got != want {
				t.Errorf("%s: read %+v, readKeys %+v", msg, got, want)
			}
		}
	}
}
