package llamaserver

import (
	"reflect"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// TestReleaseForgets: a rewrite put back in the pool keeps its storage, empty, and
// nothing else of the request it rewrote: every other field is zero.
func TestReleaseForgets(t *testing.T) {
	storage := map[string]bool{"arena": true, "fields": true, "msgs": true, "parts": true, "calls": true, "jm": true, "vars": true, "scratch": true}
	// agp is false where the final message is continued (cont), as here
	req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "system", "content": "S"},
		{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
		{"role": "assistant", "content": "A", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {"x": 1}}}]},
		{"role": "user", "content": "q"}, {"role": "assistant", "content": "continued"}],
		"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
		"json_schema": {"type": "object"}, "bos_token": "<s>", "eos_token": "</s>"}`))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Caps: llamacpp.Capabilities{StringContent: true, Tools: true, ToolCalls: true, Handler: "generic", ReasoningMode: "none"},
		Func: func(w *jinja2.Writer) {}}
	rw := new(llamaRewrite)
	rw.bos, rw.eos, rw.addBOS, rw.addEOS = "<s>", "</s>", true, true
	if err := new(Server).rewrite(rw, tmpl, &req.Input); err != nil {
		t.Fatal(err)
	}
	v := reflect.ValueOf(rw).Elem()
	for i := range v.NumField() {
		// w is the renders' (jinja2.Run.Writer), which leave it zero
		if name := v.Type().Field(i).Name; !storage[name] && name != "agp" && name != "with" && name != "w" && v.Field(i).IsZero() {
			t.Fatalf("the rewrite set no %s: the test does not check that release forgets it", name)
		}
	}
	// as other requests set them
	rw.agp, rw.scratch = true, append(rw.scratch, "prompt"...)
	rw.with = prerendered{done: true, text: rw.scratch}
	rw.release()
	for i := range v.NumField() {
		name, f := v.Type().Field(i).Name, v.Field(i)
		switch {
		case name == "arena": // its chunk kept, cleared (TestArenaReset), no cell taken
			if taken := f.FieldByName("cells").FieldByName("taken").Int(); taken != 0 {
				t.Errorf("released: the arena has %d cells taken", taken)
			}
		case name == "vars": // extra's storage kept, empty
			if rw.vars.extra.Len() != 0 {
				t.Errorf("released: vars has %d extra entries", rw.vars.extra.Len())
			}
			for j := range f.NumField() {
				if vf := f.Type().Field(j).Name; vf != "extra" && !f.Field(j).IsZero() {
					t.Errorf("released: vars.%s is not zero", vf)
				}
			}
		case storage[name]:
			if f.Len() != 0 {
				t.Errorf("released: %s has %d items", name, f.Len())
			}
		case !f.IsZero():
			t.Errorf("released: %s is not zero", name)
		}
	}
	checkStorageZero(t, rw)

	// a request of one message (release zeroes a few messages' storage one by one)
	one, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "q", "name": "n"}], "bos_token": "<s>", "eos_token": "</s>"}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := new(Server).rewrite(rw, tmpl, &one.Input); err != nil {
		t.Fatal(err)
	}
	if len(rw.msgs) != 1 || rw.msgs[0].name != "n" {
		t.Fatalf("the rewrite of one message parsed %d messages", len(rw.msgs))
	}
	rw.release()
	checkStorageZero(t, rw)
}

// checkStorageZero fails unless the room of each of rw's slices is zero up to its
// capacity: a released rewrite keeps no message of its request.
func checkStorageZero(t *testing.T, rw *llamaRewrite) {
	t.Helper()
	v := reflect.ValueOf(rw).Elem()
	for _, name := range []string{"fields", "msgs", "parts", "calls", "jm"} {
		f := v.FieldByName(name)
		room := f.Slice(0, f.Cap())
		for i := range room.Len() {
			if !room.Index(i).IsZero() {
				t.Errorf("released: %s[%d] is not zero", name, i)
			}
		}
	}
}
