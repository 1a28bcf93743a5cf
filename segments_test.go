package tmplgen_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/internal/conformance"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
)

// TestSegmentsSound renders the templates of the shared corpus on the oracle's cases
// under the three profiles with segments (the llama.cpp/ folder by default, every
// template with TMPLGEN_CONFORMANCE=full, as .ci/run does). Every prompt must equal
// the render's without segments, with segments that cover it; with a sentinel that
// looks like special tokens in every string of the request, every sentinel in every
// prompt must lie in a data segment (soundness: no request writes markup); the special
// tokens of the templates' own text must land in markup (precision: see minPrecision);
// and tmplgen audit must explain every template that loses one to data.
func TestSegmentsSound(t *testing.T) {
	r := conformance.Provenance(t, ".")
	for i, v := range r.Violations {
		if i == 40 {
			t.Errorf("and %d more", len(r.Violations)-i)
			break
		}
		t.Error(v)
	}
	if r.Sentinels == 0 || r.Renders["sentinels"] == 0 || r.Renders["cases"] == 0 {
		t.Fatalf("nothing measured: %d sentinels in %v renders", r.Sentinels, r.Renders)
	}
	for _, tmpl := range r.Unexplained {
		t.Errorf("%s: the render marks some of its special tokens data, and tmplgen audit says of no template text that it can only be data", tmpl)
	}
	precision := float64(r.InMarkup) / float64(r.Tokens)
	written := float64(r.InMarkup) / float64(r.Tokens-r.Completed)
	t.Logf("renders %v; %d sentinels, %d not in data; template special tokens in markup: %d of %d (%.4f%%); "+
		"of the others, %d are completed by request data: %.4f%% of those the template writes whole are markup",
		r.Renders, r.Sentinels, len(r.Violations), r.InMarkup, r.Tokens, 100*precision, r.Completed, 100*written)
	var lost []string
	for _, tmpl := range slices.Sorted(maps.Keys(r.Imprecise)) {
		lost = append(lost, fmt.Sprintf("%s: %v", tmpl, r.Imprecise[tmpl]))
	}
	t.Logf("special tokens not in markup:\n%s", strings.Join(lost, "\n"))
	if written < minPrecision {
		t.Errorf("%.4f%% of the special tokens the templates write whole are markup, below %.4f%%", 100*written, 100*minPrecision)
	}
}

// minPrecision is the share of the special tokens a template writes whole (those the
// request does not complete, as in '<|' + message['role'] + '|>', which only the request
// decides and so are data) that must be markup: measured at 100% on the corpus, both
// folders; a loss the audit explains (a filter mixing a token with data) may cost some.
const minPrecision = 0.999

// TestSegmentsSpecialTokens renders a template that writes bos_token: the model's token
// (Input.SpecialTokens) is markup, a token the request body gives (ParseRequest) data,
// under each profile.
func TestSegmentsSpecialTokens(t *testing.T) {
	tmpl, err := generated.ByName("meta-llama-Llama-3.1-8B-Instruct")
	if err != nil {
		t.Fatal(err)
	}
	req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "Hi"}], "bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"}`))
	if err != nil {
		t.Fatal(err)
	}
	fromModel := req.Input
	fromModel.TokensFromRequest = false
	profiles := map[string]func(*tmplgen.Input) (string, []tmplgen.Segment, error){
		"transformers": tmpl.RenderSegments,
		"llama-server": func(in *tmplgen.Input) (string, []tmplgen.Segment, error) {
			return llamaserver.RenderSegments(tmpl, in)
		},
		"vllm": func(in *tmplgen.Input) (string, []tmplgen.Segment, error) { return vllm.RenderSegments(tmpl, in) },
	}
	for name, render := range profiles {
		for _, tt := range []struct {
			in   *tmplgen.Input
			want tmplgen.Origin
		}{{&req.Input, tmplgen.Data}, {&fromModel, tmplgen.Markup}} {
			prompt, segs, err := render(tt.in)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !strings.HasPrefix(prompt, "<|begin_of_text|>") || len(segs) == 0 {
				t.Fatalf("%s: prompt %q, segments %v", name, prompt, segs)
			}
			if s := segs[0]; s.Origin != tt.want || s.End < len("<|begin_of_text|>") {
				t.Errorf("%s, TokensFromRequest %v: the BOS is in %v %q, want %v", name, tt.in.TokensFromRequest, s.Origin, prompt[s.Start:s.End], tt.want)
			}
		}
	}
}
