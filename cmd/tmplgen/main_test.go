package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command with arguments and standard input, returning its exit code,
// standard output and standard error.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsage(t *testing.T) {
	if code, _, stderr := runCLI(t, ""); code != 2 || !strings.Contains(stderr, "usage:") {
		t.Errorf("no arguments: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "frobnicate"); code != 2 || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d, stderr %q", code, stderr)
	}
	if code, stdout, _ := runCLI(t, "", "help"); code != 0 || !strings.Contains(stdout, "tmplgen gen") {
		t.Errorf("help: exit %d", code)
	}
}

// TestRender renders the README's request through the compiled Qwen3 renderer and
// compares with Python Jinja2's rendering (recorded by testdata/requests/record.py).
func TestRender(t *testing.T) {
	want, err := os.ReadFile("../../testdata/requests/weather.Qwen-Qwen3-0.6B.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "render", "-template", "Qwen-Qwen3-0.6B", "-request", "../../testdata/requests/weather.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != string(want) {
		t.Errorf("render output differs from Python Jinja2:\n got  %q\n want %q", stdout, want)
	}
	req, err := os.ReadFile("../../testdata/requests/weather.json")
	if err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ := runCLI(t, string(req), "render", "-template", "Qwen-Qwen3-0.6B"); code != 0 || stdout != string(want) {
		t.Errorf("render from standard input: exit %d", code)
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
	code, stdout, stderr := runCLI(t, "", "render", "-model", "../../testdata/models/roka-tiny.gguf", "-request", "../../testdata/requests/weather.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != string(want) {
		t.Errorf("render -model output differs from Python Jinja2:\n got  %q\n want %q", stdout, want)
	}
}

// TestRenderModelLlamaServer renders the model's template under the llama-server
// profile, with the tokenizer flags of the model file (its tokenizer adds BOS, so the
// rendered one is removed), and compares with llama.cpp's rendering (recorded by
// testdata/requests/record_llama.py).
func TestRenderModelLlamaServer(t *testing.T) {
	want, err := os.ReadFile("../../testdata/requests/weather.roka-tiny.llama-server.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "render", "-model", "../../testdata/models/roka-tiny.gguf", "-profile", "llama-server", "-request", "../../testdata/requests/weather.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != string(want) {
		t.Errorf("render -profile llama-server differs from llama.cpp:\n got  %q\n want %q", stdout, want)
	}
}

// TestHash prints the sha256 of each template of a template file or a model.
func TestHash(t *testing.T) {
	roka, err := os.ReadFile("../../templates/roka.jinja")
	if err != nil {
		t.Fatal(err)
	}
	chatml, err := os.ReadFile("../../templates/builtin/chatml.jinja")
	if err != nil {
		t.Fatal(err)
	}
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	code, stdout, stderr := runCLI(t, "", "hash", "../../testdata/models/roka-tiny.gguf", "../../templates/roka.jinja")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := sum(roka) + "  Roka Tiny\n" + sum(chatml) + "  Roka Tiny:chatml\n" + sum(roka) + "  Roka Tiny:tool_use\n" + sum(roka) + "  roka\n"
	if stdout != want {
		t.Errorf("got\n%s\nwant\n%s", stdout, want)
	}
}

// TestRenderErrors: bad input gives a one-line error saying what and where, and a
// nonzero exit.
func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	truncated := filepath.Join(dir, "truncated.gguf")
	if err := os.WriteFile(truncated, []byte("GGUF\x03\x00\x00\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no template", "", []string{"render"}, 2, "give one of -model and -template"},
		{"unknown profile", "", []string{"render", "-template", "Qwen-Qwen3-0.6B", "-profile", "vllm"}, 2, `unknown profile "vllm"`},
		{"model without a template", "", []string{"render", "-model", "../../testdata/models/no-template.gguf"}, 1, "no chat template"},
		{"model without that variant", "", []string{"render", "-model", "../../testdata/models/roka-tiny.gguf", "-variant", "nope"}, 1, `no chat template named "nope"`},
		{"truncated model", "", []string{"render", "-model", truncated}, 1, "gguf: "},
		{"missing model", "", []string{"render", "-model", filepath.Join(dir, "nope.gguf")}, 1, "nope.gguf"},
		{"missing file", "", []string{"render", "-template", filepath.Join(dir, "nope.jinja")}, 1, "neither a compiled template's name nor a file"},
		{"malformed request", `{"messages": [`, []string{"render", "-template", "Qwen-Qwen3-0.6B"}, 1, "request: offset"},
		{"messages not a list", `{"messages": {}}`, []string{"render", "-template", "Qwen-Qwen3-0.6B"}, 1, `"messages" must be a list`},
		{"message not an object", `{"messages": ["hi"]}`, []string{"render", "-template", "Qwen-Qwen3-0.6B"}, 1, "messages[0] must be an object"},
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

// TestRenderUncompiled renders a template that is not in the registry: it is compiled
// into the cache (named by its sha256) and rendered there; the second time the cached
// build is used.
func TestRenderUncompiled(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("TMPLGEN_CACHE", cache)
	tmpl := filepath.Join(t.TempDir(), "new.jinja")
	text := "{% for m in messages %}[{{ m.role | upper }}] {{ m.content }}\n{% endfor %}{{ bos_token }}"
	if err := os.WriteFile(tmpl, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	req := `{"messages": [{"role": "user", "content": "hi"}], "bos_token": "<s>"}`
	code, stdout, stderr := runCLI(t, req, "render", "-template", tmpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sum := sha256.Sum256([]byte(text))
	if want := "[USER] hi\n<s>"; stdout != want {
		t.Errorf("got %q, want %q", stdout, want)
	}
	if !strings.Contains(stderr, hex.EncodeToString(sum[:])) || !strings.Contains(stderr, "not in the compiled registry") {
		t.Errorf("stderr should say the template was compiled, naming its sha256: %q", stderr)
	}
	if _, err := os.Stat(filepath.Join(cache, hex.EncodeToString(sum[:]), "harness")); err != nil {
		t.Errorf("no cached build: %v", err)
	}
	code, stdout, stderr = runCLI(t, req, "render", "-template", tmpl)
	if code != 0 || stdout != "[USER] hi\n<s>" || stderr != "" {
		t.Errorf("second render: exit %d, %q, stderr %q", code, stdout, stderr)
	}
}

// TestGen compiles a template file into a package and checks what it wrote; a template
// with a syntax error is reported with its line and column.
func TestGen(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "my-model.jinja")
	if err := os.WriteFile(tmpl, []byte("{% for m in messages %}{{ m.content }}{% endfor %}"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "chat")
	code, stdout, stderr := runCLI(t, "", "gen", "-o", out, tmpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote 1 templates") {
		t.Errorf("stdout %q", stdout)
	}
	src, err := os.ReadFile(filepath.Join(out, "my_model.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"// Code generated by tmplgen from ", "package chat", "var MyModel = &runtime.Template{", "func renderMyModel(w *runtime.Writer, in *runtime.Input) {", "// my-model.jinja:1 {% for m in messages %}"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated file lacks %q:\n%s", want, src)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "registry.go")); err != nil {
		t.Error(err)
	}

	bad := filepath.Join(dir, "bad.jinja")
	if err := os.WriteFile(bad, []byte("line one\n{% if x %}\n{{ x + }}\n{% endif %}"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "gen", "-o", out, bad)
	if code != 1 || !strings.Contains(stderr, "line 3, column 8: unexpected") {
		t.Errorf("bad template: exit %d, stderr %q", code, stderr)
	}
	refused := filepath.Join(dir, "refused.jinja")
	if err := os.WriteFile(refused, []byte("{{ x.__class__ }}\n{% set _ = l.append(1) %}"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "gen", "-o", out, refused)
	if code != 0 || !strings.Contains(stderr, "refused.jinja:1:5: warning: .__class__ is a special attribute") ||
		!strings.Contains(stderr, "refused.jinja:2:13: warning: .append() mutates a list or dict") {
		t.Errorf("sandbox warnings: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "gen", "-o", out); code != 2 || !strings.Contains(stderr, "no templates") {
		t.Errorf("no input: exit %d, stderr %q", code, stderr)
	}
}

// TestIR prints the IR of a template.
func TestIR(t *testing.T) {
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "t.jinja")
	if err := os.WriteFile(tmpl, []byte("{% set x = 1 %}{{ x + 1 }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "ir", tmpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"template t.jinja", "scope x#1 = undefined(x)", "set x#1 = 1", "print x#1 + 1"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("ir output lacks %q:\n%s", want, stdout)
		}
	}
	if code, _, _ := runCLI(t, "", "ir"); code != 2 {
		t.Errorf("ir without a file: exit %d", code)
	}
}

// TestCheckUsage: check needs its directories and a known engine.
func TestCheckUsage(t *testing.T) {
	if code, _, stderr := runCLI(t, "", "check"); code != 2 || !strings.Contains(stderr, "-templates and -expected are required") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "check", "-templates", ".", "-expected", ".", "-engine", "nope"); code != 2 || !strings.Contains(stderr, "unknown engine") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestAudit reports the fields a template reads, the variables it takes, what it
// refuses and the special tokens it writes; -diff shows what changed between two
// versions.
func TestAudit(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "v1.jinja")
	v2 := filepath.Join(dir, "v2.jinja")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(v1, `{%- if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}
{%- for m in messages %}<start_of_turn>{{ m.role }}
{{ m.content | trim }}<end_of_turn>
{% endfor %}{% if add_generation_prompt %}<start_of_turn>model
{% endif %}`)
	write(v2, `{%- for m in messages %}<start_of_turn>{{ m.role }}
{{ m.content | trim }}{% if m.reasoning_content and enable_thinking %}<think>{{ m.reasoning_content }}</think>{% endif %}<end_of_turn>
{% endfor %}{% if add_generation_prompt %}<start_of_turn>model
{% endif %}`)
	code, stdout, stderr := runCLI(t, "", "audit", v1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"template v1",
		"reads from the request:\n  add_generation_prompt\n  messages[].content\n  messages[].role\n",
		"reads these variables (chat_template_kwargs):\n  (none)",
		"refuses input with (raise_exception):\n  line 1: System role not supported",
		"writes these special tokens literally:\n  <end_of_turn> <start_of_turn>",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runCLI(t, "", "audit", "-diff", v2, v1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"--- v1 (sha256 ", "+++ v2 (sha256 ",
		"reads from the request:\n  + messages[].reasoning_content",
		"reads these variables (chat_template_kwargs):\n  + enable_thinking",
		"refuses input with (raise_exception):\n  - line 1: System role not supported",
		"writes these special tokens literally:\n  + </think>\n  + <think>",
		"- {%- if messages[0].role == 'system' %}",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit -diff output lacks %q:\n%s", want, stdout)
		}
	}
	if code, _, stderr := runCLI(t, "", "audit"); code != 2 || !strings.Contains(stderr, "want one template file or model") {
		t.Errorf("audit without a file: exit %d, %s", code, stderr)
	}
}
