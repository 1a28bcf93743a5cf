package llamaprobe

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// Capabilities computes what llama.cpp's llama-server (b10587) detects about a template
// when it loads it (docs/llama-server.md sections 1 to 3): the capabilities its Jinja
// engine finds by rendering the template on six probe requests (jinja::caps_get),
// reproduced by rendering in probe mode; the handler it picks by substrings of the
// template text; and the template's thinking support (the generic handler's reasoning
// analysis, which renders the template on probe conversations); and the error, if any,
// llama.cpp's own lexer and parser give when it loads the template (llamaLoadError).
func Capabilities(t *ir.Template) llamacpp.Capabilities {
	return CapabilitiesWithTokens(t, nil)
}

// CapabilitiesWithTokens is Capabilities for a template whose model names its special
// tokens (bos_token, eos_token...): llama.cpp's analysis renders the template with the
// model's bos and eos tokens, which Capabilities takes to be llama_chat_driver's
// defaults, <s> and </s>, with which ../shared/oracle renders a template given alone.
func CapabilitiesWithTokens(t *ir.Template, tokens map[string]string) llamacpp.Capabilities {
	tok := probeTokens{bos: "<s>", eos: "</s>"}
	if b, ok := tokens["bos_token"]; ok {
		tok.bos = b
	}
	if e, ok := tokens["eos_token"]; ok {
		tok.eos = e
	}
	c := probeCaps(t)
	src := t.Source
	c.Handler = handlerOf(src)
	c.LoadError = llamaLoadError(src)
	c.KeepDeveloperRole = strings.Contains(src, "<|channel|>")
	c.TrimContent = strings.Contains(src, "You have access to the following functions in JSONSchema format")
	c.MergeToolResponses = c.Handler == "gemma4" && !strings.Contains(src, "{#- OpenAI Chat Completions:")
	c.SortToolResults = c.Handler == "deepseek_v3_2" && !strings.Contains(src, "function_calls")
	switch c.Handler {
	case "generic":
		r := analyzeReasoning(t, tok, c.ToolCalls)
		if c.ToolCalls && c.LoadError == "" {
			if section, ok := toolCallSection(t, tok); ok {
				c.ToolArguments, c.ToolTrigger = toolFormat(src, section, r)
				if err := toolCallAnalysisError(section, r); err != "" {
					c.LoadError = "Unable to generate parser for this template. Automatic parser generation failed: " + err
				}
			}
		}
		r = reasoningWorkarounds(src, r)
		c.ReasoningMode, c.ReasoningStart, c.ReasoningEnd = r.mode, r.start, r.end
		c.Thinking = r.mode != "none"
		if c.Thinking {
			c.ThinkingStartTag = trimSpace(r.start)
		}
	case "qwen3_coder":
		if strings.Contains(src, "<think>") {
			c.Thinking, c.ThinkingStartTag = true, "<think>"
		}
	default:
		h := handlerThinking[c.Handler]
		c.Thinking, c.ThinkingStartTag = h.thinking, h.startTag
	}
	return c
}

// probeNow is the clock of probe renders, so that what a template compiles to does not
// depend on the day it is compiled.
var probeNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// render renders t with exactly the variables vars, in probe mode when p is not nil. A
// panic that is not a render error (a bug of the interpreter) is an error too: probing
// must not stop compilation.
func render(t *ir.Template, vars *jinja2.Dict, p *probe) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", &jinja2.Error{Kind: "InternalError", Msg: fmt.Sprintf("llamaprobe: panic while probing: %v", r)}
		}
	}()
	run := &jinja2.Run{Vars: vars, Now: probeNow, Limits: probeLimits, File: t.File}
	b, err := run.Append(nil, func(w *jinja2.Writer) {
		m := &machine{w: w, probe: p}
		m.stmts(m.enter(nil, t.Body.Scope), t.Body.Stmts)
	})
	return string(b), err
}

// probeLimits bound the work of a probe render, far below the render defaults: probes
// render a few short messages, and a template that would run away on them must not
// make compiling it slow (a probe that hits a limit fails).
var probeLimits = jinja2.Limits{MaxOutput: 4 << 20, MaxIterations: 100_000, MaxDepth: 200}

// mustJSON decodes a probe input written in this file.
func mustJSON(s string) jinja2.Value {
	v, err := jinja2.ParseJSON([]byte(s))
	if err != nil {
		panic("llamaprobe: bad probe JSON: " + err.Error())
	}
	return v
}

// probeRun is one capability probe: a render on probe messages and tools, with the
// variables that caps_get defines.
type probeRun struct {
	ok   bool
	out  string
	p    *probe
	vars jinja2.Value // the probe's variables, a dict
}

// val returns the probe input value at path (such as messages[1].tool_calls) after the
// render, as llama.cpp reads it (a template can replace an item of a message); undefined
// if there is none.
func (r *probeRun) val(path string) jinja2.Value {
	v := r.vars
	for path != "" {
		var step string
		if i := strings.IndexAny(path[1:], ".["); i >= 0 {
			step, path = path[:i+1], path[i+1:]
		} else {
			step, path = path, ""
		}
		switch {
		case step[0] == '[':
			n, err := strconv.Atoi(strings.Trim(step, "[]"))
			if items := v.Items(); err == nil && n < len(items) && (v.Kind() == jinja2.KindList || v.Kind() == jinja2.KindTuple) {
				v = items[n]
			} else {
				return jinja2.Undefined(path)
			}
		case v.Kind() == jinja2.KindNamespace:
			v = v.Attr(strings.TrimPrefix(step, "."))
		default:
			d := v.AsDict()
			if d == nil {
				return jinja2.Undefined(path)
			}
			var ok bool
			if v, ok = d.GetStr(strings.TrimPrefix(step, ".")); !ok {
				return jinja2.Undefined(path)
			}
		}
	}
	return v
}

func runProbe(t *ir.Template, messages, tools string, extra map[string]bool) probeRun {
	p := newProbe()
	vars := jinja2.NewDict(10)
	r := probeRun{p: p, vars: jinja2.DictValue(vars)}
	vars.SetStr("messages", p.track(mustJSON(messages)))
	vars.SetStr("tools", p.track(mustJSON(tools)))
	vars.SetStr("bos_token", jinja2.Str(""))
	vars.SetStr("eos_token", jinja2.Str(""))
	vars.SetStr("add_generation_prompt", jinja2.Bool(true))
	for _, k := range []string{"enable_thinking", "preserve_thinking", "clear_thinking", "truncate_history_thinking", "drop_thinking"} {
		if b, ok := extra[k]; ok {
			vars.SetStr(k, jinja2.Bool(b))
		}
	}
	out, err := render(t, vars, p)
	r.ok, r.out = err == nil, out
	return r
}

const probeTools = `[{"name": "tool", "type": "function", "function": {"name": "tool1", "description": "Tool description",
	"parameters": {"type": "object", "properties": {"arg": {"type": "string", "description": "Arg description"}}, "required": ["arg"]}}}]`

// toolConversation is caps_get's tool probe conversation with n calls of the given
// arguments (JSON).
func toolConversation(args string, n int) string {
	var calls []string
	for i := 1; i <= n; i++ {
		calls = append(calls, `{"id": "call0000`+string(rune('0'+i))+`", "type": "function", "function": {"name": "tool1", "arguments": `+args+`}}`)
	}
	return `[{"role": "user", "content": "User message"},
		{"role": "assistant", "content": "", "tool_calls": [` + strings.Join(calls, ", ") + `]},
		{"role": "tool", "content": "Tool response", "tool_call_id": "call00001"},
		{"role": "assistant", "content": "The tool response was 'tool response'"},
		{"role": "user", "content": "User message"}]`
}

const (
	objectArgs = `{"arg": "value"}`
	stringArgs = `"{\"arg\": \"value\"}"`
)

// probeCaps is jinja::caps_get (common/jinja/caps.cpp).
func probeCaps(t *ir.Template) llamacpp.Capabilities {
	c := llamacpp.Capabilities{SystemRole: true, StringContent: true, Tools: true, ToolCalls: true, ParallelToolCalls: true}

	// typed content: one user message whose content is a string; a template that reads
	// it as an array and does not print it takes typed content only (b10587)
	const marker = "STRING_MARKER"
	r := runProbe(t, `[{"role": "user", "content": "`+marker+`"}]`, `[]`, nil)
	content := r.val("messages[0].content")
	asArray := r.p.hasOp(content, "selectattr") || r.p.hasOp(content, "array_access")
	c.TypedContent = asArray
	if !r.ok || asArray && !strings.Contains(r.out, marker) {
		c.StringContent = false
	}

	// system role: is the system message's content used at all?
	r = runProbe(t, `[{"role": "system", "content": "System message"}, {"role": "user", "content": "User message"}]`, `[]`, nil)
	if !r.p.used(r.val("messages[0].content")) {
		c.SystemRole = false
	}

	// one tool call with object arguments
	r = runProbe(t, toolConversation(objectArgs, 1), probeTools, nil)
	if r.ok {
		if !r.p.used(r.val("tools[0].function.name")) {
			c.Tools = false
		}
		if !r.p.used(r.val("messages[1].tool_calls")) {
			c.ToolCalls = false
		} else if r.p.used(r.val("messages[1].tool_calls[0].function.arguments.arg")) {
			c.ObjectArguments = true
		}
	}

	// one tool call with string arguments
	if !c.ObjectArguments {
		r = runProbe(t, toolConversation(stringArgs, 1), probeTools, nil)
		if !r.ok {
			c.ToolCalls, c.Tools = false, false
		} else {
			if !r.p.used(r.val("tools[0].function.name")) {
				c.Tools = false
			}
			if !r.p.used(r.val("messages[1].tool_calls")) {
				c.ToolCalls = false
			}
		}
	}

	// two calls
	args := stringArgs
	if c.ObjectArguments {
		args = objectArgs
	}
	r = runProbe(t, toolConversation(args, 2), probeTools, nil)
	if !r.ok || !r.p.used(r.val("messages[1].tool_calls[1].function")) {
		c.ParallelToolCalls = false
	}

	// reasoning_content of an earlier assistant turn printed
	const placeholder = "<REASONING_CONTENT_PLACEHOLDER>"
	r = runProbe(t, `[{"role": "user", "content": "User message"},
		{"role": "assistant", "content": "Assistant message", "reasoning_content": "`+placeholder+`"},
		{"role": "user", "content": "User message"},
		{"role": "assistant", "content": "Assistant message", "reasoning_content": "Reasoning content"},
		{"role": "user", "content": "User message"}]`, `[]`,
		map[string]bool{"enable_thinking": true, "preserve_thinking": true, "clear_thinking": false, "truncate_history_thinking": false, "drop_thinking": false})
	c.PreserveReasoning = strings.Contains(r.out, placeholder)
	return c
}

// handlerOf is llama.cpp's choice of a specialized handler by substrings of the template
// text (common_chat_try_specialized_template); "generic" when none applies.
func handlerOf(src string) string {
	has := func(s string) bool { return strings.Contains(src, s) }
	switch {
	case has("[SYSTEM_PROMPT]") && has("[TOOL_CALLS]") && has("[ARGS]") && !has("[CALL_ID]"):
		return "ministral_3"
	case has("<|channel|>"):
		return "gpt_oss"
	case has("<atem:function_calls>") && has("<|eom|>"):
		return "muse_glimmer"
	case has(">>>all") && has(">>>${recipient}"):
		return "functionary_v3_2"
	case has("<|tool_calls_section_begin|>") && has("<|tool_call_begin|>"):
		return "kimi_k2"
	case has("<|open|>") && has("<|close|>") && has("<|end_of_msg|>"):
		return "kimi_k3"
	case has("<|START_TEXT|>") && has("<|START_ACTION|>"):
		return "cohere2moe"
	case has("<|tool_list_start|>") && has("<|tool_list_end|>"):
		return "lfm2"
	case has("List of tools: [") && !has("<|tool_list_start|>"):
		return "lfm2_5"
	case has("<|role_sep|>") && has("<|message_sep|>") && !has("<|function_call|>"):
		return "gigachat_v3"
	case has("]<]minimax[>[") && has("<tool_call>") && has("<invoke name="):
		return "minimax_m3"
	case has("dsml_token") && has("DSML") && (has("function_calls") || has("tool_calls")):
		return "deepseek_v3_2"
	case has("'<|tool_call>call:'"):
		return "gemma4"
	case has("Tool usage guidelines:") && has(`<function name="`) && has(`<param name="`):
		return "minicpm5"
	case has("<tool_call>") && has("<function=") && has("<parameter="):
		return "qwen3_coder"
	}
	return "generic"
}

// handlerThinking is the supports_thinking and thinking_start_tag each specialized
// handler sets (chat.cpp).
var handlerThinking = map[string]struct {
	thinking bool
	startTag string
}{
	"ministral_3":      {true, "[THINK]"},
	"gpt_oss":          {true, "<|channel|>analysis<|message|>"},
	"muse_glimmer":     {true, ""},
	"functionary_v3_2": {false, ""},
	"kimi_k2":          {true, "<think>"},
	"kimi_k3":          {true, "<|open|>think<|sep|>"},
	"cohere2moe":       {true, "<|START_THINKING|>"},
	"lfm2":             {true, "<think>"},
	"lfm2_5":           {true, "<think>"},
	"gigachat_v3":      {false, ""},
	"minimax_m3":       {true, "<mm:think>"},
	"deepseek_v3_2":    {true, "<think>"},
	"gemma4":           {true, "<|channel>thought"},
	"minicpm5":         {true, "<think>"},
}

// trimSpace removes the ASCII whitespace around s (C isspace).
func trimSpace(s string) string { return strings.Trim(s, cSpace) }

// cSpace is C's isspace, the whitespace of llama.cpp's trims and of the autoparser's
// space().
const cSpace = " \t\n\v\f\r"
