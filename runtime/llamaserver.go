package runtime

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Profile is the request handling a render applies around the compiled template
// function, which is the same for every profile.
type Profile uint8

// The profiles.
const (
	// Transformers renders the input as it is, as transformers' apply_chat_template
	// does with Python Jinja2.
	Transformers Profile = iota
	// LlamaServer handles the request as llama.cpp's llama-server (b10257) does in
	// POST /apply-template and /v1/chat/completions: it rewrites the messages and tools
	// according to the template's Capabilities (developer role to system, a system
	// message merged into the next one where the template has no system role, typed
	// content joined or kept, null content as "", tool-call arguments as objects or
	// strings, llama.cpp's key order and fields, empty reasoning_content dropped),
	// defines enable_thinking, date_string and datetime, continues a final assistant
	// message (or the final message ContinueFinalMessage names) as llama.cpp does, and
	// post-processes the prompt (a leading bos_token and a trailing eos_token removed
	// when AddBOS and AddEOS say the tokenizer adds them).
	LlamaServer
)

// String returns the profile's name as ParseProfile accepts it.
func (p Profile) String() string {
	switch p {
	case Transformers:
		return "transformers"
	case LlamaServer:
		return "llama_server"
	}
	return fmt.Sprintf("Profile(%d)", uint8(p))
}

// ParseProfile returns the profile named "transformers" or "llama_server" (also spelled
// "llama-server", as the server's binary is named).
func ParseProfile(name string) (Profile, error) {
	switch name {
	case "transformers", "":
		return Transformers, nil
	case "llama_server", "llama-server":
		return LlamaServer, nil
	}
	return 0, fmt.Errorf("unknown profile %q (transformers, llama-server)", name)
}

// LlamaServerVars returns the template variables llama-server's request handling
// defines for in, in the order llama.cpp defines them; the LlamaServer profile renders
// the template with exactly these (Input.Vars), then post-processes the prompt. It is
// what other Jinja engines need to be given to compare with a LlamaServer render. An
// error is a *Error (what llama-server answers instead of a prompt).
func (t *Template) LlamaServerVars(in *Input) (*Dict, error) {
	rw, err := t.llamaServerRewrite(in)
	if err != nil {
		return nil, err
	}
	return rw.vars, nil
}

// appendLlamaServer renders in under the LlamaServer profile.
func (t *Template) appendLlamaServer(dst []byte, in *Input) ([]byte, error) {
	rw, err := t.llamaServerRewrite(in)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	out, err := t.llamaApply(dst, rw, in, rw.agp)
	if err != nil {
		return dst, err
	}
	switch t.Caps.Handler {
	case "gpt_oss":
		// the last <|return|> of a prompt without generation prompt becomes <|end|>
		if i := bytes.LastIndex(out[start:], []byte("<|return|>")); !rw.agp && i >= 0 {
			i += start
			tail := append([]byte("<|end|>"), out[i+len("<|return|>"):]...)
			out = append(out[:i], tail...)
		}
	case "gemma4":
		if rw.agp && bytes.HasSuffix(out[start:], []byte("<turn|>\n")) {
			out = append(out, "<|turn>model\n"...)
		}
	}
	if rw.cont == ContinueNone {
		return out, nil
	}
	gen, err := t.continuationPrompt(rw, in, out[start:])
	if err != nil {
		return dst, err
	}
	return append(out, gen...), nil
}

// llamaApply is llama.cpp's common_chat_template_direct_apply: a render of the
// rewritten variables, with add_generation_prompt defined as true when agp says so, and
// a leading bos_token and trailing eos_token removed when the tokenizer adds them.
func (t *Template) llamaApply(dst []byte, rw *llamaRewrite, in *Input, agp bool) ([]byte, error) {
	vars := rw.vars
	if agp && !rw.agp {
		vars = vars.Copy()
		vars.SetStr("add_generation_prompt", Bool(true))
	}
	inner := Input{Vars: vars, Now: in.Now, Limits: in.Limits}
	start := len(dst)
	out, err := t.appendRender(dst, &inner)
	if err != nil {
		return dst, err
	}
	if in.AddBOS && bytes.HasPrefix(out[start:], []byte(rw.bos)) {
		out = append(out[:start], out[start+len(rw.bos):]...)
	}
	if in.AddEOS && bytes.HasSuffix(out[start:], []byte(rw.eos)) {
		out = out[:len(out)-len(rw.eos)]
	}
	return out, nil
}

// generationPrompt is common_chat_template_generation_prompt: what the template adds
// for the generation prompt, as the difference of the renders without (prompt) and with
// it.
func (t *Template) generationPrompt(rw *llamaRewrite, in *Input, prompt []byte) (string, error) {
	with, err := t.llamaApply(nil, rw, in, true)
	if err != nil {
		return "", err
	}
	n := 0
	for n < len(prompt) && n < len(with) && prompt[n] == with[n] {
		n++
	}
	return string(with[n:]), nil
}

// continuationPrompt is what llama.cpp appends to the prompt of messages[:-1] to
// continue the final message (common_chat_templates_apply_jinja and each handler's
// continuation block): the generation prompt, the reasoning markers and the continued
// reasoning, and the content when the content is continued.
func (t *Template) continuationPrompt(rw *llamaRewrite, in *Input, prompt []byte) (string, error) {
	m := &rw.contMsg
	content := rw.cont == ContinueContent
	reasoning := func(open, close string) string {
		s := open + m.reasoning
		if content {
			s += close + m.renderContent()
		}
		return s
	}
	onlyContent := func(prefix string) string { return prefix + m.renderContent() }
	switch t.Caps.Handler {
	case "ministral_3":
		return reasoning("[THINK]", "[/THINK]"), nil
	case "qwen3_coder":
		s := "<|im_start|>assistant\n"
		if t.Caps.Thinking {
			s += "<think>\n" + m.reasoning
			if content {
				s += "\n</think>\n\n"
			}
		}
		if content {
			s += m.renderContent()
		}
		return s, nil
	case "gpt_oss":
		return reasoning("<|start|>assistant<|channel|>analysis<|message|>", "<|end|><|start|>assistant<|channel|>final<|message|>"), nil
	case "gemma4":
		s := ""
		if bytes.HasSuffix(prompt, []byte("<turn|>\n")) {
			s = "<|turn>model\n"
		}
		return s + reasoning("<|channel>thought\n", "<channel|>"), nil
	case "functionary_v3_2":
		return onlyContent("<|start_header_id|>assistant<|end_header_id|>\n\n>>>all\n"), nil
	case "kimi_k2":
		return reasoning("<|im_assistant|>assistant<|im_middle|><think>", "</think>"), nil
	case "lfm2", "lfm2_5":
		return reasoning("<|im_start|>assistant\n<think>", "</think>"), nil
	case "gigachat_v3":
		return onlyContent("assistant<|role_sep|>\n"), nil
	case "deepseek_v3_2":
		if t.Caps.SortToolResults && m.reasoning == "" { // DeepSeek V4
			s := "<｜Assistant｜></think>"
			if content {
				s += m.renderContent()
			}
			return s, nil
		}
		return reasoning("<｜Assistant｜><think>", "</think>"), nil
	case "cohere2moe":
		return reasoning("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|><|START_THINKING|>", "<|END_THINKING|><|START_TEXT|>"), nil
	case "minicpm5":
		return reasoning("<|im_start|>assistant\n<think>\n", "\n</think>\n\n"), nil
	}
	gen, err := t.generationPrompt(rw, in, prompt)
	if err != nil {
		return "", err
	}
	if t.Caps.Handler == "minimax_m3" {
		return gen + reasoning("<mm:think>", "</mm:think>"), nil
	}
	// the generic handler (peg_generator::generate_parser)
	if start := t.Caps.ReasoningStart; start != "" {
		if i := strings.Index(gen, start); i >= 0 {
			gen = gen[:i]
		}
		gen += start + m.reasoning
		if content {
			gen += t.Caps.ReasoningEnd
		}
	}
	if content {
		gen += m.renderContent()
	}
	return gen, nil
}

// llamaRewrite is a request as llama-server hands it to the template.
type llamaRewrite struct {
	vars     *Dict // the template's variables
	agp      bool  // add_generation_prompt
	bos, eos string
	// cont is ContinueContent or ContinueReasoning when contMsg, the final message
	// (left out of vars), is continued; ContinueNone otherwise.
	cont    Continuation
	contMsg llamaMsg
}

// llamaMsg is llama.cpp's common_chat_msg.
type llamaMsg struct {
	role, content         string
	parts                 []llamaPart
	toolCalls             []llamaCall
	reasoning, name, tcID string
}

// empty is common_chat_msg::empty: the message has nothing but its role.
func (m *llamaMsg) empty() bool {
	return m.content == "" && len(m.parts) == 0 && len(m.toolCalls) == 0 && m.reasoning == "" && m.name == "" && m.tcID == ""
}

// renderContent is common_chat_msg::render_content: the content, or the text parts
// joined by a blank line.
func (m *llamaMsg) renderContent() string {
	if m.content != "" {
		return m.content
	}
	var b strings.Builder
	for _, p := range m.parts {
		if p.typ == "text" {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// llamaPart is a typed content part; extra are its other keys, in order.
type llamaPart struct {
	typ, text string
	extra     *Dict
}

// llamaCall is a tool call; arguments are kept as a JSON string.
type llamaCall struct {
	name, args, id string
}

// llamaError is an error llama-server answers with.
func (t *Template) llamaError(format string, args ...any) *Error {
	return &Error{Kind: InputError, Msg: fmt.Sprintf(format, args...), Template: t.File}
}

// llamaServerRewrite applies llama-server's request handling to in (docs/llama-server.md
// sections 4.1 to 4.7); in is only read.
func (t *Template) llamaServerRewrite(in *Input) (*llamaRewrite, error) {
	caps := &t.Caps
	if !caps.Known() {
		return nil, t.llamaError("the LlamaServer profile needs the template's capabilities, which were not computed: compile %s again with this tmplgen", t.Name)
	}
	rw := &llamaRewrite{bos: in.SpecialTokens["bos_token"], eos: in.SpecialTokens["eos_token"]}

	// oaicompat_chat_params_parse
	schema, err := t.llamaResponseSchema(&in.Server)
	if err != nil {
		return nil, err
	}
	if in.Messages.kind != KindList {
		return nil, t.llamaError("Expected 'messages' to be an array")
	}
	if err := checkServerMessages(in.Messages.Items()); err != nil {
		return nil, t.llamaError("%s", err)
	}
	msgs, err := parseLlamaMessages(in.Messages.Items())
	if err != nil {
		return nil, t.llamaError("Failed to parse messages: %v", err)
	}
	tools, err := parseLlamaTools(in.Tools)
	if err != nil {
		return nil, t.llamaError("Failed to parse tools: %v", err)
	}
	toolChoice := "auto"
	if tc := in.Server.ToolChoice; tc.kind == KindString {
		toolChoice = tc.str()
	}
	switch toolChoice {
	case "auto", "none", "required":
	default:
		return nil, t.llamaError("Invalid tool_choice: %s", toolChoice)
	}
	cont, agp := in.ContinueFinalMessage, in.AddGenerationPrompt
	if n := len(msgs); cont == ContinueNone && n > 0 && msgs[n-1].role == "assistant" {
		if n >= 2 && msgs[n-2].role == "assistant" {
			return nil, t.llamaError("Cannot have 2 or more assistant messages at the end of the list.")
		}
		cont, agp = ContinueAuto, false
	}
	if cont != ContinueNone && agp {
		return nil, t.llamaError("Cannot set both add_generation_prompt and continue_final_message to true.")
	}
	rw.agp = agp
	if f := in.Server.ReasoningFormat; !f.IsUndefined() {
		if f.kind != KindString {
			return nil, t.llamaError("%s", typeError302(f))
		}
		switch f.str() {
		case "none", "auto", "deepseek", "deepseek-legacy":
		default:
			return nil, t.llamaError("Unknown reasoning format: %s", f.str())
		}
	}
	if tools.kind == KindList && toolChoice != "none" && !in.Server.Grammar.IsUndefined() {
		return nil, t.llamaError("Cannot use custom grammar constraints with tools.")
	}
	enableThinking := caps.ThinkingStartTag != ""
	if v, ok := in.Kwargs["enable_thinking"]; ok {
		switch v.kind {
		case KindBool:
			enableThinking = v.n != 0
		case KindString:
			return nil, t.llamaError(`invalid type for "enable_thinking" (expected boolean, got string)`)
		}
	}
	if e := in.Server.ReasoningEffort; e.kind == KindString && e.str() == "none" {
		enableThinking = false
	}

	// common_chat_templates_apply_jinja: messages[:-1] are rendered, the final message
	// is continued after them
	if n := len(msgs); cont != ContinueNone && n > 0 {
		rw.contMsg, msgs = msgs[n-1], msgs[:n-1]
		m := &rw.contMsg
		if cont == ContinueAuto {
			cont = ContinueContent
			if m.reasoning != "" && m.content == "" && len(m.parts) == 0 {
				cont = ContinueReasoning
			}
		}
		if !m.empty() {
			rw.cont = cont
		}
	}
	if caps.TrimContent {
		for i := range msgs {
			m := &msgs[i]
			m.content, m.reasoning = trimASCIISpace(m.content), trimASCIISpace(m.reasoning)
			for j := range m.parts {
				if m.parts[j].typ == "text" {
					m.parts[j].text = trimASCIISpace(m.parts[j].text)
				}
			}
		}
	}
	onlyString := caps.StringContent && !caps.TypedContent
	onlyTyped := !caps.StringContent && caps.TypedContent
	jm := make([]*Dict, len(msgs))
	for i := range msgs {
		jm[i] = msgs[i].toJSON(onlyString)
		if c, _ := jm[i].GetStr("content"); onlyTyped && c.kind == KindString {
			jm[i].SetStr("content", NewList(DictOf(Str("type"), Str("text"), Str("text"), c)))
		}
	}
	if !caps.KeepDeveloperRole {
		for _, m := range jm {
			if r, _ := m.GetStr("role"); r.kind == KindString && r.str() == "developer" {
				m.SetStr("role", Str("system"))
			}
		}
	}
	if !caps.SystemRole && len(jm) > 0 {
		if r, _ := jm[0].GetStr("role"); r.kind == KindString && r.str() == "system" {
			if len(jm) > 1 {
				a, _ := jm[0].GetStr("content")
				b, _ := jm[1].GetStr("content")
				for _, x := range []Value{a, b} {
					if x.kind != KindString {
						return nil, t.llamaError("[json.exception.type_error.302] type must be string, but is %s", nlohmannType(x))
					}
				}
				jm[1].SetStr("content", Str(a.str()+"\n"+b.str()))
			}
			jm = jm[1:]
		}
	}
	if caps.ObjectArguments {
		for _, m := range jm {
			calls, ok := m.GetStr("tool_calls")
			if !ok {
				continue
			}
			for _, c := range calls.Items() {
				fn, _ := c.AsDict().GetStr("function")
				args, _ := fn.AsDict().GetStr("arguments")
				if args.kind != KindString {
					continue
				}
				v, err := ParseJSON([]byte(args.str()))
				if err != nil {
					return nil, t.llamaError("Failed to parse tool call arguments as JSON: %v", err)
				}
				fn.AsDict().SetStr("arguments", v)
			}
		}
	}
	switch caps.Handler {
	case "gemma4":
		if caps.MergeToolResponses {
			jm = gemma4ToolResponses(jm)
		}
	case "ministral_3":
		for i, m := range jm {
			jm[i] = ministralMessage(m)
		}
	case "gpt_oss", "lfm2", "lfm2_5":
		for _, m := range jm {
			r, ok := m.GetStr("reasoning_content")
			if !ok || r.kind != KindString {
				continue
			}
			m.SetStr("thinking", r)
			if calls, _ := m.GetStr("tool_calls"); caps.Handler == "gpt_oss" && calls.kind == KindList && len(calls.Items()) > 0 {
				deleteKey(m, "content")
			}
		}
	case "deepseek_v3_2":
		if caps.SortToolResults {
			sortDeepSeekToolResults(jm)
		}
	}

	// common_chat_template_direct_apply_impl: the variables, in this order
	vars := NewDict(12)
	list := make([]Value, len(jm))
	for i, m := range jm {
		list[i] = DictValue(m)
	}
	vars.SetStr("messages", ListOf(list))
	vars.SetStr("bos_token", Str(rw.bos))
	vars.SetStr("eos_token", Str(rw.eos))
	vars.SetStr("enable_thinking", Bool(enableThinking))
	if tools.kind == KindList {
		vars.SetStr("tools", tools)
	}
	now := in.now()
	vars.SetStr("datetime", Str(Strftime(now, "%b %d %Y")))
	vars.SetStr("date_string", Str(Strftime(now, "%d %b %Y")))
	keys := make([]string, 0, len(in.Kwargs))
	for k := range in.Kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		vars.SetStr(k, deepCopyJSON(in.Kwargs[k]))
	}
	if caps.Handler == "deepseek_v3_2" && caps.SortToolResults && schema.kind == KindDict {
		// DeepSeek V4 writes the response schema into the prompt
		vars.SetStr("response_format", schema)
	}
	if rw.agp {
		vars.SetStr("add_generation_prompt", Bool(true))
	}
	if pr, ok := vars.GetStr("preserve_reasoning"); ok && pr.kind == KindBool {
		on := pr.n != 0
		for _, kv := range []struct {
			k string
			v bool
		}{{"preserve_thinking", on}, {"clear_thinking", !on}, {"truncate_history_thinking", !on}, {"drop_thinking", !on}} {
			if !vars.Has(Str(kv.k)) {
				vars.SetStr(kv.k, Bool(kv.v))
			}
		}
	}
	rw.vars = vars
	return rw, nil
}

// llamaResponseSchema is the JSON schema of the answer llama-server reads from
// json_schema and response_format, or undefined when there is none; its errors are
// llama-server's.
func (t *Template) llamaResponseSchema(f *ServerFields) (Value, error) {
	schema := f.JSONSchema
	if schema.kind == KindNone {
		schema = Undefined("json_schema")
	}
	grammar := f.Grammar.kind == KindString && f.Grammar.str() != ""
	if !schema.IsUndefined() && grammar {
		return Value{}, t.llamaError("Cannot use both json_schema and grammar")
	}
	if f.ResponseFormat.IsUndefined() {
		return schema, nil
	}
	rf := f.ResponseFormat.AsDict()
	field := func(d *Dict, key string) (Value, bool) {
		if d == nil {
			return Value{}, false
		}
		v, ok := d.GetStr(key)
		return v, ok && v.kind != KindNone
	}
	orEmpty := func(v Value, ok bool) Value {
		if !ok {
			return DictValue(NewDict(0))
		}
		return v
	}
	typ := ""
	if v, ok := field(rf, "type"); ok && v.kind == KindString {
		typ = v.str()
	}
	switch typ {
	case "json_object":
		if _, has := rf.GetStr("schema"); has || schema.IsUndefined() || isEmptyJSON(schema) {
			schema = orEmpty(field(rf, "schema"))
		}
	case "json_schema":
		wrapper := orEmpty(field(rf, "json_schema"))
		schema = orEmpty(field(wrapper.AsDict(), "schema"))
	case "", "text":
	default:
		return Value{}, t.llamaError(`response_format type must be one of "text" or "json_object", but got: %s`, typ)
	}
	return schema, nil
}

// isEmptyJSON is nlohmann's empty(): an empty object or array (null is handled by the
// caller).
func isEmptyJSON(v Value) bool {
	switch v.kind {
	case KindDict:
		return v.AsDict().Len() == 0
	case KindList, KindTuple:
		return len(v.Items()) == 0
	}
	return false
}

// checkServerMessages is llama-server's check of the messages before it parses them:
// content is required except from the assistant (which needs content or tool calls), a
// string, null or a list of parts; image and audio parts need a multimodal projector,
// which a prompt-only server does not have.
func checkServerMessages(messages []Value) error {
	for _, mv := range messages {
		m := mv.AsDict()
		role := ""
		content, hasContent := Value{}, false
		if m != nil {
			if r, ok := m.GetStr("role"); ok && r.kind == KindString {
				role = r.str()
			}
			content, hasContent = m.GetStr("content")
		}
		if role != "assistant" && !hasContent {
			return fmt.Errorf("All non-assistant messages must contain 'content'")
		}
		if role == "assistant" && !hasContent {
			if !m.Has(Str("tool_calls")) {
				return fmt.Errorf("Assistant message must contain either 'content' or 'tool_calls'!")
			}
			continue
		}
		switch content.kind {
		case KindString, KindNone:
			continue
		case KindList:
		default:
			return fmt.Errorf("Expected 'content' to be a string or an array")
		}
		for _, p := range content.Items() {
			typ := ""
			if d := p.AsDict(); d != nil {
				if v, ok := d.GetStr("type"); ok && v.kind == KindString {
					typ = v.str()
				}
			}
			switch typ {
			case "text":
			case "image_url":
				return fmt.Errorf("image input is not supported - hint: if this is unexpected, you may need to provide the mmproj")
			case "input_audio":
				return fmt.Errorf("audio input is not supported - hint: if this is unexpected, you may need to provide the mmproj")
			default:
				return fmt.Errorf("unsupported content[].type")
			}
		}
	}
	return nil
}

// isRole reports whether a message is a dict whose role is role.
func isRole(m Value, role string) bool {
	d := m.AsDict()
	if d == nil {
		return false
	}
	r, _ := d.GetStr("role")
	return r.kind == KindString && r.str() == role
}

// parseLlamaMessages is common_chat_msgs_parse_oaicompat.
func parseLlamaMessages(messages []Value) ([]llamaMsg, error) {
	out := make([]llamaMsg, 0, len(messages))
	for _, mv := range messages {
		m := mv.AsDict()
		if m == nil {
			return nil, fmt.Errorf("Expected 'message' to be an object, got %s", dumpJSON(mv))
		}
		var msg llamaMsg
		role, ok := m.GetStr("role")
		if !ok {
			return nil, fmt.Errorf("Missing 'role' in message: %s", dumpJSON(mv))
		}
		if msg.role, ok = jsonString(role); !ok {
			return nil, typeError302(role)
		}
		content, hasContent := m.GetStr("content")
		calls, hasCalls := m.GetStr("tool_calls")
		if hasContent {
			switch content.kind {
			case KindString:
				msg.content = content.str()
			case KindList:
				for _, pv := range content.Items() {
					p := pv.AsDict()
					if p == nil || !p.Has(Str("type")) {
						return nil, fmt.Errorf("Missing content part type: %s", dumpJSON(pv))
					}
					typ, _ := p.GetStr("type")
					if typ.kind != KindString || (typ.str() != "text" && typ.str() != "media_marker") {
						return nil, fmt.Errorf("Unsupported content part type: %s", dumpJSON(typ))
					}
					text, ok := p.GetStr("text")
					if !ok {
						return nil, fmt.Errorf("[json.exception.out_of_range.403] key 'text' not found")
					}
					if text.kind != KindString {
						return nil, typeError302(text)
					}
					part := llamaPart{typ: typ.str(), text: text.str(), extra: NewDict(0)}
					for i, k := range p.keys {
						if k.kind == KindString && k.str() != "type" && k.str() != "text" {
							part.extra.Set(k, p.vals[i])
						}
					}
					msg.parts = append(msg.parts, part)
				}
			case KindNone:
			default:
				return nil, fmt.Errorf("Invalid 'content' type: expected string or array, got %s (ref: https://github.com/ggml-org/llama.cpp/issues/8367)", dumpJSON(content))
			}
		}
		if hasCalls {
			var items []Value
			switch calls.kind {
			case KindList:
				items = calls.Items()
			case KindNone:
			default:
				items = []Value{calls}
			}
			for _, cv := range items {
				c := cv.AsDict()
				if c == nil || !c.Has(Str("type")) {
					return nil, fmt.Errorf("Missing tool call type: %s", dumpJSON(cv))
				}
				if typ, _ := c.GetStr("type"); typ.kind != KindString || typ.str() != "function" {
					return nil, fmt.Errorf("Unsupported tool call type: %s", dumpJSON(cv))
				}
				fv, ok := c.GetStr("function")
				if !ok {
					return nil, fmt.Errorf("Missing tool call function: %s", dumpJSON(cv))
				}
				fn := fv.AsDict()
				if fn == nil || !fn.Has(Str("name")) {
					return nil, fmt.Errorf("Missing tool call name: %s", dumpJSON(cv))
				}
				var call llamaCall
				name, _ := fn.GetStr("name")
				if call.name, ok = jsonString(name); !ok {
					return nil, typeError302(name)
				}
				args, ok := fn.GetStr("arguments")
				if !ok {
					return nil, fmt.Errorf("[json.exception.out_of_range.403] key 'arguments' not found")
				}
				if args.kind == KindString {
					call.args = args.str()
				} else {
					call.args = dumpJSON(args)
				}
				if id, ok := c.GetStr("id"); ok {
					if call.id, ok = jsonString(id); !ok {
						return nil, typeError302(id)
					}
				}
				msg.toolCalls = append(msg.toolCalls, call)
			}
		}
		if !hasContent && !hasCalls {
			return nil, fmt.Errorf("Expected 'content' or 'tool_calls' (ref: https://github.com/ggml-org/llama.cpp/issues/8367 & https://github.com/ggml-org/llama.cpp/issues/12279)")
		}
		for _, f := range []struct {
			key string
			dst *string
		}{{"reasoning_content", &msg.reasoning}, {"name", &msg.name}, {"tool_call_id", &msg.tcID}} {
			if v, ok := m.GetStr(f.key); ok {
				if *f.dst, ok = jsonString(v); !ok {
					return nil, typeError302(v)
				}
			}
		}
		out = append(out, msg)
	}
	return out, nil
}

// toJSON is common_chat_msg::to_json_oaicompat: the message as the template sees it,
// with llama.cpp's keys in llama.cpp's order.
func (m *llamaMsg) toJSON(concatText bool) *Dict {
	j := NewDict(6)
	j.SetStr("role", Str(m.role))
	media := false
	for _, p := range m.parts {
		media = media || p.typ == "media_marker"
	}
	switch {
	case m.content != "":
		j.SetStr("content", Str(m.content))
	case len(m.parts) > 0 && (concatText || media):
		var text strings.Builder
		lastMedia := false
		for _, p := range m.parts {
			newline := false
			switch p.typ {
			case "text":
				newline = !lastMedia && text.Len() > 0
				lastMedia = false
			case "media_marker":
				lastMedia = true
			}
			if newline {
				text.WriteByte('\n')
			}
			text.WriteString(p.text)
		}
		j.SetStr("content", Str(text.String()))
	case len(m.parts) > 0:
		parts := make([]Value, len(m.parts))
		for i, p := range m.parts {
			d := NewDict(2 + p.extra.Len())
			d.SetStr("type", Str(p.typ))
			d.SetStr("text", Str(p.text))
			for k, key := range p.extra.keys {
				d.Set(key, deepCopyJSON(p.extra.vals[k]))
			}
			parts[i] = DictValue(d)
		}
		j.SetStr("content", ListOf(parts))
	default:
		j.SetStr("content", Str(""))
	}
	if m.reasoning != "" {
		j.SetStr("reasoning_content", Str(m.reasoning))
	}
	if m.name != "" {
		j.SetStr("name", Str(m.name))
	}
	if m.tcID != "" {
		j.SetStr("tool_call_id", Str(m.tcID))
	}
	if len(m.toolCalls) > 0 {
		calls := make([]Value, len(m.toolCalls))
		for i, c := range m.toolCalls {
			d := NewDict(3)
			d.SetStr("type", Str("function"))
			d.SetStr("function", DictOf(Str("name"), Str(c.name), Str("arguments"), Str(c.args)))
			if c.id != "" {
				d.SetStr("id", Str(c.id))
			}
			calls[i] = DictValue(d)
		}
		j.SetStr("tool_calls", ListOf(calls))
	}
	return j
}

// parseLlamaTools is what llama-server makes of the request's tools: none unless a
// non-empty list; each tool rebuilt as {type, function: {name, description,
// parameters}}. It returns a list, or None when there are no tools.
func parseLlamaTools(tools Value) (Value, error) {
	if tools.kind != KindList || len(tools.Items()) == 0 {
		return None(), nil
	}
	out := make([]Value, 0, len(tools.Items()))
	for _, tv := range tools.Items() {
		t := tv.AsDict()
		if t == nil || !t.Has(Str("type")) {
			return Value{}, fmt.Errorf("Missing tool type: %s", dumpJSON(tv))
		}
		if typ, _ := t.GetStr("type"); typ.kind != KindString || typ.str() != "function" {
			return Value{}, fmt.Errorf("Unsupported tool type: %s", dumpJSON(tv))
		}
		fv, ok := t.GetStr("function")
		if !ok {
			return Value{}, fmt.Errorf("Missing tool function: %s", dumpJSON(tv))
		}
		fn := fv.AsDict()
		if fn == nil {
			return Value{}, fmt.Errorf("[json.exception.type_error.304] cannot use at() with %s", nlohmannType(fv))
		}
		name, ok := fn.GetStr("name")
		if !ok {
			return Value{}, fmt.Errorf("[json.exception.out_of_range.403] key 'name' not found")
		}
		if name.kind != KindString {
			return Value{}, typeError302(name)
		}
		desc := Str("")
		if d, ok := fn.GetStr("description"); ok {
			if d.kind != KindString {
				return Value{}, typeError302(d)
			}
			desc = d
		}
		params := DictValue(NewDict(0))
		if p, ok := fn.GetStr("parameters"); ok {
			params = deepCopyJSON(p)
		}
		f := NewDict(3)
		f.SetStr("name", name)
		f.SetStr("description", desc)
		f.SetStr("parameters", params)
		out = append(out, DictOf(Str("type"), Str("function"), Str("function"), DictValue(f)))
	}
	return ListOf(out), nil
}

// ministralMessage gives a system or assistant message the content blocks the
// ministral_3 handler builds: its reasoning as a thinking block, then its content.
func ministralMessage(m *Dict) *Dict {
	role, _ := m.GetStr("role")
	if role.kind != KindString || (role.str() != "system" && role.str() != "assistant") {
		return m
	}
	var blocks []Value
	if r, ok := m.GetStr("reasoning_content"); ok && r.kind == KindString {
		blocks = append(blocks, DictOf(Str("type"), Str("thinking"), Str("thinking"), r))
	}
	if c, ok := m.GetStr("content"); ok {
		switch c.kind {
		case KindString:
			blocks = append(blocks, DictOf(Str("type"), Str("text"), Str("text"), c))
		case KindList:
			blocks = append(blocks, c.Items()...)
		}
	}
	out := deleteKey(m.Copy(), "reasoning_content")
	out.SetStr("content", ListOf(blocks))
	return out
}

// gemma4ToolResponses is workaround::convert_tool_responses_gemma4: an assistant message
// with tool calls absorbs the tool messages after it (as tool_responses) and a plain
// assistant message after those.
func gemma4ToolResponses(msgs []*Dict) []*Dict {
	var out []*Dict
	for i := 0; i < len(msgs); {
		m := msgs[i]
		calls, _ := m.GetStr("tool_calls")
		if !dictRole(m, "assistant") || calls.kind != KindList || len(calls.Items()) == 0 {
			out = append(out, m)
			i++
			continue
		}
		var reasoning *Value
		if r, ok := m.GetStr("reasoning_content"); ok && r.kind == KindString {
			reasoning = &r
		}
		callList := calls.Items()
		var responses []Value
		i++
		for ; i < len(msgs) && dictRole(msgs[i], "tool"); i++ {
			cur := msgs[i]
			resp := None()
			if c, ok := cur.GetStr("content"); ok {
				resp = c
				if c.kind == KindString {
					if v, err := ParseJSON([]byte(c.str())); err == nil {
						resp = v
					}
				}
			}
			name := ""
			if idx := len(responses); idx < len(callList) {
				if tc := callList[idx].AsDict(); tc != nil {
					if fn, ok := tc.GetStr("function"); ok && fn.AsDict() != nil {
						if n, ok := fn.AsDict().GetStr("name"); ok && n.kind == KindString {
							name = n.str()
						}
					}
				}
			}
			if name == "" {
				if id, ok := cur.GetStr("tool_call_id"); ok && id.kind == KindString {
					name = id.str()
				}
			}
			responses = append(responses, DictOf(Str("name"), Str(name), Str("response"), resp))
		}
		var content *Value
		if i < len(msgs) && dictRole(msgs[i], "assistant") {
			next := msgs[i]
			nc, _ := next.GetStr("tool_calls")
			hasCalls := nc.kind == KindList && len(nc.Items()) > 0
			c, _ := next.GetStr("content")
			hasContent := (c.kind == KindString && c.str() != "") || (c.kind == KindList && len(c.Items()) > 0)
			if !hasCalls && hasContent {
				content = &c
				i++
			}
		}
		nm := NewDict(5)
		nm.SetStr("role", Str("assistant"))
		nm.SetStr("tool_calls", ListOf(append([]Value(nil), callList...)))
		if len(responses) > 0 {
			nm.SetStr("tool_responses", ListOf(responses))
		}
		if content != nil {
			nm.SetStr("content", *content)
		}
		if reasoning != nil {
			nm.SetStr("reasoning_content", *reasoning)
		}
		out = append(out, nm)
	}
	return out
}

// sortDeepSeekToolResults is deepseek_v4_sort_tool_results: in each run of user and
// tool messages after an assistant message with tool calls, the tool results are sorted
// (stably) into the order of the calls.
func sortDeepSeekToolResults(msgs []*Dict) {
	order := map[string]int{}
	for i := 0; i < len(msgs); {
		calls, _ := msgs[i].GetStr("tool_calls")
		if dictRole(msgs[i], "assistant") && calls.kind == KindList && len(calls.Items()) > 0 {
			order = map[string]int{}
			for k, c := range calls.Items() {
				if d := c.AsDict(); d != nil {
					if id, ok := d.GetStr("id"); ok && id.kind == KindString && id.str() != "" {
						order[id.str()] = k
					}
				}
			}
			i++
			continue
		}
		if !dictRole(msgs[i], "user") && !dictRole(msgs[i], "tool") {
			i++
			continue
		}
		var pos []int
		j := i
		for ; j < len(msgs); j++ {
			if dictRole(msgs[j], "tool") {
				pos = append(pos, j)
			} else if !dictRole(msgs[j], "user") {
				break
			}
		}
		if len(pos) > 1 && len(order) > 0 {
			results := make([]*Dict, len(pos))
			for k, p := range pos {
				results[k] = msgs[p]
			}
			rank := func(m *Dict) int {
				if id, ok := m.GetStr("tool_call_id"); ok && id.kind == KindString {
					return order[id.str()]
				}
				return 0
			}
			sort.SliceStable(results, func(a, b int) bool { return rank(results[a]) < rank(results[b]) })
			for k, p := range pos {
				msgs[p] = results[k]
			}
		}
		i = j
	}
}

// dictRole reports whether a message's role is role.
func dictRole(m *Dict, role string) bool {
	r, _ := m.GetStr("role")
	return r.kind == KindString && r.str() == role
}

// deleteKey removes key from d (in place) and returns d.
func deleteKey(d *Dict, key string) *Dict {
	i := d.find(Str(key))
	if i < 0 {
		return d
	}
	keys := append(d.keys[:i:i], d.keys[i+1:]...)
	vals := append(d.vals[:i:i], d.vals[i+1:]...)
	d.keys, d.vals, d.index = keys, vals, nil
	if len(keys) >= indexThreshold {
		d.index = make(map[string]int, len(keys))
		for k, key := range keys {
			if key.kind == KindString {
				d.index[key.str()] = k
			}
		}
	}
	return d
}

// deepCopyJSON copies the lists and dicts of a JSON value, so that the caller's input
// is never shared with (and never changed by) a render.
func deepCopyJSON(v Value) Value {
	switch v.kind {
	case KindList, KindTuple:
		items := v.Items()
		out := make([]Value, len(items))
		for i, it := range items {
			out[i] = deepCopyJSON(it)
		}
		return listValue(v.kind, &List{Items: out, name: v.list().name})
	case KindDict:
		d := v.AsDict()
		out := NewDict(d.Len())
		for i, k := range d.keys {
			out.Set(k, deepCopyJSON(d.vals[i]))
		}
		return DictValue(out)
	}
	return v
}

// jsonString returns the str in v, as nlohmann's get<std::string> does.
func jsonString(v Value) (string, bool) {
	if v.kind == KindString {
		return v.str(), true
	}
	return "", false
}

// typeError302 is nlohmann's error for a value that should have been a string.
func typeError302(v Value) error {
	return fmt.Errorf("[json.exception.type_error.302] type must be string, but is %s", nlohmannType(v))
}

// nlohmannType names a JSON value's type as nlohmann::json does.
func nlohmannType(v Value) string {
	switch v.kind {
	case KindNone, KindUndefined:
		return "null"
	case KindString:
		return "string"
	case KindBool:
		return "boolean"
	case KindInt, KindFloat:
		return "number"
	case KindList, KindTuple:
		return "array"
	case KindDict:
		return "object"
	}
	return v.TypeName()
}

// dumpJSON is nlohmann's dump(): compact JSON, non-ASCII kept; a value JSON cannot
// hold is shown by its repr.
func dumpJSON(v Value) (s string) {
	defer func() {
		if recover() != nil {
			s = v.Repr()
		}
	}()
	return string(appendJSON(nil, v, &jsonOptions{itemSep: ",", keySep: ":"}, 0))
}

// trimASCIISpace removes the ASCII whitespace (C isspace) around s.
func trimASCIISpace(s string) string {
	return strings.Trim(s, " \t\n\v\f\r")
}
