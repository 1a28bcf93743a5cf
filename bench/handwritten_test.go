package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/tmplgen/tmplgen"
)

// The floor of a render's cost: three catalog templates written by hand in Go, plain
// appends over typed structs (issue 33's anchor): Qwen2.5's and Llama 3.1's for
// requests without tools, Qwen3's with and without tools (tool definitions and
// arguments written as transformers' tojson writes them, json.dumps). TestHandwritten
// checks each byte for byte against the compiled template on the oracle's cases it
// handles; BenchmarkHandwritten times both side by side.

// A hwMessage is a message of a request, typed.
type hwMessage struct {
	Role             string       `json:"role"`
	Content          string       `json:"content"`
	ReasoningContent *string      `json:"reasoning_content"`
	ToolCalls        []hwToolCall `json:"tool_calls"`
}

// A hwToolCall is a tool call of an assistant message: the function's name and its
// arguments, a str or an object.
type hwToolCall struct {
	Function *struct {
		Name      string `json:"name"`
		Arguments hwJSON `json:"arguments"`
	} `json:"function"`
}

// A hwJSON is a JSON value as a request has it, decoded with its keys in order (a tool's
// schema): what a hand-written renderer writes again with tojson. It is a tree of
// values, not the corpus's jv of pointers, which the floor would pay for: writing
// Qwen3's tools cases through jv takes 4-8% longer.
type hwJSON struct {
	kind  byte     // '"' a str, '[' a list, '{' an object, 0 a literal (number, true, false, null)
	text  string   // the str, or the literal as written
	items []hwJSON // a list's items, an object's values
	keys  []string // an object's keys
}

// UnmarshalJSON decodes data into v.
func (v *hwJSON) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return v.decode(dec)
}

func (v *hwJSON) decode(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case json.Delim:
		v.kind = byte(tok)
		for dec.More() {
			if tok == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				v.keys = append(v.keys, k.(string))
			}
			var item hwJSON
			if err := item.decode(dec); err != nil {
				return err
			}
			v.items = append(v.items, item)
		}
		_, err = dec.Token() // ] or }
		return err
	case string:
		v.kind, v.text = '"', tok
	case json.Number:
		v.text = string(tok)
	case bool:
		v.text = strconv.FormatBool(tok)
	case nil:
		v.text = "null"
	}
	return nil
}

// A hwRequest is a request, typed: the messages, the tools, add_generation_prompt, the
// bos token and enable_thinking (nil when the request does not set it).
type hwRequest struct {
	Messages            []hwMessage `json:"messages"`
	Tools               []hwJSON    `json:"tools"`
	AddGenerationPrompt bool        `json:"add_generation_prompt"`
	BOS                 string      `json:"bos"`
	Kwargs              struct {
		EnableThinking *bool `json:"enable_thinking"`
	} `json:"chat_template_kwargs"`
}

// hasTools reports whether r has tools or tool calls, which only the Qwen3 renderer
// writes.
func (r *hwRequest) hasTools() bool {
	for _, m := range r.Messages {
		if len(m.ToolCalls) > 0 {
			return true
		}
	}
	return len(r.Tools) > 0
}

// hwRequestOf decodes an oracle request (defaults applied) as a hwRequest, and reports
// whether the hand-written renderers take it: no other field a template could read
// than those of hwRequest, string contents.
func hwRequestOf(raw []byte) (*hwRequest, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return nil, false
	}
	for k, v := range fields {
		switch k {
		case "id", "messages", "add_generation_prompt", "bos", "eos":
		case "tools":
			if string(v) != "null" && v[0] != '[' {
				return nil, false
			}
		case "chat_template_kwargs":
			var kw map[string]json.RawMessage
			if json.Unmarshal(v, &kw) != nil || len(kw) != 1 || kw["enable_thinking"] == nil {
				return nil, false
			}
		default:
			if string(v) != "null" {
				return nil, false
			}
		}
	}
	var msgs []map[string]json.RawMessage
	if json.Unmarshal(fields["messages"], &msgs) != nil || len(msgs) == 0 {
		return nil, false
	}
	for _, m := range msgs {
		for k, v := range m {
			switch {
			case k == "role" || k == "content":
				if len(v) == 0 || v[0] != '"' {
					return nil, false
				}
			case k == "reasoning_content", k == "tool_calls", k == "tool_call_id", k == "name":
			default:
				return nil, false
			}
		}
		if m["content"] == nil || m["role"] == nil {
			return nil, false
		}
	}
	var r hwRequest
	if json.Unmarshal(raw, &r) != nil {
		return nil, false
	}
	return &r, true
}

// handwritten are the hand-written renderers by catalog template; one returns false
// for a request it does not model (the template would take another path or fail).
var handwritten = map[string]func(dst []byte, r *hwRequest) ([]byte, bool){
	"Qwen-Qwen2.5-7B-Instruct":         handwrittenChatML,
	"meta-llama-Llama-3.1-8B-Instruct": handwrittenLlama31,
	"Qwen-Qwen3-0.6B":                  handwrittenQwen3,
}

// handwrittenChatML is Qwen2.5's template (ChatML with a default system message).
func handwrittenChatML(dst []byte, r *hwRequest) ([]byte, bool) {
	if r.hasTools() {
		return dst, false // not modelled
	}
	msgs := r.Messages
	if msgs[0].Role == "system" {
		dst = append(dst, "<|im_start|>system\n"...)
		dst = append(dst, msgs[0].Content...)
		dst = append(dst, "<|im_end|>\n"...)
	} else {
		dst = append(dst, "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"...)
	}
	for i, m := range msgs {
		switch {
		case m.Role == "tool":
			return dst, false // not modelled
		case m.Role != "user" && m.Role != "assistant" && (m.Role != "system" || i == 0):
			continue // the template writes nothing for it
		}
		dst = append(dst, "<|im_start|>"...)
		dst = append(dst, m.Role...)
		dst = append(dst, '\n')
		dst = append(dst, m.Content...)
		dst = append(dst, "<|im_end|>\n"...)
	}
	if r.AddGenerationPrompt {
		dst = append(dst, "<|im_start|>assistant\n"...)
	}
	return dst, true
}

// handwrittenLlama31 is Llama 3.1's template without tools.
func handwrittenLlama31(dst []byte, r *hwRequest) ([]byte, bool) {
	if r.hasTools() {
		return dst, false // not modelled
	}
	msgs := r.Messages
	dst = append(dst, r.BOS...)
	system := ""
	if msgs[0].Role == "system" {
		system = pyStrip(msgs[0].Content)
		msgs = msgs[1:]
	}
	dst = append(dst, "<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"...)
	dst = append(dst, system...)
	dst = append(dst, "<|eot_id|>"...)
	for _, m := range msgs {
		if m.Role == "ipython" || m.Role == "tool" {
			return dst, false
		}
		dst = append(dst, "<|start_header_id|>"...)
		dst = append(dst, m.Role...)
		dst = append(dst, "<|end_header_id|>\n\n"...)
		dst = append(dst, pyStrip(m.Content)...)
		dst = append(dst, "<|eot_id|>"...)
	}
	if r.AddGenerationPrompt {
		dst = append(dst, "<|start_header_id|>assistant<|end_header_id|>\n\n"...)
	}
	return dst, true
}

// handwrittenQwen3 is Qwen3's template.
func handwrittenQwen3(dst []byte, r *hwRequest) ([]byte, bool) {
	msgs := r.Messages
	if len(r.Tools) > 0 {
		dst = append(dst, "<|im_start|>system\n"...)
		if msgs[0].Role == "system" {
			dst = append(dst, msgs[0].Content...)
			dst = append(dst, "\n\n"...)
		}
		dst = append(dst, "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>"...)
		for _, t := range r.Tools {
			dst = append(dst, '\n')
			dst = t.appendPy(dst)
		}
		dst = append(dst, "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n"...)
	} else if msgs[0].Role == "system" {
		dst = append(dst, "<|im_start|>system\n"...)
		dst = append(dst, msgs[0].Content...)
		dst = append(dst, "<|im_end|>\n"...)
	}
	lastQuery := len(msgs) - 1
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Role == "user" && !(strings.HasPrefix(m.Content, "<tool_response>") && strings.HasSuffix(m.Content, "</tool_response>")) {
			lastQuery = i
			break
		}
	}
	for i, m := range msgs {
		switch {
		case m.Role == "user" || m.Role == "system" && i > 0:
			dst = append(dst, "<|im_start|>"...)
			dst = append(dst, m.Role...)
			dst = append(dst, '\n')
			dst = append(dst, m.Content...)
			dst = append(dst, "<|im_end|>\n"...)
		case m.Role == "assistant":
			content, reasoning := m.Content, ""
			if m.ReasoningContent != nil {
				reasoning = *m.ReasoningContent
			} else if strings.Contains(m.Content, "</think>") {
				// content.split('</think>')[-1].lstrip('\n'), and
				// content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n')
				content = strings.TrimLeft(m.Content[strings.LastIndex(m.Content, "</think>")+len("</think>"):], "\n")
				before, _, _ := strings.Cut(m.Content, "</think>")
				before = strings.TrimRight(before, "\n")
				if i := strings.LastIndex(before, "<think>"); i >= 0 {
					reasoning = strings.TrimLeft(before[i+len("<think>"):], "\n")
				} else {
					reasoning = strings.TrimLeft(before, "\n")
				}
			}
			dst = append(dst, "<|im_start|>assistant\n"...)
			if i > lastQuery && (i == len(msgs)-1 || reasoning != "") {
				dst = append(dst, "<think>\n"...)
				dst = append(dst, strings.Trim(reasoning, "\n")...)
				dst = append(dst, "\n</think>\n\n"...)
				dst = append(dst, strings.TrimLeft(content, "\n")...)
			} else {
				dst = append(dst, content...)
			}
			for j, c := range m.ToolCalls {
				if c.Function == nil {
					return dst, false // the call itself is the function: not modelled
				}
				if j > 0 || content != "" {
					dst = append(dst, '\n')
				}
				dst = append(dst, "<tool_call>\n{\"name\": \""...)
				dst = append(dst, c.Function.Name...)
				dst = append(dst, "\", \"arguments\": "...)
				if args := &c.Function.Arguments; args.kind == '"' {
					dst = append(dst, args.text...) // a str as it is
				} else {
					dst = args.appendPy(dst)
				}
				dst = append(dst, "}\n</tool_call>"...)
			}
			dst = append(dst, "<|im_end|>\n"...)
		case m.Role == "tool":
			if i == 0 || msgs[i-1].Role != "tool" {
				dst = append(dst, "<|im_start|>user"...)
			}
			dst = append(dst, "\n<tool_response>\n"...)
			dst = append(dst, m.Content...)
			dst = append(dst, "\n</tool_response>"...)
			if i == len(msgs)-1 || msgs[i+1].Role != "tool" {
				dst = append(dst, "<|im_end|>\n"...)
			}
		}
	}
	if r.AddGenerationPrompt {
		dst = append(dst, "<|im_start|>assistant\n"...)
		if t := r.Kwargs.EnableThinking; t != nil && !*t {
			dst = append(dst, "<think>\n\n</think>\n\n"...)
		}
	}
	return dst, true
}

// appendPy appends v as Python's json.dumps(ensure_ascii=False) writes it, which is
// what transformers' tojson writes: ", " and ": " between items, strs escaped as
// Python escapes them, numbers as the request wrote them (Python would write a float
// such as 1.50 as 1.5: the oracle's tools have none).
func (v *hwJSON) appendPy(dst []byte) []byte {
	switch v.kind {
	case '"':
		return appendPyStr(dst, v.text)
	case '[', '{':
		dst = append(dst, v.kind)
		for i := range v.items {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if v.kind == '{' {
				dst = appendPyStr(dst, v.keys[i])
				dst = append(dst, ": "...)
			}
			dst = v.items[i].appendPy(dst)
		}
		return append(dst, v.kind+2) // ] or }
	}
	return append(dst, v.text...)
}

// appendPyStr appends s quoted as json.dumps(ensure_ascii=False) quotes it: runs of
// bytes that need no escape copied at once.
func appendPyStr(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case pyEscapes[c] != 0:
			dst = append(dst, '\\', pyEscapes[c])
		default:
			dst = append(dst, `\u00`...)
			dst = append(dst, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// pyEscapes are the control characters json.dumps writes as a letter after \.
var pyEscapes = [0x20]byte{'\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// pyStrip is Python's str.strip(): whitespace as str.isspace says, which is Go's
// unicode.IsSpace and the four ASCII separators U+001C to U+001F.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
}

// A hwPair is an oracle case a hand-written renderer handles: the compiled template's
// pair (its input and prompt), the typed request, and the prompt the oracle recorded
// for transformers.
type hwPair struct {
	*pair
	req    *hwRequest
	oracle string
}

// oraclePrompts returns the prompts the oracle recorded for transformers with the
// catalog template t (../shared/oracle/expected), by case; a case it recorded an error
// for has none.
func oraclePrompts(tb testing.TB, c *corpus, t *tmplgen.Template) map[string]string {
	data, err := os.ReadFile(filepath.Join(c.shared, "oracle", "expected", t.Origin+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var rec struct {
		Cases map[string]struct {
			Transformers struct {
				Prompt *string `json:"prompt"`
			} `json:"transformers"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		tb.Fatalf("%s: %v", t.Origin, err)
	}
	out := map[string]string{}
	for id, cs := range rec.Cases {
		if p := cs.Transformers.Prompt; p != nil {
			out[id] = *p
		}
	}
	return out
}

// handwrittenPairs returns, for each hand-written template, the oracle cases it
// handles.
func handwrittenPairs(tb testing.TB) map[string][]hwPair {
	c := mustCorpus(tb)
	out := map[string][]hwPair{}
	for _, t := range c.templates {
		hw, ok := handwritten[t.name]
		if !ok {
			continue
		}
		oracle := oraclePrompts(tb, c, t.tmpl)
		for _, cs := range c.cases {
			want, ok := oracle[cs.id]
			if !ok {
				continue
			}
			r, ok := hwRequestOf(cs.raw)
			if !ok {
				continue
			}
			if _, ok := hw(nil, r); !ok {
				continue
			}
			p := &pair{template: t.name, caseID: cs.id, tmpl: t.tmpl}
			if p.in, p.err = tmplgenInput(cs.raw); p.err == nil {
				p.out, p.err = t.tmpl.Render(p.in)
			}
			if p.err != nil {
				continue
			}
			out[t.name] = append(out[t.name], hwPair{p, r, want})
		}
	}
	return out
}

// TestHandwritten: each hand-written renderer writes the prompt the oracle recorded
// for transformers, as the compiled template does, byte for byte, on every oracle case
// it handles, and handles at least five; Qwen3's handles at least four with tools.
func TestHandwritten(t *testing.T) {
	pairs := handwrittenPairs(t)
	for name, hw := range handwritten {
		if len(pairs[name]) < 5 {
			t.Errorf("%s: the hand-written renderer handles %d cases, want at least 5", name, len(pairs[name]))
		}
		withTools := 0
		for _, p := range pairs[name] {
			got, _ := hw(nil, p.req)
			if string(got) != p.oracle {
				t.Errorf("%s %s:\nhand-written %q\noracle       %q", name, p.caseID, got, p.oracle)
			}
			if p.out != p.oracle {
				t.Errorf("%s %s:\ncompiled %q\noracle   %q", name, p.caseID, p.out, p.oracle)
			}
			if p.req.hasTools() {
				withTools++
			}
		}
		if name == "Qwen-Qwen3-0.6B" && withTools < 4 {
			t.Errorf("%s: the hand-written renderer handles %d cases with tools, want at least 4", name, withTools)
		}
	}
}

// BenchmarkHandwritten renders the oracle cases each hand-written renderer handles, as
// BenchmarkHandwritten/<template>/<case>/<engine>: the compiled template (tmplgen,
// AppendRender into a reused buffer, from the parsed request) and the hand-written one
// (handwritten, appending into a reused buffer, from the typed request), so that
// benchstat -col /engine gives the ratio.
func BenchmarkHandwritten(b *testing.B) {
	for name, pairs := range handwrittenPairs(b) {
		hw := handwritten[name]
		b.Run(name, func(b *testing.B) {
			for _, p := range pairs {
				b.Run(p.caseID, func(b *testing.B) {
					b.Run("engine=tmplgen", func(b *testing.B) { benchTmplgen(b, p.in, p.tmpl) })
					b.Run("engine=handwritten", func(b *testing.B) {
						b.ReportAllocs()
						buf, _ := hw(nil, p.req)
						for b.Loop() {
							buf, _ = hw(buf[:0], p.req)
						}
					})
				})
			}
		})
	}
}

// TestAppendPy: the hand-written tojson writes what Python's json.dumps(json.loads(in),
// ensure_ascii=False) wrote for each input (recorded from Python 3).
func TestAppendPy(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"\u006e\n\u001f\"\\\/ \u003cb\u003e","b":[1, 2.5,{"c":"\u00e9\ud83d\ude00°","d":null,"e":true}], "f" : {}}`,
			`{"a": "n\n\u001f\"\\/ <b>", "b": [1, 2.5, {"c": "é😀°", "d": null, "e": true}], "f": {}}`},
		{`["x",{"y":[]}]`, `["x", {"y": []}]`},
	}
	for _, tt := range tests {
		var v hwJSON
		if err := json.Unmarshal([]byte(tt.in), &v); err != nil {
			t.Fatal(err)
		}
		if got := v.appendPy(nil); string(got) != tt.want {
			t.Errorf("appendPy(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
