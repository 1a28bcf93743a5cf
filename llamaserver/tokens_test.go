package llamaserver

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestModelTokens checks modelTokens against what it shortcuts, t.ModelInput and the
// tokens of the input it returns, for inputs that give both tokens, one or none, to templates with and
// without tokens and tokenizer settings of their own.
func TestModelTokens(t *testing.T) {
	inputs := map[string]*tmplgen.Input{
		"both":      {SpecialTokens: map[string]string{"bos_token": "<s>", "eos_token": "</s>"}},
		"bos":       {SpecialTokens: map[string]string{"bos_token": "<s>"}},
		"empty":     {SpecialTokens: map[string]string{"bos_token": "", "eos_token": ""}},
		"none":      {},
		"in_kwargs": {Kwargs: map[string]jinja2.Value{"bos_token": jinja2.Str("<s>"), "eos_token": jinja2.Str("</s>")}},
	}
	for _, tAdd := range []bool{false, true} {
		for _, inAdd := range []bool{false, true} {
			for _, tokens := range []map[string]string{nil, {"bos_token": "[BOS]", "eos_token": "[EOS]"}} {
				for name, given := range inputs {
					tmpl := &tmplgen.Template{Name: "t", AddBOS: tAdd, AddEOS: tAdd, Tokens: tokens, ReadsTokens: []string{"bos_token", "eos_token"}}
					in := *given
					in.AddBOS, in.AddEOS = inAdd, inAdd
					t.Run(fmt.Sprintf("template_adds=%v/input_adds=%v/template_tokens=%v/%s", tAdd, inAdd, tokens != nil, name), func(t *testing.T) {
						want, wantErr := tmpl.ModelInput(&in, "bos_token", "eos_token")
						got, err := modelTokens(tmpl, &in)
						if !errors.Is(err, wantErr) && fmt.Sprint(err) != fmt.Sprint(wantErr) {
							t.Fatalf("error %v, ModelInput's %v", err, wantErr)
						}
						if wantErr != nil {
							return
						}
						wantBOS, wantEOS := want.SpecialTokens["bos_token"], want.SpecialTokens["eos_token"]
						if got != (tokenizer{wantBOS, wantEOS, want.AddBOS, want.AddEOS}) {
							t.Errorf("%+v, ModelInput's %q, %q, adds %v, %v", got, wantBOS, wantEOS, want.AddBOS, want.AddEOS)
						}
					})
				}
			}
		}
	}
}
