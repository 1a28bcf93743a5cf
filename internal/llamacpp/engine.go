package llamacpp

import (
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/pystr"
)

// EngineError is the kind of an error llama.cpp's engine raises where Jinja2 does not
// (a std::runtime_error, which llama-server returns as the request's error).
const EngineError jinja2.ErrorKind = "llama.cpp"

// isNull reports whether v is none or undefined, which llama.cpp's + and ~ write as ""
// next to a str.
func isNull(v jinja2.Value) bool {
	return v.Kind() == jinja2.KindNone || v.Kind() == jinja2.KindUndefined
}

// Attr is jinja2.Attr with llama.cpp's members (member).
func Attr(v jinja2.Value, name string) jinja2.Value {
	if m, ok := member(v, name); ok {
		return m
	}
	return v.Attr(name)
}

// ItemAttr is jinja2.ItemAttr with llama.cpp's members (member).
func ItemAttr(v jinja2.Value, name string) jinja2.Value {
	if d := v.AsDict(); d != nil && !IsDictBuiltin(name) {
		// member's answer for a dict (objectItem's), at once: a message's field
		if x, ok := d.GetStr(name); ok && x.Kind() != jinja2.KindUndefined {
			return x
		}
		return jinja2.Undefined(name)
	}
	if m, ok := member(v, name); ok {
		return m
	}
	return jinja2.ItemAttr(v, name)
}

// ItemAttrKey is ItemAttr(v, k.String()), found at once in a dict (jinja2.Key).
func ItemAttrKey(v jinja2.Value, k jinja2.Key) jinja2.Value {
	if x, ok := v.RecordedKey(k); ok && x.Kind() != jinja2.KindUndefined {
		return x
	}
	if d := v.AsDict(); d != nil {
		// no Key is a dict's builtin (TestKeysAreNoBuiltins)
		if x, ok := d.GetKey(k); ok && x.Kind() != jinja2.KindUndefined {
			return x
		}
		return jinja2.Undefined(k.String())
	}
	return ItemAttr(v, k.String())
}

// member is v.name where llama.cpp's engine differs from Jinja2's (ok false elsewhere):
// the members of a number or an undefined value are its builtins, as functions (not
// real, imag, numerator...; another name of an undefined value is undefined), a loop
// has no depth and its previtem and nextitem at either end are undefined by their
// names, a function no member at all (an error), and a dict's or namespace's
// builtin comes before its key of the same name.
func member(v jinja2.Value, name string) (jinja2.Value, bool) {
	switch v.Kind() {
	case jinja2.KindInt, jinja2.KindFloat, jinja2.KindBool, jinja2.KindUndefined:
		if builtinNames[name].of&kindBit(v) != 0 {
			return builtinMember(v, name), true
		}
		if v.Kind() == jinja2.KindUndefined {
			return jinja2.Undefined("object_property"), true
		}
		return jinja2.Undefined(name), true
	case jinja2.KindLoop:
		if name == "depth" || name == "depth0" {
			return jinja2.Undefined(name), true
		}
		if name == "previtem" || name == "nextitem" {
			// llama.cpp's is undefined with the name as its hint at either end
			if x := jinja2.ItemAttr(v, name); x.Kind() != jinja2.KindUndefined {
				return x, true
			}
			return jinja2.Undefined(name), true
		}
	case jinja2.KindCallable:
		noMembers(v)
	case jinja2.KindDict, jinja2.KindNamespace:
		// a builtin before a key of the same name (d.items is the builtin, d['items'] the
		// key), and no method of Jinja2's (d.update is the key update)
		if IsDictBuiltin(name) {
			return builtinMember(v, name), true
		}
		return objectItem(v, name), true
	}
	return jinja2.Value{}, false
}

// objectItem is the item key of a dict or namespace as llama.cpp's member_expression
// takes it once no builtin came first: its value, any key, _a too (no sandbox); for a
// key it lacks or holds undefined, the builtin of that name, else undefined named after
// the key (not after the lookup that made a value held undefined).
func objectItem(v jinja2.Value, key string) jinja2.Value {
	if x, ok := object(v).GetStr(key); ok && x.Kind() != jinja2.KindUndefined {
		return x
	}
	if IsDictBuiltin(key) {
		return builtinMember(v, key)
	}
	return jinja2.Undefined(key)
}

// IsDictBuiltin reports whether name is a builtin of a dict (llamaBuiltins["dict"]), which
// member asks at each dot of the llama.cpp render function: a switch, which compares no
// more than a few bytes, where the map hashes the name.
func IsDictBuiltin(name string) bool {
	switch name {
	case "get", "keys", "values", "items", "tojson", "string", "length", "dictsort", "join":
		return true
	}
	return false
}

// builtinMember is the builtin name of v as a value: a function that calls it.
func builtinMember(v jinja2.Value, name string) jinja2.Value {
	return jinja2.BuiltinFunc(name, func(args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
		return CallMethod(v, name, args, kwargs)
	})
}

// Item is jinja2.Item as llama.cpp's subscript (member_expression) takes it: an
// undefined key gives undefined, a key that is not hashable (llamaHashable) is refused,
// then an undefined value gives undefined, a list or str takes an int (a str by bytes)
// or the name of a builtin, a dict any immutable key (objectKey), and a value of another
// type only the name of a builtin.
func Item(v, key jinja2.Value) jinja2.Value {
	if key.Kind() == jinja2.KindUndefined {
		return jinja2.Undefined("object_property")
	}
	if k := key.Kind(); k != jinja2.KindString && k != jinja2.KindInt && !llamaHashable(key) { // (the keys templates use, without a call)
		jinja2.Throw(EngineError, "Type: %s is not allowed as object key", llamaTypeName(key))
	}
	if v.Kind() == jinja2.KindUndefined {
		return jinja2.Undefined("object_property")
	}
	if k := v.Kind(); key.Kind() == jinja2.KindString && (k == jinja2.KindDict || k == jinja2.KindNamespace) {
		return objectItem(v, key.Text())
	}
	switch v.Kind() {
	case jinja2.KindDict:
		objectKey(key)
	case jinja2.KindString, jinja2.KindList, jinja2.KindTuple:
		switch key.Kind() {
		case jinja2.KindInt:
			if i, ok := key.AsInt(); ok && v.Kind() == jinja2.KindString {
				return llamaStrIndex(v.Text(), i)
			}
		case jinja2.KindString:
		default:
			jinja2.Throw(EngineError, "Cannot access property with non-string/non-number: got %s", llamaTypeName(key))
		}
	default:
		if key.Kind() != jinja2.KindString {
			jinja2.Throw(EngineError, "Cannot access property with non-string: got %s", llamaTypeName(key))
		}
		noMembers(v)
	}
	return v.Item(key)
}

// llamaHashable is llama.cpp's is_hashable: a str, number, bool or none, or a list,
// tuple, dict or namespace whose items (a dict's values) are all immutable and hashable.
func llamaHashable(v jinja2.Value) bool {
	switch v.Kind() {
	case jinja2.KindString, jinja2.KindInt, jinja2.KindFloat, jinja2.KindBool, jinja2.KindNone:
		return true
	case jinja2.KindList, jinja2.KindTuple:
		return !slices.ContainsFunc(v.Items(), func(it jinja2.Value) bool { return !llamaImmutable(it) || !llamaHashable(it) })
	case jinja2.KindDict, jinja2.KindNamespace:
		return !slices.ContainsFunc(object(v).Values(), func(it jinja2.Value) bool { return !llamaImmutable(it) || !llamaHashable(it) })
	}
	return false
}

// llamaImmutable is llama.cpp's is_immutable: anything but a list or an object.
func llamaImmutable(v jinja2.Value) bool {
	k := v.Kind()
	return k != jinja2.KindList && k != jinja2.KindDict && k != jinja2.KindNamespace
}

// objectKey refuses a key llama.cpp's objects do not look up (value_object_t::has_key):
// one that is mutable or not hashable.
func objectKey(key jinja2.Value) {
	if !llamaImmutable(key) || !llamaHashable(key) {
		jinja2.Throw(EngineError, "Object key of unhashable type: %s", llamaGot(key))
	}
}

// Named is v read from the variable name as llama.cpp's engine reads a name
// (identifier::execute_impl): an undefined value is named after the variable, whatever
// lookup made it, which a list or dict holding it writes (Undefined (hint: 'name')).
func Named(v jinja2.Value, name string) jinja2.Value {
	if v.Kind() == jinja2.KindUndefined {
		return jinja2.Undefined(name)
	}
	return v
}

// ItemStr is jinja2.ItemStr with llama.cpp's lenient undefined (anything looked up in
// an undefined value is object_property's, as in Item); a function has no members.
func ItemStr(v jinja2.Value, key string) jinja2.Value {
	switch v.Kind() {
	case jinja2.KindUndefined:
		return jinja2.Undefined("object_property")
	case jinja2.KindCallable:
		noMembers(v)
	case jinja2.KindDict, jinja2.KindNamespace:
		return objectItem(v, key)
	}
	return v.ItemStr(key)
}

// ItemStrKey is ItemStr(v, k.String()), found at once in a dict (jinja2.Key).
func ItemStrKey(v jinja2.Value, k jinja2.Key) jinja2.Value {
	if v.Kind() == jinja2.KindDict {
		return ItemAttrKey(v, k) // objectItem's answer: no Key is a dict's builtin
	}
	return ItemStr(v, k.String())
}

// noMembers fails for a function, which has no member at all in llama.cpp's engine (its
// get_builtins throws): x.list['k'] where x is undefined (whose list is a builtin).
func noMembers(v jinja2.Value) {
	if v.Kind() == jinja2.KindCallable {
		jinja2.Throw(EngineError, "Function has no builtins")
	}
}

// ItemInt is Item with an int key: undefined of an undefined value, a str indexed by
// bytes, and an error for a value that is not a str, list, tuple or dict.
func ItemInt(v jinja2.Value, i int64) jinja2.Value {
	switch v.Kind() {
	case jinja2.KindUndefined:
		return jinja2.Undefined("object_property")
	case jinja2.KindString:
		return llamaStrIndex(v.Text(), i)
	case jinja2.KindList, jinja2.KindTuple, jinja2.KindDict:
		return v.ItemInt(i)
	}
	jinja2.Throw(EngineError, "Cannot access property with non-string: got Integer")
	return jinja2.Value{}
}

// Add is jinja2.Add as llama.cpp's +: none or undefined next to a str is "", and a str
// and another value join their string forms (llamaString).
func Add(a, b jinja2.Value) jinja2.Value {
	if x, y, ok := smallInts(a, b); ok {
		return jinja2.Int(x + y) // exact in a double too
	}
	switch {
	case isNull(a) && b.Kind() == jinja2.KindString:
		return b
	case isNull(b) && a.Kind() == jinja2.KindString:
		return a
	case a.Kind() == jinja2.KindString && b.Kind() != jinja2.KindString && !isNull(b),
		b.Kind() == jinja2.KindString && a.Kind() != jinja2.KindString && !isNull(a):
		return jinja2.Str(llamaString(a) + llamaString(b))
	}
	return llamaBinary("+", a, b)
}

// Sum is jinja2.Sum with Add's +.
func Sum(xs ...jinja2.Value) jinja2.Value {
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = Add(acc, x)
	}
	return acc
}

// Concat is jinja2.Concat as llama.cpp's ~, left to right: none or undefined next to a
// str is "", and otherwise an error with none or undefined.
func Concat(items ...jinja2.Value) jinja2.Value {
	if len(items) == 0 {
		return jinja2.Str("")
	}
	var room [8]jinja2.Value
	parts := room[:0] // on the stack for up to 8: ConcatStrs keeps no reference to them
	for p := range concatParts(items) {
		parts = append(parts, p)
	}
	return jinja2.ConcatStrs(parts...)
}

// WriteConcat is Write(w, Concat(items...)), its parts written in turn rather than
// joined first.
func WriteConcat(w *jinja2.Writer, items ...jinja2.Value) {
	for p := range concatParts(items) {
		w.WriteText(p)
	}
}

// concatParts checks the first two operands of the ~ chain items as llama.cpp does, and
// yields the str each operand adds: none for none or undefined after a str.
func concatParts(items []jinja2.Value) iter.Seq[jinja2.Value] {
	return func(yield func(jinja2.Value) bool) {
		if len(items) == 0 {
			return
		}
		first := items[0]
		if len(items) > 1 {
			switch second := items[1]; {
			case isNull(first) && second.Kind() == jinja2.KindString:
				first = jinja2.Str("")
			case isNull(first) || first.Kind() != jinja2.KindString && isNull(second):
				nullOperand("~", first, second)
			case first.Kind() != jinja2.KindString && second.Kind() != jinja2.KindString:
				jinja2.Throw(EngineError, "Unknown operator \"~\" between %s and %s", llamaTypeName(first), llamaTypeName(second))
			}
		}
		for i, it := range items {
			switch {
			case i == 0:
				it = first
			case isNull(it): // the operand before it is a str by now
				continue
			}
			if it.Kind() != jinja2.KindString {
				it = jinja2.Str(llamaString(it))
			}
			if !yield(it) {
				return
			}
		}
	}
}

// llamaString is llama.cpp's string form of v (as_string): a str as it is, numbers and
// bools as Write writes them, none as None, lists, tuples and dicts as Python
// writes them but with their strs quoted by appendLlamaRepr.
func llamaString(v jinja2.Value) string {
	switch v.Kind() {
	case jinja2.KindList, jinja2.KindTuple, jinja2.KindDict:
		// two allocations for most: the buffer and the string
		return string(appendLlamaString(make([]byte, 0, 256), v))
	}
	return llamaScalarString(v)
}

// llamaScalarString is llamaString of a value that is not a list, tuple or dict.
func llamaScalarString(v jinja2.Value) string {
	switch v.Kind() {
	case jinja2.KindString:
		return v.Text()
	case jinja2.KindFloat:
		return llamaFloatString(floatOf(v))
	case jinja2.KindUndefined:
		return ""
	}
	if isKwArg(v) {
		jinja2.Throw(EngineError, "KwArg is not a string value")
	}
	return v.String()
}

// appendLlamaString appends llamaString(v) to b: a list or dict with all its items in
// the one buffer.
func appendLlamaString(b []byte, v jinja2.Value) []byte {
	switch v.Kind() {
	case jinja2.KindList, jinja2.KindTuple:
		open, end := "[", "]"
		if v.Kind() == jinja2.KindTuple {
			open, end = "(", ")"
		}
		b = append(b, open...)
		items := v.Items()
		for i, it := range items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendLlamaRepr(b, it)
		}
		if v.Kind() == jinja2.KindTuple && len(items) == 1 {
			b = append(b, ',')
		}
		return append(b, end...)
	case jinja2.KindDict:
		b = append(b, '{')
		d := v.AsDict()
		for i, k := range d.Keys() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendLlamaRepr(b, k)
			b = append(b, ": "...)
			b = appendLlamaRepr(b, d.Values()[i])
		}
		return append(b, '}')
	}
	return append(b, llamaScalarString(v)...)
}

// llamaAsString is llama.cpp's as_string where a builtin calls it on an argument
// (format's, tojson's separators): llamaString, but an undefined value has no string
// form ("Undefined (hint: 'x') is not a string value"), where {{ }}, + and ~ write it as
// "".
func llamaAsString(v jinja2.Value) string {
	if v.Kind() == jinja2.KindUndefined {
		jinja2.Throw(EngineError, "%s is not a string value", llamaUndefinedType(v))
	}
	return llamaString(v)
}

// appendLlamaRepr appends how llama.cpp writes a value inside the string form of a
// list or dict: a str in single quotes, unescaped, or as JSON when it has a single
// quote; an undefined value and a KwArg by their types; other values in their string
// form.
func appendLlamaRepr(b []byte, v jinja2.Value) []byte {
	switch {
	case v.Kind() == jinja2.KindUndefined:
		return append(b, llamaUndefinedType(v)...)
	case isKwArg(v):
		return append(b, "KwArg"...) // its type, which has no string form (value_kwarg_t's as_repr)
	case v.Kind() != jinja2.KindString:
		return appendLlamaString(b, v)
	}
	if s := v.Text(); !strings.Contains(s, "'") {
		b = append(b, '\'')
		b = append(b, s...)
		return append(b, '\'')
	}
	return jinja2.AppendJSONString(b, v.Text(), false)
}

// llamaUndefinedType is how llama.cpp writes an undefined value inside a list or dict:
// its type, "Undefined (hint: 'x')", whose hint is the name looked up: a variable's, an
// attribute's or a dict key's, or object_property for an index out of range or anything
// looked up in an undefined value.
func llamaUndefinedType(v jinja2.Value) string {
	hint, element := v.LookupHint()
	if element {
		hint = "object_property"
	}
	if hint == "" {
		return "Undefined"
	}
	return "Undefined (hint: '" + hint + "')"
}

// expectedType raises llama.cpp's error for the function fn (func_args::ensure_val)
// given a value of the type got where it takes a str or int (kind): its message names
// that by the C++ type's typeid, as GCC mangles it.
func expectedType(fn string, kind jinja2.Kind, got string) {
	typ := "value_int_t"
	if kind == jinja2.KindString {
		typ = "value_string_t"
	}
	jinja2.Throw(EngineError, "Function '%s' expected value of type St10shared_ptrIN5jinja%d%sEE, got %s", fn, len(typ), typ, got)
}

// llamaGot is the type of v as llama.cpp's errors name it: an undefined value with the
// hint of its name (llamaUndefinedType).
func llamaGot(v jinja2.Value) string {
	if v.Kind() == jinja2.KindUndefined {
		return llamaUndefinedType(v)
	}
	return llamaTypeName(v)
}

// nullOperand raises llama.cpp's error for a binary operator with an undefined or none
// operand it does not take.
func nullOperand(op string, a, b jinja2.Value) {
	if a.Kind() == jinja2.KindUndefined || b.Kind() == jinja2.KindUndefined {
		jinja2.Throw(EngineError, "Cannot perform operation %s on undefined values", op)
	}
	jinja2.Throw(EngineError, "Cannot perform operation on null values")
}

// NotIn is jinja2.NotIn as llama.cpp's not in (see In).
func NotIn(item, container jinja2.Value) bool {
	if container.Kind() == jinja2.KindUndefined {
		return true
	}
	return !In(item, container)
}

// InStrs is jinja2.InStrs as llama.cpp's in: an undefined or none item, or a list, is an
// error.
func InStrs(item jinja2.Value, strs ...string) bool {
	if item.Kind() != jinja2.KindString {
		// its errors (null, a list in a list) and its equality of other kinds
		list := make([]jinja2.Value, len(strs))
		for i, s := range strs {
			list[i] = jinja2.Str(s)
		}
		return In(item, jinja2.ListOf(list))
	}
	return jinja2.InStrs(item, strs...)
}

// Param is jinja2.Param as llama.cpp binds a macro's parameter: a required parameter
// the call gives no argument for fails the call (Jinja2 makes it undefined).
func Param(v jinja2.Value, name string) jinja2.Value {
	if v.IsMissing() {
		jinja2.Throw(EngineError, "Not enough arguments provided: no argument for the parameter '%s'", name)
	}
	return v
}

// Spread is jinja2.Spread (the arguments of f(*v)) in llama.cpp, whose parser reads
// *v and whose engine cannot run it: the call fails.
func Spread(args []jinja2.Value, v jinja2.Value) []jinja2.Value {
	refuse("cannot exec SpreadExpression")
	return nil
}

// refuse fails the render with llama.cpp's error msg.
func refuse(msg string) { jinja2.Throw(EngineError, "%s", msg) }

// notImplemented fails the render with llama.cpp's not_implemented_exception, whose
// message starts "NotImplemented: ".
func notImplemented(format string, args ...any) {
	jinja2.Throw(EngineError, "NotImplemented: "+format, args...)
}

// LoopCycle is loop.cycle(args...) in llama.cpp, whose loop has no cycle: the call
// fails, as calling an undefined value does.
func LoopCycle(args ...jinja2.Value) jinja2.Value {
	refuse("Callee is not a function: got Undefined (hint: 'cycle')")
	return jinja2.Value{}
}

// Pairs is what a for loop of several names iterates in llama.cpp: a dict's items as
// (key, value) tuples, where Jinja2 unpacks each of its keys; v itself otherwise.
func Pairs(v jinja2.Value) jinja2.Value {
	if v.Kind() != jinja2.KindDict {
		return v
	}
	return items(v)
}

// items is d.items() of a dict d.
func items(d jinja2.Value) jinja2.Value { return jinja2.CallMethod(d, "items", nil, nil) }

// Iterable is what a for loop iterates, as llama.cpp's for loop takes it: v itself,
// when it is an array or an object (or undefined, no items); a str or any other value
// is an error.
func Iterable(v jinja2.Value) jinja2.Value {
	if v.Kind() != jinja2.KindList { // (a list, the commonest, without a call)
		checkIterable(v)
	}
	return v
}

// checkIterable fails a value that is neither an array nor an object (Iterable).
func checkIterable(v jinja2.Value) {
	switch v.Kind() {
	case jinja2.KindList, jinja2.KindTuple, jinja2.KindDict, jinja2.KindNamespace, jinja2.KindUndefined, jinja2.KindIterator:
		return
	}
	jinja2.Throw(EngineError, "Expected iterable or object type in for loop: got %s", llamaTypeName(v))
}

// WriteFilterBlock is jinja2.WriteFilterBlock in llama.cpp, which writes what a
// {% filter %} block gives as {{ }} writes a value (Write).
func WriteFilterBlock(w *jinja2.Writer, v jinja2.Value) { Write(w, v) }

// Write writes v as llama.cpp's output writes the value of {{ v }}: a str, a number
// or a bool in its string form, the items of a list or tuple, nothing for other values.
func Write(w *jinja2.Writer, v jinja2.Value) {
	switch v.Kind() {
	case jinja2.KindString:
		w.WriteText(v)
	case jinja2.KindBool, jinja2.KindInt:
		w.WriteData(v.String())
	case jinja2.KindFloat:
		w.WriteData(llamaFloatString(floatOf(v)))
	case jinja2.KindList, jinja2.KindTuple:
		for _, it := range v.Items() {
			Write(w, it)
		}
	}
}

// cNaN is a NaN as C's printf writes it (and C++'s ostream, through it): with its sign,
// which the NaN of 0/0 on x86 has.
func cNaN(f float64) string {
	if math.Signbit(f) {
		return "-nan"
	}
	return "nan"
}

// llamaFloatString is llama.cpp's string form of a float: C's %f (six decimals) without
// its trailing zeros, but one.
func llamaFloatString(f float64) string {
	if math.IsNaN(f) {
		return cNaN(f)
	}
	s := strconv.FormatFloat(f, 'f', 6, 64)
	if math.IsInf(f, 0) {
		return strings.ToLower(strings.TrimPrefix(s, "+"))
	}
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	return s
}

// OwnVariables gives the render of w copies of its variables (CopyJSON), for a render
// that changes them: llama.cpp renders its own copy of the request's values.
func OwnVariables(w *jinja2.Writer) {
	w.SetVariables(&ownVariables{vars: w.Variables(), copies: map[string]jinja2.Value{}})
}

// ownVariables are a render's variables, each copied the first time it is read.
type ownVariables struct {
	vars   jinja2.Variables
	copies map[string]jinja2.Value
}

func (o *ownVariables) Lookup(name string) jinja2.Value {
	if v, ok := o.copies[name]; ok {
		return v
	}
	v := jinja2.CopyJSON(o.vars.Lookup(name))
	o.copies[name] = v
	return v
}

// CheckNamespace is jinja2.CheckNamespace as llama.cpp's {% set x.attr %} checks x: a
// namespace or a dict.
func CheckNamespace(ns jinja2.Value) {
	if ns.Kind() != jinja2.KindNamespace && ns.Kind() != jinja2.KindDict {
		jinja2.Throw(EngineError, "Cannot assign to member of non-object")
	}
}

// SetAttr is jinja2.SetAttr as llama.cpp's {% set x.attr = v %}: on a dict it sets the
// item.
func SetAttr(ns jinja2.Value, name string, v jinja2.Value) {
	CheckNamespace(ns)
	if ns.Kind() == jinja2.KindDict {
		ns.AsDict().SetStr(name, v)
		return
	}
	jinja2.SetAttr(ns, name, v)
}

// llamaListMethod is llama.cpp's list methods that change the list: append(x), which
// returns the list, and pop([i]).
func llamaListMethod(recv jinja2.Value, name string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if recv.Kind() != jinja2.KindList || len(kwargs) > 0 {
		return jinja2.CallMethod(recv, name, args, kwargs)
	}
	items := recv.Items()
	switch {
	case name == "append" && len(args) == 1:
		recv.AppendItem(args[0])
		return recv
	case name == "pop" && len(args) <= 1:
		i := int64(-1)
		if len(args) == 1 {
			n, ok := args[0].AsInt()
			if args[0].Kind() != jinja2.KindInt || !ok {
				jinja2.Throw(EngineError, "pop: the index must be an integer")
			}
			i = n
		}
		i = llamaIndex(i, len(items))
		v := items[i]
		recv.DeleteItem(int(i))
		return v
	}
	return jinja2.CallMethod(recv, name, args, kwargs)
}

// SameTests are the tests llama.cpp's engine runs as Jinja2 does when they take no
// argument (CallTest leaves them to jinja2.CallTest): the llama.cpp render function
// calls Jinja2's function for them (direct.go), with no dispatch by name.
var SameTests = map[string]bool{
	"boolean": true, "false": true, "true": true, "string": true, "integer": true, "float": true,
	"none": true, "defined": true, "undefined": true,
}

// llamaTests are the tests of llama.cpp's engine (sameas, escaped and filter it declares
// but does not implement).
var llamaTests = map[string]bool{}

// declaredTests are the tests llama.cpp's engine declares and raises for when they run
// (not_implemented_exception).
var declaredTests = map[string]bool{"sameas": true, "escaped": true, "filter": true}

func init() {
	for _, t := range strings.Fields(`boolean callable odd even false true divisibleby string integer float
		number iterable sequence mapping lower upper none defined undefined eq equalto ge gt
		greaterthan lt lessthan ne in test`) {
		llamaTests[t] = true
	}
}

// llamaCoerced are the filters llama.cpp applies to the string form of a value that is
// neither a str nor undefined.
var llamaCoerced = map[string]bool{
	"capitalize": true, "lower": true, "replace": true, "strip": true, "trim": true,
	"title": true, "upper": true, "wordcount": true,
}

// hasLlamaFilter reports whether llamaFilter implements the filter name otherwise than
// CallFilter does.
func hasLlamaFilter(name string) bool {
	switch name {
	case "map", "select", "reject", "selectattr", "rejectattr", "format", "safe":
		return true
	}
	return llamaCoerced[name]
}

// llamaFilter is CallFilter for the filters llama.cpp implements otherwise: map, select,
// reject, selectattr and rejectattr return lists (empty for none or undefined), map
// takes no filter name, and the select family reads its arguments as llamaSelect does;
// format substitutes {} placeholders (llamaFormat); safe makes no Markup (and writes
// other values as JSON); and the filters of llamaCoerced take the string form of a value
// that is not a str.
func llamaFilter(name string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	switch {
	case llamaCoerced[name]:
		if v.Kind() != jinja2.KindString && v.Kind() != jinja2.KindUndefined {
			v = jinja2.Str(llamaString(v))
		}
		return jinja2.CallFilter(name, v, args, kwargs)
	case name == "format":
		return llamaFormat(v, args, kwargs)
	case name == "safe":
		if v.Kind() == jinja2.KindString {
			return jinja2.Str(v.Text()) // a plain str: llama.cpp has no Markup
		}
		return jinja2.CallFilter("tojson", v, nil, nil)
	}
	// map and the select family
	switch {
	case isNull(v):
		return jinja2.NewList()
	case name == "map" && (v.Kind() == jinja2.KindList || v.Kind() == jinja2.KindTuple):
		return llamaMap(v, args, kwargs)
	case v.Kind() != jinja2.KindList:
	case name != "map":
		return llamaSelect(v, name, args, kwargs)
	}
	r := jinja2.CallFilter(name, v, args, kwargs)
	if r.Kind() == jinja2.KindIterator {
		return jinja2.FilterList(r)
	}
	return r
}

// llamaMap is llama.cpp's map(attribute=, default=) of a list or tuple: each item's
// attribute, a key of a dict item or an index of a list item (no dotted path), or the
// default when the item has none; its first argument must be a keyword one (no filter
// name; the attribute is read by its name or from that place), and other keyword
// arguments are not read.
func llamaMap(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	switch {
	case argCount(args, kwargs) == 0:
		jinja2.Throw(EngineError, "Function 'map' expected at least 2 arguments, got 1")
	case len(args) > 0 && !isKwArg(args[0]):
		notImplemented("map: filter-mapping not implemented")
	}
	attr, _ := kwargOrPos(args, kwargs, "attribute", 0)
	if attr.Kind() != jinja2.KindString && attr.Kind() != jinja2.KindInt {
		jinja2.Throw(EngineError, "map: attribute must be string or integer")
	}
	def, _ := kwarg(args, kwargs, "default")
	items := v.Items()
	out := make([]jinja2.Value, len(items))
	for i, it := range items {
		out[i] = def
		switch {
		case attr.Kind() == jinja2.KindInt && (it.Kind() == jinja2.KindList || it.Kind() == jinja2.KindTuple):
			n, _ := attr.AsInt()
			elems := it.Items()
			if n < 0 {
				n += int64(len(elems))
			}
			if n >= 0 && n < int64(len(elems)) {
				out[i] = elems[n]
			}
		case attr.Kind() == jinja2.KindString && it.Kind() == jinja2.KindDict:
			if x, ok := it.AsDict().Get(attr); ok {
				out[i] = x
			}
		}
	}
	if v.Kind() == jinja2.KindTuple {
		return jinja2.NewTuple(out...)
	}
	return jinja2.ListOf(out)
}

// llamaSelect is llama.cpp's select/selectattr/reject/rejectattr (one implementation):
// with one argument it keeps the dicts whose item of that name is true, with two the
// items passing test args[0] against args[1], with three the dicts whose item args[0]
// passes test args[1] against args[2].
func llamaSelect(list jinja2.Value, name string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	reject := strings.HasPrefix(name, "reject")
	// ensure_count(2, 4), then ensure_vals of the attribute (or test), a str
	if n := 1 + argCount(args, kwargs); n < 2 || n > 4 {
		jinja2.Throw(EngineError, "Function '%s' expected between 2 and 4 arguments, got %d", name, n)
	}
	switch {
	case len(args) == 0:
		expectedType(name, jinja2.KindString, "KwArg")
	case args[0].Kind() != jinja2.KindString:
		expectedType(name, jinja2.KindString, llamaGot(args[0]))
	case len(kwargs) > 0:
		jinja2.Throw(EngineError, "%s: expected 1 to 3 arguments", name)
	}
	var test string
	if len(args) >= 2 {
		t := args[len(args)-2]
		test = t.Text()
		if t.Kind() != jinja2.KindString || !llamaTests[test] && !declaredTests[test] {
			jinja2.Throw(EngineError, "selectattr: unknown test '%s'", test)
		}
	}
	var out []jinja2.Value
	for _, it := range list.Items() {
		var keep bool
		switch len(args) {
		case 1, 3:
			if it.Kind() != jinja2.KindDict {
				jinja2.Throw(EngineError, "selectattr: item is not an object")
			}
			attr, _ := it.AsDict().Get(args[0])
			if len(args) == 1 {
				keep = attr.Truthy()
			} else {
				keep = CallTest(test, attr, args[2:], nil)
			}
		case 2:
			keep = CallTest(test, it, args[1:], nil)
		}
		if keep != reject {
			out = append(out, it)
		}
	}
	return jinja2.ListOf(out)
}

// llamaFormat is llama.cpp's format filter: each {} of the str v is the string form of
// the next argument; % is text like any other, and any other { an error.
func llamaFormat(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if v.Kind() != jinja2.KindString {
		jinja2.Throw(EngineError, "format() first argument must be a string")
	}
	var b strings.Builder
	s := v.Text()
	next, size := 0, len(s)
	for _, a := range args {
		size += len(a.Text()) // the strs' (a str is most arguments): the text, one allocation
	}
	b.Grow(size)
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			j := strings.IndexByte(s[i:], '{')
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(s[i : i+j])
			i += j - 1
			continue
		}
		if i+1 >= len(s) || s[i+1] != '}' {
			jinja2.Throw(EngineError, "format() only supports simple '{}' placeholders")
		}
		i++
		switch n := 1 + argCount(args, kwargs); {
		case next < len(args):
			b.WriteString(llamaAsString(args[next]))
		case next < n-1:
			jinja2.Throw(EngineError, "KwArg is not a string value") // the keyword arguments follow
		default:
			jinja2.Throw(EngineError, "Function 'format' expected at least %d arguments, got %d", next+2, n)
		}
		next++
	}
	return jinja2.Str(b.String())
}

// BindMacro binds a macro call's arguments as llama.cpp's engine does: as many
// parameters as the call has arguments (argCount; a call block's caller not counted) take
// the keyword argument of their name (a KwArg among the positional arguments is one:
// listedKwargs) unless it is undefined, else the positional argument at their place (none
// where a keyword argument is), else are undefined; the others are Missing (their
// defaults). The special caller, varargs and
// kwargs follow as the macro's body expects them: a call block's caller (or undefined:
// a caller= keyword of a plain call is an argument like any other, which binds no
// caller), no extra arguments.
func BindMacro(spec *jinja2.MacroSpec, args []jinja2.Value, kwargs []jinja2.Kwarg) []jinja2.Value {
	kwargs = listedKwargs(args, kwargs)
	// the caller of a call block is no argument to llama.cpp (it sets it in the scope)
	given := argCount(args, kwargs)
	block := jinja2.KwargIndex(kwargs, "caller")
	if block >= 0 && jinja2.IsBlockCaller(kwargs[block].Value) {
		given--
	} else {
		block = -1
	}
	bound := make([]jinja2.Value, 0, len(spec.Params)+3)
	for i, name := range spec.Params {
		v := jinja2.Missing()
		if i < given {
			// get_kwarg_or_pos
			v = jinja2.Undefined(name)
			if k := jinja2.KwargIndex(kwargs, name); k >= 0 && k != block {
				v = kwargs[k].Value
			}
			if v.IsUndefined() && i < len(args) && !isKwArg(args[i]) {
				v = args[i]
			}
		}
		bound = append(bound, v)
	}
	if spec.Caller {
		caller := jinja2.UndefinedMessage("No caller defined")
		if block >= 0 {
			caller = kwargs[block].Value
		}
		bound = append(bound, caller)
	}
	if spec.Kwargs {
		bound = append(bound, jinja2.DictValue(jinja2.NewDict(0)))
	}
	if spec.Varargs {
		bound = append(bound, jinja2.NewTuple())
	}
	return bound
}

// Call is jinja2.Call as llama.cpp's engine calls a value (call_expression): a
// function, else "Callee is not a function" and the value's type (an undefined value's
// with its hint; a loop is an object, with no call).
func Call(fn jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if fn.Kind() != jinja2.KindCallable {
		notCallable(fn)
	}
	return jinja2.Call(fn, args, kwargs)
}

// notCallable fails the call of fn, which is no function.
func notCallable(fn jinja2.Value) {
	jinja2.Throw(EngineError, "Callee is not a function: got %s", llamaGot(fn))
}

// CallIn is jinja2.Call through the value of a variable (a macro assigned to another
// name, a call block's call, a macro reading caller, varargs or kwargs...) as
// llama.cpp's engine runs a macro: in a copy of the scope it is called from. scope are
// the values there of the names the template's macros read from outside
// (ir.MacroCalls.LlamaScope), which a macro's body takes after its arguments
// (ScopeValue).
func CallIn(fn jinja2.Value, scope []jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if fn.Kind() != jinja2.KindCallable {
		notCallable(fn)
	}
	return jinja2.CallWithScope(fn, scope, args, kwargs)
}

// ScopeValue is, in the body of a macro value, the value its caller's scope gives a
// name the macro reads from outside: slot i of its arguments, which CallIn gives, or
// def, the value where the macro is defined, for a call that gives none (a filter
// calling the macro, say).
func ScopeValue(args []jinja2.Value, i int, def jinja2.Value) jinja2.Value {
	if i < len(args) {
		return args[i]
	}
	return def
}

// LacksGlobal reports whether name is a global function of Jinja2 that llama.cpp's
// engine does not have.
func LacksGlobal(name string) bool {
	switch name {
	case "dict", "lipsum", "cycler", "joiner":
		return true
	}
	return false
}

// CallMissingGlobal is a call of a global llama.cpp lacks (LacksGlobal): an
// input variable of that name, if there is one, else llama.cpp's error.
func CallMissingGlobal(w *jinja2.Writer, name string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if v := w.Lookup(name); v.Kind() != jinja2.KindUndefined {
		return jinja2.Call(v, args, kwargs)
	}
	jinja2.Throw(EngineError, "Callee is not a function: got Undefined (hint: '%s')", name)
	return jinja2.Value{}
}

// WriteStr is jinja2.WriteStr as llama.cpp joins an operand of + or ~ that follows a
// str: a str as it is, none or undefined as nothing, another value in its string form.
func WriteStr(w *jinja2.Writer, v jinja2.Value) {
	switch {
	case v.Kind() == jinja2.KindString:
		w.WriteText(v)
	case !isNull(v):
		w.WriteData(llamaString(v))
	}
}

// InKey is jinja2.InKey as llama.cpp's engine runs 'key' in container: its in.
func InKey(k jinja2.Key, container jinja2.Value) bool {
	return In(jinja2.Lit(k.String()), container)
}

// SplitItem is jinja2.SplitItem as llama.cpp's engine runs recv.split(sep)[i]: its
// split, then its subscript.
func SplitItem(recv, sep jinja2.Value, i int64) jinja2.Value {
	return ItemInt(MethodSplitSep(recv, sep), i)
}

// AppendStr is WriteStr in a run of writes (see jinja2.Writer.Buffer).
func AppendStr(w *jinja2.Writer, out []byte, v jinja2.Value) []byte {
	if v.Kind() == jinja2.KindString && !w.Tracked() {
		return w.AppendString(out, v.Text())
	}
	w.SetBuffer(out)
	WriteStr(w, v)
	return w.Buffer()
}

// Append is Write in a run of writes (see jinja2.Writer.Buffer).
func Append(w *jinja2.Writer, out []byte, v jinja2.Value) []byte {
	if v.Kind() == jinja2.KindString && !w.Tracked() {
		return w.AppendString(out, v.Text())
	}
	w.SetBuffer(out)
	Write(w, v)
	return w.Buffer()
}

// WriteAdd is jinja2.WriteAdd as llama.cpp's {{ a + b + ... }}: Write of the Sum.
func WriteAdd(w *jinja2.Writer, operands ...jinja2.Value) {
	for _, v := range operands {
		if v.Kind() != jinja2.KindString || v.IsMarkup() {
			Write(w, Sum(operands...))
			return
		}
	}
	// strs add up to their concatenation: write each
	for _, v := range operands {
		w.WriteText(v)
	}
}

// WriteJSON is jinja2.WriteJSON as llama.cpp writes v|tojson(...): the str its own JSON
// writer gives (FilterTojson), appended to the output.
func WriteJSON(w *jinja2.Writer, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) {
	if k := v.Kind(); argCount(args, kwargs) == 0 && (k == jinja2.KindList || k == jinja2.KindDict) {
		// what the builtin gives a list or a dict (llamaToJSON), written straight into the
		// output
		w.AppendData(func(b []byte) []byte { return appendLlamaJSON(b, v, 0, -1, ", ", ": ") })
		return
	}
	builtin, id, input := filterBuiltin("tojson", v, argCount(args, kwargs))
	o := jsonOptionsOf(builtinArgs(builtin, id, input, args, kwargs))
	w.AppendData(func(b []byte) []byte { return o.append(b, input) })
}

// SetBlockFilterError is llama.cpp's error for a set block with a filter, which its
// parser reads as part of the block's target ({% set x | upper %}: the target x | upper).
const SetBlockFilterError = "Invalid LHS inside assignment expression: FilterExpression"

// NewNamespace is jinja2.NewNamespace as llama.cpp's namespace(): keyword arguments
// only, where Jinja2 takes a mapping too.
func NewNamespace(w *jinja2.Writer, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if len(args) > 0 {
		jinja2.Throw(EngineError, "namespace() arguments must be kwargs")
	}
	return jinja2.NewNamespace(w, args, kwargs)
}

// Range is llama.cpp's range(): a list of ints (no range object: it concatenates with +
// and prints as a list) with no bound of its own on its size; llama.cpp builds it in a
// loop, so its items are charged to the render's loop iterations (Limits.MaxIterations)
// where Jinja2's sandbox refuses more than 100,000. Its first argument is an int, the
// others numbers (a float truncated). A render variable named range is called instead.
func Range(w *jinja2.Writer, args ...jinja2.Value) jinja2.Value {
	if v := w.Lookup("range"); v.Kind() != jinja2.KindUndefined {
		return jinja2.Call(v, args, nil)
	}
	if len(args) < 1 || len(args) > 3 {
		jinja2.Throw(EngineError, "Function 'range' expected between 1 and 3 arguments, got %d", len(args))
	}
	if args[0].Kind() != jinja2.KindInt {
		expectedType("range", jinja2.KindInt, llamaGot(args[0]))
	}
	start, stop, step := int64(0), asInt(args[0]), int64(1)
	if len(args) >= 2 {
		start, stop = stop, asInt(args[1])
	}
	if len(args) == 3 {
		step = asInt(args[2])
	}
	if step == 0 {
		jinja2.Throw(EngineError, "range() step argument must not be zero")
	}
	var span, stride uint64 // in uint64: stop-start may not fit an int64
	if step > 0 && start < stop {
		span, stride = uint64(stop-start), uint64(step)
	} else if step < 0 && start > stop {
		span, stride = uint64(start-stop), uint64(-step)
	}
	var n uint64 // the number of items, span/stride rounded up
	if stride > 0 {
		n = span / stride
		if span%stride != 0 {
			n++
		}
	}
	items := make([]jinja2.Value, w.Count(int(min(n, math.MaxInt32))))
	for i := range items {
		items[i] = jinja2.Int(start + int64(i)*step)
	}
	return jinja2.NewList(items...)
}

// StrftimeNow is jinja2.StrftimeNow as llama.cpp's strftime_now(format): C's strftime
// of the clock (GlibcStrftime: no %f, the clock's zone for %z and %Z) into a buffer of
// 100 bytes, an empty or longer result an error; arguments after the first are ignored,
// and a keyword argument is no str.
func StrftimeNow(w *jinja2.Writer, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	switch {
	case argCount(args, kwargs) == 0:
		jinja2.Throw(EngineError, "Function 'strftime_now' expected at least 1 arguments, got 0")
	case len(args) == 0:
		expectedType("strftime_now", jinja2.KindString, "KwArg")
	case args[0].Kind() != jinja2.KindString:
		expectedType("strftime_now", jinja2.KindString, llamaGot(args[0]))
	}
	s := pystr.GlibcStrftime(w.Clock(), args[0].Text())
	if s == "" || len(s) >= 100 {
		jinja2.Throw(EngineError, "strftime_now: failed to format time")
	}
	return jinja2.Str(s)
}

// Unpack is jinja2.Unpack as llama.cpp assigns a value to several names: the value must
// be a list or tuple of as many items (a str or a dict is no array to it).
func Unpack(v jinja2.Value, n int) []jinja2.Value {
	if v.Kind() != jinja2.KindList && v.Kind() != jinja2.KindTuple {
		jinja2.Throw(EngineError, "Cannot unpack non-iterable type: %s", llamaGot(v))
	}
	return unpackItems(v, n, "")
}

// UnpackSet is Unpack in a set statement, whose errors say so ("in set").
func UnpackSet(v jinja2.Value, n int) []jinja2.Value {
	if v.Kind() != jinja2.KindList && v.Kind() != jinja2.KindTuple {
		jinja2.Throw(EngineError, "Cannot unpack non-iterable type in set: %s", llamaGot(v))
	}
	return unpackItems(v, n, " in set")
}

// unpackItems returns the n items of the list or tuple v, failing with where after its
// message when it has another number.
func unpackItems(v jinja2.Value, n int, where string) []jinja2.Value {
	items := v.Items()
	switch {
	case len(items) < n:
		jinja2.Throw(EngineError, "Too few items to unpack%s", where)
	case len(items) > n:
		jinja2.Throw(EngineError, "Too many items to unpack%s", where)
	}
	return items
}
