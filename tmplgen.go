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
// order of their keys, integers stay ints of any size; an error is a *JSONError.
func ParseJSON(data []byte) (Value, error) { return jinja2.ParseJSON(data) }

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

// JSONError is a request (or model file) that is not valid JSON: the offset, line,
// column and path of what is wrong.
type JSONError = jinja2.JSONError
