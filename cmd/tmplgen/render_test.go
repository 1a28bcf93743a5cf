package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/ggufwrite"
	"github.com/tmplgen/tmplgen/internal/version"
)

// TestRender renders the README's request through the compiled Qwen3 renderer and
// compares with Python Jinja2's rendering (recorded by testdata/requests/record.py),
// with the request given each way render takes it.
func TestRender(t *testing.T) {
	const reqFile = "../../testdata/requests/weather.json"
	want, err := os.ReadFile("../../testdata/requests/weather.Qwen-Qwen3-0.6B.txt")
	if err != nil {
		t.Fatal(err)
	}
	req, err := os.ReadFile(reqFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"-request", reqFile}},
		{"", []string{reqFile}},
		{string(req), []string{"-request", "-"}},
		{string(req), nil},
	} {
		code, stdout, stderr := runCLI(t, tt.stdin, append([]string{"render", "-template", "Qwen-Qwen3-0.6B"}, tt.args...)...)
		if code != 0 || stdout != string(want) {
			t.Errorf("render %v: exit %d, stderr %q; output differs from Python Jinja2:\n got  %q\n want %q", tt.args, code, stderr, stdout, want)
		}
	}
}

// TestRenderSegments renders with -segments: without its brackets the output is
// Python Jinja2's prompt, each message's content is in a data segment, and the
// template's own <|im_start|> and <|im_end|> are not.
func TestRenderSegments(t *testing.T) {
	want, err := os.ReadFile("../../testdata/requests/weather.Qwen-Qwen3-0.6B.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "render", "-segments", "-template", "Qwen-Qwen3-0.6B", "../../testdata/requests/weather.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if plain := strings.NewReplacer("⟦", "", "⟧", "").Replace(stdout); plain != string(want) {
		t.Errorf("render -segments without its brackets differs from Python Jinja2:\n got  %q\n want %q", plain, want)
	}
	var data, markup []string
	for i, part := range strings.Split(stdout, "⟦") {
		if i == 0 {
			markup = append(markup, part)
			continue
		}
		d, m, ok := strings.Cut(part, "⟧")
		if !ok {
			t.Fatalf("a ⟦ without its ⟧ in %q", stdout)
		}
		data, markup = append(data, d), append(markup, m)
	}
	for _, content := range []string{"You are a helpful assistant.", "What's the weather in Paris?", "It is 21 °C in Paris.", "Thanks! And tomorrow?"} {
		if !slices.ContainsFunc(data, func(d string) bool { return strings.Contains(d, content) }) {
			t.Errorf("%q is in no data segment of %q", content, stdout)
		}
	}
	for _, d := range data {
		if strings.Contains(d, "<|im_start|>") || strings.Contains(d, "<|im_end|>") {
			t.Errorf("data segment %q holds the template's special tokens", d)
		}
	}
	if !strings.Contains(strings.Join(markup, ""), "<|im_start|>assistant") {
		t.Errorf("the generation prompt is not markup in %q", stdout)
	}
}

// TestRenderModel renders through the chat template of a model file (the project's own
// tiny GGUF in testdata/models, carrying templates/roka.jinja) with the model's special
// tokens, and compares with Python Jinja2's rendering.
func TestRenderModel(t *testing.T) {
	want, err := os.ReadFile("../../testdata/requests/weather.roka-tiny.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "render", "-model", "../../testdata/models/roka-tiny.gguf", "../../testdata/requests/weather.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != string(want) {
		t.Errorf("render -model output differs from Python Jinja2:\n got  %q\n want %q", stdout, want)
	}
}

// TestRenderModelLlamaServer renders the model's template under the llama-server
// profile (spelled either way), with the tokenizer flags of the model file (its
// tokenizer adds BOS, so the rendered one is removed), and compares with llama.cpp's
// rendering (recorded by testdata/requests/record_llama.py).
func TestRenderModelLlamaServer(t *testing.T) {
	want, err := os.ReadFile("../../testdata/requests/weather.roka-tiny.llama-server.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, profile := range []string{"llama-server", "llama_server"} {
		code, stdout, stderr := runCLI(t, "", "render", "-model", "../../testdata/models/roka-tiny.gguf", "-profile", profile, "-request", "../../testdata/requests/weather.json")
		if code != 0 {
			t.Fatalf("-profile %s: exit %d: %s", profile, code, stderr)
		}
		if stdout != string(want) {
			t.Errorf("render -profile %s differs from llama.cpp:\n got  %q\n want %q", profile, stdout, want)
		}
	}
}

// TestRenderErrors: every flag combination render cannot honour is a usage error
// (exit 2), and bad input gives a one-line error saying what and where (exit 1).
func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	truncated := writeFile(t, filepath.Join(dir, "truncated.gguf"), "GGUF\x03\x00\x00\x00\x00\x00")
	tmpl := writeFile(t, filepath.Join(dir, "t.jinja"), "{% for m in messages %}{{ m.content }}{% endfor %}")
	divide := writeFile(t, filepath.Join(dir, "divide.jinja"), "{{ messages | length }}\n{{ 1 // (messages | length) }}")
	broken := writeFile(t, filepath.Join(dir, "broken.jinja"), "ok\n{{ x + }}")
	brokenModel := filepath.Join(dir, "broken.gguf")
	if err := (&ggufwrite.Model{Name: "Broken", Architecture: "llama", ChatTemplate: "ok\n{{ x + }}", Tokens: []string{"<s>", "</s>"}, BOS: 0, EOS: 1}).WriteFile(brokenModel); err != nil {
		t.Fatal(err)
	}
	badReq := writeFile(t, filepath.Join(dir, "bad.json"), "{\n  \"messages\": [\n    {\"role\": \"user\",, \"content\": \"hi\"}\n  ]\n}\n")
	const model, qwen, req = "../../testdata/models/roka-tiny.gguf", "Qwen-Qwen3-0.6B", "../../testdata/requests/weather.json"
	// the programs built first, so that their errors are all render prints
	catalog(t)
	runCLI(t, `{"messages": []}`, "render", "-template", divide)
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no template", "", []string{"render"}, 2, "give one of -model and -template"},
		{"both templates", "", []string{"render", "-model", model, "-template", qwen}, 2, "give one of -model and -template"},
		{"unknown profile", "", []string{"render", "-template", qwen, "-profile", "sglang"}, 2, `unknown profile "sglang"`},
		{"variant of a template", "", []string{"render", "-template", qwen, "-variant", "tool_use", req}, 2, "-variant chooses among a -model's templates"},
		{"template file as model", "", []string{"render", "-model", tmpl, req}, 2, "t.jinja is a template file, not a model"},
		{"two requests", "", []string{"render", "-template", qwen, req, req}, 2, "want at most one REQUEST file"},
		{"request twice", "", []string{"render", "-template", qwen, "-request", req, req}, 2, "give the request once"},
		{"model without a template", "", []string{"render", "-model", "../../testdata/models/no-template.gguf"}, 1, "no chat template"},
		{"model without that variant", "", []string{"render", "-model", model, "-variant", "nope"}, 1, `no chat template named "nope"`},
		{"truncated model", "", []string{"render", "-model", truncated}, 1, "gguf: " + truncated + ": offset "},
		{"missing model", "", []string{"render", "-model", filepath.Join(dir, "nope.gguf")}, 1, "nope.gguf"},
		{"missing file", "", []string{"render", "-template", filepath.Join(dir, "nope.jinja")}, 1, "nope.jinja: no such file or directory"},
		{"unknown template", `{"messages": []}`, []string{"render", "-template", "nope"}, 1, `"nope" is neither a file nor the name of a catalog template (tmplgen list shows them)`},
		{"missing request", "", []string{"render", "-template", qwen, filepath.Join(dir, "nope.json")}, 1, "nope.json"},
		{"malformed request", `{"messages": [`, []string{"render", "-template", qwen}, 1, "standard input: request: "},
		{"malformed request file", "", []string{"render", "-template", qwen, badReq}, 1, badReq + ": request: "},
		{"malformed request file", "", []string{"render", "-template", qwen, badReq}, 1, "at line 3, column 21"},
		{"a model as the request", "", []string{"render", "-template", qwen, model}, 1, "roka-tiny.gguf: request: "},
		{"messages not a list", `{"messages": {}}`, []string{"render", "-template", qwen}, 1, `"messages" must be a list`},
		// (transformers hands the template such a message, as the reference does)
		{"message not an object", `{"messages": ["hi"]}`, []string{"render", "-template", qwen, "-profile", "llama-server"}, 1, "All non-assistant messages must contain 'content'"},
		{"the model's template does not compile", `{"messages": []}`, []string{"render", "-model", brokenModel}, 1, brokenModel + ": template.jinja: line 2, column 8: unexpected 'end of print statement'"},
		{"the template file does not compile", `{"messages": []}`, []string{"render", "-template", broken}, 1, broken + ": line 2, column 8: unexpected 'end of print statement'"},
		{"the template file's error", `{"messages": []}`, []string{"render", "-template", divide}, 1, divide + ":2:1 ({{ }}): ZeroDivisionError: integer division or modulo by zero"},
		{"raise_exception", `{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]}`,
			[]string{"render", "-template", "google-gemma-2-2b-it"}, 1, "TemplateError: Conversation roles must alternate"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line containing %q", tt.name, code, stderr, tt.code, tt.want)
		}
	}
}

// TestRenderFile renders a template file: it is compiled into the cache (in a folder of
// this tmplgen's version, named by the template's sha256 and the sha256 of the Go built)
// and rendered there; the second time the cached build is used. An empty file is a
// template too.
func TestRenderFile(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("TMPLGEN_CACHE", cache)
	text := "{% for m in messages %}[{{ m.role | upper }}] {{ m.content }}\n{% endfor %}{{ bos_token }}"
	tmpl := writeFile(t, filepath.Join(t.TempDir(), "new.jinja"), text)
	req := `{"messages": [{"role": "user", "content": "hi"}], "bos_token": "<s>"}`
	code, stdout, stderr := runCLI(t, req, "render", "-template", tmpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sum := sha256.Sum256([]byte(text))
	if want := "[USER] hi\n<s>"; stdout != want {
		t.Errorf("got %q, want %q", stdout, want)
	}
	if !strings.Contains(stderr, "compiling template sha256 "+hex.EncodeToString(sum[:])) {
		t.Errorf("stderr should say the template was compiled, naming its sha256: %q", stderr)
	}
	entries, err := filepath.Glob(filepath.Join(cache, "*", "*"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache entries %v (%v), want one", entries, err)
	}
	if dir, base := filepath.Split(entries[0]); !strings.HasPrefix(base, hex.EncodeToString(sum[:])+"-") || !strings.HasPrefix(filepath.Base(dir), version.Version+"-") {
		t.Errorf("cache entry %s, want VERSION-BUILD/SHA256-GOSUM", entries[0])
	}
	if _, err := os.Stat(filepath.Join(entries[0], "harness")); err != nil {
		t.Errorf("no cached build: %v", err)
	}
	code, stdout, stderr = runCLI(t, req, "render", "-template", tmpl)
	if code != 0 || stdout != "[USER] hi\n<s>" || stderr != "" {
		t.Errorf("second render: exit %d, %q, stderr %q", code, stdout, stderr)
	}
	empty := writeFile(t, filepath.Join(t.TempDir(), "empty.jinja"), "")
	if code, stdout, stderr := runCLI(t, req, "render", "-template", empty); code != 0 || stdout != "" {
		t.Errorf("an empty template file: exit %d, %q, stderr %q; want an empty prompt", code, stdout, stderr)
	}
}

// TestRenderWithoutGo: without the Go toolchain, rendering a template file and
// listing the catalog, which build a program the first time, say so plainly and leave
// nothing in the cache.
func TestRenderWithoutGo(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("TMPLGEN_CACHE", cache)
	t.Setenv("PATH", t.TempDir())
	tmpl := writeFile(t, filepath.Join(t.TempDir(), "new.jinja"), "{{ messages | length }} messages")
	for _, args := range [][]string{{"render", "-template", tmpl}, {"list"}} {
		code, stdout, stderr := runCLI(t, `{"messages": []}`, args...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, "needs the Go toolchain, and there is no go command on PATH") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	var left []string
	filepath.WalkDir(cache, func(path string, d os.DirEntry, err error) error {
		if path != cache && (err != nil || !d.IsDir() || filepath.Dir(path) != cache) {
			left = append(left, path)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("the failed build left %v in the cache", left)
	}
}
