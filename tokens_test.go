package tmplgen_test

import (
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// printTokens is a template function that prints the bos_token, then the special
// tokens it sees by name.
func printTokens(w *jinja2.Writer) {
	w.WriteString(w.Lookup("bos_token").String() + "|")
	for _, n := range []string{"bos_token", "eos_token", "unk_token"} {
		w.WriteString(n + "=" + w.Lookup(n).String() + ";")
	}
}

// TestTemplateTokens: a template generated from a model file renders with the model's
// special tokens and tokenizer settings, unless the input gives its own.
func TestTemplateTokens(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: printTokens, Caps: llamacpp.Capabilities{SystemRole: true, StringContent: true, Handler: "generic", ReasoningMode: "none"},
		Tokens: map[string]string{"bos_token": "<B>", "eos_token": "<E>"}, AddBOS: true}
	tests := []struct {
		name   string
		in     tmplgen.Input
		render func(*tmplgen.Template, *tmplgen.Input) (string, error)
		want   string
	}{
		{"the model's tokens", tmplgen.Input{Messages: jinja2.NewList()}, (*tmplgen.Template).Render, "<B>|bos_token=<B>;eos_token=<E>;unk_token=;"},
		{"the input's own win", tmplgen.Input{Messages: jinja2.NewList(), SpecialTokens: map[string]string{"bos_token": "<s>", "unk_token": "<u>"}},
			(*tmplgen.Template).Render, "<s>|bos_token=<s>;eos_token=<E>;unk_token=<u>;"},
		{"llama-server strips the bos the tokenizer adds", tmplgen.Input{Messages: jinja2.NewList()},
			llamaserver.Render, "|bos_token=<B>;eos_token=<E>;unk_token=;"},
	}
	for _, tt := range tests {
		in := tt.in
		got, err := tt.render(tmpl, &in)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
		if in.SpecialTokens != nil && len(in.SpecialTokens) != len(tt.in.SpecialTokens) {
			t.Errorf("%s: the input was changed: %v", tt.name, in.SpecialTokens)
		}
	}
}
