package tmplgen_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/internal/testenv"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
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
		ReadsTokens: []string{"bos_token", "eos_token"}, Tokens: map[string]string{"bos_token": "<B>", "eos_token": "<E>"}, AddBOS: true}
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

// TestModelTokensNoCopy: an input without special tokens of its own (a service's, whose
// template is its model's) is rendered with the model's without a copy of it: the render
// allocates nothing (counted without the race detector, whose pools drop at random).
func TestModelTokensNoCopy(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", ReadsTokens: []string{"bos_token"}, Tokens: map[string]string{"bos_token": "<B>"},
		Func: func(w *jinja2.Writer) { jinja2.Write(w, w.Lookup("bos_token")) }}
	in := &tmplgen.Input{Messages: jinja2.NewList()}
	var out []byte
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		if out, err = tmpl.AppendRender(out[:0], in); err != nil {
			t.Fatal(err)
		}
	})
	if string(out) != "<B>" || allocs != 0 && !testenv.RaceEnabled {
		t.Errorf("got %q in %v allocations, want %q in none", out, allocs, "<B>")
	}
	// llama-server's profile: no more allocations than for an input that gives them
	tmpl.Caps = llamacpp.Capabilities{SystemRole: true, StringContent: true, Handler: "generic", ReasoningMode: "none"}
	given := &tmplgen.Input{Messages: jinja2.NewList(), SpecialTokens: map[string]string{"bos_token": "<B>"}}
	server := func(in *tmplgen.Input) float64 {
		return testing.AllocsPerRun(100, func() {
			var err error
			if out, err = llamaserver.AppendRender(out[:0], tmpl, in); err != nil {
				t.Fatal(err)
			}
		})
	}
	if model, own := server(in), server(given); model > own && !testenv.RaceEnabled {
		t.Errorf("llama-server: %v allocations with the model's tokens, %v with the input's", model, own)
	}
}

// TestModelTokensVars: llama-server's variables of an input without special tokens of
// its own are those Render renders with: the model's tokens.
func TestModelTokensVars(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: printTokens, Caps: llamacpp.Capabilities{SystemRole: true, StringContent: true, Handler: "generic", ReasoningMode: "none"},
		ReadsTokens: []string{"bos_token", "eos_token"}, Tokens: map[string]string{"bos_token": "<B>", "eos_token": "<E>"}}
	vars, err := llamaserver.Vars(tmpl, &tmplgen.Input{Messages: jinja2.NewList()})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range tmpl.Tokens {
		if got, _ := vars.GetStr(name); got.String() != want {
			t.Errorf("%s is %q, want the model's %q", name, got.String(), want)
		}
	}
}

// TestMissingTokens: a template that reads a special token renders only when the input
// or the template gives it, or the input allows it missing; under every profile.
func TestMissingTokens(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: printTokens, Caps: llamacpp.Capabilities{SystemRole: true, StringContent: true, Handler: "generic", ReasoningMode: "none"},
		ReadsTokens: []string{"bos_token", "eos_token", "unk_token"}, VLLM: tmplgen.VLLMFacts{Undeclared: []string{"bos_token", "eos_token", "unk_token"}}}
	profiles := map[string]func(*tmplgen.Template, *tmplgen.Input) (string, error){
		"transformers": (*tmplgen.Template).Render, "llama-server": llamaserver.Render, "vllm": vllm.Render,
	}
	given := map[string]string{"bos_token": "<s>", "eos_token": "</s>"}
	tests := []struct {
		name    string
		in      tmplgen.Input
		missing string // the profile's error names it: transformers, vllm; llama-server gives bos and eos only
		want    string
	}{
		{"no tokens", tmplgen.Input{}, "bos_token", ""},
		{"bos and eos", tmplgen.Input{SpecialTokens: given}, "unk_token", "<s>|bos_token=<s>;eos_token=</s>;unk_token=;"},
		{"allowed missing", tmplgen.Input{AllowMissingTokens: true}, "", "|bos_token=;eos_token=;unk_token=;"},
		{"as kwargs", tmplgen.Input{Kwargs: map[string]tmplgen.Value{"bos_token": jinja2.Str("<k>"), "eos_token": jinja2.Str("</k>"), "unk_token": jinja2.Str("?")}},
			"", "<k>|bos_token=<k>;eos_token=</k>;unk_token=?;"},
	}
	for _, tt := range tests {
		for name, render := range profiles {
			in := tt.in
			user := jinja2.NewDict(2)
			user.SetStr("role", jinja2.Str("user"))
			user.SetStr("content", jinja2.Str("Hi"))
			in.Messages = jinja2.NewList(jinja2.DictValue(user))
			got, err := render(tmpl, &in)
			missing := tt.missing
			if name == "llama-server" && missing == "unk_token" {
				missing = "" // llama-server gives the template bos_token and eos_token only
			}
			switch {
			case missing != "" && !errors.Is(err, tmplgen.ErrMissingToken):
				t.Errorf("%s, %s: got %q, %v; want ErrMissingToken", tt.name, name, got, err)
			case missing != "" && !strings.Contains(err.Error(), "the template reads "+missing+",") ||
				missing != "" && !strings.Contains(err.Error(), `Input.SpecialTokens["`+missing+`"]`):
				t.Errorf("%s, %s: %v does not name %s and how to give it", tt.name, name, err, missing)
			case missing == "" && err != nil:
				t.Errorf("%s, %s: %v", tt.name, name, err)
			case missing == "" && name != "llama-server" && got != tt.want:
				t.Errorf("%s, %s: got %q, want %q", tt.name, name, got, tt.want)
			}
		}
	}
}

// TestNilInput: a nil template or input is an error of every profile, not a panic.
func TestNilInput(t *testing.T) {
	tmpl, err := generated.ByName("chatml")
	if err != nil {
		t.Fatal(err)
	}
	renders := map[string]func(*tmplgen.Template, *tmplgen.Input) (string, error){
		"transformers": (*tmplgen.Template).Render, "llama-server": llamaserver.Render, "vllm": vllm.Render,
	}
	for name, render := range renders {
		if _, err := render(tmpl, nil); !errors.Is(err, tmplgen.ErrNilInput) {
			t.Errorf("%s: nil input: %v", name, err)
		}
		if _, err := render(nil, &tmplgen.Input{}); !errors.Is(err, tmplgen.ErrNilInput) {
			t.Errorf("%s: nil template: %v", name, err)
		}
	}
}

// TestCatalogTokens: a catalog template of a model whose tokens the catalog gives renders
// with them by name, Llama 3.1's prompt starting with its BOS.
func TestCatalogTokens(t *testing.T) {
	tmpl, err := generated.ByName("meta-llama-Llama-3.1-8B-Instruct")
	if err != nil {
		t.Fatal(err)
	}
	req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "Hi!"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	got, err := tmpl.Render(&req.Input)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "<|begin_of_text|><|start_header_id|>system<|end_header_id|>") {
		t.Errorf("got %q, want Llama 3.1's BOS first", got)
	}
}
