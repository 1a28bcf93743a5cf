package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/testenv"
)

// ProvenanceReport is what Provenance measured.
type ProvenanceReport struct {
	// Renders counts the renders with segments that gave a prompt, by variant of the
	// requests: "cases" (the oracle's), "sentinels" (every string of the request but
	// roles and part types carrying a sentinel), "sentinels-all" (roles too).
	Renders map[string]int
	// Sentinels counts the sentinel occurrences in prompts; Violations lists those not
	// wholly inside a data segment (template, case, profile, where).
	Sentinels  int
	Violations []string
	// Tokens counts the occurrences, in the prompts of the oracle's cases, of the
	// special-token strings a template's own text contains (that the request does
	// not); InMarkup those that lie wholly in markup. Imprecise lists, by template, the
	// tokens that did not.
	Tokens, InMarkup int
	// Completed counts the tokens of Tokens not in markup that the request completes:
	// their first and last bytes are template text, data is between them
	// ('<|' + message['role'] + '|>'), so no sound render can mark them markup.
	Completed int
	Imprecise map[string]map[string]int
	// Unexplained are the templates of Imprecise where tmplgen audit (ir.Origins) finds
	// no template text that a render can only mark as data.
	Unexplained []string
}

// sentinel is the text appended to the request's k'th string: special tokens of the
// commonest format around a marker no template writes.
func sentinel(k int) string { return fmt.Sprintf("<|im_end|>«%d»<|im_start|>", k) }

// sentinelMark finds the markers of sentinels (what survives of one a template cuts).
var sentinelMark = regexp.MustCompile(`«\d+»`)

// Provenance renders every template of the shared corpus (the llama.cpp/ folder unless
// testenv.FullConformance) on each of the oracle's cases under the three profiles, with
// segments (harness.Request.Segments, which fails a render whose prompt differs from
// the render's without segments or whose segments do not cover it), on the cases as
// they are and with a sentinel in every string of the request, and measures where the
// sentinels and the templates' own special tokens land.
func Provenance(t *testing.T, root string) ProvenanceReport {
	t.Helper()
	shared := testenv.Shared(t, root)
	var filter *regexp.Regexp
	if !testenv.FullConformance(t) {
		filter = regexp.MustCompile(`^llama\.cpp/`)
	}
	srcs, err := harness.ReadTemplateDir(filepath.Join(shared, "templates"), filter)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := harness.ReadCases(filepath.Join(shared, "oracle", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	units, _ := compiler.Compile(srcs)   // a template that does not compile renders nothing
	lowered := map[string]*ir.Template{} // each template's IR, for its audit
	tokens := map[string][]string{}      // the special tokens each template writes literally
	for _, s := range srcs {
		if t, err := ir.Compile(s.File, s.Text); err == nil {
			lowered[s.Name], tokens[s.Name] = t, ir.SpecialTokens(t)
		}
	}
	type sent struct {
		variant, template, id string
		profile               harness.Profile
		request               string
	}
	var pairs []harness.Pair
	var sents []sent
	ids := slices.Sorted(maps.Keys(cases))
	variants := map[string]map[string]string{} // by case id, the requests of each variant
	for _, id := range ids {
		variants[id] = map[string]string{"cases": string(cases[id])}
		for _, v := range []struct {
			name  string
			roles bool
		}{{"sentinels", false}, {"sentinels-all", true}} {
			req, err := withSentinels(cases[id], v.roles)
			if err != nil {
				t.Fatalf("case %s: %v", id, err)
			}
			variants[id][v.name] = req
		}
	}
	for _, u := range units {
		for _, id := range ids {
			for _, variant := range slices.Sorted(maps.Keys(variants[id])) {
				req := variants[id][variant]
				for _, p := range []harness.Profile{harness.Transformers, harness.LlamaServer, harness.VLLM} {
					pairs = append(pairs, harness.Pair{Template: u.Name, Case: id, Request: []byte(req), Profile: p})
					sents = append(sents, sent{variant, u.Name, id, p, req})
				}
			}
		}
	}
	got, _, err := harness.RenderPairs(t.TempDir(), units, nil, pairs, nil, harness.RenderOptions{Now: harness.OracleNow, Segments: true})
	if err != nil {
		t.Fatal(err)
	}
	r := ProvenanceReport{Renders: map[string]int{}, Imprecise: map[string]map[string]int{}}
	for i, res := range got {
		s := sents[i]
		where := fmt.Sprintf("%s %s (%s, %s)", s.template, s.id, s.profile, s.variant)
		if res.Error != nil && strings.Contains(*res.Error, "segments") {
			t.Errorf("%s: %s", where, *res.Error)
			continue
		}
		if res.Prompt == nil {
			continue
		}
		r.Renders[s.variant]++
		prompt := *res.Prompt
		inData := func(start, end int) bool {
			for _, d := range res.Data {
				if d[0] <= start && end <= d[1] {
					return true
				}
			}
			return false
		}
		if s.variant != "cases" {
			for _, m := range sentinelMark.FindAllStringIndex(prompt, -1) {
				start, end := m[0], m[1]
				// the whole sentinel where it is whole
				if strings.HasSuffix(prompt[:start], "<|im_end|>") && strings.HasPrefix(prompt[end:], "<|im_start|>") {
					start, end = start-len("<|im_end|>"), end+len("<|im_start|>")
				}
				r.Sentinels++
				if !inData(start, end) {
					r.Violations = append(r.Violations, fmt.Sprintf("%s: %q at %d is not data", where, prompt[start:end], start))
				}
			}
			continue
		}
		given := requestText(s.request)
		for _, tok := range tokens[s.template] {
			if strings.Contains(given, tok) {
				continue // the request may write it as data
			}
			for at := 0; ; {
				i := strings.Index(prompt[at:], tok)
				if i < 0 {
					break
				}
				start, end := at+i, at+i+len(tok)
				at = end
				r.Tokens++
				if !overlapsData(res.Data, start, end) {
					r.InMarkup++
					continue
				}
				if !overlapsData(res.Data, start, start+1) && !overlapsData(res.Data, end-1, end) {
					r.Completed++
				}
				if r.Imprecise[s.template] == nil {
					r.Imprecise[s.template] = map[string]int{}
				}
				r.Imprecise[s.template][fmt.Sprintf("%s %s %s", s.profile, s.id, tok)]++
			}
		}
	}
	for _, s := range srcs {
		if r.Imprecise[s.Name] == nil {
			continue
		}
		if _, losses := ir.Origins(lowered[s.Name]); len(losses) == 0 {
			r.Unexplained = append(r.Unexplained, s.Name)
		}
	}
	return r
}

// requestText returns the strings of a JSON request, decoded, in one text.
func requestText(req string) string {
	var v any
	if err := json.Unmarshal([]byte(req), &v); err != nil {
		return req
	}
	return fmt.Sprint(v)
}

// overlapsData reports whether any byte of [start, end) is in the data ranges.
func overlapsData(data [][2]int, start, end int) bool {
	for _, d := range data {
		if d[0] < end && start < d[1] {
			return true
		}
	}
	return false
}

// withSentinels returns the request with a sentinel (a numbered one each) appended to
// every string of its messages, tools, documents and chat_template_kwargs, and to the
// keys of the properties of tool parameters; roles and content part types keep theirs
// unless roles.
func withSentinels(req []byte, roles bool) (string, error) {
	v, err := jinja2.ParseJSON(req)
	if err != nil {
		return "", err
	}
	k := 0
	mark := func(s string) jinja2.Value {
		k++
		return jinja2.Str(s + sentinel(k))
	}
	var walk func(v jinja2.Value, key string) jinja2.Value
	walk = func(v jinja2.Value, key string) jinja2.Value {
		switch v.Kind() {
		case jinja2.KindString:
			if !roles && (key == "role" || key == "type") {
				return v
			}
			return mark(v.Text())
		case jinja2.KindList:
			items := make([]jinja2.Value, len(v.Items()))
			for i, it := range v.Items() {
				items[i] = walk(it, "")
			}
			return jinja2.ListOf(items)
		case jinja2.KindDict:
			d := v.AsDict()
			out := jinja2.NewDict(d.Len())
			for i, key2 := range d.Keys() {
				name := key2.Text()
				newKey := key2
				if key == "properties" {
					newKey = mark(name)
				}
				out.Set(newKey, walk(d.Values()[i], name))
			}
			return jinja2.DictValue(out)
		}
		return v
	}
	top := v.AsDict()
	out := jinja2.NewDict(top.Len())
	for i, key := range top.Keys() {
		val := top.Values()[i]
		switch key.Text() {
		case "messages", "tools", "documents", "chat_template_kwargs":
			val = walk(val, key.Text())
		}
		out.Set(key, val)
	}
	return string(jinja2.AppendJSON(nil, jinja2.DictValue(out))), nil
}
