package bench

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

// The floor of a render's cost: three catalog templates written by hand in Go, plain
// appends over typed structs, for the requests without tools (issue 33's anchor).
// TestHandwritten checks each byte for byte against the compiled template on the
// oracle's cases it handles; BenchmarkHandwritten times both side by side.

// A hwMessage is a message of a request without tools, typed.
type hwMessage struct {
	Role             string  `json:"role"`
	Content          string  `json:"content"`
	ReasoningContent *string `json:"reasoning_content"`
}

// A hwRequest is a request without tools, typed: the messages, add_generation_prompt,
// the bos token and enable_thinking (nil when the request does not set it).
type hwRequest struct {
	Messages            []hwMessage `json:"messages"`
	AddGenerationPrompt bool        `json:"add_generation_prompt"`
	BOS                 string      `json:"bos"`
	Kwargs              struct {
		EnableThinking *bool `json:"enable_thinking"`
	} `json:"chat_template_kwargs"`
}

// hwRequestOf decodes an oracle request (defaults applied) as a hwRequest, and reports
// whether the hand-written renderers take it: no tools and no other field a template
// could read, string contents, no tool calls.
func hwRequestOf(raw []byte) (*hwRequest, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return nil, false
	}
	for k, v := range fields {
		switch k {
		case "id", "messages", "add_generation_prompt", "bos", "eos":
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
			case k == "reasoning_content":
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

// handwrittenQwen3 is Qwen3's template without tools and tool calls.
func handwrittenQwen3(dst []byte, r *hwRequest) ([]byte, bool) {
	msgs := r.Messages
	if msgs[0].Role == "system" {
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
				content = strings.TrimLeft(content, "\n")
			}
			dst = append(dst, content...)
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

// pyStrip is Python's str.strip(): whitespace as str.isspace says, which is Go's
// unicode.IsSpace and the four ASCII separators U+001C to U+001F.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
}

// A hwPair is an oracle case a hand-written renderer handles: the compiled template's
// pair (its input and prompt) and the typed request.
type hwPair struct {
	*pair
	req *hwRequest
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
		for _, cs := range c.cases {
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
			out[t.name] = append(out[t.name], hwPair{p, r})
		}
	}
	return out
}

// TestHandwritten: each hand-written renderer writes the compiled template's prompt,
// byte for byte, on every oracle case it handles, and handles at least five.
func TestHandwritten(t *testing.T) {
	pairs := handwrittenPairs(t)
	for name, hw := range handwritten {
		if len(pairs[name]) < 5 {
			t.Errorf("%s: the hand-written renderer handles %d cases, want at least 5", name, len(pairs[name]))
		}
		for _, p := range pairs[name] {
			got, _ := hw(nil, p.req)
			if string(got) != p.out {
				t.Errorf("%s %s:\nhand-written %q\ncompiled     %q", name, p.caseID, got, p.out)
			}
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
