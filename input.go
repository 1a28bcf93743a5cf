package tmplgen

import (
	"time"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// Input is what a chat template renders: the conversation and the variables
// transformers' apply_chat_template passes to the template.
type Input struct {
	// Messages is the conversation: a list of dicts with role, content and any other
	// fields (tool_calls, reasoning_content, name...). (A request's messages that are
	// not dicts reach the template as they are; llama-server and vLLM refuse them.)
	Messages Value
	// Tools is the list of tool definitions, or None. (A request may give another
	// value, which transformers hands the template as it is; llama-server and vLLM
	// refuse most.)
	Tools Value
	// Documents is the list of documents for retrieval-augmented templates, or None
	// (or another value of a request, as Tools).
	Documents Value
	// AddGenerationPrompt asks the template to open the assistant's turn.
	AddGenerationPrompt bool
	// ContinueFinalMessage leaves the final message open, so that the model continues
	// it (continue_final_message); it cannot be combined with AddGenerationPrompt.
	// (llamaserver.Render continues a final assistant message even when it is
	// ContinueNone, as llama-server does.)
	ContinueFinalMessage Continuation
	// SpecialTokens are the tokenizer's special tokens by variable name: bos_token,
	// eos_token, unk_token, pad_token... A render whose template reads one that neither
	// they nor the template's own Tokens give fails (ErrMissingToken), unless
	// AllowMissingTokens.
	SpecialTokens map[string]string
	// TokensFromRequest says that SpecialTokens came with the request rather than from
	// the model (ParseRequest sets it when a request gives any): a render with segments
	// marks them data, as it does everything a request gives, where it marks the
	// model's tokens markup.
	TokensFromRequest bool
	// AllowMissingTokens renders a special token that neither SpecialTokens nor the
	// template gives as undefined (printed as ""), as transformers does for a token
	// its tokenizer lacks, instead of failing the render.
	AllowMissingTokens bool
	// Kwargs are extra template variables (chat_template_kwargs such as enable_thinking);
	// they take precedence over SpecialTokens. (A request's chat_template_kwargs that
	// name self fail a render, as transformers fails it: Jinja2's Template.render takes
	// self as its own.)
	Kwargs map[string]Value
	// Now is the clock strftime_now reads; the zero time means the current time.
	Now time.Time
	// Limits bound the work of a render.
	Limits Limits
	// AddBOS and AddEOS say that the model's tokenizer adds the BOS or EOS token
	// itself; llamaserver.Render then removes a leading bos_token or trailing
	// eos_token of the rendered prompt.
	AddBOS, AddEOS bool
	// IntsFit64 says that no int of the values above is beyond int64: ParseRequest
	// sets it when it decoded none. Otherwise llamaserver.Render looks for such ints,
	// which llama-server's engine reads as nlohmann::json holds them (wrapped into
	// int64 within uint64, else doubles).
	IntsFit64 bool
	// Server holds the request fields llama-server reads besides the conversation
	// (tool_choice, reasoning_format...); only llamaserver.Render reads them.
	Server ServerFields
}

// ServerFields are the fields of an OpenAI-style request that llama-server or vLLM read
// and no template variable carries, as the request gives them (JSON values: a field's type
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
	// AddGenerationPrompt and ContinueFinalMessage are add_generation_prompt and
	// continue_final_message as the request gives them, which each server reads its way:
	// llama-server takes a value of add_generation_prompt that is not a bool as true and
	// a continue_final_message other than true, "content" and "reasoning_content" as
	// false; vLLM reads both as pydantic's lax bools (1, "yes"...) and refuses null or
	// another value. Input's fields of the same names hold transformers' reading.
	AddGenerationPrompt, ContinueFinalMessage Value
	// ChatTemplateKwargs is chat_template_kwargs as the request gives it; Input.Kwargs
	// holds an object's entries. Of another value, vLLM refuses all but null,
	// transformers (Template.Render) makes keyword arguments of a list of pairs and
	// refuses another value true to Python ([] or false are none), and llama-server
	// takes none.
	ChatTemplateKwargs Value
	// ChatTemplate is chat_template, a template of the request's own, which vLLM refuses
	// (unless started with --trust-request-chat-template, which tmplgen, rendering only
	// compiled templates, does not model) and the others ignore.
	ChatTemplate Value
	// JSONError is what llama-server's JSON parser (nlohmann::json) throws for the
	// request's text, which Python's json.loads reads: a NaN, an infinity or a number
	// beyond a double's range (1e400, an int of 400 digits) anywhere in it.
	// ParseRequest sets it, and llamaserver.Render refuses the request with it; "" for
	// a request it parses.
	JSONError string
}

// field returns the field of f that holds the request field name, nil for a name no
// server reads there.
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
	case "chat_template":
		return &f.ChatTemplate
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

// Lookup returns the value of a template variable, as the template sees it: Input is
// the jinja2.Variables of a render.
func (in *Input) Lookup(name string) Value { return in.lookup(name, nil) }

// lookup is Lookup with the special tokens of the template's model, tokens, after the
// input's own.
func (in *Input) lookup(name string, tokens map[string]string) Value {
	switch name {
	case "messages":
		return in.Messages
	case "tools":
		return noneIfUndefined(in.Tools)
	case "documents":
		return noneIfUndefined(in.Documents)
	case "add_generation_prompt":
		return jinja2.Bool(in.AddGenerationPrompt)
	}
	if len(in.Kwargs) > 0 {
		if v, ok := in.Kwargs[name]; ok {
			return v
		}
	}
	if len(in.SpecialTokens) > 0 {
		if s, ok := in.SpecialTokens[name]; ok {
			return in.token(s)
		}
	}
	if len(tokens) > 0 {
		if s, ok := tokens[name]; ok {
			return in.token(s)
		}
	}
	return jinja2.Undefined(name)
}

// token returns the special token s as a str: the model's (markup), or the request's
// (data) when TokensFromRequest.
func (in *Input) token(s string) Value {
	if in.TokensFromRequest {
		return jinja2.Str(s)
	}
	return jinja2.Lit(s)
}

func noneIfUndefined(v Value) Value {
	if v.Kind() == jinja2.KindUndefined {
		return jinja2.None()
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

// Limits bound the work one render may do; exceeding one fails the render with an
// *Error of Kind LimitError. The zero value of a field means its default.
type Limits struct {
	MaxOutput     int // bytes of output, including text captured by macros and set blocks (default 64 MiB)
	MaxIterations int // loop iterations and macro calls in all (default 10,000,000)
	MaxDepth      int // nested macro calls (default 500)
	MaxRange      int // items of one range() (default 100,000: MAX_RANGE of Jinja2's sandbox)
}
