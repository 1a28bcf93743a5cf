package llamaserver_test

import (
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// TestVarsAreWhatTheRenderSees: the variables Vars returns are those the render looks up,
// each with the same value, and a name Vars lacks is undefined in the render, for
// requests whose kwargs replace variables the server defines, add others, and come with
// the variables llama-server defines after them.
func TestVarsAreWhatTheRenderSees(t *testing.T) {
	deepseekV4 := generic
	deepseekV4.Handler, deepseekV4.SortToolResults = "deepseek_v3_2", true
	thinking := generic
	thinking.Thinking = true
	requests := []struct {
		caps    string
		request string
	}{
		{"generic", `{"messages": [{"role": "user", "content": "hi"}]}`},
		{"generic", `{"messages": [{"role": "user", "content": "hi"}], "add_generation_prompt": false}`},
		{"generic", `{"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "f"}}],
			"chat_template_kwargs": {"zeta": 1, "bos_token": "B", "alpha": [2], "tools": "T", "add_generation_prompt": false}}`},
		{"generic", `{"messages": [{"role": "user", "content": "hi"}], "chat_template_kwargs": {"messages": [], "date_string": "today", "enable_thinking": true}}`},
		{"thinking", `{"messages": [{"role": "user", "content": "hi"}], "reasoning_effort": "high", "chat_template_kwargs": {"preserve_reasoning": true, "clear_thinking": 5}}`},
		{"thinking", `{"messages": [{"role": "user", "content": "hi"}], "chat_template_kwargs": {"reasoning_effort": "low", "n": 123456789012345678901234567890}}`},
		{"deepseek_v4", `{"messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "json_object", "schema": {"type": "object"}},
			"chat_template_kwargs": {"response_format": "mine"}}`},
	}
	caps := map[string]tmplgen.Template{"generic": {Caps: generic}, "thinking": {Caps: thinking}, "deepseek_v4": {Caps: deepseekV4}}
	others := []string{"foo", "add_generation_prompt", "tools", "documents", "reasoning_strength", "response_format", "preserve_thinking"}
	for _, r := range requests {
		req, err := tmplgen.ParseRequest([]byte(r.request))
		if err != nil {
			t.Fatal(err)
		}
		req.Now = time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
		tmpl := caps[r.caps]
		tmpl.Name, tmpl.File = "vars", "vars.jinja"
		tmpl.Func = func(*jinja2.Writer) {}
		vars, err := llamaserver.Vars(&tmpl, &req.Input)
		if err != nil {
			t.Fatalf("%s: %v", r.request, err)
		}
		var want, got []byte
		for i, k := range vars.Keys() {
			want = append(want, k.Text()+"="...)
			want = jinja2.AppendJSON(want, vars.Values()[i])
			want = append(want, '\n')
		}
		for _, name := range others {
			if !vars.Has(jinja2.Str(name)) {
				want = append(want, name+" undefined\n"...)
			}
		}
		tmpl.Func = func(w *jinja2.Writer) {
			for _, k := range vars.Keys() {
				if v := w.Lookup(k.Text()); !v.IsUndefined() { // (llama-server's probes of the template lack some)
					w.WriteString(k.Text() + "=" + string(jinja2.AppendJSON(nil, v)) + "\n")
				}
			}
			for _, name := range others {
				if !vars.Has(jinja2.Str(name)) && w.Lookup(name).IsUndefined() {
					w.WriteString(name + " undefined\n")
				}
			}
		}
		if got, err = llamaserver.AppendRender(nil, &tmpl, &req.Input); err != nil {
			t.Fatalf("%s: %v", r.request, err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\nthe render sees\n%s\nVars gives\n%s", r.request, got, want)
		}
	}
}
