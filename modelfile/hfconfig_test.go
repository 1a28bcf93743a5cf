package modelfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
)

var tokenizerConfigTests = []struct {
	name string
	json string
	want ModelInfo
	err  string // substring of the error, "" for success
}{
	{
		name: "string template and string tokens",
		json: `{"chat_template": "{{ bos_token }}hi", "bos_token": "<s>", "eos_token": "</s>", "add_bos_token": true, "add_eos_token": false}`,
		want: ModelInfo{ChatTemplate: "{{ bos_token }}hi", TemplateSource: "chat_template", BOSToken: "<s>", EOSToken: "</s>",
			HasBOS: true, HasEOS: true, AddBOS: boolp(true), AddEOS: boolp(false)},
	},
	{
		name: "the other special tokens",
		json: `{"chat_template": "x", "unk_token": "<unk>", "pad_token": {"content": "<pad>"}, "sep_token": null, "mask_token": "<mask>"}`,
		want: ModelInfo{ChatTemplate: "x", TemplateSource: "chat_template", OtherTokens: map[string]string{"unk_token": "<unk>", "pad_token": "<pad>", "mask_token": "<mask>"}},
	},
	{
		name: "AddedToken objects",
		json: `{"bos_token": {"__type": "AddedToken", "content": "<|begin_of_text|>", "lstrip": false, "normalized": false, "rstrip": false, "single_word": false},
			"eos_token": {"content": "<|eot_id|>"}, "chat_template": "x"}`,
		want: ModelInfo{ChatTemplate: "x", TemplateSource: "chat_template", BOSToken: "<|begin_of_text|>", EOSToken: "<|eot_id|>", HasBOS: true, HasEOS: true},
	},
	{
		name: "null tokens and flags",
		json: `{"bos_token": null, "eos_token": null, "add_bos_token": null, "add_eos_token": null, "chat_template": null}`,
		want: ModelInfo{},
	},
	{
		name: "nothing",
		json: `{"model_max_length": 1000000, "tokenizer_class": "LlamaTokenizer", "added_tokens_decoder": {"0": {"content": "<unk>"}}}`,
		want: ModelInfo{},
	},
	{
		name: "empty token text",
		json: `{"bos_token": "", "eos_token": {"content": ""}}`,
		want: ModelInfo{HasBOS: true, HasEOS: true},
	},
	{
		name: "named templates",
		json: `{"chat_template": [{"name": "default", "template": "main"}, {"name": "tool_use", "template": "tools"}, {"name": "rag", "template": "rag"}], "eos_token": "<eos>"}`,
		want: ModelInfo{ChatTemplate: "main", TemplateSource: "chat_template", NamedTemplates: map[string]string{"tool_use": "tools", "rag": "rag"}, EOSToken: "<eos>", HasEOS: true},
	},
	{
		name: "named templates without default",
		json: `{"chat_template": [{"template": "tools", "name": "tool_use", "extra": 1}]}`,
		want: ModelInfo{NamedTemplates: map[string]string{"tool_use": "tools"}},
	},
	{
		name: "later name wins",
		json: `{"chat_template": [{"name": "default", "template": "a"}, {"name": "default", "template": "b"}, {"name": "x", "template": "1"}, {"name": "x", "template": "2"}]}`,
		want: ModelInfo{ChatTemplate: "b", TemplateSource: "chat_template", NamedTemplates: map[string]string{"x": "2"}},
	},
	{
		name: "empty list",
		json: `{"chat_template": []}`,
		want: ModelInfo{},
	},
	{
		name: "escapes and unicode",
		json: `{"chat_template": "a\n\t\"\u00e9\ud83d\ude00 \u2581", "bos_token": "\u003cs\u003e"}`,
		want: ModelInfo{ChatTemplate: "a\n\t\"é😀 ▁", TemplateSource: "chat_template", BOSToken: "<s>", HasBOS: true},
	},
	{
		name: "duplicate key: last wins",
		json: `{"chat_template": "first", "chat_template": "second"}`,
		want: ModelInfo{ChatTemplate: "second", TemplateSource: "chat_template"},
	},
	{
		name: "keys are case-sensitive",
		json: `{"Chat_Template": "no", "BOS_TOKEN": "no"}`,
		want: ModelInfo{},
	},
	{name: "invalid JSON", json: `{"chat_template": "x",}`, err: "tokenizer config: offset 22: invalid JSON: invalid character '}'"},
	{name: "truncated JSON", json: `{"chat_template": "x`, err: "tokenizer config: offset 20: invalid JSON: unexpected end of JSON input"},
	{name: "trailing data", json: `{} {}`, err: "offset 3: invalid JSON: invalid character '{' after top-level value"},
	{name: "empty input", json: ``, err: "tokenizer config: offset 0: invalid JSON: unexpected end of JSON input"},
	{name: "not JSON", json: `chat_template`, err: "tokenizer config: offset 0: invalid JSON: invalid character 'c'"},
	{name: "top-level array", json: `[{"chat_template": "x"}]`, err: "tokenizer config: the top level is an array, want an object"},
	{name: "top-level null", json: `null`, err: "tokenizer config: the top level is null, want an object"},
	{name: "top-level string", json: `"x"`, err: "the top level is a string, want an object"},
	{name: "invalid UTF-8", json: "{\"chat_template\": \"a\xff\"}", err: "tokenizer config: offset 20: invalid UTF-8"},
	{name: "BOM", json: "\ufeff{}", err: "invalid JSON"},
	{name: "template number", json: `{"chat_template": 1}`, err: `tokenizer config: chat_template is a number, want a string or a list of {"name", "template"} objects`},
	{name: "template object", json: `{"chat_template": {"default": "x"}}`, err: "chat_template is an object, want a string or a list"},
	{name: "template bool", json: `{"chat_template": true}`, err: "chat_template is a bool"},
	{name: "list item string", json: `{"chat_template": ["x"]}`, err: `tokenizer config: chat_template[0] is a string, want a {"name", "template"} object`},
	{name: "list item null", json: `{"chat_template": [{"name": "a", "template": "b"}, null]}`, err: `chat_template[1] is null, want`},
	{name: "list item without name", json: `{"chat_template": [{"template": "x"}]}`, err: `tokenizer config: chat_template[0] has no "name"`},
	{name: "list item without template", json: `{"chat_template": [{"name": "default"}]}`, err: `chat_template[0] has no "template"`},
	{name: "list item name number", json: `{"chat_template": [{"name": 1, "template": "x"}]}`, err: "tokenizer config: chat_template[0].name is a number, want a string"},
	{name: "list item template null", json: `{"chat_template": [{"name": "a", "template": null}]}`, err: "chat_template[0].template is null, want a string"},
	{name: "bos number", json: `{"bos_token": 1}`, err: "tokenizer config: bos_token is a number, want a string, an AddedToken object or null"},
	{name: "eos list", json: `{"eos_token": ["</s>"]}`, err: "eos_token is an array, want a string"},
	{name: "bos object without content", json: `{"bos_token": {"text": "<s>"}}`, err: `tokenizer config: bos_token has no "content"`},
	{name: "eos content number", json: `{"eos_token": {"content": 2}}`, err: "tokenizer config: eos_token.content is a number, want a string"},
	{name: "add_bos string", json: `{"add_bos_token": "true"}`, err: "tokenizer config: add_bos_token is a string, want a boolean"},
	{name: "add_eos number", json: `{"add_eos_token": 1}`, err: "add_eos_token is a number, want a boolean"},
}

func TestParseTokenizerConfig(t *testing.T) {
	for _, tc := range tokenizerConfigTests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseTokenizerConfig([]byte(tc.json))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v\nwant it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			want.Format = FormatHF
			checkInfo(t, m, &want)
		})
	}
}

func TestModelInfoTemplate(t *testing.T) {
	m := &ModelInfo{Source: "m.gguf", ChatTemplate: "main", NamedTemplates: map[string]string{"tool_use": "tools", "rag": "r"}}
	for name, want := range map[string]string{"": "main", "default": "main", "tool_use": "tools", "rag": "r"} {
		if got, err := m.Template(name); err != nil || got != want {
			t.Errorf("Template(%q) = %q, %v", name, got, err)
		}
	}
	if got := strings.Join(m.TemplateNames(), ","); got != "default,rag,tool_use" {
		t.Errorf("TemplateNames = %s", got)
	}
	_, err := m.Template("vision")
	if !errors.Is(err, ErrNoChatTemplate) || err.Error() != `m.gguf: no chat template named "vision"; it has default, rag, tool_use` {
		t.Errorf("Template(vision): %v", err)
	}
	only := &ModelInfo{Name: "x", NamedTemplates: map[string]string{"tool_use": "t"}}
	if _, err := only.Template(""); !errors.Is(err, ErrNoChatTemplate) || err.Error() != "x: no chat template (default); it has named templates tool_use" {
		t.Errorf("Template(\"\") with only named: %v", err)
	}
	named := &ModelInfo{NamedTemplates: map[string]string{"default": "d", "a": "x"}}
	if got, err := named.Template(""); err != nil || got != "d" {
		t.Errorf("default from NamedTemplates: %q %v", got, err)
	}
	if got := strings.Join(named.TemplateNames(), ","); got != "default,a" {
		t.Errorf("TemplateNames = %s", got)
	}
	none := &ModelInfo{Format: FormatGGUF}
	if _, err := none.Template("tool_use"); !errors.Is(err, ErrNoChatTemplate) || err.Error() != `GGUF model: no chat template (wanted "tool_use")` {
		t.Errorf("no templates: %v", err)
	}
	if _, err := (&ModelInfo{}).Template(""); err == nil || err.Error() != "model: no chat template" {
		t.Errorf("empty: %v", err)
	}
}

// writeFiles creates files (path relative to dir → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadModelDir(t *testing.T) {
	const cfg = `{"chat_template": [{"name": "default", "template": "json main"}, {"name": "tool_use", "template": "json tools"}], "bos_token": "<s>", "eos_token": {"content": "</s>"}, "add_bos_token": true}`
	tests := []struct {
		name     string
		files    map[string]string
		tmpl     string
		src      string // TemplateSource relative to the directory
		named    map[string]string
		bos, eos string
		arch     string
		warn     string
		err      string
	}{
		{name: "config only", files: map[string]string{"tokenizer_config.json": cfg},
			tmpl: "json main", src: "tokenizer_config.json:chat_template", named: map[string]string{"tool_use": "json tools"}, bos: "<s>", eos: "</s>"},
		{name: "jinja replaces config templates", files: map[string]string{"tokenizer_config.json": cfg, "chat_template.jinja": "line1\r\nline2\rline3\n"},
			tmpl: "line1\nline2\nline3\n", src: "chat_template.jinja", bos: "<s>", eos: "</s>"},
		{name: "jinja before json", files: map[string]string{"tokenizer_config.json": cfg, "chat_template.jinja": "j", "chat_template.json": `{"chat_template": "x"}`},
			tmpl: "j", src: "chat_template.jinja", bos: "<s>", eos: "</s>"},
		{name: "chat_template.json", files: map[string]string{"tokenizer_config.json": `{"bos_token": "<s>"}`, "chat_template.json": `{"chat_template": "from json", "bos_token": "ignored"}`},
			tmpl: "from json", src: "chat_template.json:chat_template", bos: "<s>"},
		{name: "chat_template.json without template", files: map[string]string{"tokenizer_config.json": cfg, "chat_template.json": `{"chat_template": null}`},
			tmpl: "json main", src: "tokenizer_config.json:chat_template", named: map[string]string{"tool_use": "json tools"}, bos: "<s>", eos: "</s>"},
		{name: "additional templates", files: map[string]string{"tokenizer_config.json": cfg, "chat_template.jinja": "main",
			"additional_chat_templates/tool_use.jinja": "t", "additional_chat_templates/rag.jinja": "r\r\n", "additional_chat_templates/notes.txt": "x"},
			tmpl: "main", src: "chat_template.jinja", named: map[string]string{"tool_use": "t", "rag": "r\n"}, bos: "<s>", eos: "</s>"},
		{name: "additional templates add to config ones", files: map[string]string{"tokenizer_config.json": cfg, "additional_chat_templates/rag.jinja": "r"},
			tmpl: "json main", src: "tokenizer_config.json:chat_template", named: map[string]string{"tool_use": "json tools", "rag": "r"}, bos: "<s>", eos: "</s>"},
		{name: "jinja without config", files: map[string]string{"chat_template.jinja": "j"},
			tmpl: "j", src: "chat_template.jinja", warn: "no tokenizer_config.json: BOS/EOS tokens unknown"},
		{name: "config.json architecture", files: map[string]string{"tokenizer_config.json": `{}`, "config.json": `{"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"}`},
			arch: "qwen3"},
		{name: "bad config.json only warns", files: map[string]string{"tokenizer_config.json": `{}`, "config.json": `{`},
			warn: "ignoring config.json: "},
		{name: "empty directory", files: map[string]string{"README.md": "hi"}, err: "no tokenizer_config.json, chat_template.jinja or chat_template.json: not a Hugging Face model directory"},
		{name: "bad config", files: map[string]string{"tokenizer_config.json": `{"bos_token": 3}`}, err: "tokenizer_config.json: bos_token is a number"},
		{name: "bad chat_template.json", files: map[string]string{"chat_template.json": `{"chat_template": 3}`}, err: "chat_template.json: chat_template is a number"},
		{name: "bad jinja UTF-8", files: map[string]string{"chat_template.jinja": "ok\xc3("}, err: "chat_template.jinja: offset 2: invalid UTF-8"},
		{name: "bad additional UTF-8", files: map[string]string{"chat_template.jinja": "ok", "additional_chat_templates/x.jinja": "\xff"}, err: "x.jinja: offset 0: invalid UTF-8"},
		{name: "config is a directory", files: map[string]string{"tokenizer_config.json/x": ""}, err: "tokenizer_config.json: is a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			m, err := ReadModelDir(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v\nwant it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			src := ""
			if tc.src != "" {
				src = filepath.Join(dir, tc.src)
			}
			want := ModelInfo{Format: FormatHF, Source: dir, Name: filepath.Base(dir), Architecture: tc.arch, ChatTemplate: tc.tmpl,
				TemplateSource: src, NamedTemplates: tc.named, BOSToken: tc.bos, EOSToken: tc.eos, HasBOS: tc.bos != "", HasEOS: tc.eos != ""}
			if strings.Contains(tc.files["tokenizer_config.json"], "add_bos_token") {
				want.AddBOS = boolp(true)
			}
			warns := strings.Join(m.Warnings, "\n")
			if tc.warn == "" && warns != "" || !strings.Contains(warns, tc.warn) {
				t.Errorf("warnings %q, want %q", warns, tc.warn)
			}
			m.Warnings = nil
			checkInfo(t, m, &want)
		})
	}
}

func TestReadModelDirErrors(t *testing.T) {
	if _, err := ReadModelDir(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "not a Hugging Face model directory") {
		t.Errorf("missing dir: %v", err)
	}
	// Limits on file sizes.
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hfReadFile(big, 100); err == nil || err.Error() != big+": larger than the 100 bytes limit" {
		t.Errorf("size limit: %v", err)
	}
	if data, err := hfReadFile(big, 101); err != nil || len(data) != 101 {
		t.Errorf("at the limit: %v", err)
	}
}

func TestModelName(t *testing.T) {
	for dir, want := range map[string]string{
		"/cache/hub/models--Qwen--Qwen3-0.6B/snapshots/abc123":    "Qwen/Qwen3-0.6B",
		"/cache/hub/models--gpt2/snapshots/abc123":                "gpt2",
		"/cache/hub/models--org--name--with--dashes/snapshots/r/": "org/name--with--dashes",
		"/cache/hub/models--x/snapshots":                          "snapshots",
		"/models/Llama-3.1-8B-Instruct":                           "Llama-3.1-8B-Instruct",
		"/x/snapshots/abc":                                        "abc",
	} {
		if got := hfModelName(dir); got != want {
			t.Errorf("hfModelName(%s) = %s, want %s", dir, got, want)
		}
	}
}

func TestReadModel(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tokenizer_config.json": `{"chat_template": "cfg", "eos_token": "</s>"}`,
		"chat_template.jinja":   "jinja",
		"other.json":            ` {"chat_template": "other", "bos_token": "<s>"}`,
		"chat_template.json":    `{"chat_template": "processor"}`,
		"notes.txt":             "hello",
		"empty":                 "",
		"bad.json":              `{"chat_template": 1}`,
	})
	check := func(path, tmpl, src string) {
		t.Helper()
		m, err := ReadModel(path)
		if err != nil {
			t.Fatalf("ReadModel(%s): %v", path, err)
		}
		if m.ChatTemplate != tmpl || m.TemplateSource != src || m.Format != FormatHF {
			t.Errorf("ReadModel(%s) = %+v", path, m)
		}
	}
	// A directory and its tokenizer_config.json read the same, with chat_template.jinja.
	check(dir, "jinja", filepath.Join(dir, "chat_template.jinja"))
	check(filepath.Join(dir, "tokenizer_config.json"), "jinja", filepath.Join(dir, "chat_template.jinja"))
	// Another JSON file is read alone.
	check(filepath.Join(dir, "other.json"), "other", filepath.Join(dir, "other.json")+":chat_template")
	check(filepath.Join(dir, "chat_template.json"), "processor", filepath.Join(dir, "chat_template.json")+":chat_template")
	for name, want := range map[string]string{
		"notes.txt": `notes.txt: neither a GGUF file (it starts with "hell", not "GGUF"), a JSON tokenizer config nor a model directory`,
		"empty":     `empty: neither a GGUF file (it starts with "", not "GGUF")`,
		"bad.json":  "bad.json: chat_template is a number",
		"missing":   "no such file or directory",
	} {
		if _, err := ReadModel(filepath.Join(dir, name)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadModel(%s): %v, want %q", name, err, want)
		}
	}
}

// FuzzParseTokenizerConfig checks that no input panics and that a result is consistent.
func FuzzParseTokenizerConfig(f *testing.F) {
	for _, tc := range tokenizerConfigTests {
		f.Add([]byte(tc.json))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseTokenizerConfig(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "tokenizer config: ") {
				t.Fatalf("error without context: %v", err)
			}
			return
		}
		if m.Format != FormatHF || (m.BOSToken != "" && !m.HasBOS) || (m.EOSToken != "" && !m.HasEOS) {
			t.Fatalf("inconsistent result %+v", m)
		}
		if _, ok := m.NamedTemplates["default"]; ok {
			t.Fatalf("default template among the named ones: %+v", m)
		}
		if (m.ChatTemplate != "") != (m.TemplateSource != "") {
			t.Fatalf("TemplateSource %q for template %q", m.TemplateSource, m.ChatTemplate)
		}
	})
}

// TestTokenizerConfigJSONError: a syntax error says its offset and wraps the decoder's
// *JSONError, with its line, column and path.
func TestTokenizerConfigJSONError(t *testing.T) {
	_, err := ParseTokenizerConfig([]byte(`{"chat_template": [1,}`))
	var je *tmplgen.JSONError
	if !errors.As(err, &je) || je.Path != "chat_template[1]" ||
		err.Error() != "tokenizer config: offset 21: invalid JSON: invalid character '}' looking for beginning of value at line 1, column 22 (chat_template[1])" {
		t.Errorf("ParseTokenizerConfig: %v", err)
	}
}

// TestModelTokens: Tokens gives the special tokens by template variable name.
func TestModelTokens(t *testing.T) {
	m, err := ParseTokenizerConfig([]byte(`{"chat_template": "x", "bos_token": "<s>", "unk_token": "<unk>"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := m.Tokens()
	if len(got) != 2 || got["bos_token"] != "<s>" || got["unk_token"] != "<unk>" {
		t.Errorf("Tokens() = %v", got)
	}
}
