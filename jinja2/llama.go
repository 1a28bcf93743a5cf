package jinja2

import (
	"math"
	"strconv"
	"strings"
)

// llama.cpp's engine: the functions generated code calls in a template's second render
// function (Template.LlamaFunc), which renders as llama.cpp's Jinja engine (common/jinja,
// the llama.cpp of package llamaserver) does where it differs from Jinja2. Each is a
// named variant of the function of the same name without the prefix, and differs from
// it only where llama.cpp does:
//
//   - undefined is lenient: an attribute or item of an undefined value is undefined
//     (LlamaAttr, LlamaItem, LlamaItemStr, LlamaItemInt), where Jinja2 raises
//     UndefinedError;
//   - + and ~ of an undefined value or none with a str give the str, the undefined
//     value or none written as "", and a str joins the string form of another value
//     (llamaString: floats as C's %f, strs in containers unescaped) (LlamaAdd, LlamaSum,
//     LlamaConcat): Jinja2 raises for + and for ~ writes none as "None" and Python's
//     str();
//   - in: anything in an undefined value is false, but an undefined or none operand is
//     otherwise an error (LlamaIn, LlamaNotIn, LlamaInStrs), where Jinja2 compares;
//   - a for loop cannot iterate over a str (LlamaIterable);
//   - an attribute of a dict can be set as a namespace's (LlamaCheckNamespace,
//     LlamaSetAttr), and a list's append and pop change it (LlamaCallMethod): the
//     render works on its own copy of the input (LlamaOwnInput), as llama.cpp's does;
//   - each type has its own filters and methods, and one it lacks is an error, as is a
//     test llama.cpp lacks (LlamaCallFilter, LlamaCallMethod, LlamaCallTest; see
//     llama_builtins.go);
//   - map, select, reject, selectattr and rejectattr return lists, and the select family
//     reads its arguments as llama.cpp does (llamaFilter);
//   - a macro call binds as many parameters as it has arguments, each to the keyword
//     argument of its name or else the positional argument at its place (undefined if
//     neither), and the others to their defaults (llamaBindMacro; ir.DirectCall's
//     LlamaArgs for the calls bound when the template is compiled);
//   - dict, lipsum, cycler and joiner are no globals (LlamaCallMissingGlobal);
//   - arithmetic and ordering compute with doubles, and many operand types Python
//     accepts are errors (LlamaSub, LlamaMul, LlamaDiv, LlamaMod, LlamaFloorDiv,
//     LlamaPow, LlamaLt, LlamaLe, LlamaGt, LlamaGe; see llama_ops.go);
//   - {{ x }} writes a str as it is, a number or a bool in llama.cpp's string form, the
//     items of a list one after the other, and nothing for anything else (LlamaWrite):
//     Jinja2 writes str(x), "None" for none.

// EngineError is the kind of an error llama.cpp's engine raises where Jinja2 does not
// (a std::runtime_error, which llama-server returns as the request's error).
const EngineError ErrorKind = "llama.cpp"

// isNull reports whether v is none or undefined, which llama.cpp's + and ~ write as ""
// next to a str.
func isNull(v Value) bool { return v.kind() == KindNone || v.kind() == KindUndefined }

// LlamaAttr is Attr with llama.cpp's lenient undefined.
func LlamaAttr(v Value, name string) Value {
	if v.kind() == KindUndefined {
		return Undefined("object_property")
	}
	return v.Attr(name)
}

// LlamaItem is Item with llama.cpp's lenient undefined, and a str indexed by bytes.
func LlamaItem(v, key Value) Value {
	switch {
	case v.kind() == KindUndefined:
		return Undefined("object_property")
	case v.kind() == KindString && key.kind() == KindInt:
		if i, ok := key.AsInt(); ok {
			return llamaStrIndex(v.str(), i)
		}
	}
	return v.Item(key)
}

// LlamaItemStr is ItemStr with llama.cpp's lenient undefined.
func LlamaItemStr(v Value, key string) Value {
	if v.kind() == KindUndefined {
		return Undefined(key)
	}
	return v.ItemStr(key)
}

// LlamaItemInt is ItemInt with llama.cpp's lenient undefined, and a str indexed by bytes.
func LlamaItemInt(v Value, i int64) Value {
	switch v.kind() {
	case KindUndefined:
		return Undefined("object_property")
	case KindString:
		return llamaStrIndex(v.str(), i)
	}
	return v.ItemInt(i)
}

// LlamaAdd is Add as llama.cpp's +: none or undefined next to a str is "", and a str
// and another value join their string forms (llamaString).
func LlamaAdd(a, b Value) Value {
	switch {
	case isNull(a) && b.kind() == KindString:
		return b
	case isNull(b) && a.kind() == KindString:
		return a
	case a.kind() == KindString && b.kind() != KindString && !isNull(b),
		b.kind() == KindString && a.kind() != KindString && !isNull(a):
		return Str(llamaString(a) + llamaString(b))
	}
	return llamaBinary("+", a, b)
}

// LlamaSum is Sum with LlamaAdd's +.
func LlamaSum(xs ...Value) Value {
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = LlamaAdd(acc, x)
	}
	return acc
}

// LlamaConcat is Concat as llama.cpp's ~, left to right: none or undefined next to a
// str is "", and otherwise an error with none or undefined.
func LlamaConcat(items ...Value) Value {
	if len(items) == 0 {
		return Str("")
	}
	first := items[0]
	if len(items) > 1 {
		switch second := items[1]; {
		case isNull(first) && second.kind() == KindString:
			first = Str("")
		case isNull(first) || first.kind() != KindString && isNull(second):
			nullOperand("~", first, second)
		case first.kind() != KindString && second.kind() != KindString:
			throw(EngineError, "Unknown operator \"~\" between %s and %s", llamaTypeName(first), llamaTypeName(second))
		}
	}
	var b strings.Builder
	b.WriteString(llamaString(first))
	for _, it := range items[1:] {
		if !isNull(it) { // the operand before it is a str by now
			b.WriteString(llamaString(it))
		}
	}
	return Str(b.String())
}

// llamaString is llama.cpp's string form of v (as_string): a str as it is, numbers and
// bools as LlamaWrite writes them, none as None, lists, tuples and dicts as Python
// writes them but with their strs quoted by llamaRepr.
func llamaString(v Value) string {
	switch v.kind() {
	case KindString:
		return v.str()
	case KindFloat:
		return llamaFloatString(v.float())
	case KindUndefined:
		return ""
	case KindList, KindTuple:
		var b strings.Builder
		open, end := "[", "]"
		if v.kind() == KindTuple {
			open, end = "(", ")"
		}
		b.WriteString(open)
		items := v.list().items()
		for i, it := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(llamaRepr(it))
		}
		if v.kind() == KindTuple && len(items) == 1 {
			b.WriteString(",")
		}
		b.WriteString(end)
		return b.String()
	case KindDict:
		var b strings.Builder
		b.WriteString("{")
		d := v.dict()
		for i, k := range d.keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(llamaRepr(k))
			b.WriteString(": ")
			b.WriteString(llamaRepr(d.at(i)))
		}
		b.WriteString("}")
		return b.String()
	}
	return v.String()
}

// llamaRepr is how llama.cpp writes a value inside the string form of a list or dict: a
// str in single quotes, unescaped, or as JSON when it has a single quote; other values
// in their string form.
func llamaRepr(v Value) string {
	if v.kind() == KindUndefined {
		return llamaUndefinedType(v)
	}
	if v.kind() != KindString {
		return llamaString(v)
	}
	if s := v.str(); !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	return string(appendJSONString(nil, v.str(), false))
}

// llamaUndefinedType is how llama.cpp writes an undefined value inside a list or dict:
// its type, "Undefined (hint: 'x')", whose hint is the name looked up: a variable's, an
// attribute's or a dict key's, or object_property for an index out of range or anything
// looked up in an undefined value.
func llamaUndefinedType(v Value) string {
	hint := v.str()
	switch v.hint() {
	case hintElement:
		hint = "object_property"
	case hintMessage:
		hint = ""
	}
	if hint == "" {
		return "Undefined"
	}
	return "Undefined (hint: '" + hint + "')"
}

// nullOperand raises llama.cpp's error for a binary operator with an undefined or none
// operand it does not take.
func nullOperand(op string, a, b Value) {
	if a.kind() == KindUndefined || b.kind() == KindUndefined {
		throw(EngineError, "Cannot perform operation %s on undefined values", op)
	}
	throw(EngineError, "Cannot perform operation on null values")
}

// LlamaIn is In as llama.cpp's in: false for an undefined container, an error for
// another undefined or none operand.
func LlamaIn(item, container Value) bool {
	if container.kind() == KindUndefined {
		return false
	}
	if isNull(item) || container.kind() == KindNone {
		nullOperand("in", item, container)
	}
	return In(item, container)
}

// LlamaNotIn is NotIn as llama.cpp's not in (see LlamaIn).
func LlamaNotIn(item, container Value) bool {
	if container.kind() == KindUndefined {
		return true
	}
	return !LlamaIn(item, container)
}

// LlamaInStrs is InStrs as llama.cpp's in: an undefined or none item is an error.
func LlamaInStrs(item Value, strs ...string) bool {
	if isNull(item) {
		nullOperand("in", item, pointerValue(KindList, nil))
	}
	return InStrs(item, strs...)
}

// LlamaIterable is what a for loop iterates, as llama.cpp's for loop takes it: v itself,
// unless it is a str, which llama.cpp cannot iterate over.
func LlamaIterable(v Value) Value {
	if v.kind() == KindString {
		throw(EngineError, "Expected iterable or object type in for loop: got String")
	}
	return v
}

// LlamaWrite writes v as llama.cpp's output writes the value of {{ v }}: a str, a number
// or a bool in its string form, the items of a list or tuple, nothing for other values.
func LlamaWrite(w *Writer, v Value) {
	switch v.kind() {
	case KindString:
		w.WriteString(v.str())
	case KindBool, KindInt:
		w.WriteString(v.String())
	case KindFloat:
		w.WriteString(llamaFloatString(v.float()))
	case KindList, KindTuple:
		for _, it := range v.list().items() {
			LlamaWrite(w, it)
		}
	}
}

// llamaFloatString is llama.cpp's string form of a float: C's %f (six decimals) without
// its trailing zeros, but one.
func llamaFloatString(f float64) string {
	if math.IsNaN(f) {
		if math.Signbit(f) {
			return "-nan" // C's %f writes the sign of a NaN
		}
		return "nan"
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

// LlamaOwnInput returns a copy of in whose variables are copies of in's (CopyJSON), for
// a render that changes them: llama.cpp renders its own copy of the request's values.
func LlamaOwnInput(in *Input) *Input {
	own := *in
	if in.Vars != nil {
		own.Vars = CopyJSON(DictValue(in.Vars)).AsDict()
		return &own
	}
	own.Messages, own.Tools, own.Documents = CopyJSON(in.Messages), CopyJSON(in.Tools), CopyJSON(in.Documents)
	if in.Kwargs != nil {
		own.Kwargs = make(map[string]Value, len(in.Kwargs))
		for k, v := range in.Kwargs {
			own.Kwargs[k] = CopyJSON(v)
		}
	}
	return &own
}

// LlamaCheckNamespace is CheckNamespace as llama.cpp's {% set x.attr %} checks x: a
// namespace or a dict.
func LlamaCheckNamespace(ns Value) {
	if ns.kind() != KindNamespace && ns.kind() != KindDict {
		throw(EngineError, "Cannot assign to member of non-object")
	}
}

// LlamaSetAttr is SetAttr as llama.cpp's {% set x.attr = v %}: on a dict it sets the
// item.
func LlamaSetAttr(ns Value, name string, v Value) {
	LlamaCheckNamespace(ns)
	if ns.kind() == KindDict {
		ns.dict().SetStr(name, v)
		return
	}
	SetAttr(ns, name, v)
}

// llamaListMethod is llama.cpp's list methods that change the list: append(x), which
// returns the list, and pop([i]).
func llamaListMethod(recv Value, name string, args []Value, kwargs []Kwarg) Value {
	if recv.kind() != KindList || len(kwargs) > 0 {
		return CallMethod(recv, name, args, kwargs)
	}
	l := recv.list()
	switch {
	case name == "append" && len(args) == 1:
		checkSize(len(l.items()) + 1)
		l.append(args[0])
		return recv
	case name == "pop" && len(args) <= 1:
		i := int64(-1)
		if len(args) == 1 {
			n, ok := args[0].AsInt()
			if args[0].kind() != KindInt || !ok {
				throw(EngineError, "pop: the index must be an integer")
			}
			i = n
		}
		if i < 0 {
			i += int64(len(l.items()))
		}
		if i < 0 || i >= int64(len(l.items())) {
			throw(EngineError, "Index %d out of bounds for array of size %d", i, len(l.items()))
		}
		items := l.items()
		v := items[i]
		l.setItems(append(items[:i:i], items[i+1:]...))
		return v
	}
	return CallMethod(recv, name, args, kwargs)
}

// llamaTests are the tests of llama.cpp's engine (sameas, escaped and filter it declares
// but does not implement).
var llamaTests = map[string]bool{}

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
func llamaFilter(name string, v Value, args []Value, kwargs []Kwarg) Value {
	switch {
	case llamaCoerced[name]:
		if v.kind() != KindString && v.kind() != KindUndefined {
			v = Str(llamaString(v))
		}
		return CallFilter(name, v, args, kwargs)
	case name == "format":
		return llamaFormat(v, args)
	case name == "safe":
		if v.kind() == KindString {
			return Str(v.str()) // a plain str: llama.cpp has no Markup
		}
		return CallFilter("tojson", v, nil, nil)
	}
	// map and the select family
	switch {
	case isNull(v):
		return NewList()
	case v.kind() != KindList:
	case name == "map" && len(args) > 0:
		throw(EngineError, "map: filter-mapping not implemented")
	case name != "map":
		return llamaSelect(v, name, args, kwargs)
	}
	r := CallFilter(name, v, args, kwargs)
	if r.kind() == KindIterator {
		return FilterList(r)
	}
	return r
}

// llamaSelect is llama.cpp's select/selectattr/reject/rejectattr (one implementation):
// with one argument it keeps the dicts whose item of that name is true, with two the
// items passing test args[0] against args[1], with three the dicts whose item args[0]
// passes test args[1] against args[2].
func llamaSelect(list Value, name string, args []Value, kwargs []Kwarg) Value {
	reject := strings.HasPrefix(name, "reject")
	if len(kwargs) > 0 || len(args) < 1 || len(args) > 3 {
		throw(EngineError, "%s: expected 1 to 3 arguments", name)
	}
	if args[0].kind() != KindString {
		throw(EngineError, "%s: the first argument must be a string", name)
	}
	var test string
	if len(args) >= 2 {
		t := args[len(args)-2]
		test = t.str()
		if t.kind() != KindString || !llamaTests[test] {
			throw(EngineError, "selectattr: unknown test '%s'", test)
		}
	}
	var out []Value
	for _, it := range list.list().items() {
		var keep bool
		switch len(args) {
		case 1, 3:
			if it.kind() != KindDict {
				throw(EngineError, "selectattr: item is not an object")
			}
			attr, _ := it.dict().Get(args[0])
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
	return ListOf(out)
}

// llamaFormat is llama.cpp's format filter: each {} of the str v is the string form of
// the next argument; % is text like any other, and any other { an error.
func llamaFormat(v Value, args []Value) Value {
	if v.kind() != KindString {
		throw(EngineError, "format() first argument must be a string")
	}
	var b strings.Builder
	s, next := v.str(), 0
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) || s[i+1] != '}' {
			throw(EngineError, "format() only supports simple '{}' placeholders")
		}
		i++
		if next < len(args) {
			b.WriteString(llamaString(args[next]))
		}
		next++
	}
	return Str(b.String())
}

// llamaBindMacro binds a macro call's arguments as llama.cpp's engine does: the first
// len(args)+len(kwargs) parameters take the keyword argument of their name, else the
// positional argument at their place, else are undefined; the others are Missing (their
// defaults). The special caller, varargs and kwargs follow as the macro's body expects
// them: the caller keyword argument (or undefined), no extra arguments.
func llamaBindMacro(spec *MacroSpec, args []Value, kwargs []Kwarg) []Value {
	given := len(args) + len(kwargs)
	bound := make([]Value, 0, len(spec.Params)+3)
	for i, name := range spec.Params {
		v := Missing()
		if i < given {
			switch k := kwargIndex(kwargs, name); {
			case k >= 0:
				v = kwargs[k].Value
			case i < len(args):
				v = args[i]
			default:
				v = Undefined(name)
			}
		}
		bound = append(bound, v)
	}
	if spec.Caller {
		caller := undefinedMessage("No caller defined")
		if k := kwargIndex(kwargs, "caller"); k >= 0 {
			caller = kwargs[k].Value
		}
		bound = append(bound, caller)
	}
	if spec.Kwargs {
		bound = append(bound, DictValue(NewDict(0)))
	}
	if spec.Varargs {
		bound = append(bound, NewTuple())
	}
	return bound
}

// LlamaLacksGlobal reports whether name is a global function of Jinja2 that llama.cpp's
// engine does not have.
func LlamaLacksGlobal(name string) bool {
	switch name {
	case "dict", "lipsum", "cycler", "joiner":
		return true
	}
	return false
}

// LlamaCallMissingGlobal is a call of a global llama.cpp lacks (LlamaLacksGlobal): an
// input variable of that name, if there is one, else llama.cpp's error.
func LlamaCallMissingGlobal(in *Input, name string, args []Value, kwargs []Kwarg) Value {
	if v, ok := in.hides(name); ok {
		return Call(v, args, kwargs)
	}
	throw(EngineError, "Callee is not a function: got Undefined (hint: '%s')", name)
	return Value{}
}
