package jinja2

import (
	"fmt"
	"time"
)

// Input is what a chat template renders: the conversation and the variables
// transformers' apply_chat_template passes to the template.
type Input struct {
	// Messages is the conversation: a list of dicts with role, content and any other
	// fields (tool_calls, reasoning_content, name...).
	Messages Value
	// Tools is the list of tool definitions, or None.
	Tools Value
	// Documents is the list of documents for retrieval-augmented templates, or None.
	Documents Value
	// AddGenerationPrompt asks the template to open the assistant's turn.
	AddGenerationPrompt bool
	// ContinueFinalMessage leaves the final message open, so that the model continues
	// it (continue_final_message); it cannot be combined with AddGenerationPrompt.
	// (llamaserver.Render continues a final assistant message even when it is
	// ContinueNone, as llama-server does.)
	ContinueFinalMessage Continuation
	// SpecialTokens are the tokenizer's special tokens by variable name: bos_token,
	// eos_token, unk_token, pad_token... A name not present is undefined.
	SpecialTokens map[string]string
	// Kwargs are extra template variables (chat_template_kwargs such as enable_thinking);
	// they take precedence over SpecialTokens.
	Kwargs map[string]Value
	// Now is the clock strftime_now reads; the zero time means the current time.
	Now time.Time
	// Limits bound the work of a render.
	Limits Limits
	// AddBOS and AddEOS say that the model's tokenizer adds the BOS or EOS token
	// itself; llamaserver.Render then removes a leading bos_token or trailing
	// eos_token of the rendered prompt.
	AddBOS, AddEOS bool
	// Server holds the request fields llama-server reads besides the conversation
	// (tool_choice, reasoning_format...); only llamaserver.Render reads them.
	Server ServerFields
	// Vars, when not nil, are the template's variables exactly: the template sees the
	// entries of Vars and nothing else (Messages, Tools, Documents, AddGenerationPrompt,
	// SpecialTokens and Kwargs are not read, and a name Vars lacks is undefined; Now and
	// Limits still apply). llamaserver.Render renders this way, with the variables it
	// builds (llamaserver.Vars); it ignores the caller's Vars.
	Vars *Dict
}

// ServerFields are the fields of an OpenAI-style request that llama-server reads and
// no template variable carries, as the request gives them (JSON values: a field's type
// is checked as llama-server checks it). The zero Value (undefined) is a field the
// request does not have.
type ServerFields struct {
	// ToolChoice is "auto" (the default), "none" or "required"; another string is
	// refused, another type read as "auto".
	ToolChoice Value
	// ParallelToolCalls does not change the prompt (it shapes the output grammar).
	ParallelToolCalls Value
	// ReasoningFormat is "none", "auto", "deepseek" or "deepseek-legacy".
	ReasoningFormat Value
	// ReasoningEffort "none" turns thinking off; other efforts do not change the prompt.
	ReasoningEffort Value
	// ResponseFormat ({"type": "text" | "json_object" | "json_schema", ...}) and
	// JSONSchema (json_schema) give the schema of the answer, which some handlers write
	// into the prompt; Grammar (grammar) cannot be combined with them, nor with tools.
	ResponseFormat, JSONSchema, Grammar Value
}

// field returns the field of f that holds the request field name, nil for a name
// llama-server does not read there.
func (f *ServerFields) field(name string) *Value {
	switch name {
	case "tool_choice":
		return &f.ToolChoice
	case "parallel_tool_calls":
		return &f.ParallelToolCalls
	case "reasoning_format":
		return &f.ReasoningFormat
	case "reasoning_effort":
		return &f.ReasoningEffort
	case "response_format":
		return &f.ResponseFormat
	case "json_schema":
		return &f.JSONSchema
	case "grammar":
		return &f.Grammar
	}
	return nil
}

// Continuation says whether the final message is continued, and what of it
// (continue_final_message).
type Continuation uint8

// The continuations.
const (
	// ContinueNone closes the final message as the template does.
	ContinueNone Continuation = iota
	// ContinueAuto (continue_final_message: true) continues the final message: its
	// content, or its reasoning when it has reasoning and no content (llama-server).
	ContinueAuto
	// ContinueContent ("content") continues the content, after the reasoning.
	ContinueContent
	// ContinueReasoning ("reasoning_content") continues the reasoning.
	ContinueReasoning
)

// Lookup returns the value of a template variable, as the template sees it.
func (in *Input) Lookup(name string) Value {
	if in.Vars != nil {
		return in.Vars.Lookup(name)
	}
	switch name {
	case "messages":
		return in.Messages
	case "tools":
		return noneIfUndefined(in.Tools)
	case "documents":
		return noneIfUndefined(in.Documents)
	case "add_generation_prompt":
		return Bool(in.AddGenerationPrompt)
	}
	if len(in.Kwargs) > 0 {
		if v, ok := in.Kwargs[name]; ok {
			return v
		}
	}
	if len(in.SpecialTokens) > 0 {
		if s, ok := in.SpecialTokens[name]; ok {
			return Str(s)
		}
	}
	return Undefined(name)
}

func noneIfUndefined(v Value) Value {
	if v.kind() == KindUndefined {
		return None()
	}
	return v
}

// Clock returns the time strftime_now reads: Now, or the current time when Now is zero.
func (in *Input) Clock() time.Time {
	if in.Now.IsZero() {
		return time.Now()
	}
	return in.Now
}

// Request is an OpenAI-style chat request as JSON: messages, tools, documents,
// add_generation_prompt (default true), chat_template_kwargs, enable_thinking, the
// special tokens (bos_token/eos_token or bos/eos, special_tokens) and add_bos/add_eos.
type Request struct {
	Input
}

// ParseRequest decodes an OpenAI-style request. Key order is kept everywhere, since it
// shows in what templates print (tojson, iterating a dict).
func ParseRequest(data []byte) (*Request, error) {
	v, err := ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	d := v.AsDict()
	if d == nil {
		return nil, fmt.Errorf("request: want a JSON object, got %s", jsonTypeName(v))
	}
	r := &Request{Input: Input{
		Tools:               None(),
		Documents:           None(),
		AddGenerationPrompt: true,
		SpecialTokens:       map[string]string{},
		Kwargs:              map[string]Value{},
	}}
	msgs, ok := d.GetStr("messages")
	if !ok || msgs.kind() != KindList {
		return nil, fmt.Errorf("request: \"messages\" must be a list")
	}
	for i, m := range msgs.Items() {
		if m.kind() != KindDict {
			return nil, fmt.Errorf("request: messages[%d] must be an object, got %s", i, jsonTypeName(m))
		}
	}
	r.Messages = msgs
	for i, k := range d.keys() {
		val := d.at(i)
		switch k.str() {
		case "tools", "documents":
			if val.kind() != KindList && val.kind() != KindNone {
				return nil, fmt.Errorf("request: %q must be a list or null", k.str())
			}
			if k.str() == "tools" {
				r.Tools = val
			} else {
				r.Documents = val
			}
		case "continue_final_message":
			c, err := parseContinuation(val)
			if err != nil {
				return nil, fmt.Errorf("request: %w", err)
			}
			r.ContinueFinalMessage = c
		case "add_generation_prompt", "add_bos", "add_eos":
			b, ok := val.AsBool()
			if !ok {
				return nil, fmt.Errorf("request: %q must be true or false", k.str())
			}
			switch k.str() {
			case "add_generation_prompt":
				r.AddGenerationPrompt = b
			case "add_bos":
				r.AddBOS = b
			default:
				r.AddEOS = b
			}
		case "bos", "eos", "bos_token", "eos_token":
			name := k.str()
			if len(name) == 3 {
				name += "_token"
			}
			switch val.kind() {
			case KindString:
				r.SpecialTokens[name] = val.str()
			case KindNone:
				delete(r.SpecialTokens, name)
			default:
				return nil, fmt.Errorf("request: %q must be a string or null", k.str())
			}
		case "special_tokens":
			sd := val.AsDict()
			if sd == nil {
				return nil, fmt.Errorf("request: \"special_tokens\" must be an object")
			}
			for j, sk := range sd.keys() {
				s, ok := sd.at(j).AsString()
				if !ok {
					return nil, fmt.Errorf("request: special_tokens[%q] must be a string", sk.str())
				}
				r.SpecialTokens[sk.str()] = s
			}
		case "enable_thinking":
			if val.kind() != KindNone {
				if _, set := r.Kwargs["enable_thinking"]; !set {
					r.Kwargs["enable_thinking"] = val
				}
			}
		case "chat_template_kwargs":
			kd := val.AsDict()
			if kd == nil {
				if val.kind() == KindNone {
					continue
				}
				return nil, fmt.Errorf("request: \"chat_template_kwargs\" must be an object")
			}
			// messages, tools, documents and add_generation_prompt are kwargs too:
			// transformers' apply_chat_template passes its own under those names
			// (Lookup reads them first), llama-server lets kwargs replace its variables
			for j, kk := range kd.keys() {
				r.Kwargs[kk.str()] = kd.at(j)
			}
		default:
			if f := r.Server.field(k.str()); f != nil {
				*f = val
			}
		}
	}
	return r, nil
}

// parseContinuation reads continue_final_message: true, false or null, "content" or
// "reasoning_content" (llama-server's values; transformers takes a bool).
func parseContinuation(v Value) (Continuation, error) {
	switch {
	case v.kind() == KindNone:
		return ContinueNone, nil
	case v.kind() == KindBool && v.num() != 0:
		return ContinueAuto, nil
	case v.kind() == KindBool:
		return ContinueNone, nil
	case v.kind() == KindString && v.str() == "content":
		return ContinueContent, nil
	case v.kind() == KindString && v.str() == "reasoning_content":
		return ContinueReasoning, nil
	}
	return 0, fmt.Errorf(`"continue_final_message" must be true, false, "content" or "reasoning_content", got %s`, CompactJSON(v))
}

// jsonTypeName names a decoded JSON value's type.
func jsonTypeName(v Value) string {
	switch v.kind() {
	case KindDict:
		return "an object"
	case KindList:
		return "an array"
	case KindString:
		return "a string"
	case KindNone:
		return "null"
	case KindBool:
		return "a boolean"
	}
	return "a number"
}
