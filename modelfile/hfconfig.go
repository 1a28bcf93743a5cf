package modelfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// Formats of the model files a ModelInfo is read from.
const (
	// FormatGGUF marks a ModelInfo read from a GGUF file (llama.cpp).
	FormatGGUF = "gguf"
	// FormatHF marks a ModelInfo read from Hugging Face files: tokenizer_config.json,
	// chat_template.jinja, chat_template.json.
	FormatHF = "hf"
)

// Names of the files of a Hugging Face model directory.
const (
	hfTokenizerConfig = "tokenizer_config.json"
	hfTemplateJinja   = "chat_template.jinja"
	hfTemplateJSON    = "chat_template.json"
	hfAdditionalDir   = "additional_chat_templates"
	hfModelConfig     = "config.json"
	hfMaxJSONFile     = 256 << 20 // tokenizer_config.json with a large added_tokens_decoder stays far below
	hfMaxTemplateFile = 64 << 20  // same as the GGUF string limit
	hfMaxAdditional   = 256       // files read from additional_chat_templates
	hfDefaultName     = "default"
)

// ErrNoChatTemplate is wrapped by the errors of ModelInfo.Template when the model has no chat
// template, or none of the requested name.
var ErrNoChatTemplate = errors.New("no chat template")

// ModelInfo is what tmplgen needs from a model's files to compile and render its chat template:
// the template text(s) and the special tokens and flags the template and the serving profiles use.
// A model without a template has an empty ChatTemplate and no error; ask Template for an error.
type ModelInfo struct {
	// Format is FormatGGUF or FormatHF.
	Format string
	// Source is the file or directory read ("" when read from an io.Reader or bytes).
	Source string
	// Name is general.name for GGUF; for a Hugging Face directory, the repository id when the
	// directory is a hub cache snapshot (models--ORG--NAME/snapshots/REV), else the directory name.
	Name string
	// Architecture is general.architecture for GGUF, model_type of config.json for Hugging Face.
	Architecture string
	// ChatTemplate is the main (default) chat template, "" when the model has none.
	ChatTemplate string
	// TemplateSource tells where ChatTemplate came from: a file, or FILE:KEY for an embedded one.
	TemplateSource string
	// NamedTemplates holds the other named templates (tokenizer.chat_template.NAME in GGUF, the
	// list form of chat_template or additional_chat_templates/NAME.jinja in Hugging Face), e.g.
	// "tool_use" or "rag". Nil when there are none. The default template is not repeated here.
	NamedTemplates map[string]string
	// BOSToken and EOSToken are the texts of the beginning/end-of-sequence tokens; HasBOS and
	// HasEOS tell whether the model defines them (a defined token may have empty text).
	BOSToken, EOSToken string
	HasBOS, HasEOS     bool
	// OtherTokens are the other special tokens a tokenizer_config.json names, by the
	// variable name transformers gives templates (unk_token, pad_token, sep_token,
	// cls_token, mask_token); nil when there are none.
	OtherTokens map[string]string
	// AddBOS and AddEOS are add_bos_token/add_eos_token when the model sets them, else nil.
	AddBOS, AddEOS *bool
	// Warnings lists oddities that did not stop the read, e.g. a BOS id outside the vocabulary.
	Warnings []string
}

// Template returns the chat template called name: "" or "default" is the main template, any
// other name a named variant such as "tool_use". When there is no such template the error wraps
// ErrNoChatTemplate and names the templates the model has.
func (m *ModelInfo) Template(name string) (string, error) {
	if name == "" || name == hfDefaultName {
		if m.ChatTemplate != "" {
			return m.ChatTemplate, nil
		}
		if t, ok := m.NamedTemplates[hfDefaultName]; ok && t != "" {
			return t, nil
		}
		if names := m.TemplateNames(); len(names) > 0 {
			return "", fmt.Errorf("%s: %w (default); it has named templates %s", m.describe(), ErrNoChatTemplate, strings.Join(names, ", "))
		}
		return "", fmt.Errorf("%s: %w", m.describe(), ErrNoChatTemplate)
	}
	if t, ok := m.NamedTemplates[name]; ok {
		return t, nil
	}
	names := m.TemplateNames()
	if len(names) == 0 {
		return "", fmt.Errorf("%s: %w (wanted %q)", m.describe(), ErrNoChatTemplate, name)
	}
	return "", fmt.Errorf("%s: %w named %q; it has %s", m.describe(), ErrNoChatTemplate, name, strings.Join(names, ", "))
}

// TemplateNames returns the names of the model's templates: "default" first when there is a main
// template, then the named variants in sorted order.
func (m *ModelInfo) TemplateNames() []string {
	var names []string
	_, namedDefault := m.NamedTemplates[hfDefaultName]
	if m.ChatTemplate != "" || namedDefault {
		names = append(names, hfDefaultName)
	}
	start := len(names)
	for n := range m.NamedTemplates {
		if n != hfDefaultName {
			names = append(names, n)
		}
	}
	slices.Sort(names[start:])
	return names
}

func (m *ModelInfo) describe() string {
	switch {
	case m.Source != "":
		return m.Source
	case m.Name != "":
		return m.Name
	case m.Format == FormatGGUF:
		return "GGUF model"
	}
	return "model"
}

// ParseTokenizerConfig parses the text of a Hugging Face tokenizer_config.json (or of a
// chat_template.json, which has the same chat_template field). It reads:
//   - chat_template: a string, or a list of {"name": ..., "template": ...} objects where the one
//     named "default" is the main template and the others go to NamedTemplates (a later entry of
//     the same name replaces an earlier one, as in transformers), or null;
//   - bos_token, eos_token: a string, an AddedToken object {"content": ..., ...}, or null;
//   - add_bos_token, add_eos_token: booleans, or null.
//
// Other fields are ignored. Keys match exactly; of duplicate keys the last wins, as in Python.
// The text must be valid UTF-8 (Python refuses to load it otherwise). Errors say which field is
// wrong; a syntax error says its byte offset and wraps the *JSONError of ParseJSON (line, column,
// path).
func ParseTokenizerConfig(data []byte) (*ModelInfo, error) {
	m := &ModelInfo{Format: FormatHF}
	if err := hfParseConfig(data, m, "", true); err != nil {
		return nil, err
	}
	return m, nil
}

// hfParseConfig parses a tokenizer_config.json or chat_template.json into m. file is its path,
// or "" when unknown; tokens says whether to read the bos/eos fields.
func hfParseConfig(data []byte, m *ModelInfo, file string, tokens bool) error {
	what := file
	if what == "" {
		what = "tokenizer config"
	}
	top, err := hfObject(data, what)
	if err != nil {
		return err
	}
	if v, ok := top.GetStr("chat_template"); ok {
		main, named, err := hfTemplates(v, what)
		if err != nil {
			return err
		}
		m.ChatTemplate, m.NamedTemplates = main, named
		if main != "" {
			m.TemplateSource = ggufTemplateSource(file, "chat_template")
		}
	}
	if !tokens {
		return nil
	}
	if m.BOSToken, m.HasBOS, err = hfToken(top, "bos_token", what); err != nil {
		return err
	}
	if m.EOSToken, m.HasEOS, err = hfToken(top, "eos_token", what); err != nil {
		return err
	}
	for _, name := range hfOtherTokens {
		text, ok, err := hfToken(top, name, what)
		if err != nil {
			return err
		}
		if ok {
			if m.OtherTokens == nil {
				m.OtherTokens = map[string]string{}
			}
			m.OtherTokens[name] = text
		}
	}
	if m.AddBOS, err = hfBool(top, "add_bos_token", what); err != nil {
		return err
	}
	m.AddEOS, err = hfBool(top, "add_eos_token", what)
	return err
}

// hfObject decodes a JSON object. A syntax error wraps the *JSONError.
func hfObject(data []byte, what string) (*jinja2.Dict, error) {
	if off := hfInvalidUTF8(data); off >= 0 {
		return nil, fmt.Errorf("%s: offset %d: invalid UTF-8", what, off)
	}
	v, err := jinja2.ParseJSONLimit(data, hfMaxJSONFile)
	var jerr *jinja2.JSONError
	if errors.As(err, &jerr) {
		return nil, fmt.Errorf("%s: offset %d: invalid JSON: %w", what, jerr.Offset, (*tmplgen.JSONError)(jerr))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	top := v.AsDict()
	if top == nil {
		return nil, fmt.Errorf("%s: the top level is %s, want an object", what, jinja2.JSONTypeName(v))
	}
	return top, nil
}

// hfText returns a str of the config as a string of its own: a str of decoded JSON
// shares the memory of the whole text.
func hfText(v jinja2.Value) string { return strings.Clone(text(v)) }

// text is the text of a str.
func text(v jinja2.Value) string {
	s, _ := v.AsString()
	return s
}

// hfTemplates decodes the chat_template field.
func hfTemplates(v jinja2.Value, what string) (string, map[string]string, error) {
	switch v.Kind() {
	case jinja2.KindNone:
		return "", nil, nil
	case jinja2.KindString:
		return hfText(v), nil, nil
	case jinja2.KindList:
		var main string
		var named map[string]string
		for i, item := range v.Items() {
			field := fmt.Sprintf("chat_template[%d]", i)
			obj := item.AsDict()
			if obj == nil {
				return "", nil, fmt.Errorf("%s: %s is %s, want a {\"name\", \"template\"} object", what, field, jinja2.JSONTypeName(item))
			}
			name, err := hfString(obj, "name", field, what)
			if err != nil {
				return "", nil, err
			}
			tmpl, err := hfString(obj, "template", field, what)
			if err != nil {
				return "", nil, err
			}
			if name == hfDefaultName {
				main = tmpl
				continue
			}
			if named == nil {
				named = map[string]string{}
			}
			named[name] = tmpl
		}
		return main, named, nil
	default:
		return "", nil, fmt.Errorf("%s: chat_template is %s, want a string or a list of {\"name\", \"template\"} objects", what, jinja2.JSONTypeName(v))
	}
}

// hfString decodes the required string member key of obj.
func hfString(obj *jinja2.Dict, key, field, what string) (string, error) {
	v, ok := obj.GetStr(key)
	if !ok {
		return "", fmt.Errorf("%s: %s has no %q", what, field, key)
	}
	if v.Kind() != jinja2.KindString {
		return "", fmt.Errorf("%s: %s.%s is %s, want a string", what, field, key, jinja2.JSONTypeName(v))
	}
	return hfText(v), nil
}

// hfToken decodes a special token field: a string, an AddedToken object or null.
func hfToken(top *jinja2.Dict, key, what string) (string, bool, error) {
	v, ok := top.GetStr(key)
	if !ok {
		return "", false, nil
	}
	switch v.Kind() {
	case jinja2.KindNone:
		return "", false, nil
	case jinja2.KindString:
		return hfText(v), true, nil
	case jinja2.KindDict:
		s, err := hfString(v.AsDict(), "content", key, what)
		return s, err == nil, err
	default:
		return "", false, fmt.Errorf("%s: %s is %s, want a string, an AddedToken object or null", what, key, jinja2.JSONTypeName(v))
	}
}

// hfOtherTokens are the special tokens besides bos and eos that transformers passes to
// a chat template (its special_tokens_map).
var hfOtherTokens = []string{"unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}

// Tokens returns the model's special tokens by the variable names templates read them
// by: bos_token and eos_token when the model defines them, and OtherTokens.
func (m *ModelInfo) Tokens() map[string]string {
	tokens := make(map[string]string, 2+len(m.OtherTokens))
	if m.HasBOS {
		tokens["bos_token"] = m.BOSToken
	}
	if m.HasEOS {
		tokens["eos_token"] = m.EOSToken
	}
	for name, text := range m.OtherTokens {
		tokens[name] = text
	}
	return tokens
}

// hfBool decodes an optional boolean field.
func hfBool(top *jinja2.Dict, key, what string) (*bool, error) {
	v, ok := top.GetStr(key)
	if !ok || v.Kind() == jinja2.KindNone {
		return nil, nil
	}
	b, ok := v.AsBool()
	if !ok {
		return nil, fmt.Errorf("%s: %s is %s, want a boolean", what, key, jinja2.JSONTypeName(v))
	}
	return &b, nil
}

// ReadModelDir reads the chat template and special tokens of a Hugging Face model directory the
// way transformers loads a tokenizer:
//   - tokenizer_config.json gives bos_token, eos_token, add_bos_token, add_eos_token and, unless a
//     template file below exists, the templates;
//   - chat_template.jinja, when present, replaces all templates of tokenizer_config.json (its
//     line endings are normalised to "\n", as Python's text mode reads it);
//   - otherwise chat_template.json ({"chat_template": ...}, the processor file), when it has a
//     template, replaces them;
//   - additional_chat_templates/NAME.jinja files add (or replace) the named template NAME;
//   - config.json, when present, gives Architecture (its model_type); a config.json that cannot
//     be read only adds a warning.
//
// At least one of tokenizer_config.json, chat_template.jinja and chat_template.json must exist.
func ReadModelDir(dir string) (*ModelInfo, error) {
	m := &ModelInfo{Format: FormatHF, Source: dir, Name: hfModelName(dir)}
	found := false

	cfgPath := filepath.Join(dir, hfTokenizerConfig)
	data, err := hfReadFile(cfgPath, hfMaxJSONFile)
	switch {
	case err == nil:
		found = true
		if err := hfParseConfig(data, m, cfgPath, true); err != nil {
			return nil, err
		}
	case errors.Is(err, os.ErrNotExist):
		m.Warnings = append(m.Warnings, "no "+hfTokenizerConfig+": BOS/EOS tokens unknown")
	default:
		return nil, err
	}

	jinjaPath := filepath.Join(dir, hfTemplateJinja)
	jsonPath := filepath.Join(dir, hfTemplateJSON)
	if text, err := hfReadTemplate(jinjaPath); err == nil {
		found = true
		m.ChatTemplate, m.NamedTemplates, m.TemplateSource = text, nil, jinjaPath
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	} else if data, err := hfReadFile(jsonPath, hfMaxJSONFile); err == nil {
		found = true
		var t ModelInfo
		if err := hfParseConfig(data, &t, jsonPath, false); err != nil {
			return nil, err
		}
		if t.ChatTemplate != "" || t.NamedTemplates != nil {
			m.ChatTemplate, m.NamedTemplates, m.TemplateSource = t.ChatTemplate, t.NamedTemplates, t.TemplateSource
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s: no %s, %s or %s: not a Hugging Face model directory", dir, hfTokenizerConfig, hfTemplateJinja, hfTemplateJSON)
	}

	if err := hfReadAdditional(dir, m); err != nil {
		return nil, err
	}
	hfReadArchitecture(dir, m)
	return m, nil
}

// hfReadAdditional adds the templates of additional_chat_templates/NAME.jinja.
func hfReadAdditional(dir string, m *ModelInfo) error {
	sub := filepath.Join(dir, hfAdditionalDir)
	entries, err := os.ReadDir(sub)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	n := 0
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".jinja")
		if !ok || name == "" || e.IsDir() {
			continue
		}
		if n++; n > hfMaxAdditional {
			return fmt.Errorf("%s: more than %d template files", sub, hfMaxAdditional)
		}
		path := filepath.Join(sub, e.Name())
		text, err := hfReadTemplate(path)
		if err != nil {
			return err
		}
		if m.NamedTemplates == nil {
			m.NamedTemplates = map[string]string{}
		}
		m.NamedTemplates[name] = text
	}
	return nil
}

// hfReadArchitecture sets m.Architecture from config.json's model_type, when there is one.
func hfReadArchitecture(dir string, m *ModelInfo) {
	path := filepath.Join(dir, hfModelConfig)
	data, err := hfReadFile(path, hfMaxJSONFile)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err == nil {
		var top *jinja2.Dict
		if top, err = hfObject(data, path); err == nil {
			if t, ok := top.GetStr("model_type"); ok && t.Kind() == jinja2.KindString {
				m.Architecture = hfText(t)
			}
		}
	}
	if err != nil {
		m.Warnings = append(m.Warnings, "ignoring "+hfModelConfig+": "+err.Error())
	}
}

// hfModelName names a model directory: ORG/NAME for a hub cache snapshot
// (.../models--ORG--NAME/snapshots/REV), else the directory's base name.
func hfModelName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	parent := filepath.Dir(abs)
	if filepath.Base(parent) == "snapshots" {
		repo := filepath.Base(filepath.Dir(parent))
		if id, ok := strings.CutPrefix(repo, "models--"); ok && id != "" {
			return strings.Replace(id, "--", "/", 1)
		}
	}
	return filepath.Base(abs)
}

// hfReadFile reads a whole file of at most limit bytes.
func hfReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than the %s limit", path, ggufSize(uint64(limit)))
	}
	return data, nil
}

// hfInvalidUTF8 returns the offset of the first byte of data that is not valid UTF-8, or -1.
func hfInvalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	off := 0
	for off < len(data) {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			return off
		}
		off += size
	}
	return -1
}

// hfReadTemplate reads a .jinja file as Python's open(path, encoding="utf-8").read() does:
// UTF-8 is required, and "\r\n" and "\r" become "\n".
func hfReadTemplate(path string) (string, error) {
	data, err := hfReadFile(path, hfMaxTemplateFile)
	if err != nil {
		return "", err
	}
	if off := hfInvalidUTF8(data); off >= 0 {
		return "", fmt.Errorf("%s: offset %d: invalid UTF-8", path, off)
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		data = bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))
	}
	return string(data), nil
}

// IsModelDir reports whether dir is a Hugging Face model directory, one that
// ReadModelDir reads: it holds a tokenizer_config.json, chat_template.jinja or
// chat_template.json.
func IsModelDir(dir string) bool {
	for _, name := range []string{hfTokenizerConfig, hfTemplateJinja, hfTemplateJSON} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}

// ReadModel reads the chat template and special tokens of the model at path: a GGUF file
// (recognised by its magic, whatever its name), a model directory (see ReadModelDir), a
// tokenizer_config.json (read with the rest of its directory, as ReadModelDir does), or another
// JSON file in tokenizer_config.json form (such as chat_template.json), read alone.
func ReadModel(path string) (*ModelInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return ReadModelDir(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	f.Close()
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte(ggufMagic)):
		return ReadGGUFFile(path)
	case filepath.Base(path) == hfTokenizerConfig:
		return ReadModelDir(filepath.Dir(path))
	case bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("{")):
		data, err := hfReadFile(path, hfMaxJSONFile)
		if err != nil {
			return nil, err
		}
		m := &ModelInfo{Format: FormatHF, Source: path}
		if err := hfParseConfig(data, m, path, true); err != nil {
			return nil, err
		}
		return m, nil
	}
	return nil, fmt.Errorf("%s: neither a GGUF file (it starts with %q, not %q), a JSON tokenizer config nor a model directory", path, head[:min(len(head), 4)], ggufMagic)
}
