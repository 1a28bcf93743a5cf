package llamaprobe

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/internal/testenv"
)

// capsColumns are the capabilities of testdata/llama_server/llama_caps.tsv, in its order.
var capsColumns = []struct {
	name string
	get  func(*llamacpp.Capabilities) bool
}{
	{"supports_system_role", func(c *llamacpp.Capabilities) bool { return c.SystemRole }},
	{"supports_string_content", func(c *llamacpp.Capabilities) bool { return c.StringContent }},
	{"supports_typed_content", func(c *llamacpp.Capabilities) bool { return c.TypedContent }},
	{"supports_tools", func(c *llamacpp.Capabilities) bool { return c.Tools }},
	{"supports_tool_calls", func(c *llamacpp.Capabilities) bool { return c.ToolCalls }},
	{"supports_parallel_tool_calls", func(c *llamacpp.Capabilities) bool { return c.ParallelToolCalls }},
	{"supports_object_arguments", func(c *llamacpp.Capabilities) bool { return c.ObjectArguments }},
	{"supports_preserve_reasoning", func(c *llamacpp.Capabilities) bool { return c.PreserveReasoning }},
}

// The agreement with llama.cpp's own detection that the capability computation must
// keep (raise them when it gets better): templates whose eight capabilities all equal
// what llama.cpp's engine finds, of those llama.cpp parses; and templates whose
// enable_thinking default equals llama-server's, of those it loads.
const (
	wantCapsAgree     = 513
	wantThinkingAgree = 508
)

// TestCapabilitiesAgreeWithLlamaCpp computes the capabilities of every template of the
// shared corpus and compares them with what llama.cpp detects itself, recorded in
// testdata/llama_server/llama_caps.tsv by record_caps.py.
func TestCapabilitiesAgreeWithLlamaCpp(t *testing.T) {
	shared := filepath.Join(testenv.Shared(t, filepath.Join("..", "..")), "templates")
	f, err := os.Open(filepath.Join("..", "..", "testdata", "llama_server", "llama_caps.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	var parsed, capsAgree, loaded, thinkingAgree int
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		path, thinking := cols[0], cols[len(cols)-1]
		if thinking == "parse" {
			continue
		}
		text, err := os.ReadFile(filepath.Join(shared, path))
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := ir.Compile(filepath.Base(path), string(text))
		if err != nil {
			t.Logf("%s: %v", path, err)
			continue
		}
		c := Capabilities(tmpl)
		parsed++
		var diffs []string
		for i, col := range capsColumns {
			if got, want := col.get(&c), cols[1+i] == "1"; got != want {
				diffs = append(diffs, col.name)
			}
		}
		if len(diffs) == 0 {
			capsAgree++
		} else {
			t.Logf("%s: capabilities differ from llama.cpp's: %s", path, strings.Join(diffs, ", "))
		}
		if thinking == "refused" {
			continue
		}
		loaded++
		if got := c.Thinking; got == (thinking == "1") {
			thinkingAgree++
		} else {
			t.Logf("%s: enable_thinking default %v, llama-server's %s (handler %s, reasoning %s %q %q)", path, got, thinking, c.Handler, c.ReasoningMode, c.ReasoningStart, c.ReasoningEnd)
		}
	}
	t.Logf("capabilities agree on %d of %d templates llama.cpp parses; the enable_thinking default on %d of %d it loads", capsAgree, parsed, thinkingAgree, loaded)
	if capsAgree < wantCapsAgree {
		t.Errorf("capabilities agree with llama.cpp on %d templates, want at least %d", capsAgree, wantCapsAgree)
	}
	if thinkingAgree < wantThinkingAgree {
		t.Errorf("the enable_thinking default agrees with llama-server on %d templates, want at least %d", thinkingAgree, wantThinkingAgree)
	}
}

// TestRecordedLoadErrors: for each template of testdata/llama_engine, Capabilities
// reports the error llama-server (llama_chat_driver) refused it with at load, word for
// word, and no error for a template it started with. A refusal because a probe render
// of the parser generation fails is not a load error here: the template's llama.cpp
// render function fails on every request the same way (engine-llama_server checks it).
func TestRecordedLoadErrors(t *testing.T) {
	const refused = "template rejected at load (server would not start): "
	dir := filepath.Join("..", "..", "testdata", "llama_engine")
	files, err := filepath.Glob(filepath.Join(dir, "templates", "*.jinja"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates under %s (%v)", dir, err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "expected", filepath.Base(file)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var exp struct {
			Cases map[string]map[string]struct{ Error *string } `json:"cases"`
		}
		if err := json.Unmarshal(data, &exp); err != nil {
			t.Fatal(err)
		}
		want := ""
		for _, c := range exp.Cases {
			if e := c["llama_server"].Error; e != nil && strings.HasPrefix(*e, refused) && !probeRenderError(*e) {
				want = strings.TrimPrefix(*e, refused)
				// the lexer's and parser's errors, as common_chat_templates_init passes them on
				if inner, ok := strings.CutPrefix(want, "std::exception (common_chat_templates_init: error: "); ok {
					want = strings.TrimSuffix(inner, ")")
				}
			}
		}
		tmpl, _, err := ir.CompileLenient(filepath.Base(file), string(src))
		if err != nil {
			t.Fatal(err)
		}
		// the recording decoded the error's text as UTF-8 (a byte of a name outside ASCII
		// is a replacement character there)
		if got := strings.ToValidUTF8(Capabilities(tmpl).LoadError, "\uFFFD"); got != want {
			t.Errorf("%s: LoadError\n got %q\nwant %q", file, got, want)
		}
	}
}

// probeRenderError reports whether a refusal llama-server recorded is the error of a
// render of the parser generation (the engine's, or a builtin it does not implement).
func probeRenderError(e string) bool {
	return strings.Contains(e, "\n------------\nWhile executing") || strings.Contains(e, "failed: NotImplemented: ")
}

// TestToolFormat checks what the generic handler's tool analysis finds in the tool-call
// sections templates render (Llama 3.1, Mistral Nemo, a bare JSON array, DeepSeek V3.1,
// MiniMax M2, GLM 4.6, a Python call, FunctionGemma's), against what llama-server b10587
// builds for them (testdata/fields, cases tool_schema_*, and the same requests on every
// template of ../shared).
func TestToolFormat(t *testing.T) {
	for _, tt := range []struct {
		section string
		args    string
		trigger bool
	}{
		{`{"name": "FFF_FIRST_FUN_F", "parameters": {"AA_ARG_FST_AA": "XXXX", "BB_ARG_SND_BB": "YYYY"}}`, "json", false},
		{`[TOOL_CALLS][{"name": "FFF_FIRST_FUN_F", "arguments": {"AA_ARG_FST_AA": "XXXX"}, "id": "call00001"}]`, "json", true},
		{`[{"name": "FFF_FIRST_FUN_F", "arguments": {"AA_ARG_FST_AA": "XXXX"}}]`, "json", false},
		{"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>FFF_FIRST_FUN_F<｜tool▁sep｜>{\"AA_ARG_FST_AA\": \"XXXX\"}", "json", true},
		{"\n<minimax:tool_call>\n<invoke name=\"FFF_FIRST_FUN_F\">\n<parameter name=\"AA_ARG_FST_AA\">XXXX</parameter>\n</invoke>", "tagged", true},
		{"<tool_call>FFF_FIRST_FUN_F\n<arg_key>AA_ARG_FST_AA</arg_key>\n<arg_value>XXXX</arg_value>\n</tool_call>", "tagged", true},
		{"[FFF_FIRST_FUN_F(AA_ARG_FST_AA=%s, BB_ARG_SND_BB=%s)]", "tagged", false},
		{"<start_function_call>call:FFF_FIRST_FUN_F{AA_ARG_FST_AA:<escape>XXXX<escape>}<end_function_call>", "tagged", false},
		{"", "", false},
	} {
		args, trigger := toolFormat("", tt.section, reasoning{})
		if args != tt.args || trigger != tt.trigger {
			t.Errorf("%q: %q, %v; want %q, %v", tt.section, args, trigger, tt.args, tt.trigger)
		}
	}
}
