package jinja2

import (
	"encoding/json"
	"fmt"
	"sync"
)

// The chat types a service builds are package tmplgen's (tmplgen.Message, ContentPart,
// ToolCall, Tool), where their fields are documented; the functions here take any type of
// their layouts, which they convert without copying. message, contentPart, toolCall and
// tool are those layouts as this package's types.
type (
	partLayout = struct{ Type, Text, ImageURL string }
	callLayout = struct {
		ID, Name  string
		Arguments any
	}
	toolLayout = struct {
		Name, Description string
		Parameters        any
	}
	messageLayout[P, C any] = struct {
		Role, ToolCallID, Name, Content string
		Parts                           []P
		ReasoningContent                string
		ToolCalls                       []C
	}
)

type (
	// message is tmplgen.Message's layout, with the types of its parts and calls.
	message[P ~partLayout, C ~callLayout] messageLayout[P, C]
	// contentPart is tmplgen.ContentPart's layout.
	contentPart partLayout
	// toolCall is tmplgen.ToolCall's layout.
	toolCall callLayout
	// tool is tmplgen.Tool's layout.
	tool toolLayout
)

// MessagesValue returns msgs as Input.Messages holds them: a list of dicts (empty for
// nil), as tmplgen.Message describes: what tmplgen.MessagesValue returns.
func MessagesValue[M ~messageLayout[P, C], P ~partLayout, C ~callLayout](msgs []M) (Value, error) {
	v, err := convertList(msgs, asMessage[M])
	if err != nil {
		return Value{}, fmt.Errorf("tmplgen.MessagesValue: %w", err.at("messages"))
	}
	return v, nil
}

// ToolsValue returns tools as Input.Tools holds them: a list of dicts as tmplgen.Tool
// describes, or None for nil (no tools, as when a request has none).
func ToolsValue[T ~toolLayout](tools []T) (Value, error) {
	if tools == nil {
		return None(), nil
	}
	v, err := convertList(tools, asTool[T])
	if err != nil {
		return Value{}, fmt.Errorf("tmplgen.ToolsValue: %w", err.at("tools"))
	}
	return v, nil
}

// MessageValue, ContentPartValue, ToolCallValue and ToolValue return the dict of one
// chat value, as a list of them holds it: what the chat types' TemplateValue methods
// return. An error is the one ValueOf reports with the value's path before it.
func MessageValue[M ~messageLayout[P, C], P ~partLayout, C ~callLayout](m M) (Value, error) {
	return convertOne(message[P, C](m))
}

// ContentPartValue returns the dict of p (see MessageValue).
func ContentPartValue[T ~partLayout](p T) (Value, error) { return convertOne(contentPart(p)) }

// ToolCallValue returns the dict of tc (see MessageValue).
func ToolCallValue[T ~callLayout](tc T) (Value, error) { return convertOne(toolCall(tc)) }

// ToolValue returns the dict of t (see MessageValue).
func ToolValue[T ~toolLayout](t T) (Value, error) { return convertOne(tool(t)) }

// convertList returns the list of the values of xs, each as as gives it, with a
// converter of its own.
func convertList[T any, V chatValuer](xs []T, as func(T) V) (Value, *convError) {
	c := getConverter(chatCells(xs, as))
	defer c.release()
	return chatList(c, xs, as, 0)
}

// convertOne returns the value of x, with a converter of its own.
func convertOne[V chatValuer](x V) (Value, error) {
	c := getConverter(x.cells())
	defer c.release()
	v, err := x.chatValue(c, 0)
	if err != nil {
		return Value{}, err // a *convError, which ValueOf puts on its path
	}
	return v, nil
}

// The conversions of the layouts to this package's types, for chatList.
func asMessage[M ~messageLayout[P, C], P ~partLayout, C ~callLayout](m M) message[P, C] {
	return message[P, C](m)
}
func asPart[P ~partLayout](p P) contentPart { return contentPart(p) }
func asCall[C ~callLayout](c C) toolCall    { return toolCall(c) }
func asTool[T ~toolLayout](t T) tool        { return tool(t) }

// A chatValuer is a chat type of this package: it builds its Value itself, without
// reflection, with c, nested depth levels deep.
type chatValuer interface {
	chatValue(c *converter, depth int) (Value, *convError)
	// cells returns how many cells its containers take, but those ValueOf converts.
	cells() int
}

// chatList returns the list of the values of xs, each as as gives it, nested depth
// levels deep.
func chatList[T any, V chatValuer](c *converter, xs []T, as func(T) V, depth int) (Value, *convError) {
	mark := c.mark()
	for i, x := range xs {
		v, err := as(x).chatValue(c, depth+1)
		if err != nil {
			return Value{}, err.at(indexStep(i))
		}
		c.pairs.push(v)
	}
	return c.list(mark), nil
}

// chatCells returns how many cells the list of xs takes, but the values ValueOf
// converts.
func chatCells[T any, V chatValuer](xs []T, as func(T) V) int {
	n := listCells + len(xs)
	for _, x := range xs {
		n += as(x).cells()
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

func (m message[P, C]) cells() int {
	n := dictCellsOf(2 + ifSet(m.ToolCallID) + ifSet(m.Name) + ifSet(m.ReasoningContent) + min(len(m.ToolCalls), 1))
	if len(m.Parts) > 0 {
		n += chatCells(m.Parts, asPart[P])
	}
	if len(m.ToolCalls) > 0 {
		n += chatCells(m.ToolCalls, asCall[C])
	}
	return n
}

func (p contentPart) cells() int {
	n := dictCellsOf(1 + ifSet(p.Text) + ifSet(p.ImageURL))
	if p.ImageURL != "" {
		n += dictCellsOf(1)
	}
	return n
}

func (tc toolCall) cells() int {
	n := dictCellsOf(2+ifSet(tc.ID)) + dictCellsOf(2)
	if tc.Arguments == nil {
		n += dictCellsOf(0)
	}
	return n
}

func (t tool) cells() int {
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

func (m message[P, C]) chatValue(c *converter, depth int) (Value, *convError) {
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
		if content, err = chatList(c, m.Parts, asPart[P], depth+1); err != nil {
			return Value{}, err.at(".content")
		}
	}
	c.push(w.content, content)
	if m.ReasoningContent != "" {
		c.push(w.reasoningContent, strValue(m.ReasoningContent))
	}
	if len(m.ToolCalls) > 0 {
		calls, err := chatList(c, m.ToolCalls, asCall[C], depth+1)
		if err != nil {
			return Value{}, err.at(".tool_calls")
		}
		c.push(w.toolCalls, calls)
	}
	return c.dict(mark), nil
}

func (p contentPart) chatValue(c *converter, _ int) (Value, *convError) {
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

func (tc toolCall) chatValue(c *converter, depth int) (Value, *convError) {
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

func (t tool) chatValue(c *converter, depth int) (Value, *convError) {
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
	if !t.KeysAt(KeyType, KeyFunction) && !t.KeysAre("type", "function") {
		return Value{}, Value{}, Value{}, false
	}
	vals := t.vals()
	fn := vals[1].AsDict()
	if !EqStr(vals[0], "function") || !vals[0].IsDataStr() ||
		!fn.KeysAt(KeyName, KeyDescription, KeyParameters) && !fn.KeysAre("name", "description", "parameters") {
		return Value{}, Value{}, Value{}, false
	}
	f := fn.vals()
	return f[0], f[1], f[2], true
}
