// Package tmplgen renders chat prompts with compiled chat templates: the prompt format
// every LLM checkpoint carries as a Jinja program (tokenizer.chat_template), compiled
// ahead of time into a Go function whose output is byte-identical to Python Jinja2 as
// Hugging Face transformers' apply_chat_template runs it, to the prompt vLLM's
// OpenAI-compatible server builds (package vllm) and to llama.cpp's llama-server's
// (package llamaserver).
//
// A service decodes a request (ParseRequest of its body, RequestOf of an OpenAI SDK's
// request value, or builds the conversation from Go values with MessagesValue and
// ToolsValue), finds the model's template in a package of compiled templates (the
// module's generated package, or one `tmplgen gen` wrote from the model's files) by its
// text or name, and renders the prompt of the server it stands for:
//
//	req, err := tmplgen.ParseRequest(body)      // OpenAI-style: messages, tools, chat_template_kwargs...
//	t, err := chattmpl.LookupText(templateText) // unknown text is an *UnknownTemplateError, never guessed
//	prompt, err := vllm.Render(t, &req.Input)   // vLLM's prompt; llamaserver.Render: llama-server's
//
// Template.Render is transformers' apply_chat_template: the template sees the messages
// exactly as given, as it does in Python, where many templates fail on what OpenAI
// clients send (content null, content arrays, arguments as JSON strings); the server
// profiles rewrite the request as their servers do first.
//
// A Template is immutable and a render never modifies its Input, so one Template (and
// one Input) may be rendered from any number of goroutines at once. Errors a caller
// inspects with errors.As: *RaiseError (the template refused the conversation with
// raise_exception), *Error (a render failed: its kind, message and template position),
// *JSONError (a request that is not valid JSON: line, column, path),
// *UnknownTemplateError, *AmbiguousTemplateError (a text several models of a registry
// share with different special tokens: look it up by name). Sentinels for errors.Is:
// ErrUnknownTemplate, ErrAmbiguousTemplate, ErrMissingToken (the template reads a
// special token no one gave: see Template.ModelInput), ErrNilInput.
//
// Model files (GGUF, tokenizer_config.json, a model directory) are read by package
// github.com/tmplgen/tmplgen/modelfile, and the prompt llama-server builds for a
// request is package github.com/tmplgen/tmplgen/llamaserver's: a service that only
// renders compiles in neither. The command cmd/tmplgen compiles templates. Generated
// code calls packages jinja2 and llamacpp besides this one; programs need only this
// package.
package tmplgen

import (
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/templatehash"
)

// SHA256 is the hex sha256 of a template's text: what a Registry is keyed by.
func SHA256(text string) string { return templatehash.SHA256(text) }

// Value is a template value with Python semantics (what Input's fields hold): build
// one from JSON (ParseJSON, ParseRequest) or from Go values (ValueOf, MessagesValue,
// ToolsValue).
type Value = jinja2.Value

// ParseJSON decodes JSON into a Value as Python's json.loads does: objects keep the
// order of their keys, integers stay ints of any size; text that is not UTF-8 and lone
// surrogate escapes (\ud800), which no UTF-8 text holds, are refused, as the servers'
// parsers refuse them. An error is a *JSONError.
func ParseJSON(data []byte) (Value, error) {
	v, err := jinja2.ParseJSON(data)
	return v, publicJSONError(err)
}

// ValueOf converts an ordinary Go value (structs with json tags, slices, maps,
// json.RawMessage...) into a Value, as encoding/json would serialise it; a value with a
// TemplateValue method (Message, ContentPart, ToolCall, Tool) is what that returns.
func ValueOf(x any) (Value, error) { return jinja2.ValueOf(x) }

// Message is a chat message with the field names of OpenAI's chat API, for a service
// that has the conversation as Go values. MessagesValue converts messages, without
// reflection, into the list of dicts a template reads, with the keys in the order OpenAI
// clients send them: role, tool_call_id, name, content, reasoning_content, tool_calls.
// Role and content are always there; each other key only when its field is set (not
// empty).
type Message struct {
	// Role is who speaks: "system", "user", "assistant", "tool"...; it is required.
	Role string
	// ToolCallID is, in a tool message, the ID of the call it answers (tool_call_id).
	ToolCallID string
	// Name is the name of the participant, or of the tool in a tool message.
	Name string
	// Content is the text of the message: content is this str, empty when unset, as
	// templates expect (many fail on a missing or null content, even beside tool calls).
	Content string
	// Parts, when there are any, make content a list of typed parts instead: Content
	// must then be empty.
	Parts []ContentPart
	// ReasoningContent is the reasoning of an assistant message (reasoning_content).
	ReasoningContent string
	// ToolCalls are the calls of an assistant message (tool_calls).
	ToolCalls []ToolCall
}

// ContentPart is a part of a message's content: {"type": "text", "text": "..."} or
// {"type": "image_url", "image_url": {"url": "..."}}, with the keys of the fields that are
// set.
type ContentPart struct {
	// Type is the kind of the part: "text", "image_url", "image"...; it is required.
	Type string
	// Text is the text of a text part.
	Text string
	// ImageURL is the URL of an image_url part (a data: URL for inline data).
	ImageURL string
}

// ToolCall is a function call of an assistant message, as OpenAI's API gives it:
// {"id": ID, "type": "function", "function": {"name": Name, "arguments": Arguments}}, id
// only when set.
type ToolCall struct {
	// ID identifies the call; a tool message answers it with its ToolCallID.
	ID string
	// Name is the name of the function called; it is required.
	Name string
	// Arguments are the arguments of the call, in either of the forms requests carry
	// them. A string is the JSON text OpenAI's API sends (`{"city": "Paris"}`), kept as a
	// str; templates print it as it is. Anything else is the object itself, converted
	// with ValueOf: json.RawMessage(`{"city": "Paris"}`) parses the JSON with its keys in
	// order, a map has its keys sorted, a struct its fields in order. nil is no
	// arguments: an empty object.
	Arguments any
}

// Tool is a function the model may call, as OpenAI's API defines it:
// {"type": "function", "function": {"name": Name, "description": Description,
// "parameters": Parameters}}, description and parameters only when set.
type Tool struct {
	// Name is the name of the function; it is required.
	Name string
	// Description says what the function does.
	Description string
	// Parameters is the JSON Schema of the arguments, converted with ValueOf: any Go value
	// that encoding/json can marshal (a map has its keys sorted), a json.RawMessage (keys
	// in order), or a Value. A schema that does not change is best converted once
	// (ParseJSON or ValueOf) and given as that Value, which every request then shares:
	// templates cannot modify their input.
	Parameters any
}

// MessagesValue returns msgs as Input.Messages holds them: a list of dicts (empty for
// nil), as Message describes, converted without reflection. With ToolsValue it fills an
// Input without going through JSON:
//
//	in := tmplgen.Input{AddGenerationPrompt: true, SpecialTokens: tokens}
//	var err error
//	if in.Messages, err = tmplgen.MessagesValue(msgs); err != nil {
//		return err
//	}
//	if in.Tools, err = tmplgen.ToolsValue(tools); err != nil {
//		return err
//	}
//	prompt, err := tmpl.Render(&in)
//
// Other template variables go in Input.Kwargs (ValueOf converts them) and documents in
// Input.Documents. An error names the message and field at fault
// (messages[1].tool_calls[0]: a tool call needs a name).
func MessagesValue(msgs []Message) (Value, error) { return jinja2.MessagesValue(msgs) }

// ToolsValue returns tools as Input.Tools holds them: a list of dicts as Tool describes,
// or None for nil (no tools, as when a request has none), converted without reflection.
func ToolsValue(tools []Tool) (Value, error) { return jinja2.ToolsValue(tools) }

// TemplateValue returns the dict a template sees for m, as MessagesValue converts it;
// ValueOf calls it for a Message in a Go value.
func (m Message) TemplateValue() (Value, error) { return jinja2.MessageValue(m) }

// TemplateValue returns the dict a template sees for p (see Message.TemplateValue).
func (p ContentPart) TemplateValue() (Value, error) { return jinja2.ContentPartValue(p) }

// TemplateValue returns the dict a template sees for tc (see Message.TemplateValue).
func (tc ToolCall) TemplateValue() (Value, error) { return jinja2.ToolCallValue(tc) }

// TemplateValue returns the dict a template sees for t (see Message.TemplateValue).
func (t Tool) TemplateValue() (Value, error) { return jinja2.ToolValue(t) }

// JSONError is a request (or model file) that is not valid JSON, or larger than the
// decoder takes: where it is wrong and what is wrong. ParseJSON and ParseRequest return
// it; package modelfile wraps it.
type JSONError struct {
	// File names the input at the start of the message, when a caller knows it.
	File string
	// Offset is the position of the error in the input, in bytes from 0; Line and
	// Column are the same position from 1, the column counted in characters (as Python
	// counts them, lines end at "\n").
	Offset, Line, Column int
	// Path is where in the JSON value the error is, as messages[3].content or
	// tools[0]["my key"]; "" at the top level.
	Path string
	// Msg says what is wrong.
	Msg string
}

// Error returns "file: msg at line L, column C (path)", without the file and the path
// when they are empty.
func (e *JSONError) Error() string { return (*jinja2.JSONError)(e).Error() }

// publicJSONError returns err as a *JSONError when it is the decoder's.
func publicJSONError(err error) error {
	if e, ok := err.(*jinja2.JSONError); ok {
		return (*JSONError)(e)
	}
	return err
}
