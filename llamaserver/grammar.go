package llamaserver

import (
	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// The grammar llama-server builds for a request, once the prompt is rendered
// (common_chat_templates_apply): each handler's parser holds the request's JSON schema of
// the answer and, for a request with tools whose tool_choice asks for calls, the
// schemas of the tools' parameters, which build_grammar turns into grammar rules
// (schema.go). A schema it cannot turn into a rule fails the request. Which schemas a
// grammar holds depends on how the handler's tool calls write their arguments:
//   - as one JSON object (most handlers, and the generic one when its analysis finds
//     JSON arguments): the tool's parameters schema, once per tool (twice for gpt-oss,
//     whose parser has the call in two channels);
//   - each in a tag of its own (qwen3_coder, minimax_m3, deepseek_v3_2, minicpm5,
//     muse_glimmer, and the generic handler when its analysis finds tagged arguments):
//     the schema of each argument that does not resolve to a string
//     (common_schema_info::resolves_to_string), a string being taken as raw text;
//   - the handlers of Gemma 4, Kimi K3 and LFM2 resolve the parameters' refs, and add no
//     schema of them.
// The generic handler builds a grammar for tool_choice auto only when a marker starts
// its tool calls (Capabilities.ToolTrigger); every handler builds one for required. A
// request with a JSON schema of the answer too gets a grammar of one, the other, both or
// neither (bothSchemas), and the refs of every tool resolved.

// toolSchemas is how a handler's grammar holds a tool's parameters.
type toolSchemas int

const (
	noToolSchemas  toolSchemas = iota // no grammar of tool calls
	toolRefsOnly                      // the parameters' refs resolved, no schema added
	toolParameters                    // the parameters schema
	toolArguments                     // each argument's schema that is not a string's
)

// toolSchemasOf returns how the grammar of t's handler holds a tool's parameters, and
// how many times it adds them.
func toolSchemasOf(c *tmplgen.Template) (toolSchemas, int) {
	switch c.Caps.Handler {
	case "generic":
		switch c.Caps.ToolArguments {
		case "json":
			return toolParameters, 1
		case "tagged":
			return toolArguments, 1
		}
		return noToolSchemas, 0
	case "gpt_oss":
		return toolParameters, 2
	case "qwen3_coder", "minimax_m3", "deepseek_v3_2", "minicpm5", "muse_glimmer":
		return toolArguments, 1
	case "gemma4", "kimi_k3", "lfm2", "lfm2_5":
		return toolRefsOnly, 1
	}
	return toolParameters, 1
}

// readsResponseSchema reports whether t's handler puts the JSON schema of the answer in
// its grammar: the handlers of functionary v3.2, GigaChat 3, Kimi K2 and K3 and Muse
// Glimmer never read it.
func readsResponseSchema(t *tmplgen.Template) bool {
	switch t.Caps.Handler {
	case "functionary_v3_2", "gigachat_v3", "kimi_k2", "kimi_k3", "muse_glimmer":
		return false
	}
	return true
}

// grammarRefusal is llama-server's refusal of a request whose grammar it cannot build:
// tools (as parseLlamaTools gives them) and toolChoice are the request's, schema its
// JSON schema of the answer (undefined when there is none; an empty object gives no
// grammar). The generic handler (the differential autoparser) wraps the error in its
// own. Nil when the grammar builds.
func grammarRefusal(t *tmplgen.Template, tools jinja2.Value, toolChoice string, schema jinja2.Value) error {
	if (tools.Kind() != jinja2.KindList || len(tools.Items()) == 0) && (schema.Kind() != jinja2.KindDict || schema.AsDict().Len() == 0) {
		return nil // no grammar
	}
	c := newSchemaConverter()
	defer c.release()
	// the handler's parser, built first, decides which argument is a string
	msg := catchTypeError(func() { c.grammarSchemas(t, tools, toolChoice, schema) })
	if msg == "" && len(c.resolveList) > 0 {
		msg = c.convert(c.resolveList, c.visitList)
	}
	if msg == "" {
		return nil
	}
	if t.Caps.Handler == "generic" {
		msg = "Unable to generate parser for this template. Automatic parser generation failed: " + msg
	}
	return llamaError(t, "%s", msg)
}

// grammarSchemas sets c.resolveList and c.visitList to the schemas of the grammar of a
// request (see grammarRefusal): those whose refs build_grammar resolves, and those it
// adds, in order.
func (c *schemaConverter) grammarSchemas(t *tmplgen.Template, tools jinja2.Value, toolChoice string, schema jinja2.Value) {
	resolve, visit := c.resolveList[:0], c.visitList[:0]
	defer func() { c.resolveList, c.visitList = resolve, visit }()
	hasTools := tools.Kind() == jinja2.KindList && len(tools.Items()) > 0 && toolChoice != "none"
	hasSchema := schema.Kind() == jinja2.KindDict && schema.AsDict().Len() > 0
	how, times := toolSchemasOf(t)
	if t.Caps.Handler == "generic" && toolChoice == "auto" && !t.Caps.ToolTrigger {
		how = noToolSchemas
	}
	withTools, withSchema := hasTools && how != noToolSchemas, hasSchema && readsResponseSchema(t)
	if t.Caps.Handler == "deepseek_v3_2" && toolChoice == "none" && tools.Kind() == jinja2.KindList && len(tools.Items()) > 0 {
		withSchema = false // its parser reads the schema of the answer only without tools
	}
	if hasTools && hasSchema {
		withTools, withSchema = bothSchemas(t.Caps.Handler, toolChoice)
		withTools = withTools && how != noToolSchemas
	}
	if hasTools && (how != noToolSchemas || hasSchema) {
		// the refs of every tool's parameters, whether the grammar holds them or not
		for _, tool := range tools.Items() {
			_, _, p, _ := jinja2.FunctionTool(tool)
			resolve = append(resolve, p)
		}
	}
	if withTools {
		for range times {
			for _, p := range resolve {
				switch how {
				case toolParameters:
					visit = append(visit, p)
				case toolArguments:
					visit = appendNonStringArguments(visit, p)
				}
			}
		}
	}
	if hasSchema && (withSchema || len(resolve) > 0) {
		resolve = append(resolve, schema)
	}
	if withSchema {
		visit = append(visit, schema)
	}
}

// bothSchemas returns whether the grammar of a handler holds the tools' schemas and the
// schema of the answer, for a request that has both, with tool_choice auto or required
// (measured with llama-server b10587: each handler's parser takes one or the other, or
// both, or neither).
func bothSchemas(handler, toolChoice string) (tools, answer bool) {
	auto := toolChoice == "auto"
	switch handler {
	case "cohere2moe":
		return true, auto
	case "deepseek_v3_2":
		return auto, !auto
	case "functionary_v3_2", "kimi_k2", "muse_glimmer", "gigachat_v3":
		return true, false
	case "ministral_3", "qwen3_coder":
		return false, !auto
	case "lfm2", "lfm2_5", "kimi_k3":
		return false, false
	}
	return false, true // generic, gemma4, gpt_oss, minicpm5, minimax_m3
}

// appendNonStringArguments appends to schemas those of the arguments of a tool's
// parameters that do not resolve to a string, in order: what a handler that writes each
// argument in a tag of its own adds to its grammar. The refs are resolved as a separate
// common_schema_info resolves them (its errors are not the request's).
func appendNonStringArguments(schemas []jinja2.Value, params jinja2.Value) []jinja2.Value {
	props, ok := member(params, "properties")
	if !ok || props.Kind() != jinja2.KindDict || props.AsDict().Len() == 0 {
		return schemas
	}
	info := newSchemaConverter()
	defer info.release()
	info.root = params
	info.visitRefs(params)
	for _, p := range props.AsDict().Values() {
		clear(info.resolving) // the refs one check followed
		if !resolvesToString(p, info.refs, info.resolving) {
			schemas = append(schemas, p)
		}
	}
	return schemas
}

// stringFormats are the formats resolves_to_string takes for a string's, besides those
// starting with "uuid".
var stringFormats = map[string]bool{
	"date": true, "time": true, "date-time": true, "uri": true, "email": true,
	"hostname": true, "ipv4": true, "ipv6": true,
}

// resolvesToString is common_schema_info::resolves_to_string: whether a schema can be a
// string, following its refs (refs, once each: visited), its alternatives and the
// keywords that imply a string. A $ref or format that is no string throws, as
// nlohmann::json's get does.
func resolvesToString(s jinja2.Value, refs map[string]jinja2.Value, visited map[string]bool) bool {
	if s.Kind() != jinja2.KindDict {
		return false
	}
	if r, ok := member(s, "$ref"); ok {
		ref := mustStr(r)
		if visited[ref] {
			return false // a circular reference
		}
		visited[ref] = true
		target, ok := refs[ref]
		return ok && resolvesToString(target, refs, visited)
	}
	check := func(x jinja2.Value) bool { return resolvesToString(x, refs, visited) }
	if typ, ok := member(s, "type"); ok {
		switch typ.Kind() {
		case jinja2.KindString:
			if str(typ) == "string" {
				return true
			}
		case jinja2.KindList, jinja2.KindTuple:
			for _, t := range typ.Items() {
				if jinja2.EqStr(t, "string") {
					return true
				}
			}
		}
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		if alts, ok := member(s, key); ok {
			for _, alt := range elements(alts) {
				if check(alt) {
					return true
				}
			}
		}
	}
	if all, ok := member(s, "allOf"); ok {
		every := true
		for _, x := range elements(all) {
			if !check(x) {
				every = false
				break
			}
		}
		if every {
			return true
		}
	}
	if c, ok := member(s, "const"); ok && c.Kind() == jinja2.KindString {
		return true
	}
	if e, ok := member(s, "enum"); ok {
		for _, x := range elements(e) {
			if x.Kind() == jinja2.KindString {
				return true
			}
		}
	}
	for _, key := range []string{"pattern", "minLength", "maxLength"} {
		if _, ok := member(s, key); ok {
			return true
		}
	}
	if f, ok := member(s, "format"); ok {
		format := mustStr(f)
		return stringFormats[format] || len(format) >= 4 && format[:4] == "uuid"
	}
	return false
}
