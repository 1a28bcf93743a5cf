package llamaserver

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// llama-server turns a request's JSON schemas (response_format or json_schema, and the
// parameters of its tools) into a grammar before it answers, and refuses the request
// when it cannot: the schemas' errors are what this file finds (grammar.go says which
// schemas each handler's grammar holds). It follows common/json-schema-to-grammar.cpp's
// common_schema_converter (b10587) where it records an error or nlohmann::json throws:
// resolve_refs (a $ref that is not "#/..." nor https://, or whose path is not in the
// schema), then visit from the root (a schema whose type is no primitive of the
// grammar, a format or $ref that is not a string, a bound that is not a number). The
// grammar itself is not built; a string's pattern is scanned for what makes it invalid
// (pattern.go).

// schemaError returns the error llama-server's conversion of schema into a grammar
// throws, or "" when it converts it.
func schemaError(schema jinja2.Value) string {
	c := newSchemaConverter()
	defer c.release()
	return c.convert([]jinja2.Value{schema}, []jinja2.Value{schema})
}

// convert returns the error llama-server's build of a grammar throws (build_grammar), or
// "" when it builds it: resolve_refs runs on each schema of resolve, each against
// itself, then the grammar visits each schema of visit, in order, with the refs all of
// them resolved.
func (c *schemaConverter) convert(resolve, visit []jinja2.Value) string {
	if msg := c.run(resolve, visit); msg != "" {
		return msg
	}
	if len(c.errors) > 0 {
		return "JSON schema conversion failed:\n" + strings.Join(c.errors, "\n")
	}
	return ""
}

// converterPool recycles the state of conversions, so that checking the schemas of a
// request allocates nothing once it is warm.
var converterPool = sync.Pool{New: func() any {
	return &schemaConverter{refs: map[string]jinja2.Value{}, done: map[string]bool{}, resolving: map[string]bool{}}
}}

// maxPooledWork is the most work a conversion kept in converterPool did: the maps of a
// larger one are left to the garbage collector.
const maxPooledWork = 1 << 12

// newSchemaConverter returns the state of a new conversion, which release recycles.
func newSchemaConverter() *schemaConverter { return converterPool.Get().(*schemaConverter) }

// release empties c, which references the request no more, and puts it back in
// converterPool.
func (c *schemaConverter) release() {
	if c.work > maxPooledWork || len(c.resolveList)+len(c.visitList) > maxPooledWork {
		return
	}
	clear(c.refs)
	clear(c.done)
	clear(c.resolving)
	clear(c.resolveList)
	clear(c.visitList)
	*c = schemaConverter{refs: c.refs, done: c.done, resolving: c.resolving, resolveList: c.resolveList[:0], visitList: c.visitList[:0]}
	converterPool.Put(c)
}

// schemaConverter is the state of one conversion.
type schemaConverter struct {
	root   jinja2.Value // the schema resolve_refs runs on
	errors []string
	// resolveList and visitList are the schemas of a request's grammar (grammarSchemas)
	resolveList, visitList []jinja2.Value
	// refs are the targets of the refs resolve_refs resolved (_refs); done the names of
	// the refs whose target's visit made a rule (_rules); resolving the refs being
	// visited (_refs_being_resolved)
	refs      map[string]jinja2.Value
	done      map[string]bool
	resolving map[string]bool
	// work counts the schemas visited, which maxSchemaWork bounds
	work int
	// size is the length of the errors' text, which maxSchemaErrors bounds
	size int
}

// maxSchemaErrors bounds the text of a conversion's errors: a schema that fails at
// many places (each failing schema is shown whole) is answered with the errors that fit.
const maxSchemaErrors = 1 << 20

// addError records the error msg gives, while the errors' text is within
// maxSchemaErrors.
func (c *schemaConverter) addError(msg func() string) {
	if c.size >= maxSchemaErrors {
		return
	}
	m := msg()
	c.size += len(m)
	c.errors = append(c.errors, m)
}

// maxSchemaWork bounds the schemas a conversion visits (a ref's target is visited
// again at each ref while it fails), so that a hostile schema costs no more than this;
// a conversion that reaches it stops with the errors it found.
const maxSchemaWork = 1 << 22

// maxRefChain bounds a chain of refs an allOf's component follows (one that ends in
// itself is followed forever by llama.cpp, which then crashes).
const maxRefChain = 1000

// nlohmannTypeError is the exception nlohmann::json throws when a value has another
// type than the one asked for.
type nlohmannTypeError string

// run resolves the refs of each schema of resolve and visits each of visit, and returns
// the message of an exception thrown on the way, or "".
func (c *schemaConverter) run(resolve, visit []jinja2.Value) string {
	return catchTypeError(func() {
		for _, s := range resolve {
			c.root = s
			c.visitRefs(s)
		}
		c.visitAll(visit)
	})
}

// catchTypeError runs f and returns the message of the nlohmann type error it throws,
// or "".
func catchTypeError(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(nlohmannTypeError)
			if !ok {
				panic(r)
			}
			msg = string(e)
		}
	}()
	f()
	return ""
}

// mustStr is v.get<std::string>(): v's text, or the type error.
func mustStr(v jinja2.Value) string {
	if v.Kind() != jinja2.KindString {
		panic(nlohmannTypeError("[json.exception.type_error.302] type must be string, but is " + nlohmannType(v)))
	}
	return str(v)
}

// mustNumber is v.get<int64_t>() and the like: a number or a boolean, or the type error.
func mustNumber(v jinja2.Value) {
	switch v.Kind() {
	case jinja2.KindInt, jinja2.KindFloat, jinja2.KindBool:
		return
	}
	panic(nlohmannTypeError("[json.exception.type_error.302] type must be number, but is " + nlohmannType(v)))
}

// member is schema.contains(key) and schema[key]: false for a schema that is no object.
func member(schema jinja2.Value, key string) (jinja2.Value, bool) {
	if schema.Kind() != jinja2.KindDict {
		return jinja2.Value{}, false
	}
	return schema.AsDict().GetStr(key)
}

// elements is what a C++ range-for over v visits, and the values items() gives (the
// schemas of an object's properties): an array's items, an object's values, nothing of
// null, a primitive itself.
func elements(v jinja2.Value) []jinja2.Value {
	switch v.Kind() {
	case jinja2.KindList, jinja2.KindTuple:
		return v.Items()
	case jinja2.KindDict:
		return v.AsDict().Values()
	case jinja2.KindNone, jinja2.KindUndefined:
		return nil
	}
	return []jinja2.Value{v}
}

// visitRefs is resolve_refs's visit_refs: every $ref of n resolved against the root.
func (c *schemaConverter) visitRefs(n jinja2.Value) {
	if c.work++; c.work > maxSchemaWork {
		return
	}
	switch n.Kind() {
	case jinja2.KindList, jinja2.KindTuple:
		for _, x := range n.Items() {
			c.visitRefs(x)
		}
	case jinja2.KindDict:
		r, ok := n.AsDict().GetStr("$ref")
		if !ok {
			for _, x := range n.AsDict().Values() {
				c.visitRefs(x)
			}
			return
		}
		ref := mustStr(r)
		if _, known := c.refs[ref]; known {
			return
		}
		var target jinja2.Value
		switch {
		case strings.HasPrefix(ref, "https://"):
			// llama-server fetches nothing: the document is null
			base := ref
			if i := strings.IndexByte(ref, '#'); i >= 0 {
				base = ref[:i]
			}
			if t, ok := c.refs[base]; ok {
				target = t
			} else {
				target = jinja2.None()
				c.refs[base] = target
			}
			if i := strings.IndexByte(ref, '#'); i < 0 || i == len(ref)-1 {
				return
			}
		case strings.HasPrefix(ref, "#/"):
			target = c.root
		default:
			c.addError(func() string { return "Unsupported ref: " + ref })
			return
		}
		tokens := strings.Split(ref[strings.IndexByte(ref, '#')+1:], "/")
		for _, sel := range tokens[1:] {
			if t, ok := member(target, sel); ok {
				target = t
				continue
			}
			if k := target.Kind(); k == jinja2.KindList || k == jinja2.KindTuple {
				if i, ok := stoull(sel); ok && i < uint64(len(target.Items())) {
					target = target.Items()[i]
					continue
				}
			}
			c.addError(func() string {
				return "Error resolving ref " + ref + ": " + sel + " not in " + jinja2.CompactJSON(target)
			})
			return
		}
		c.refs[ref] = target
	}
}

// stoull is C's std::stoull of s as an index: leading spaces, an optional sign, then
// digits; false when no digit starts it or it overflows.
func stoull(s string) (uint64, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	u, err := strconv.ParseUint(s[:n], 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		u = -u // stoull wraps a negative number around
	}
	return u, true
}

// primitiveTypes are the types of PRIMITIVE_RULES, the schemas of one type that visit
// accepts.
var primitiveTypes = map[string]bool{
	"boolean": true, "decimal-part": true, "integral-part": true, "number": true, "integer": true,
	"value": true, "object": true, "array": true, "uuid": true, "char": true, "string": true, "null": true,
}

// reNonAlnum is _resolve_ref's nonalphanumeric_regex.
var reNonAlnum = regexp.MustCompile(`[^a-zA-Z0-9-]+`)

// The keys visit looks up, as the bits of schemaKeys.
const (
	keyType uint32 = 1 << iota
	keyFormat
	keyRef
	keyOneOf
	keyAnyOf
	keyConst
	keyEnum
	keyProperties
	keyAdditionalProperties
	keyAllOf
	keyItems
	keyPrefixItems
	keyMinItems
	keyPattern
	keyMinLength
	keyMaxLength
)

// schemaKeys returns the bits of the keys of schema that visit looks up.
func schemaKeys(schema jinja2.Value) uint32 {
	if schema.Kind() != jinja2.KindDict {
		return 0
	}
	var bits uint32
	for _, k := range schema.AsDict().Keys() {
		if k.Kind() != jinja2.KindString {
			continue
		}
		switch str(k) {
		case "type":
			bits |= keyType
		case "format":
			bits |= keyFormat
		case "$ref":
			bits |= keyRef
		case "oneOf":
			bits |= keyOneOf
		case "anyOf":
			bits |= keyAnyOf
		case "const":
			bits |= keyConst
		case "enum":
			bits |= keyEnum
		case "properties":
			bits |= keyProperties
		case "additionalProperties":
			bits |= keyAdditionalProperties
		case "allOf":
			bits |= keyAllOf
		case "items":
			bits |= keyItems
		case "prefixItems":
			bits |= keyPrefixItems
		case "minItems":
			bits |= keyMinItems
		case "pattern":
			bits |= keyPattern
		case "minLength":
			bits |= keyMinLength
		case "maxLength":
			bits |= keyMaxLength
		}
	}
	return bits
}

// visit is common_schema_converter::visit, as far as it records errors. It reports
// whether it made a rule for the schema (the unrecognized schema alone makes none).
func (c *schemaConverter) visit(schema jinja2.Value) bool {
	if c.work++; c.work > maxSchemaWork {
		return true
	}
	// the keys the schema has, found in one pass: most lookups are of keys it lacks
	present := schemaKeys(schema)
	get := func(key uint32, name string) (jinja2.Value, bool) {
		if present&key == 0 {
			return jinja2.Value{}, false
		}
		return member(schema, name)
	}
	typ, _ := get(keyType, "type")
	isNull := typ.Kind() == jinja2.KindNone || typ.Kind() == jinja2.KindUndefined
	is := func(name string) bool { return typ.Kind() == jinja2.KindString && str(typ) == name }
	format := ""
	if f, ok := get(keyFormat, "format"); ok {
		format = mustStr(f)
	}
	if r, ok := get(keyRef, "$ref"); ok {
		c.resolveRef(mustStr(r))
		return true
	}
	alts, ok := get(keyOneOf, "oneOf")
	if !ok {
		alts, ok = get(keyAnyOf, "anyOf")
	}
	if ok {
		c.visitAll(elements(alts))
		return true
	}
	if k := typ.Kind(); k == jinja2.KindList || k == jinja2.KindTuple {
		for _, t := range typ.Items() {
			d := schema.AsDict().Copy()
			d.SetStr("type", t)
			c.visit(jinja2.DictValue(d))
		}
		return true
	}
	if _, ok := get(keyConst, "const"); ok {
		return true
	}
	if _, ok := get(keyEnum, "enum"); ok {
		return true
	}
	props, hasProps := get(keyProperties, "properties")
	additional, hasAdditional := get(keyAdditionalProperties, "additionalProperties")
	if (isNull || is("object")) && (hasProps || hasAdditional && !isTrue(additional)) {
		c.visitObject(elements(props), additional)
		return true
	}
	if all, ok := get(keyAllOf, "allOf"); ok && (isNull || is("object") || is("string")) {
		var collected []jinja2.Value
		var add func(comp jinja2.Value, depth int)
		add = func(comp jinja2.Value, depth int) {
			if c.work++; c.work > maxSchemaWork || depth > maxRefChain {
				return // llama.cpp recurses until its stack overflows
			}
			if r, ok := member(comp, "$ref"); ok {
				add(c.refs[mustStr(r)], depth+1)
			} else if p, ok := member(comp, "properties"); ok {
				collected = append(collected, elements(p)...)
			}
		}
		for _, t := range elements(all) {
			if alts, ok := member(t, "anyOf"); ok {
				for _, tt := range elements(alts) {
					add(tt, 0)
				}
			} else {
				add(t, 0)
			}
		}
		c.visitObject(collected, jinja2.Value{})
		return true
	}
	if isNull || is("array") {
		items, ok := get(keyItems, "items")
		if !ok {
			items, ok = get(keyPrefixItems, "prefixItems")
		}
		if ok {
			if k := items.Kind(); k == jinja2.KindList || k == jinja2.KindTuple {
				c.visitAll(items.Items())
				return true
			}
			c.visit(items)
			if v, ok := get(keyMinItems, "minItems"); ok {
				mustNumber(v)
			}
			return true
		}
	}
	if p, ok := get(keyPattern, "pattern"); ok && (isNull || is("string")) {
		pattern := mustStr(p)
		if why := patternError(pattern); why != "" {
			c.addError(func() string { return "Invalid pattern " + pattern + ": " + why })
			return false
		}
		return true
	}
	if isNull || is("string") {
		switch format {
		case "uuid", "uuid1", "uuid2", "uuid3", "uuid4", "uuid5", "date", "time", "date-time":
			return true
		}
	}
	if is("string") {
		minLen, hasMin := get(keyMinLength, "minLength")
		maxLen, hasMax := get(keyMaxLength, "maxLength")
		if hasMin || hasMax {
			if hasMin {
				mustNumber(minLen)
			}
			if hasMax {
				mustNumber(maxLen)
			}
			return true
		}
	}
	if is("integer") {
		bound := false
		for _, pair := range [2][2]string{{"minimum", "exclusiveMinimum"}, {"maximum", "exclusiveMaximum"}} {
			if v, ok := member(schema, pair[0]); ok {
				mustNumber(v)
				bound = true
			} else if v, ok := member(schema, pair[1]); ok {
				mustNumber(v)
				bound = true
			}
		}
		if bound {
			return true
		}
	}
	if isEmptyJSON(schema) || schema.Kind() == jinja2.KindNone || is("object") {
		return true
	}
	if isNull && schema.Kind() == jinja2.KindDict {
		return true
	}
	if typ.Kind() != jinja2.KindString || !primitiveTypes[str(typ)] {
		c.addError(func() string { return "Unrecognized schema: " + jinja2.CompactJSON(schema) })
		return false
	}
	return true
}

// visitAll visits each of schemas.
func (c *schemaConverter) visitAll(schemas []jinja2.Value) {
	for _, s := range schemas {
		c.visit(s)
	}
}

// visitObject is _build_object_rule: each property's schema, then additionalProperties
// when it is a schema.
func (c *schemaConverter) visitObject(props []jinja2.Value, additional jinja2.Value) {
	c.visitAll(props)
	if additional.Kind() == jinja2.KindDict {
		c.visit(additional)
	}
}

// isTrue is a JSON value's == true.
func isTrue(v jinja2.Value) bool {
	b, ok := v.AsBool()
	return ok && b
}

// resolveRef is _resolve_ref: the target of ref is visited unless a visit of it made
// its rule already or is under way (a failed visit makes none, so the next ref visits
// it again).
func (c *schemaConverter) resolveRef(ref string) {
	fragment := ref
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		fragment = ref[i+1:]
	}
	name := "ref" + reNonAlnum.ReplaceAllString(fragment, "-")
	if c.done[name] || c.resolving[ref] {
		return
	}
	c.resolving[ref] = true
	target, ok := c.refs[ref]
	if !ok {
		target = jinja2.None() // _refs[ref] inserts null
		c.refs[ref] = target
	}
	if c.visit(target) {
		c.done[name] = true
	}
	delete(c.resolving, ref)
}
