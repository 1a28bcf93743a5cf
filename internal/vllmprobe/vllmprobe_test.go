package vllmprobe

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/testenv"
)

// TestFactsAgreeWithVLLM computes the facts of every template of the shared corpus and
// compares them with what vLLM decides (its hf.py, as ../shared/oracle/tools/
// vllm_render.py reproduces it), recorded in testdata/vllm/facts.tsv by
// record_facts.py: every template tmplgen compiles must agree.
func TestFactsAgreeWithVLLM(t *testing.T) {
	root := filepath.Join("..", "..")
	templates := filepath.Join(testenv.Shared(t, root), "templates")
	f, err := os.Open(filepath.Join(root, "testdata", "vllm", "facts.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	compiled, agree := 0, 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		path, format, developer, names := cols[0], cols[1], cols[2], cols[3]
		src, err := os.ReadFile(filepath.Join(templates, path))
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := ir.Compile(filepath.Base(path), string(src))
		if err != nil {
			continue // Jinja2 refuses it: so does tmplgen, and vLLM with it
		}
		compiled++
		got := Facts(string(src), tmpl)
		var diffs []string
		if want := format == "openai"; got.OpenAIContent != want {
			diffs = append(diffs, "content format")
		}
		if want := developer == "1"; got.DeveloperRole != want {
			diffs = append(diffs, "developer role")
		}
		var want []string
		if names != "" {
			want = strings.Split(names, ",")
		}
		if !slices.Equal(got.Undeclared, want) {
			diffs = append(diffs, "variables "+strings.Join(got.Undeclared, ",")+", vLLM's "+names)
		}
		if len(diffs) > 0 {
			t.Errorf("%s: %s", path, strings.Join(diffs, "; "))
			continue
		}
		agree++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if compiled == 0 {
		t.Fatal("no template compiled")
	}
	t.Logf("the facts of %d of %d compiled templates agree with vLLM's", agree, compiled)
}

// TestContentFormat: the content format of templates that reach each path of hf.py's
// detection, as vllm_render.detect_content_format answered for them.
func TestContentFormat(t *testing.T) {
	tests := []struct {
		name, src string
		openAI    bool // vLLM's answer
	}{
		{"loop over a message's content", `{% for m in messages %}{% for p in m.content %}{{ p.text }}{% endfor %}{% endfor %}`, true},
		{"messages set through a slice and a filter", `{% set msgs = messages[1:] | list %}{% for m in msgs %}{% for p in m["content"] %}{{ p }}{% endfor %}{% endfor %}`, true},
		{"a loop of two names over messages: the assertion fails", `{% for i, m in messages %}{% for p in m.content %}{{ p }}{% endfor %}{% endfor %}`, false},
		{"messages set to a namespace attribute: the assertion fails", `{% set ns = namespace() %}{% set ns.m = messages %}{% for m in messages %}{% for p in m.content %}{{ p }}{% endfor %}{% endfor %}`, false},
		{"a loop of two names over the content", `{% for m in messages %}{% for a, b in m.content %}{{ a }}{% endfor %}{% endfor %}`, false},
		{"a loop over a variable named content", `{% for p in content %}{{ p }}{% endfor %}`, true},
		{"content printed, not looped over", `{% for m in messages %}{{ m.content }}{% endfor %}`, false},
		{"a macro's loop over the content of a parameter named as the loop's", `{% macro f(m) %}{% for p in m.content %}{{ p }}{% endfor %}{% endmacro %}{% for m in messages %}{{ f(m) }}{% endfor %}`, true},
	}
	for _, tc := range tests {
		if got := openAIContent(tc.src); got != tc.openAI {
			t.Errorf("%s: openai content format %v, vLLM's %v", tc.name, got, tc.openAI)
		}
	}
}
