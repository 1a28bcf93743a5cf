package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// auditVersions writes two versions of a template: v2 drops v1's refusal of a system
// message, reads typed content and reasoning, and prints the date.
func auditVersions(t *testing.T) (v1, v2 string) {
	dir := t.TempDir()
	v1 = writeFile(t, filepath.Join(dir, "v1.jinja"), `{%- if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}
{%- for m in messages %}<start_of_turn>{{ m.role }}
{{ m.content | trim }}<end_of_turn>
{% endfor %}{% if add_generation_prompt %}<start_of_turn>model
{% endif %}`)
	v2 = writeFile(t, filepath.Join(dir, "v2.jinja"), `{%- for m in messages %}<start_of_turn>{{ m.role }}
{% if m.content is string %}{{ m.content | trim }}{% else %}{% for p in m.content %}{{ p.text }}{% endfor %}{% endif %}
{%- if m.reasoning_content and enable_thinking %}<think>{{ m.reasoning_content }}</think>{% endif %}<end_of_turn>
{% endfor %}{% if add_generation_prompt %}<start_of_turn>model
{{ strftime_now("%d %b %Y") }}
{% endif %}`)
	return v1, v2
}

// TestAuditDataWrites reports the {{ }} that write request data and the template text
// with a special token that a render can only mark as data: a role completing a token,
// a filter that mixes a token with data.
func TestAuditDataWrites(t *testing.T) {
	tmpl := writeFile(t, filepath.Join(t.TempDir(), "t.jinja"), `{%- set header = '<|im_start|>' %}
{%- for m in messages %}{{ header }}{{ '<|' + m.role + '|>' }}
{{ m.content }}{{ ('<tool_call>' ~ m.content) | tojson }}{{ bos_token + '<|im_end|>' }}
<|{{ m.role }}|>
{% endfor %}`)
	code, stdout, stderr := runCLI(t, "", "audit", tmpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"writes request data (data segments: a tokenizer does not parse special tokens in them):\n" +
			"  line 2: col 37: {{ '<|' + m.role + '|>' }}\n" +
			"  line 3: col 1: {{ m.content }}\n" +
			"  line 3: col 16: {{ ('<tool_call>' ~ m.content) | tojson }}\n" +
			"  line 4: col 3: {{ m.role }}\n\n",
		"has template text with a special token that a render can only mark as data:\n" +
			"  line 2: col 54: <|…|>: a special token completed by request data\n" +
			"  line 3: col 49: <tool_call>: the filter tojson mixes it with data\n" +
			"  line 4: col 3: <|…|>: a special token completed by request data\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestAuditJinjaRefusal reports a template Jinja2 refuses and llama.cpp loads (a stray
// endgeneration), and audits it as llama.cpp reads it, where Jinja2's compiler would stop.
func TestAuditJinjaRefusal(t *testing.T) {
	tmpl := writeFile(t, filepath.Join(t.TempDir(), "t.jinja"), `{% for m in messages %}{{ m.content }}{% endgeneration %}{% endfor %}`)
	code, stdout, stderr := runCLI(t, "", "audit", tmpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		// Jinja2's message, as Python's jinja2 words it
		"Jinja2 refuses the template when it loads it (llama.cpp loads it):\n  line 1",
		"Encountered unknown tag 'endgeneration'. Jinja was looking for the following tags: 'endfor' or 'else'. " +
			"The innermost block that needs to be closed is 'for'.\n",
		"reads from the request:\n  messages[].content\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestAudit reports the fields a template reads, the variables it takes, what it
// refuses, whether it reads the clock and the special tokens it writes.
func TestAudit(t *testing.T) {
	v1, v2 := auditVersions(t)
	code, stdout, stderr := runCLI(t, "", "audit", v1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"template v1\nsha256   ",
		"reads from the request:\n  add_generation_prompt\n  messages[].content\n  messages[].role\n",
		"reads these variables (chat_template_kwargs):\n  (none)",
		"refuses input with (raise_exception):\n  line 1: System role not supported",
		"reads the clock (strftime_now: the prompt depends on the date):\n  (none)\n",
		"writes these special tokens literally:\n  <end_of_turn> <start_of_turn>",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, _ = runCLI(t, "", "audit", v2)
	if want := "reads the clock (strftime_now: the prompt depends on the date):\n  line 5: {{ strftime_now(\"%d %b %Y\") }}\n"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("audit v2 lacks %q:\n%s", want, stdout)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"audit"}, "want one template file or model"},
		{[]string{"audit", "-prompts", v1}, "-prompts compares the prompts of two templates: give -diff OTHER"},
		{[]string{"audit", "-diff", v2, "-cases", "c.json", v1}, "-cases and -profile choose what -prompts renders"},
		{[]string{"audit", "-diff", v2, "-prompts", "-profile", "sglang", v1}, `unknown profile "sglang"`},
	} {
		if code, _, stderr := runCLI(t, "", tt.args...); code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestAuditDiff: -diff shows, section by section, what was removed then what was
// added, and summarises the rest; a path still read through a longer one is not
// removed; the template text's hunks list removed lines before added ones.
func TestAuditDiff(t *testing.T) {
	v1, v2 := auditVersions(t)
	code, stdout, stderr := runCLI(t, "", "audit", "-diff", v2, v1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"--- v1 (sha256 ", "+++ v2 (sha256 ",
		"reads from the request:\n  + messages[].content[].text\n  + messages[].reasoning_content\n  (3 more items unchanged)\n",
		"reads these variables (chat_template_kwargs):\n  + enable_thinking\n\n",
		"refuses input with (raise_exception):\n  - line 1: System role not supported\n\n",
		"reads the clock (strftime_now: the prompt depends on the date):\n  + line 5: {{ strftime_now(\"%d %b %Y\") }}\n",
		"writes these special tokens literally:\n  + </think>\n  + <think>\n  (2 more items unchanged)\n",
		"does what the sandbox refuses (SecurityError when it runs): unchanged (none)\n",
		"template text:\n  @@ -1,5 +1,6 @@\n  - {%- if messages[0].role == 'system' %}",
		"\n  - {{ m.content | trim }}<end_of_turn>\n  + {% if m.content is string %}",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit -diff output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "- messages[].content\n") {
		t.Errorf("audit -diff says messages[].content is no longer read:\n%s", stdout)
	}
	if code, stdout, _ := runCLI(t, "", "audit", "-diff", v1, v1); code != 0 || !strings.HasSuffix(stdout, "\nthe templates are identical\n") {
		t.Errorf("identical: exit %d:\n%s", code, stdout)
	}
}

// TestAuditPrompts: -diff -prompts renders both templates on each request of -cases
// and shows the prompts that differ; -json gives it all as JSON.
func TestAuditPrompts(t *testing.T) {
	v1, v2 := auditVersions(t)
	cases := writeFile(t, filepath.Join(t.TempDir(), "cases.json"), `[
		{"id": "plain", "messages": [{"role": "user", "content": "Hi"}]},
		{"id": "system", "messages": [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Hi"}]},
		{"id": "no_prompt", "messages": [{"role": "user", "content": "Hi"}], "add_generation_prompt": false}
	]`)
	code, stdout, stderr := runCLI(t, "", "audit", "-diff", v2, "-prompts", "-cases", cases, v1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"prompts (the 3 requests of " + cases + ", profile transformers): 1 the same, 2 differ\n",
		"  case plain:\n    @@ -2,3 +2,4 @@\n      Hi<end_of_turn>\n      <start_of_turn>model\n    + 30 Nov 2026\n",
		"  case system:\n    - error: v1.jinja:1:39 ({{ }}): TemplateError: System role not supported\n    + prompt \"<start_of_turn>system\\nBe terse.<end_of_turn>",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("audit -prompts output lacks %q:\n%s", want, stdout)
		}
	}

	code, stdout, stderr = runCLI(t, "", "audit", "-json", "-diff", v2, "-prompts", "-cases", cases, v1)
	var d struct {
		Old, New struct {
			Template string
			Clock    []struct {
				Line int
				What string
			}
		}
		Sections []struct {
			Title          string
			Removed, Added []string
			Unchanged      int
		}
		Text    []string
		Prompts struct {
			Same    int
			Changed []struct {
				Case     string
				Old, New struct{ Prompt, Error *string }
				Diff     []string
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &d); code != 0 || err != nil {
		t.Fatalf("audit -json -diff: exit %d, %v, stderr %s:\n%s", code, err, stderr, stdout)
	}
	if d.Old.Template != "v1" || d.New.Template != "v2" || len(d.Old.Clock) != 0 || len(d.New.Clock) != 1 || d.New.Clock[0].Line != 5 {
		t.Errorf("old %+v, new %+v", d.Old, d.New)
	}
	if s := d.Sections[0]; s.Title != "reads from the request" || len(s.Removed) != 0 || strings.Join(s.Added, " ") != "messages[].content[].text messages[].reasoning_content" || s.Unchanged != 3 {
		t.Errorf("section %+v", s)
	}
	if len(d.Text) == 0 || d.Text[0] != "@@ -1,5 +1,6 @@" {
		t.Errorf("text diff %q", d.Text)
	}
	if p := d.Prompts; p.Same != 1 || len(p.Changed) != 2 || p.Changed[0].Case != "plain" || len(p.Changed[0].Diff) == 0 || p.Changed[1].Old.Error == nil || p.Changed[1].New.Prompt == nil {
		t.Errorf("prompts %+v", p)
	}

	code, stdout, _ = runCLI(t, "", "audit", "-json", "../../testdata/models/roka-tiny.gguf")
	var audits []struct {
		Template      string
		SHA256        string
		Reads         []string
		SpecialTokens []string `json:"special_tokens"`
		Capabilities  struct{ Handler string }
	}
	if err := json.Unmarshal([]byte(stdout), &audits); code != 0 || err != nil || len(audits) != 3 || audits[1].Template != "Roka Tiny:chatml" ||
		len(audits[0].Reads) == 0 || len(audits[0].SpecialTokens) == 0 || audits[0].Capabilities.Handler == "" {
		t.Errorf("audit -json of a model: exit %d, %v:\n%s", code, err, stdout)
	}
}
