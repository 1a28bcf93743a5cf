package jinja2

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Message is a chat message with the field names of OpenAI's chat API. MessagesValue
// converts it, without reflection, into the dict a template reads, with the keys in the
// order OpenAI clients send them: role, tool_call_id, name, content, reasoning_content,
// tool_calls. Role and content are always there; each other key only when its field is
// set (not empty).
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
// nil), as Message describes. With ToolsValue it fills an Input without going through
// JSON:
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
// Input.Documents.
func MessagesValue(msgs []Message) (Value, error) {
	c := getConverter(chatCells(msgs))
	defer c.release()
	v, err := chatList(c, msgs, 0)
	if err != nil {
		return Value{}, fmt.Errorf("tmplgen.MessagesValue: %w", err.at("messages"))
	}
	return v, nil
}

// ToolsValue returns tools as Input.Tools holds them: a list of dicts as Tool describes,
// or None for nil (no tools, as when a request has none).
func ToolsValue(tools []Tool) (Value, error) {
	if tools == nil {
		return None(), nil
	}
	c := getConverter(chatCells(tools))
	defer c.release()
	v, err := chatList(c, tools, 0)
	if err != nil {
		return Value{}, fmt.Errorf("tmplgen.ToolsValue: %w", err.at("tools"))
	}
	return v, nil
}

// A chatValuer is a chat type of this package: it builds its Value itself, without
// reflection, with c, nested depth levels deep.
type chatValuer interface {
	chatValue(c *converter, depth int) (Value, *convError)
	// cells returns how many cells its containers take, but those ValueOf converts.
	cells() int
}

// chatList returns the list of the values of xs, nested depth levels deep.
func chatList[T chatValuer](c *converter, xs []T, depth int) (Value, *convError) {
	mark := c.mark()
	for i, x := range xs {
		v, err := x.chatValue(c, depth+1)
		if err != nil {
			return Value{}, err.at(indexStep(i))
		}
		c.pairs.push(v)
	}
	return c.list(mark), nil
}

// chatCells returns how many cells the list of xs takes, but the values ValueOf
// converts.
func chatCells[T chatValuer](xs []T) int {
	n := listCells + len(xs)
	for _, x := range xs {
		n += x.cells()
	}
	return n
}

// dictCellsOf returns how many cells a dict of n entries takes.
func dictCellsOf(n int) int { return dictCells + 2*n }

// ifSet returns 1 if s is set, else 0.
func ifSet(s string) int {
	if s != "" {
		return 1
	}
	return 0
}

func (m Message) cells() int {
	n := dictCellsOf(2 + ifSet(m.ToolCallID) + ifSet(m.Name) + ifSet(m.ReasoningContent) + min(len(m.ToolCalls), 1))
	if len(m.Parts) > 0 {
		n += chatCells(m.Parts)
	}
	if len(m.ToolCalls) > 0 {
		n += chatCells(m.ToolCalls)
	}
	return n
}

func (p ContentPart) cells() int {
	n := dictCellsOf(1 + ifSet(p.Text) + ifSet(p.ImageURL))
	if p.ImageURL != "" {
		n += dictCellsOf(1)
	}
	return n
}

func (tc ToolCall) cells() int {
	n := dictCellsOf(2+ifSet(tc.ID)) + dictCellsOf(2)
	if tc.Arguments == nil {
		n += dictCellsOf(0)
	}
	return n
}

func (t Tool) cells() int {
	if t.Parameters == nil {
		return dictCellsOf(2) + dictCellsOf(1+ifSet(t.Description))
	}
	n := dictCellsOf(2) + dictCellsOf(2+ifSet(t.Description))
	switch t.Parameters.(type) {
	case Value, json.RawMessage: // a Value is shared; ParseJSON stores what it decodes
	default:
		n += schemaCells
	}
	return n
}

// schemaCells is a guess at how many cells the JSON Schema of a function's parameters
// takes, when ValueOf converts it from a Go value: about that of a schema of two or
// three properties.
const schemaCells = 48

func (m Message) chatValue(c *converter, depth int) (Value, *convError) {
	w := chatWords()
	switch {
	case m.Role == "":
		return Value{}, &convError{msg: "a message needs a role"}
	case m.Content != "" && len(m.Parts) > 0:
		return Value{}, &convError{msg: "a message has either content or parts"}
	}
	mark := c.mark()
	c.push(w.role, strValue(m.Role))
	if m.ToolCallID != "" {
		c.push(w.toolCallID, strValue(m.ToolCallID))
	}
	if m.Name != "" {
		c.push(w.name, strValue(m.Name))
	}
	content := strValue(m.Content)
	if len(m.Parts) > 0 {
		var err *convError
		if content, err = chatList(c, m.Parts, depth+1); err != nil {
			return Value{}, err.at(".content")
		}
	}
	c.push(w.content, content)
	if m.ReasoningContent != "" {
		c.push(w.reasoningContent, strValue(m.ReasoningContent))
	}
	if len(m.ToolCalls) > 0 {
		calls, err := chatList(c, m.ToolCalls, depth+1)
		if err != nil {
			return Value{}, err.at(".tool_calls")
		}
		c.push(w.toolCalls, calls)
	}
	return c.dict(mark), nil
}

func (p ContentPart) chatValue(c *converter, _ int) (Value, *convError) {
	w := chatWords()
	if p.Type == "" {
		return Value{}, &convError{msg: "a content part needs a type"}
	}
	mark := c.mark()
	c.push(w.typ, strValue(p.Type))
	if p.Text != "" {
		c.push(w.text, strValue(p.Text))
	}
	if p.ImageURL != "" {
		image := c.mark()
		c.push(w.url, strValue(p.ImageURL))
		c.push(w.imageURL, c.dict(image))
	}
	return c.dict(mark), nil
}

func (tc ToolCall) chatValue(c *converter, depth int) (Value, *convError) {
	w := chatWords()
	if tc.Name == "" {
		return Value{}, &convError{msg: "a tool call needs a name"}
	}
	mark := c.mark()
	if tc.ID != "" {
		c.push(w.id, strValue(tc.ID))
	}
	c.push(w.typ, w.function)
	fn := c.mark()
	c.push(w.name, strValue(tc.Name))
	if tc.Arguments == nil {
		c.push(w.arguments, c.dict(c.mark())) // no arguments: an empty object
	} else {
		args, err := c.anyValue(tc.Arguments, depth+2)
		if err != nil {
			return Value{}, err.at(".function.arguments")
		}
		c.push(w.arguments, args)
	}
	c.push(w.function, c.dict(fn))
	return c.dict(mark), nil
}

func (t Tool) chatValue(c *converter, depth int) (Value, *convError) {
	w := chatWords()
	if t.Name == "" {
		return Value{}, &convError{msg: "a tool needs a name"}
	}
	mark := c.mark()
	c.push(w.typ, w.function)
	fn := c.mark()
	c.push(w.name, strValue(t.Name))
	if t.Description != "" {
		c.push(w.description, strValue(t.Description))
	}
	if t.Parameters != nil {
		params, err := c.anyValue(t.Parameters, depth+2)
		if err != nil {
			return Value{}, err.at(".function.parameters")
		}
		c.push(w.parameters, params)
	}
	c.push(w.function, c.dict(fn))
	return c.dict(mark), nil
}

// chatStrs are the keys and fixed values the chat types write.
type chatStrs struct {
	role, toolCallID, name, content, reasoningContent, toolCalls Value
	typ, text, imageURL, url                                     Value
	id, function, arguments, description, parameters             Value
}

// chatWords returns the chatStrs, interned as ParseJSON interns the strs it reads (see
// internStr); made on first use, after the init function that fills internStr's table.
var chatWords = sync.OnceValue(func() *chatStrs {
	return &chatStrs{
		role: internStr("role"), toolCallID: internStr("tool_call_id"), name: internStr("name"),
		content: internStr("content"), reasoningContent: internStr("reasoning_content"),
		toolCalls: internStr("tool_calls"), typ: internStr("type"), text: internStr("text"),
		imageURL: internStr("image_url"), url: internStr("url"), id: internStr("id"),
		function: internStr("function"), arguments: internStr("arguments"),
		description: internStr("description"), parameters: internStr("parameters"),
	}
})

// FunctionTool returns the name, description and parameters of a tool that is exactly
// {"type": "function", "function": {"name", "description", "parameters"}}, keys in that
// order and type a str of data, as servers rebuild the tools they are sent: a server
// profile hands such a tool to the template as it is when the fields are what it
// would build.
func FunctionTool(v Value) (name, description, parameters Value, ok bool) {
	t := v.AsDict()
	if !t.KeysAre("type", "function") {
		return Value{}, Value{}, Value{}, false
	}
	vals := t.vals()
	fn := vals[1].AsDict()
	if !EqStr(vals[0], "function") || !vals[0].IsDataStr() || !fn.KeysAre("name", "description", "parameters") {
		return Value{}, Value{}, Value{}, false
	}
	f := fn.vals()
	return f[0], f[1], f[2], true
}
