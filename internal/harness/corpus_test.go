package harness_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestRunSuites runs two suites over a small corpus written here. A pair passes with
// the same prompt, or with an error where one is expected (at the line recorded, when
// one is); it fails with the first differing bytes, with a prompt where an error is
// expected or the other way round, and with an error at another line. The filter keeps
// a template out, and the templates both suites check are compiled once.
func TestRunSuites(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("templates/hello.jinja", "Hello {{ messages[0].content }}{{ bos_token }}")
	write("templates/sub/fail.jinja", "{{ messages[0].content }}\n{{ raise_exception('no') }}")
	write("templates/skipped.jinja", "{{ nope(")
	write("expected/hello.jinja.json", `{"cases": {
		"hi": {"transformers": {"prompt": "Hello hi<s>"}, "llama_server": {"prompt": "Hello hi"}},
		"bye": {"transformers": {"prompt": "Hello bye<S>"}}}}`)
	write("expected/sub/fail.jinja.json", `{"cases": {
		"hi": {"transformers": {"error": "no"}},
		"bye": {"transformers": {"prompt": "bye"}}}}`)
	cases := write("cases.json", `[{"id": "hi", "messages": [{"role": "user", "content": "hi"}]},
		{"id": "bye", "messages": [{"role": "user", "content": "bye"}]}]`)
	right := harness.Suite{Name: "right line", Templates: filepath.Join(dir, "templates"), Expected: filepath.Join(dir, "expected"),
		Cases: cases, Engine: harness.EngineTransformers, Filter: regexp.MustCompile(`^(hello|sub/)`),
		Lines: write("right.tsv", "# template\tcase\tline\nsub/fail.jinja\thi\t2\n")}
	wrong := right
	wrong.Name, wrong.Lines = "wrong line", write("wrong.tsv", "sub/fail.jinja\thi\t1\n")
	build := t.TempDir()
	outcomes, err := harness.RunSuites(build, []harness.Suite{right, wrong}, harness.RenderOptions{Now: harness.OracleNow, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	// each pair's template and case, and the start of its failure ("" when it passes)
	type pair struct{ name, failure string }
	pairs := []pair{
		{"hello.jinja bye", `prompts differ at byte 10: want "Hello bye<S>"; got "Hello bye<s>"`},
		{"hello.jinja hi", ""},
		{"sub/fail.jinja bye", `want prompt "bye"; got error: fail.jinja:2:1 `},
		{"sub/fail.jinja hi", ""},
	}
	want := [][]pair{pairs, append(pairs[:3:3], pair{"sub/fail.jinja hi", "Jinja2 reports the error at line 1; got fail.jinja:2:1 "})}
	for k, s := range []harness.Suite{right, wrong} {
		if len(outcomes[k]) != len(want[k]) {
			t.Fatalf("%s: %d outcomes, want %d: %+v", s.Name, len(outcomes[k]), len(want[k]), outcomes[k])
		}
		for i, o := range outcomes[k] {
			w := want[k][i]
			if o.Template+" "+o.Case != w.name || (w.failure == "") != (o.Failure == "") || !strings.HasPrefix(o.Failure, w.failure) {
				t.Errorf("%s: %s %s: %q, want %s: %q...", s.Name, o.Template, o.Case, o.Failure, w.name, w.failure)
			}
		}
	}
	if units, _ := filepath.Glob(filepath.Join(build, "checkpkg", "unit*.go")); len(units) != 2 {
		t.Errorf("built %d units, want 2 (hello and fail, once each)", len(units))
	}
}
