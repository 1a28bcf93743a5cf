package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditCapabilities checks that audit prints what llama.cpp detects about a template
// and that -diff shows the capabilities that changed between two versions.
func TestAuditCapabilities(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "v1.jinja")
	v2 := filepath.Join(dir, "v2.jinja")
	// v1 refuses a system message (so llama.cpp finds no system role); v2 reads it and
	// prints reasoning between <think> tags when thinking is on
	for path, text := range map[string]string{
		v1: `{%- if messages[0].role == 'system' %}{{ raise_exception('no system role') }}{% endif %}
{%- for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}`,
		v2: `{%- for m in messages %}<|{{ m.role }}|>{{ m.content }}{% if m.reasoning_content and enable_thinking %}<think>{{ m.reasoning_content }}</think>{% endif %}{% endfor %}
{%- if add_generation_prompt %}<|assistant|>{% if enable_thinking %}<think>{% endif %}{% endif %}`,
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCLI(t, "", "audit", v1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		capsSection + ":\n  system role: no\n  string content: yes\n  typed content: no\n  tools: no\n",
		"  preserves reasoning: no\n  thinking: no\n  enable_thinking default: no\n  handler: generic\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runCLI(t, "", "audit", "-diff", v2, v1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := capsSection + ":\n  - system role: no\n  - preserves reasoning: no\n  - thinking: no\n  - enable_thinking default: no\n" +
		"  + system role: yes\n  + preserves reasoning: yes\n  + thinking: yes\n  + enable_thinking default: yes\n  + thinking start tag: \"<think>\"\n"
	if !strings.Contains(stdout, want) {
		t.Errorf("audit -diff output lacks %q:\n%s", want, stdout)
	}
}
