// Package tmplgen renders chat prompts with compiled chat templates: the prompt format
// every LLM checkpoint carries as a Jinja program (tokenizer.chat_template), compiled
// ahead of time into a Go function whose output is byte-identical to Python Jinja2 as
// Hugging Face transformers' apply_chat_template runs it (and, through package
// llamaserver, to the prompt llama.cpp's llama-server builds).
//
// A service decodes a request (ParseRequest, or builds the conversation from Go values
// with MessagesValue and ToolsValue), finds the model's template in a package of
// compiled templates (the module's generated package, or one `tmplgen gen` wrote from
// the model's files) by its text or name, and renders:
//
//	req, err := tmplgen.ParseRequest(body)      // OpenAI-style: messages, tools, chat_template_kwargs...
//	t, err := chattmpl.LookupText(templateText) // unknown text is an *UnknownTemplateError, never guessed
//	prompt, err := t.Render(&req.Input)
//
// A Template is immutable and a render never modifies its Input, so one Template (and
// one Input) may be rendered from any number of goroutines at once. Errors a caller
// inspects with errors.As: *RaiseError (the template refused the conversation with
// raise_exception), *Error (a render failed: its kind, message and template position),
// *JSONError (a request that is not valid JSON: line, column, path),
// *UnknownTemplateError.
//
// Model files (GGUF, tokenizer_config.json, a model directory) are read by package
// github.com/tmplgen/tmplgen/modelfile, and the prompt llama-server builds for a
// request is package github.com/tmplgen/tmplgen/llamaserver's: a service that only
// renders compiles in neither. The command cmd/tmplgen compiles templates. Package jinja2 is what
// generated code calls; programs need only this package.
package tmplgen

import (
	"github.com/tmplgen/tmplgen/jinja2"
	"github.com/tmplgen/tmplgen/templatehash"
)

// Template is a compiled chat template: Render, AppendRender (into a caller's buffer),
// its name, sha256 and the capabilities llama.cpp sees in it.
type Template = jinja2.Template

// Registry is a set of compiled templates, looked up by sha256 or name; each generated
// package has one, and a LookupText function that finds a template by its text.
type Registry = jinja2.Registry

// UnknownTemplateError is a template text no compiled renderer was generated from; it
// names the text's sha256.
type UnknownTemplateError = jinja2.UnknownTemplateError

// SHA256 is the hex sha256 of a template's text: what a Registry is keyed by.
func SHA256(text string) string { return templatehash.SHA256(text) }

// Input is what a template renders: the conversation, tools, documents, special
// tokens, extra template variables (Kwargs), the clock, limits and llama-server's own
// fields.
type Input = jinja2.Input

// Request is an OpenAI-style chat request decoded into an Input.
type Request = jinja2.Request

// ParseRequest decodes an OpenAI-style JSON request: messages, tools, documents,
// add_generation_prompt, continue_final_message, chat_template_kwargs, special tokens
// and llama-server's fields (tool_choice, reasoning_format...); fields neither reference
// reads (model, temperature...) are ignored.
func ParseRequest(data []byte) (*Request, error) { return jinja2.ParseRequest(data) }

// Value is a template value with Python semantics (what Input's fields hold).
type Value = jinja2.Value

// ValueOf converts an ordinary Go value (structs with json tags, slices, maps,
// json.RawMessage...) into a Value, as encoding/json would serialise it.
func ValueOf(x any) (Value, error) { return jinja2.ValueOf(x) }

// Message, ContentPart, ToolCall and Tool are the conversation with OpenAI's field
// names, for a service that has it as Go values.
type (
	Message     = jinja2.Message
	ContentPart = jinja2.ContentPart
	ToolCall    = jinja2.ToolCall
	Tool        = jinja2.Tool
)

// MessagesValue converts messages into Input.Messages, without reflection.
func MessagesValue(msgs []Message) (Value, error) { return jinja2.MessagesValue(msgs) }

// ToolsValue converts tools into Input.Tools (None for nil), without reflection.
func ToolsValue(tools []Tool) (Value, error) { return jinja2.ToolsValue(tools) }

// Continuation is Input.ContinueFinalMessage: whether the final message is left open.
type Continuation = jinja2.Continuation

// The continuations (continue_final_message: false, true, "content",
// "reasoning_content").
const (
	ContinueNone      = jinja2.ContinueNone
	ContinueAuto      = jinja2.ContinueAuto
	ContinueContent   = jinja2.ContinueContent
	ContinueReasoning = jinja2.ContinueReasoning
)

// ServerFields are the request fields only llama-server reads (Input.Server, read by
// package llamaserver).
type ServerFields = jinja2.ServerFields

// Limits bound the work of one render (output size, loop iterations, call depth).
type Limits = jinja2.Limits

// Error is a failed render: its kind (as Python names the exception), message and
// template position.
type Error = jinja2.Error

// RaiseError is the template refusing its input with raise_exception(message).
type RaiseError = jinja2.RaiseError
