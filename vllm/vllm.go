// Package vllm renders the prompt vLLM's OpenAI-compatible server builds for a chat
// request (/v1/chat/completions, /v1/chat/completions/render) with a compiled template,
// as its HF renderer does (vllm/renderers): it validates the request as its pydantic
// models do, rebuilds messages and tools in their fixed shapes, gives message contents in
// the template's content format, parses tool-call arguments into objects, turns
// developer messages into system messages where the template never names the role,
// merges chat_template_kwargs with the request's own fields and keeps only the variables
// the template reads, then renders as transformers does (Template.Render). What vLLM
// decides about a template when it loads it is computed when the template is compiled
// (Template.VLLM); nothing is probed here.
//
// The reference is ../shared/oracle/tools/vllm_render.py, a reconstruction of vLLM's
// request handling from its source (../shared/oracle/VLLM.md cites each rule).
//
// A service that renders as transformers does (Template.Render) does not compile this
// package in. Render is safe from many goroutines at once and never modifies its input.
package vllm

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/pystr"
)

// Server is a vLLM server's configuration: the options of `vllm serve` that change the
// prompts it builds. The zero Server is vLLM started with its defaults, which refuses
// every request with tools (tool_choice "auto" needs --enable-auto-tool-choice).
type Server struct {
	// EnableAutoToolChoice is --enable-auto-tool-choice, and ToolCallParser
	// --tool-call-parser (any parser: which one does not change the prompt). Without a
	// parser, tool_choice "auto" needs EnableAutoToolChoice and "required" or a named
	// tool is refused.
	EnableAutoToolChoice bool
	ToolCallParser       string
	// ExcludeToolsWhenToolChoiceNone is --exclude-tools-when-tool-choice-none: the
	// template gets no tools when tool_choice is "none".
	ExcludeToolsWhenToolChoiceNone bool
	// DefaultChatTemplateKwargs is --default-chat-template-kwargs: variables every
	// request gets, each replaced by a request's of the same name.
	DefaultChatTemplateKwargs map[string]tmplgen.Value
	// ContentFormat is --chat-template-content-format: "" or "auto" (the template's, as
	// Template.VLLM says), "string" or "openai".
	ContentFormat string
}

// Render returns the prompt the default server (Server{}) builds for in with template t.
func Render(t *tmplgen.Template, in *tmplgen.Input) (string, error) {
	return new(Server).Render(t, in)
}

// Render returns the prompt s builds for in with template t. An error is a
// *tmplgen.Error: of Kind InputError for a request vLLM refuses, else the template's own
// failure.
func (s *Server) Render(t *tmplgen.Template, in *tmplgen.Input) (string, error) {
	rin := inputPool.Get().(*tmplgen.Input)
	defer putInput(rin)
	if err := s.request(t, in, rin); err != nil {
		return "", err
	}
	return t.Render(rin)
}

// request sets out to the input vLLM hands the template for in, or returns its
// refusal; t.Render gives it the model's special tokens.
func (s *Server) request(t *tmplgen.Template, in, out *tmplgen.Input) error {
	if t == nil || in == nil {
		_, err := t.ModelInput(in) // its error for a nil template or input
		return err
	}
	return s.rewrite(t, in, out)
}

// inputPool recycles the inputs vLLM hands templates (Server.rewrite), which nothing
// keeps once their render has returned: a request allocates its prompt, not a copy of
// itself.
var inputPool = sync.Pool{New: func() any { return new(tmplgen.Input) }}

// putInput zeroes in, so that the pool keeps nothing of its request, and puts it back.
func putInput(in *tmplgen.Input) {
	*in = tmplgen.Input{}
	inputPool.Put(in)
}

// RenderSegments returns the prompt the default server (Server{}) builds for in with
// template t, and its segments; see Server.AppendRenderSegments.
func RenderSegments(t *tmplgen.Template, in *tmplgen.Input) (string, []tmplgen.Segment, error) {
	b, segs, err := new(Server).AppendRenderSegments(nil, nil, t, in)
	return string(b), segs, err
}

// AppendRenderSegments appends the prompt s builds for in with template t to dst, and
// its segments to segs (offsets in out), as tmplgen.Template.AppendRenderSegments does:
// what vLLM rewrites of the request (merged system messages, parsed tool arguments,
// content parts joined) is data as the request is.
func (s *Server) AppendRenderSegments(dst []byte, segs []tmplgen.Segment, t *tmplgen.Template, in *tmplgen.Input) ([]byte, []tmplgen.Segment, error) {
	rin := inputPool.Get().(*tmplgen.Input)
	defer putInput(rin)
	if err := s.request(t, in, rin); err != nil {
		return dst, segs, err
	}
	return t.AppendRenderSegments(dst, segs, rin)
}

// refused is a request vLLM answers with an error (400) before the template runs.
func refused(t *tmplgen.Template, format string, args ...any) *tmplgen.Error {
	return &tmplgen.Error{Kind: tmplgen.InputError, Msg: fmt.Sprintf(format, args...), Template: t.File}
}

// generationFields returns add_generation_prompt and continue_final_message as vLLM
// reads them: check_generation_prompt refuses both true (to Python, as the request
// gives them), then each is a bool in pydantic's lax mode (laxBool). A field the Input
// has only as a Go value (in.Server does not hold it) is Input's: continuing "content"
// or "reasoning_content" (llama-server's) is refused.
func generationFields(t *tmplgen.Template, in *tmplgen.Input) (agp, cont bool, err error) {
	agp, cont = in.AddGenerationPrompt, in.ContinueFinalMessage != tmplgen.ContinueNone
	sentAGP, sentCont := in.Server.AddGenerationPrompt, in.Server.ContinueFinalMessage
	if truth(sentAGP, agp) && truth(sentCont, cont) {
		return false, false, refused(t, "Cannot set both `continue_final_message` and `add_generation_prompt` to True.")
	}
	if !sentAGP.IsUndefined() {
		if agp, err = laxBool(t, "add_generation_prompt", sentAGP); err != nil {
			return false, false, err
		}
	}
	switch {
	case !sentCont.IsUndefined():
		if cont, err = laxBool(t, "continue_final_message", sentCont); err != nil {
			return false, false, err
		}
	case in.ContinueFinalMessage == tmplgen.ContinueContent || in.ContinueFinalMessage == tmplgen.ContinueReasoning:
		return false, false, refused(t, "continue_final_message: Input should be a valid boolean")
	}
	return agp, cont, nil
}

// truth is the truth to Python of a field as the request gives it (sent), or b when
// the request was not parsed (sent is undefined).
func truth(sent jinja2.Value, b bool) bool {
	if sent.IsUndefined() {
		return b
	}
	return sent.Truthy()
}

// laxBool reads v as pydantic's lax mode reads a bool field: a bool, 0 or 1, 0.0 or
// 1.0, or a str that is one of laxTrue or laxFalse once stripped and lowered; another
// value (null too) is refused.
func laxBool(t *tmplgen.Template, field string, v jinja2.Value) (bool, error) {
	switch v.Kind() {
	case jinja2.KindBool:
		b, _ := v.AsBool()
		return b, nil
	case jinja2.KindInt:
		if i, ok := v.AsInt(); ok && (i == 0 || i == 1) {
			return i == 1, nil
		}
	case jinja2.KindFloat:
		if f, _ := v.AsFloat(); f == 0 || f == 1 {
			return f == 1, nil
		}
	case jinja2.KindString:
		start, end := pystr.StripSpace(v.Text(), true, true)
		s := strings.ToLower(v.Text()[start:end])
		if slices.Contains(laxTrue, s) {
			return true, nil
		}
		if slices.Contains(laxFalse, s) {
			return false, nil
		}
	}
	return false, refused(t, "%s: Input should be a valid boolean", field)
}

// laxTrue and laxFalse are the strs pydantic's lax mode reads as true and as false.
var (
	laxTrue  = []string{"1", "on", "t", "true", "y", "yes"}
	laxFalse = []string{"0", "off", "f", "false", "n", "no"}
)

// reasoningEfforts are the values of reasoning_effort vLLM takes.
var reasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// isHFBaseParam reports whether k is a parameter of transformers' apply_chat_template,
// which vLLM hands on whether the template reads it or not
// (resolve_chat_template_kwargs).
func isHFBaseParam(k string) bool {
	switch k {
	case "self", "conversation", "tools", "documents", "add_generation_prompt", "continue_final_message",
		"padding", "truncation", "max_length", "return_tensors", "return_dict", "return_assistant_tokens_mask",
		"tokenizer_kwargs":
		return true
	}
	return false
}

// rewrite is vLLM's request handling up to the template: it sets out to the Input
// transformers' apply_chat_template renders, or returns vLLM's refusal.
func (s *Server) rewrite(t *tmplgen.Template, in, out *tmplgen.Input) error {
	if in.Messages.Kind() != jinja2.KindList {
		return refused(t, "messages: Input should be a valid list")
	}
	f := &in.Server
	if k := f.ChatTemplateKwargs; !k.IsUndefined() && k.Kind() != jinja2.KindNone && k.Kind() != jinja2.KindDict {
		return refused(t, "chat_template_kwargs: Input should be a valid dictionary")
	}
	if rf := f.ResponseFormat; !rf.IsUndefined() && rf.Kind() != jinja2.KindNone {
		typ, _ := get(rf, "type")
		if !slices.Contains([]string{"text", "json_object", "json_schema", "structural_tag"}, str(typ)) || typ.Kind() != jinja2.KindString {
			return refused(t, "response_format: Input does not match any response_format type")
		}
		if js, _ := get(rf, "json_schema"); str(typ) == "json_schema" && isNone(js) {
			return refused(t, "When response_format type is 'json_schema', the 'json_schema' field must be provided.")
		}
	}
	tools := in.Tools
	hasTools := !isNone(tools)
	if tools.Kind() == jinja2.KindList && len(tools.Items()) == 0 {
		return refused(t, "`tools` must not be an empty array. Either provide at least one tool or omit the field entirely.")
	}
	tc, tcGiven := f.ToolChoice, !f.ToolChoice.IsUndefined()
	if !tcGiven && tools.Truthy() {
		tc, tcGiven = jinja2.Str("auto"), true
	}
	if !tcGiven {
		tc = jinja2.Str("none")
	}
	if err := checkToolChoice(t, tc, tcGiven, tools); err != nil {
		return err
	}
	agp, cont, err := generationFields(t, in)
	if err != nil {
		return err
	}
	effort := f.ReasoningEffort
	if !isNone(effort) && (effort.Kind() != jinja2.KindString || !slices.Contains(reasoningEfforts, effort.Text())) {
		return refused(t, "reasoning_effort: Input should be one of %s", strings.Join(reasoningEfforts, ", "))
	}
	if err := checkDocuments(t, in.Documents); err != nil {
		return err
	}
	// the storage of the tools and messages rebuilt, made when the first is
	var arena *jinja2.Arena
	var toolDicts jinja2.Value = jinja2.None()
	if hasTools {
		var err error
		if tools, err = toolsList(t, tools); err != nil {
			return err
		}
		arena = new(jinja2.Arena)
		if toolDicts, err = eachItem(t, arena, tools, toolDict); err != nil {
			return err
		}
	}
	openAI := t.VLLM.OpenAIContent
	switch s.ContentFormat {
	case "string":
		openAI = false
	case "openai":
		openAI = true
	}
	// conv[i] is the i-th message as validated, then as parsed: nil for a message the
	// template gets as it is; conv is nil while every message is
	msgs := in.Messages.Items()
	var conv []*jinja2.Dict
	for i, m := range msgs {
		if asIs(m, openAI) {
			continue
		}
		if conv == nil {
			conv = make([]*jinja2.Dict, len(msgs))
			if arena == nil {
				arena = new(jinja2.Arena)
			}
			arena.Expect(cellsPerMessage * (len(msgs) - i))
		}
		v, err := validMessage(t, arena, m)
		if err != nil {
			return err
		}
		conv[i] = v
	}

	// the server's tool checks (online_renderer.render_chat)
	if s.ToolCallParser == "" && !jinja2.EqStr(tc, "none") {
		switch {
		case jinja2.EqStr(tc, "auto"):
			if !s.EnableAutoToolChoice {
				return refused(t, `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`)
			}
		case tc.Kind() == jinja2.KindDict:
			name, _ := get(tc, "function")
			n, _ := get(name, "name")
			return refused(t, `tool_choice=function "%s" requires --tool-call-parser to be set`, str(n))
		default:
			return refused(t, `tool_choice="%s" requires --tool-call-parser to be set`, str(tc))
		}
	}
	if jinja2.EqStr(tc, "none") && s.ExcludeToolsWhenToolChoiceNone {
		toolDicts = jinja2.None()
	}
	// a template of the request's (validate_chat_template), which a server started
	// without --trust-request-chat-template refuses; one in chat_template_kwargs is
	// refused where the kwargs are read, next
	if !isNone(f.ChatTemplate) {
		return untrustedTemplate(t)
	}

	// the kwargs (build_chat_params, preprocess_chat, merge_kwargs, with_defaults): the
	// server's defaults and the tools, then chat_template_kwargs, then the request's own
	// fields, in one list, where a none or "auto" value does not replace an earlier one.
	// Left out: tokenize, chat_template and return_dict, which the render never sees, and
	// add_generation_prompt and continue_final_message, which the request's own bools
	// always replace (apply_chat_template gets in.AddGenerationPrompt and cont).
	var kwBuf [12]kwarg
	kw := kwargs(kwBuf[:0])
	for k, v := range s.DefaultChatTemplateKwargs {
		kw = kw.set(k, v)
	}
	kw = kw.merge("tools", toolDicts)
	for k, v := range in.Kwargs {
		if k == "chat_template" && !isNone(v) {
			return untrustedTemplate(t)
		}
		kw = kw.merge(k, v)
	}
	kw = kw.merge("documents", in.Documents)
	kw = kw.merge("reasoning_effort", effort)
	if _, set := in.Kwargs["enable_thinking"]; !isNone(effort) && !set {
		kw = kw.merge("enable_thinking", jinja2.Bool(effort.Text() != "none"))
	}
	templateTools, _ := kw.get("tools")
	kw = slices.DeleteFunc(kw, func(e kwarg) bool {
		switch e.name {
		case "tools", "chat_template", "tokenize", "return_dict", "add_generation_prompt", "continue_final_message":
			return true
		}
		return !isHFBaseParam(e.name) && !slices.Contains(t.VLLM.Undeclared, e.name)
	})

	// the messages (parse_chat_message_content, _postprocess_messages): those the
	// template gets as they are have no tool calls and none is a developer message, so
	// a request of only such messages (a list) is handed on as it is
	messages := in.Messages
	if conv == nil && messages.TypeName() != "list" {
		conv = make([]*jinja2.Dict, len(msgs))
	}
	if conv != nil {
		for i, m := range conv {
			if m == nil {
				conv[i] = msgs[i].AsDict()
				continue
			}
			pm, err := parseMessage(t, arena, m, openAI)
			if err != nil {
				return err
			}
			conv[i] = pm
		}
		postprocess(conv)
		if !t.VLLM.DeveloperRole && slices.ContainsFunc(conv, func(m *jinja2.Dict) bool { return role(m) == "developer" }) {
			conv = consolidateSystem(developerToSystem(conv))
		}
		messages = jinja2.ListOfDicts(messages, conv)
	}

	// transformers' apply_chat_template
	*out = tmplgen.Input{
		Tools:              noneIfUndefined(templateTools),
		Documents:          jinja2.None(),
		SpecialTokens:      in.SpecialTokens,
		TokensFromRequest:  in.TokensFromRequest,
		AllowMissingTokens: in.AllowMissingTokens,
		Now:                in.Now,
		Limits:             in.Limits,
	}
	_, conversation := kw.get("conversation")
	if _, self := kw.get("self"); conversation || self {
		return &tmplgen.Error{Kind: tmplgen.TypeError, Msg: "apply_chat_template() got multiple values for argument 'conversation'", Template: t.File}
	}
	if _, ok := kw.get("messages"); ok {
		return &tmplgen.Error{Kind: tmplgen.TypeError, Msg: "Template.render() got multiple values for keyword argument 'messages'", Template: t.File}
	}
	if d, ok := kw.get("documents"); ok {
		out.Documents = d
	}
	for _, e := range kw {
		switch e.name {
		case "documents", "padding", "truncation", "max_length",
			"return_tensors", "return_dict", "return_assistant_tokens_mask", "tokenizer_kwargs":
			continue
		}
		if out.Kwargs == nil {
			out.Kwargs = make(map[string]jinja2.Value, len(kw))
		}
		out.Kwargs[e.name] = e.v
	}
	if len(msgs) == 0 {
		return &tmplgen.Error{Kind: tmplgen.IndexError, Msg: "list index out of range", Template: t.File}
	}
	out.AddGenerationPrompt = agp
	if cont {
		out.ContinueFinalMessage = tmplgen.ContinueAuto
	}
	out.Messages = messages
	return nil
}

// asIs reports whether vLLM hands the template the message m as it is:
// {"role": ..., "content": ...} in that order, strs of data, in the string content
// format (not a developer message, which gains tools, nor a system message vLLM cuts a
// billing header from).
func asIs(m jinja2.Value, openAI bool) bool {
	d := m.AsDict()
	if openAI || d == nil || d.Len() != 2 {
		return false
	}
	keys, vals := d.Keys(), d.Values()
	if !jinja2.EqStr(keys[0], "role") || !jinja2.EqStr(keys[1], "content") ||
		!keys[0].IsDataStr() || !keys[1].IsDataStr() || !vals[0].IsDataStr() || !vals[1].IsDataStr() {
		return false
	}
	r, c := str(vals[0]), str(vals[1])
	return r != "developer" && !(r == "system" && strings.HasPrefix(c, billingHeader))
}

// checkToolChoice is check_tool_usage's check of tool_choice (given: the request sets
// it, or has tools).
func checkToolChoice(t *tmplgen.Template, tc jinja2.Value, given bool, tools jinja2.Value) error {
	if !given || jinja2.EqStr(tc, "none") || tc.Kind() == jinja2.KindNone {
		return nil
	}
	if isNone(tools) {
		return refused(t, "When using `tool_choice`, `tools` must be set.")
	}
	if jinja2.EqStr(tc, "auto") || jinja2.EqStr(tc, "required") {
		return nil
	}
	if tc.Kind() != jinja2.KindDict {
		return refused(t, `Invalid value for `+"`tool_choice`"+`: %s! Only named tools, "none", "auto" or "required" are supported.`, str(tc))
	}
	const usage = "Correct usage: `{\"type\": \"function\", \"function\": {\"name\": \"my_function\"}}`"
	fn, _ := get(tc, "function")
	if fn.Kind() != jinja2.KindDict {
		return refused(t, "Invalid value for `function` in `tool_choice`! %s", usage)
	}
	name, ok := get(fn, "name")
	if !ok {
		return refused(t, "Expected field `name` in `function` in `tool_choice`! %s", usage)
	}
	if name.Kind() != jinja2.KindString || name.Text() == "" {
		return refused(t, "Invalid `name` in `function` in `tool_choice`! %s", usage)
	}
	for _, tool := range tools.Items() {
		f, _ := get(tool, "function")
		if n, _ := get(f, "name"); jinja2.EqStr(n, name.Text()) {
			return nil
		}
	}
	return refused(t, "The tool specified in `tool_choice` does not match any of the specified `tools`")
}

// untrustedTemplate is the error of a request that gives its own chat template.
func untrustedTemplate(t *tmplgen.Template) error {
	return refused(t, "Chat template is passed with request, but --trust-request-chat-template is not set. Refused request with untrusted chat template.")
}

// toolsList returns the request's tools as a list: vllm_render.py reads them as Python
// iterates them, so that an empty object or str is an empty list, the keys of another
// object and the characters of another str are tools that are not dicts, and a number
// or bool is not iterable. (vLLM's pydantic model, tools: list[...] | None, refuses
// every value but a list.)
func toolsList(t *tmplgen.Template, tools jinja2.Value) (jinja2.Value, error) {
	switch tools.Kind() {
	case jinja2.KindList:
		return tools, nil
	case jinja2.KindDict, jinja2.KindString:
		if tools.Truthy() {
			return jinja2.Value{}, refused(t, "tools: Input should be a valid dictionary")
		}
		return jinja2.ListOf(nil), nil
	}
	return jinja2.Value{}, refused(t, "tools: '%s' object is not iterable", tools.TypeName())
}

// checkDocuments: documents is a list of dicts of strs (list[dict[str, str]]).
func checkDocuments(t *tmplgen.Template, docs jinja2.Value) error {
	if isNone(docs) {
		return nil
	}
	ok := docs.Kind() == jinja2.KindList
	for _, d := range docs.Items() {
		ok = ok && d.Kind() == jinja2.KindDict
		if ok {
			for _, v := range d.AsDict().Values() {
				ok = ok && v.Kind() == jinja2.KindString
			}
		}
	}
	if !ok {
		return refused(t, "documents: Input should be a valid dictionary of strings")
	}
	return nil
}

// toolDict is a tool as ChatCompletionToolsParam(...).model_dump() gives it: type,
// function{name, description, parameters[, strict][, defer_loading]}[, defer_loading],
// description and parameters none when absent, other keys dropped.
func toolDict(t *tmplgen.Template, a *jinja2.Arena, tool jinja2.Value) (jinja2.Value, error) {
	if isVLLMTool(tool) {
		return tool, nil
	}
	if tool.Kind() != jinja2.KindDict {
		return jinja2.Value{}, refused(t, "tools: Input should be a valid dictionary")
	}
	if typ, ok := get(tool, "type"); ok && !jinja2.EqStr(typ, "function") {
		return jinja2.Value{}, refused(t, "tools.type: Input should be 'function'")
	}
	f, _ := get(tool, "function")
	name, _ := get(f, "name")
	if f.Kind() != jinja2.KindDict || name.Kind() != jinja2.KindString {
		return jinja2.Value{}, refused(t, "tools.function.name: Field required")
	}
	desc, _ := get(f, "description")
	params, _ := get(f, "parameters")
	if !isNone(desc) && desc.Kind() != jinja2.KindString {
		return jinja2.Value{}, refused(t, "tools.function.description: Input should be a valid string")
	}
	if !isNone(params) && params.Kind() != jinja2.KindDict {
		return jinja2.Value{}, refused(t, "tools.function.parameters: Input should be a valid dictionary")
	}
	fn := a.NewDict(5)
	fn.AddKey(jinja2.KeyName, name)
	fn.AddKey(jinja2.KeyDescription, noneIfUndefined(desc))
	fn.AddKey(jinja2.KeyParameters, noneIfUndefined(params))
	if strict, _ := get(f, "strict"); !isNone(strict) {
		fn.AddStr("strict", jinja2.Bool(strict.Truthy()))
	}
	outer, _ := get(tool, "defer_loading")
	defer_, _ := get(f, "defer_loading")
	if isNone(defer_) {
		defer_ = outer
	}
	if !isNone(defer_) {
		fn.AddStr("defer_loading", jinja2.Bool(defer_.Truthy()))
	}
	out := a.NewDict(3)
	out.AddKey(jinja2.KeyType, jinja2.Str("function"))
	out.AddKey(jinja2.KeyFunction, jinja2.DictValue(fn))
	if !isNone(outer) {
		out.AddStr("defer_loading", jinja2.Bool(outer.Truthy()))
	}
	return jinja2.DictValue(out), nil
}

// isVLLMTool reports whether the request's tool v is what toolDict builds of it:
// {"type": "function", "function": {"name", "description", "parameters"}}, in that
// order, type a str of data, name a str, description a str or none, parameters a dict or
// none.
func isVLLMTool(v jinja2.Value) bool {
	name, desc, params, ok := jinja2.FunctionTool(v)
	return ok && name.Kind() == jinja2.KindString &&
		(desc.Kind() == jinja2.KindString || desc.Kind() == jinja2.KindNone) &&
		(params.Kind() == jinja2.KindDict || params.Kind() == jinja2.KindNone)
}

// cellsPerMessage is about how many cells of an Arena a message vLLM rebuilds takes:
// its validated dict and its parsed one (of three and four entries), a text part and
// its list, and room for five more entries.
const cellsPerMessage = (2 + 2*3) + (2 + 2*4) + (2 + 2*2) + (2 + 1) + 2*5

// The keys of a message vLLM's validation reads, by index (messageKeys names them).
const (
	keyRole = iota
	keyContent
	keyName
	keyToolCallID
	keyToolCalls
	keyReasoning
	keyTools
	keyTask
	keyAudio
	keyFunctionCall
	keyRefusal
	numMessageKeys
)

// messageKeys are the names of the keys above.
var messageKeys = [numMessageKeys]string{"role", "content", "name", "tool_call_id", "tool_calls", "reasoning", "tools", "task",
	"audio", "function_call", "refusal"}

// The keys of each message type, in their order: openai's TypedDicts by role, and
// vLLM's custom one.
var (
	openAIKeys = map[string][]int{
		"developer": {keyContent, keyRole, keyName},
		"system":    {keyContent, keyRole, keyName},
		"user":      {keyContent, keyRole, keyName},
		"assistant": {keyRole, keyAudio, keyContent, keyFunctionCall, keyName, keyRefusal, keyToolCalls},
		"tool":      {keyContent, keyRole, keyToolCallID},
		"function":  {keyContent, keyName, keyRole},
	}
	customKeys = []int{keyRole, keyContent, keyName, keyToolCallID, keyToolCalls, keyReasoning, keyTools, keyTask}
)

// validMessage is a message as vLLM's pydantic union validates it: the keys of the
// member with the most of its keys present (openai's on a tie), reasoning_content
// renamed reasoning, its content, parts and tool calls checked. The message's keys are
// read in one pass.
func validMessage(t *tmplgen.Template, a *jinja2.Arena, m jinja2.Value) (*jinja2.Dict, error) {
	if m.Kind() != jinja2.KindDict {
		return nil, refused(t, "messages: Input should be a valid message")
	}
	src := m.AsDict()
	var val [numMessageKeys]jinja2.Value
	var has [numMessageKeys]bool
	var rc jinja2.Value // reasoning_content
	vals := src.Values()
	for i, k := range src.Keys() {
		if k.Kind() != jinja2.KindString {
			continue
		}
		if k.Text() == "reasoning_content" {
			rc = vals[i]
			continue
		}
		for j, name := range messageKeys {
			if k.Text() == name {
				val[j], has[j] = vals[i], true
				break
			}
		}
	}
	if !has[keyRole] || val[keyRole].Kind() != jinja2.KindString {
		return nil, refused(t, "messages: Input should be a valid message")
	}
	// reasoning_content is renamed reasoning, where reasoning is none or missing
	if !isNone(rc) && isNone(val[keyReasoning]) {
		val[keyReasoning], has[keyReasoning] = rc, true
	}
	count := func(keys []int) int {
		n := 0
		for _, k := range keys {
			if has[k] {
				n++
			}
		}
		return n
	}
	keys := customKeys
	if oa, ok := openAIKeys[val[keyRole].Text()]; ok && count(oa) >= count(customKeys) {
		keys = oa
	}
	var kept [numMessageKeys]bool // the keys of out
	out := a.NewDict(len(keys))
	for _, k := range keys {
		if has[k] {
			out.AddStr(messageKeys[k], val[k])
			kept[k] = true
		}
	}
	if c := val[keyContent]; kept[keyContent] && !isNone(c) {
		switch c.Kind() {
		case jinja2.KindString:
		case jinja2.KindList:
			parts, err := eachItem(t, a, c, validPart)
			if err != nil {
				return nil, err
			}
			out.SetStr("content", parts)
		default:
			return nil, refused(t, "messages.content: Input should be a valid string or list")
		}
	}
	if calls := val[keyToolCalls]; kept[keyToolCalls] && !isNone(calls) {
		if calls.Kind() != jinja2.KindList {
			return nil, refused(t, "messages.tool_calls: Input should be a valid list")
		}
		list, err := eachItem(t, a, calls, validToolCall)
		if err != nil {
			return nil, err
		}
		out.SetStr("tool_calls", list)
	}
	for _, k := range [...]int{keyName, keyToolCallID, keyReasoning, keyTask} {
		if v := val[k]; kept[k] && !isNone(v) && v.Kind() != jinja2.KindString {
			return nil, refused(t, "messages.%s: Input should be a valid string", messageKeys[k])
		}
	}
	return out, nil
}

// eachItem returns a new list of each item of list as f returns it, or f's first error.
func eachItem(t *tmplgen.Template, a *jinja2.Arena, list jinja2.Value,
	f func(*tmplgen.Template, *jinja2.Arena, jinja2.Value) (jinja2.Value, error)) (jinja2.Value, error) {
	items := list.Items()
	var room [8]jinja2.Value
	out := room[:0]
	for _, it := range items {
		v, err := f(t, a, it)
		if err != nil {
			return jinja2.Value{}, err
		}
		out = append(out, v)
	}
	return a.NewList(out), nil
}

// validPart is a content part as vLLM validates it: a text part {"text", "type"}, other
// parts as they are.
func validPart(t *tmplgen.Template, a *jinja2.Arena, p jinja2.Value) (jinja2.Value, error) {
	switch p.Kind() {
	case jinja2.KindString:
		return p, nil
	case jinja2.KindDict:
	default:
		return jinja2.Value{}, refused(t, "messages.content: Input should be a valid dictionary")
	}
	if typ, _ := get(p, "type"); !jinja2.EqStr(typ, "text") {
		return p, nil
	}
	text, _ := get(p, "text")
	if text.Kind() != jinja2.KindString {
		return jinja2.Value{}, refused(t, "messages.content.text: Input should be a valid string")
	}
	d := a.NewDict(2)
	d.AddKey(jinja2.KeyText, text)
	d.AddKey(jinja2.KeyType, jinja2.Str("text"))
	return jinja2.DictValue(d), nil
}

// validToolCall is a tool call as openai's TypedDict validates it: id, function
// {arguments, name}, type; its arguments must be a str (an object is refused).
func validToolCall(t *tmplgen.Template, a *jinja2.Arena, c jinja2.Value) (jinja2.Value, error) {
	id, _ := get(c, "id")
	f, _ := get(c, "function")
	if c.Kind() != jinja2.KindDict || id.Kind() != jinja2.KindString || f.Kind() != jinja2.KindDict {
		return jinja2.Value{}, refused(t, "messages.tool_calls: Field required")
	}
	args, _ := get(f, "arguments")
	name, _ := get(f, "name")
	if args.Kind() != jinja2.KindString || name.Kind() != jinja2.KindString {
		return jinja2.Value{}, refused(t, "messages.tool_calls.function.arguments: Input should be a valid string")
	}
	if typ, _ := get(c, "type"); !jinja2.EqStr(typ, "function") {
		return jinja2.Value{}, refused(t, "messages.tool_calls.type: Input should be 'function'")
	}
	fn := a.NewDict(2)
	fn.AddKey(jinja2.KeyArguments, args)
	fn.AddKey(jinja2.KeyName, name)
	out := a.NewDict(3)
	out.AddKey(jinja2.KeyID, id)
	out.AddKey(jinja2.KeyFunction, jinja2.DictValue(fn))
	out.AddKey(jinja2.KeyType, jinja2.Str("function"))
	return jinja2.DictValue(out), nil
}

// textPartTypes are the part types whose text vLLM takes, and the key it is under.
var textPartTypes = map[string]string{"text": "text", "input_text": "text", "output_text": "text", "refusal": "refusal", "thinking": "thinking"}

// mediaParts are the multimodal part types, which a text-only model refuses.
var mediaParts = []string{"image_url", "input_image", "image_pil", "image_embeds", "audio_embeds", "video_embeds", "prompt_embeds", "audio_url", "input_audio", "video_url"}

// billingHeader starts a system text part vLLM drops (Claude Code's billing header).
const billingHeader = "x-anthropic-billing-header"

// parseMessage is _parse_chat_message_content: the content as text parts, a list of
// {"type": "text", "text"} in the openai format, joined with "\n" in the string format;
// then the fields of its role.
func parseMessage(t *tmplgen.Template, a *jinja2.Arena, m *jinja2.Dict, openAI bool) (*jinja2.Dict, error) {
	r := role(m)
	content, _ := m.GetKey(jinja2.KeyContent)
	var items []jinja2.Value
	var one [1]jinja2.Value
	switch content.Kind() {
	case jinja2.KindString:
		one[0] = content
		items = one[:]
	case jinja2.KindList:
		items = content.Items()
	}
	if r == "system" {
		items = dropBillingHeader(items)
	}
	var partsRoom [4]jinja2.Value
	parts := partsRoom[:0] // the openai format's
	var texts []string     // the string format's
	nonText := false
	for _, p := range items {
		text, typ, err := parsePart(t, p)
		if err != nil {
			return nil, err
		}
		switch {
		case typ == "":
			// a text or refusal part without text
		case openAI:
			d := a.NewDict(2)
			d.AddKey(jinja2.KeyType, jinja2.Str(typ))
			if typ == "tool_reference" {
				nonText = true
				d.AddKey(jinja2.KeyName, text)
			} else {
				d.AddKey(jinja2.KeyText, text)
			}
			parts = append(parts, jinja2.DictValue(d))
		case text.Truthy():
			texts = append(texts, str(text))
		}
	}
	// each key is added once (AddKey, AddStr), a tool's content replaced (SetStr)
	out := a.NewDict(4) // an assistant's tool calls and reasoning move it out of a
	out.AddKey(jinja2.KeyRole, jinja2.Str(r))
	if openAI {
		out.AddKey(jinja2.KeyContent, a.NewList(parts))
	} else {
		out.AddKey(jinja2.KeyContent, jinja2.Str(strings.Join(texts, "\n")))
	}
	switch r {
	case "assistant":
		if calls, ok := m.GetKey(jinja2.KeyToolCalls); ok && !isNone(calls) {
			out.AddKey(jinja2.KeyToolCalls, jinja2.ListOf(slices.Clone(calls.Items())))
		}
		if reasoning, _ := m.GetStr("reasoning"); !isNone(reasoning) {
			out.AddStr("reasoning", reasoning)
			out.AddKey(jinja2.KeyReasoningContent, reasoning)
		}
	case "tool":
		if id, ok := m.GetKey(jinja2.KeyToolCallID); ok {
			out.AddKey(jinja2.KeyToolCallID, id)
		}
		if openAI && !nonText {
			// a tool's text parts are joined back into a str
			var joined []string
			for _, p := range parts {
				tx, _ := get(p, "text")
				joined = append(joined, str(tx))
			}
			out.SetStr("content", jinja2.Str(strings.Join(joined, "\n")))
		}
	}
	if name, _ := m.GetKey(jinja2.KeyName); name.Kind() == jinja2.KindString {
		out.AddKey(jinja2.KeyName, name)
	}
	if task, _ := m.GetStr("task"); task.Kind() == jinja2.KindString {
		out.AddStr("task", task)
	}
	if r == "developer" {
		tools, _ := m.GetStr("tools")
		out.AddStr("tools", noneIfUndefined(tools))
	}
	return out, nil
}

// dropBillingHeader drops a system text part's first line when it is Claude Code's
// billing header, and the part when nothing follows.
func dropBillingHeader(items []jinja2.Value) []jinja2.Value {
	var out []jinja2.Value
	for _, p := range items {
		text := p
		if p.Kind() == jinja2.KindDict {
			if typ, _ := get(p, "type"); jinja2.EqStr(typ, "text") {
				text, _ = get(p, "text")
			}
		}
		if text.Kind() != jinja2.KindString || !strings.HasPrefix(text.Text(), billingHeader) {
			out = append(out, p)
			continue
		}
		_, rest, _ := strings.Cut(text.Text(), "\n")
		if rest == "" {
			continue
		}
		if p.Kind() == jinja2.KindString {
			out = append(out, jinja2.Str(rest))
		} else {
			d := p.AsDict().Copy()
			d.SetStr("text", jinja2.Str(rest))
			out = append(out, jinja2.DictValue(d))
		}
	}
	return out
}

// parsePart is _parse_chat_message_content_part for a text-only model: the text of a
// text-like part and "text" (the name and "tool_reference" for a tool reference), ""
// for a text or refusal part without text, an error for multimodal and unknown parts.
func parsePart(t *tmplgen.Template, p jinja2.Value) (text jinja2.Value, typ string, err error) {
	if p.Kind() == jinja2.KindString {
		return p, "text", nil
	}
	pt, _ := get(p, "type")
	if key, ok := textPartTypes[str(pt)]; ok && pt.Kind() == jinja2.KindString {
		v, _ := get(p, key)
		if (pt.Text() == "text" || pt.Text() == "refusal") && isNone(v) {
			return jinja2.Value{}, "", nil
		}
		return noneIfUndefined(v), "text", nil
	}
	if jinja2.EqStr(pt, "tool_reference") {
		name, _ := get(p, "name")
		return noneIfUndefined(name), "tool_reference", nil
	}
	media := pt.Kind() == jinja2.KindString && slices.Contains(mediaParts, pt.Text())
	if isNone(pt) {
		for _, k := range mediaParts {
			if _, ok := get(p, k); ok && k != "input_image" {
				media = true
			}
		}
	}
	switch {
	case media:
		name := str(pt)
		if name == "" {
			name = "?" // the part names its medium by a key alone
		}
		return jinja2.Value{}, "", refused(t, "multimodal content part '%s' is not supported by a text-only model", name)
	case isNone(pt):
		return jinja2.Value{}, "", refused(t, "Missing 'type' field in multimodal part.")
	case pt.Kind() != jinja2.KindString:
		return jinja2.Value{}, "", refused(t, "Invalid 'type' field in multimodal part.")
	}
	return jinja2.Value{}, "", refused(t, "Unsupported chat content part type: '%s'.", pt.Text())
}

// postprocess is _postprocess_messages: an empty tool_calls list dropped, each call's
// arguments parsed from JSON into an object ({} for invalid JSON, JSON that is not an
// object, or nothing).
func postprocess(conv []*jinja2.Dict) {
	for _, m := range conv {
		calls, ok := m.GetKey(jinja2.KeyToolCalls)
		if role(m) != "assistant" || !ok || calls.Kind() != jinja2.KindList {
			continue
		}
		if len(calls.Items()) == 0 {
			m.Delete(jinja2.Str("tool_calls"))
			continue
		}
		for _, c := range calls.Items() {
			f, _ := get(c, "function")
			args, _ := get(f, "arguments")
			parsed := jinja2.DictValue(jinja2.NewDict(0))
			if args.Kind() == jinja2.KindString && args.Text() != "" {
				if v, err := jinja2.ParseJSON([]byte(args.Text())); err == nil && v.Kind() == jinja2.KindDict {
					parsed = v
				}
			}
			f.AsDict().SetStr("arguments", parsed)
		}
	}
}

// developerToSystem is _convert_developer_to_system: developer messages become system
// messages without their tools.
func developerToSystem(conv []*jinja2.Dict) []*jinja2.Dict {
	out := make([]*jinja2.Dict, len(conv))
	for i, m := range conv {
		if role(m) == "developer" {
			m = m.Copy()
			m.SetStr("role", jinja2.Str("system"))
			m.Delete(jinja2.Str("tools"))
		}
		out[i] = m
	}
	return out
}

// consolidateSystem is _consolidate_system_messages: when a system message is not first
// or there are several, their contents ("\n"-joined when a list) are merged into one
// first message, "\n\n"-joined.
func consolidateSystem(conv []*jinja2.Dict) []*jinja2.Dict {
	var contents []string
	var others []*jinja2.Dict
	needs := false
	for i, m := range conv {
		if role(m) != "system" {
			others = append(others, m)
			continue
		}
		if i > 0 || len(contents) > 0 {
			needs = true
		}
		c, _ := m.GetKey(jinja2.KeyContent)
		text := str(c)
		if c.Kind() == jinja2.KindList {
			var parts []string
			for _, p := range c.Items() {
				if tx, ok := get(p, "text"); ok && p.Kind() == jinja2.KindDict {
					parts = append(parts, str(tx))
				} else if p.Kind() == jinja2.KindString {
					parts = append(parts, p.Text())
				}
			}
			text = strings.Join(parts, "\n")
		}
		if text != "" {
			contents = append(contents, text)
		}
	}
	if !needs {
		return conv
	}
	sys := jinja2.NewDict(2)
	sys.SetStr("role", jinja2.Str("system"))
	sys.SetStr("content", jinja2.Str(strings.Join(contents, "\n\n")))
	return append([]*jinja2.Dict{sys}, others...)
}

// kwargs are the variables vLLM hands apply_chat_template, in the order they were
// first set: a few, found by a scan, which costs less than a map's hashing at this size.
type kwargs []kwarg

// A kwarg is one of kwargs: a variable's name and value.
type kwarg struct {
	name string
	v    jinja2.Value
}

// index returns the place of the variable k in kw, or -1.
func (kw kwargs) index(k string) int {
	return slices.IndexFunc(kw, func(e kwarg) bool { return e.name == k })
}

// get returns the value of the variable k, and whether it is set.
func (kw kwargs) get(k string) (jinja2.Value, bool) {
	if i := kw.index(k); i >= 0 {
		return kw[i].v, true
	}
	return jinja2.Value{}, false
}

// set returns kw with v the value of the variable k.
func (kw kwargs) set(k string, v jinja2.Value) kwargs {
	if i := kw.index(k); i >= 0 {
		kw[i].v = v
		return kw
	}
	return append(kw, kwarg{k, v})
}

// merge is merge_kwargs for one override: kw with v, unless it is none, undefined or
// "auto", the value of k.
func (kw kwargs) merge(k string, v jinja2.Value) kwargs {
	if isNone(v) || jinja2.EqStr(v, "auto") {
		return kw
	}
	return kw.set(k, v)
}

func role(m *jinja2.Dict) string {
	r, _ := m.GetKey(jinja2.KeyRole)
	return str(r)
}

// get is d[key] of a dict, and whether it has it.
func get(d jinja2.Value, key string) (jinja2.Value, bool) {
	if dd := d.AsDict(); dd != nil && d.Kind() == jinja2.KindDict {
		return dd.GetStr(key)
	}
	return jinja2.Value{}, false
}

// isNone reports whether v is none or missing (undefined).
func isNone(v jinja2.Value) bool {
	return v.Kind() == jinja2.KindNone || v.Kind() == jinja2.KindUndefined
}

func noneIfUndefined(v jinja2.Value) jinja2.Value {
	if v.Kind() == jinja2.KindUndefined {
		return jinja2.None()
	}
	return v
}

// str is the text of a str value, "" for others.
func str(v jinja2.Value) string {
	if v.Kind() == jinja2.KindString {
		return v.Text()
	}
	return ""
}
