package llamacpp

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// llama.cpp's filters, methods and tests (common/jinja/runtime.cpp filter_expression,
// try_builtin_func, test_expression; value.cpp get_builtins): every type has its own
// builtins, and a filter or method the type lacks is an error, so that a template llama
// renders with |round, |sum of a list or 'x'.zfill() fails under llama-server where
// Jinja2 renders it. The builtins llama.cpp has are run as Jinja2's, except where
// llamaFilter and CallMethod give llama.cpp's own.

// Kind is a value's type in llama.cpp's engine, which decides its builtins: "str",
// "int", "float", "bool", "list" (lists, tuples, iterators), "dict" (dicts and
// namespaces), "none" or "undefined"; "" for values llama.cpp has no type of its own for
// (loops, macros, cyclers), whose builtins are Jinja2's.
func Kind(v jinja2.Value) string {
	if i := typeIndex(v); i >= 0 {
		return typeNames[i]
	}
	return ""
}

// typeNames are the types Kind names, each at its index (typeIndex) and bit (kinds).
var typeNames = [...]string{"undefined", "none", "bool", "int", "float", "str", "list", "dict"}

// typeIndex returns the index in typeNames of v's type, -1 for a value of none.
func typeIndex(v jinja2.Value) int {
	switch v.Kind() {
	case jinja2.KindUndefined:
		return 0
	case jinja2.KindNone:
		return 1
	case jinja2.KindBool:
		return 2
	case jinja2.KindInt:
		return 3
	case jinja2.KindFloat:
		return 4
	case jinja2.KindString:
		return 5
	case jinja2.KindList, jinja2.KindTuple, jinja2.KindIterator:
		return 6
	case jinja2.KindDict, jinja2.KindNamespace:
		return 7
	}
	return -1
}

// llamaBuiltins are the filters and methods of each type in llama.cpp's engine.
var llamaBuiltins = map[string]map[string]bool{
	"int":       wordSet("default abs int float safe string tojson"),
	"float":     wordSet("default abs int float safe string tojson"),
	"bool":      wordSet("default int float safe string tojson"),
	"str":       wordSet("default upper lower strip rstrip lstrip title capitalize length startswith endswith split rsplit replace format int float string slice safe tojson indent join"),
	"list":      wordSet("default list first last length slice selectattr select rejectattr reject join string tojson map append pop sort reverse min max unique"),
	"dict":      wordSet("get keys values items tojson string length dictsort join"),
	"none":      wordSet("default tojson string safe items map reject rejectattr select selectattr unique"),
	"undefined": wordSet("default capitalize first items join last length list lower map max min reject rejectattr replace reverse safe select selectattr sort string strip sum title truncate unique upper wordcount"),
}

// llamaNotImplemented are the builtins of each type that llama.cpp declares but raises
// for, with its message.
var llamaNotImplemented = map[string]map[string]string{
	"str":  {"join": "String join builtin not implemented"},
	"dict": {"join": "object join not implemented"},
	"list": {"unique": "Array unique builtin not implemented"},
}

// valueOnly are the builtins of each type that read nothing but the value they are
// called on: llama.cpp checks that it has that value (ensure_vals) and ignores any other
// argument, where Jinja2's filter or method refuses them.
var valueOnly = map[string]map[string]bool{
	"int":   wordSet("abs int float"),
	"float": wordSet("abs int float"),
	"bool":  wordSet("int float safe string"),
	"none":  wordSet("safe string"),
	"str":   wordSet("upper lower title capitalize length string safe"),
	"list":  wordSet("list first last length reverse string"),
	"dict":  wordSet("keys values items string length"),
}

// filterAlias is the name llama.cpp applies a filter by: the builtin it maps the
// filter name to, or name itself.
func filterAlias(name string) string {
	switch name {
	case "count":
		return "length"
	case "d":
		return "default"
	case "e":
		return "escape"
	case "trim":
		return "strip"
	}
	return name
}

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// kinds is a set of the types of Kind, bit i for typeNames[i]; the empty set stands
// for "", the values with no type of their own.
type kinds uint16

// kindBit is the set of v's Kind alone.
func kindBit(v jinja2.Value) kinds {
	if i := typeIndex(v); i >= 0 {
		return 1 << i
	}
	return 0
}

// A builtinName is what llamaBuiltins, valueOnly and llamaNotImplemented say of one
// name, for every type at once: one lookup where they take two each.
type builtinName struct {
	of, valueOnly, notImplemented kinds
}

// builtinNames are the tables by name (see builtinName).
var builtinNames = func() map[string]builtinName {
	m := map[string]builtinName{}
	addTypes(m, llamaBuiltins, func(b *builtinName) *kinds { return &b.of })
	addTypes(m, valueOnly, func(b *builtinName) *kinds { return &b.valueOnly })
	addTypes(m, llamaNotImplemented, func(b *builtinName) *kinds { return &b.notImplemented })
	return m
}()

// addTypes adds to the set field of m's entry of each name of table (by type, then
// name) the types whose table has it.
func addTypes[V any](m map[string]builtinName, table map[string]map[string]V, field func(*builtinName) *kinds) {
	for i, typ := range typeNames {
		for name := range table[typ] {
			b := m[name]
			*field(&b) |= 1 << i
			m[name] = b
		}
	}
}

// HasBuiltin reports whether llama.cpp's engine has the filter or method name for
// v (always, for a value Kind has no type for).
func HasBuiltin(v jinja2.Value, name string) bool {
	_, ok := lookupBuiltin(v, name)
	return ok
}

// lookupBuiltin returns what builtinNames says of name, and whether llama.cpp's engine
// has the builtin for v (HasBuiltin): a call looks its name up once.
func lookupBuiltin(v jinja2.Value, name string) (builtinName, bool) {
	if isKwArg(v) {
		jinja2.Throw(EngineError, "KwArg has no builtins")
	}
	b, k := builtinNames[name], kindBit(v)
	return b, k == 0 || b.of&k != 0
}

// FilterTarget is the builtin llama.cpp applies for filter name to v, after its
// aliases, and the value it applies it to: the string form of a value that is neither a
// str nor undefined for the filters of llamaCoerced written without arguments (x|upper,
// not x|replace('a', 'b'): its filter_expression coerces a bare name only).
func FilterTarget(name string, v jinja2.Value, nargs int) (string, jinja2.Value) {
	id := filterAlias(name)
	if k := Kind(v); nargs == 0 && k != "" && k != "undefined" && k != "str" && llamaCoerced[id] {
		v = jinja2.Str(llamaString(v))
	}
	return id, v
}

// CallFilter is jinja2.CallFilter as llama.cpp's engine applies a filter: the builtin of
// FilterTarget, an error when the value's type lacks it.
func CallFilter(name string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if name == "length" && v.Kind() == jinja2.KindList && argCount(args, kwargs) == 0 {
		return jinja2.Int(int64(len(v.Items()))) // what the list's builtin, Jinja2's, gives
	}
	b, id, input := filterBuiltin(name, v, argCount(args, kwargs))
	if input.Kind() == jinja2.KindString && StrMethods[id] {
		// llama.cpp's own, as strMethod runs it
		args, kwargs = builtinArgs(b, id, input, args, kwargs)
		if r, ok := llamaStrBuiltin(id, input, args, kwargs); ok {
			return jinja2.FromTemplateCall(r, input, args, kwargs) // as builtin returns it
		}
	}
	// the arguments are copied before they reach code the compiler cannot see through
	// (see CallMethod)
	return builtin(b, id, name, input, slices.Clone(args), slices.Clone(kwargs), false)
}

// filterBuiltin returns the builtin llama.cpp applies for the filter name to v, given
// n arguments (FilterTarget), what builtinNames says of it, and the value it applies it
// to; an error when the value's type lacks it.
func filterBuiltin(name string, v jinja2.Value, n int) (_ builtinName, id string, input jinja2.Value) {
	id, input = FilterTarget(name, v, n)
	b, ok := lookupBuiltin(input, id)
	if !ok {
		jinja2.Throw(EngineError, "Unknown (built-in) filter '%s' for type %s", id, llamaTypeName(input))
	}
	return b, id, input
}

// filterDefault is CallFilter("default", v, args, kwargs), whose arguments stay on the
// caller's stack: llamaDefault, which builtin runs for it, keeps no reference to them
// (CallFilter copies them to the heap: its dispatch does not say what becomes of them).
func filterDefault(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	_, _, input := filterBuiltin("default", v, argCount(args, kwargs))
	return llamaDefault(input, args, kwargs)
}

// CallMethod is jinja2.CallMethod as llama.cpp's engine calls a method: the builtin of that
// name (a list's append and pop change it), a callable item of a dict or attribute of a
// namespace, else an error.
func CallMethod(recv jinja2.Value, name string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if name == "format" && recv.Kind() == jinja2.KindString {
		return llamaFormat(recv, args, kwargs) // its builtin, which keeps no reference to them
	}
	// the arguments are copied before they reach code the compiler cannot see through,
	// so that a call's argument list can live on the caller's stack
	ownArgs, ownKwargs := slices.Clone(args), slices.Clone(kwargs)
	if recv.Kind() == jinja2.KindLoop {
		// llama.cpp's loop has values only: no changed, cycle or other method (not even
		// an object's items, as llama_chat_driver shows)
		jinja2.Throw(EngineError, "Callee is not a function: got Undefined (hint: '%s')", name)
	}
	b, ok := lookupBuiltin(recv, name)
	if !ok {
		if o := object(recv); o != nil {
			if fn, ok := o.GetStr(name); ok {
				if fn.Kind() == jinja2.KindCallable {
					return jinja2.Call(fn, ownArgs, ownKwargs)
				}
				jinja2.Throw(EngineError, "Callee is not a function: got %s", llamaTypeName(fn))
			}
		}
		// member_expression: what a member of an undefined value is undefined as
		hint := name
		if recv.Kind() == jinja2.KindUndefined {
			hint = "object_property"
		}
		jinja2.Throw(EngineError, "Callee is not a function: got Undefined (hint: '%s')", hint)
	}
	return builtin(b, name, name, recv, ownArgs, ownKwargs, true)
}

// PythonStrMethods are the methods of a str that llama.cpp's engine runs as Python
// does when they are given one str: direct.go's functions call Jinja2's then, without
// the dispatch (llamaAffix is the general case).
var PythonStrMethods = map[string]bool{"startswith": true, "endswith": true}

// PythonDictMethods are the methods of a dict that llama.cpp's engine runs as Python
// does when their first argument is a str (the key): direct.go's functions call
// Jinja2's then, without the dispatch, and without its slice of the arguments on the
// heap.
var PythonDictMethods = map[string]bool{"get": true}

// StrMethods are the str methods with arguments that llama.cpp's engine runs as its own
// (llamaStrBuiltin): direct.go's functions call strMethod for a str, whose arguments
// stay on the stack (CallMethod's go to the heap: its dispatch does not say what
// becomes of them).
var StrMethods = map[string]bool{"split": true, "rsplit": true, "replace": true, "strip": true, "lstrip": true, "rstrip": true}

// StackFilters are the filters with arguments that llama.cpp's engine applies through a
// function of their own, filter and the name (filterDefault, filterTojson), whose
// arguments stay on the stack: direct.go's functions call it.
var StackFilters = map[string]bool{"default": true, "tojson": true}

// builtinArgs returns the arguments llama.cpp's builtin id (of which builtinNames says
// b) takes when it runs on v: none for a builtin that reads only its value; an error
// for one v's type does not implement, and for tojson's sort_keys.
func builtinArgs(b builtinName, id string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) ([]jinja2.Value, []jinja2.Kwarg) {
	if bit := kindBit(v); b.notImplemented&bit != 0 {
		notImplemented("%s", llamaNotImplemented[Kind(v)][id])
	} else if b.valueOnly&bit != 0 {
		args, kwargs = nil, nil
	}
	if id == "tojson" {
		for _, kw := range kwargs {
			if kw.Name == "sort_keys" && kw.Value.Truthy() {
				notImplemented("tojson sort_keys=true not implemented")
			}
		}
		if len(args) >= 4 && args[3].Truthy() {
			notImplemented("tojson sort_keys=true not implemented")
		}
	}
	return args, kwargs
}

// filterTojson is CallFilter("tojson", v, args, kwargs), whose arguments stay on the
// caller's stack (see filterDefault).
func filterTojson(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	b, id, input := filterBuiltin("tojson", v, argCount(args, kwargs))
	args, kwargs = builtinArgs(b, id, input, args, kwargs)
	return llamaToJSON(input, args, kwargs)
}

// strMethod is CallMethod of the str method id (one of StrMethods) on the str v with
// the positional arguments args, which it keeps no reference to.
func strMethod(id string, v jinja2.Value, args []jinja2.Value) jinja2.Value {
	if r, ok := llamaStrBuiltin(id, v, args, nil); ok {
		return jinja2.FromTemplateCall(r, v, args, nil) // as builtin returns it
	}
	return CallMethod(v, id, args, nil)
}

// builtin runs llama.cpp's builtin id (of which builtinNames says b) on v, called as a
// method when method is set, else as the filter the template names jinjaName:
// undefined gives empty values (its default aside), none empty lists (but for default,
// tojson, string and safe), lists and dicts keep llama.cpp's methods, and the other
// builtins are Jinja2's filters or methods of the same name, with lists where Jinja2
// gives iterators.
func builtin(b builtinName, id, jinjaName string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg, method bool) jinja2.Value {
	k := Kind(v)
	args, kwargs = builtinArgs(b, id, v, args, kwargs)
	switch {
	case id == "default":
		return llamaDefault(v, args, kwargs)
	case id == "tojson", (id == "string" || id == "safe") && (k == "int" || k == "float"):
		return llamaToJSON(v, args, kwargs)
	case id == "slice" && (k == "list" || k == "str"):
		return llamaSliceBuiltin(v, args, kwargs)
	case id == "abs" && (k == "int" || k == "float") && argCount(args, kwargs) == 0:
		return llamaAbs(v)
	case id == "int" && k == "float":
		f, _ := v.AsFloat()
		return jinja2.Int(cInt64(f))
	case id == "string" && (k == "list" || k == "dict"), (id == "string" || id == "safe") && (k == "bool" || k == "none"):
		return jinja2.Str(llamaString(v)) // its as_string, as + and ~ join it
	case k == "str":
		switch {
		case method && (id == "startswith" || id == "endswith"):
			return llamaAffix(id, v, args, kwargs)
		case method && id == "format":
			return llamaFormat(v, args, kwargs)
		}
		if r, ok := llamaStrBuiltin(id, v, args, kwargs); ok {
			// what it computes from template text alone is template text
			return jinja2.FromTemplateCall(r, v, args, kwargs)
		}
	}
	switch k {
	case "undefined":
		return llamaEmpty(id)
	case "none":
		if id != "string" && id != "safe" {
			return jinja2.NewList()
		}
	case "list":
		switch id {
		case "select", "selectattr", "reject", "rejectattr", "map":
			return llamaFilter(id, v, args, kwargs)
		case "join":
			return llamaJoin(v, args, kwargs)
		case "append", "pop":
			return llamaListMethod(v, id, args, kwargs)
		case "sort":
			return llamaSort(v, args, kwargs)
		case "min", "max":
			return llamaMinMax(id, v, args, kwargs, id == "max")
		}
		if method {
			return llamaList(jinja2.CallFilter(jinjaName, v, args, kwargs))
		}
	case "str":
		if method {
			switch id {
			case "length", "int", "float", "string", "slice", "safe", "tojson", "indent", "default":
				return jinja2.CallFilter(id, v, args, kwargs)
			}
			return jinja2.CallMethod(v, id, args, kwargs)
		}
	case "dict":
		if attrs := v.NamespaceAttrs(); attrs != nil {
			v = jinja2.DictValue(attrs) // a namespace is its attributes' dict
		}
		switch id {
		case "dictsort":
			return llamaDictsort(v, args, kwargs)
		case "items": // the filter and the method: a list of pairs, not a view
			return jinja2.ItemsList(v.AsDict())
		}
		if method {
			switch id {
			case "get":
				if n := 1 + argCount(args, kwargs); n < 2 || n > 3 {
					jinja2.Throw(EngineError, "Function 'get' expected between 2 and 3 arguments, got %d", n)
				}
				if len(args) == 0 || args[0].Kind() != jinja2.KindString {
					jinja2.Throw(EngineError, "get: second argument must be a string (key)")
				}
				return jinja2.CallMethod(v, id, args, kwargs)
			case "keys": // lists, not views
				return jinja2.NewList(v.AsDict().Keys()...)
			case "values":
				return jinja2.NewList(v.AsDict().Values()...)
			}
			return jinja2.CallFilter(id, v, args, kwargs)
		}
	}
	if method {
		return jinja2.CallFilter(id, v, args, kwargs)
	}
	if hasLlamaFilter(jinjaName) {
		return llamaFilter(jinjaName, v, args, kwargs)
	}
	return llamaList(jinja2.CallFilter(jinjaName, v, args, kwargs))
}

// llamaDefault is llama.cpp's default(value, boolean=false): none is a missing value
// too, and the default is required. Its arguments are a list in which a keyword argument
// keeps its place: the default is the second item, which for default(default_value=x)
// is the keyword argument itself, llama.cpp's KwArg (kwArgOf), not x; boolean is read by
// its name, or else from the third item when that is no keyword argument.
func llamaDefault(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if n := 1 + argCount(args, kwargs); n < 2 || n > 3 {
		jinja2.Throw(EngineError, "Function 'default' expected between 2 and 3 arguments, got %d", n)
	}
	boolean, _ := kwargOrPos(args, kwargs, "boolean", 1)
	if boolean.Truthy() && !v.Truthy() || !boolean.Truthy() && isNull(v) {
		if len(args) > 0 && (!isKwArg(args[0]) || isKwArgValue(args[0])) {
			return args[0]
		}
		return kwArgOf(kwargs[0]) // the first in the list: a place's is the first Placed
	}
	return v
}

// kwArgOf is llama.cpp's value of the keyword argument kw where a builtin takes it for a
// positional one (default(default_value=x) gives it): {{ }} writes nothing of it, it is
// defined and of no type a test names, nothing else takes it, and a call given it among
// its positional arguments reads it as the keyword argument kw, at its place
// (listedKwargs).
func kwArgOf(kw jinja2.Kwarg) jinja2.Value { return jinja2.Opaque("KwArg", kw) }

// kwArg holds a Placed keyword argument's place among a call's positional arguments
// (KwArgPlace): a KwArg, its keyword argument the call's (listedKwargs).
var kwArg = jinja2.Opaque("KwArg", nil)

// listedKwargs returns a call's keyword arguments as llama.cpp's one list of arguments
// holds them: a KwArg among the positional arguments that a value gave (default's, with
// its keyword argument) is a keyword argument at its place, Placed, among those whose
// places KwArgPlace holds, in the order of the places. A call with no such value, the
// common one, gets kwargs back.
func listedKwargs(args []jinja2.Value, kwargs []jinja2.Kwarg) []jinja2.Kwarg {
	if !slices.ContainsFunc(args, isKwArgValue) {
		return kwargs
	}
	listed := make([]jinja2.Kwarg, 0, len(kwargs)+len(args))
	next := 0 // the Placed keyword arguments come first, in the order of their places
	for _, a := range args {
		switch kw, ok := a.OpaqueData().(jinja2.Kwarg); {
		case ok:
			kw.Placed = true
			listed = append(listed, kw)
		case isKwArg(a):
			listed = append(listed, kwargs[next])
			next++
		}
	}
	return append(listed, kwargs[next:]...)
}

// isKwArgValue reports whether v is a KwArg a value gave (kwArgOf), not a place
// KwArgPlace holds.
func isKwArgValue(v jinja2.Value) bool {
	_, ok := v.OpaqueData().(jinja2.Kwarg)
	return ok
}

// isKwArg reports whether v is kwArg.
func isKwArg(v jinja2.Value) bool { return v.Kind() == jinja2.KindObject && v.TypeName() == "KwArg" }

// llamaEmpty is what a builtin of undefined returns.
func llamaEmpty(name string) jinja2.Value {
	switch name {
	case "capitalize", "join", "lower", "replace", "safe", "string", "strip", "title", "truncate", "upper":
		return jinja2.Str("")
	case "items", "list", "map", "reject", "rejectattr", "reverse", "select", "selectattr", "sort", "unique":
		return jinja2.NewList()
	case "length", "sum", "wordcount":
		return jinja2.Int(0)
	}
	// first, last, max and min: an undefined value without a hint (a list or dict
	// writes it "Undefined", not "Undefined (hint: 'first')")
	return jinja2.Undefined("")
}

// llamaList turns the one-shot iterators Jinja2's filters return into the lists
// llama.cpp's return.
func llamaList(v jinja2.Value) jinja2.Value {
	if v.Kind() == jinja2.KindIterator {
		return jinja2.FilterList(v)
	}
	return v
}

// CallTest is jinja2.CallTest as llama.cpp's engine runs a test: an error for a test it
// lacks, and anything in an undefined value is false.
func CallTest(name string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) bool {
	switch {
	case declaredTests[name]:
		notImplemented("%s test not implemented", name)
	case !llamaTests[name]:
		jinja2.Throw(EngineError, "Unknown test '%s'", name)
	}
	if name == "in" && len(args) == 1 {
		return testIn(v, args[0])
	}
	if op, ok := compareTests[name]; ok {
		if n := 1 + argCount(args, kwargs); n != 2 {
			jinja2.Throw(EngineError, "Function 'test_is_%s' expected between 2 and 2 arguments, got %d", name, n)
		}
		if len(kwargs) == 1 {
			return false // the argument is a KwArg, of no type value_compare compares
		}
		return compareTest(op, v, args[0])
	}
	if name != "in" && name != "divisibleby" {
		// the others read their value alone (ensure_count(1) allows more): llama.cpp
		// ignores further arguments
		args, kwargs = nil, nil
	}
	// the tests whose llama.cpp semantics differ from Jinja2's: its types (a bool is not
	// a number; a dict is neither iterable nor a sequence, an undefined value is both),
	// and the arguments its tests take (ints for odd, even and divisibleby, strs for lower
	// and upper)
	llamaArg := func(want jinja2.Kind, x jinja2.Value) {
		if x.Kind() != want {
			expectedType("", want, llamaGot(x)) // a test's function has no name
		}
	}
	switch name {
	case "number":
		return v.Kind() == jinja2.KindInt || v.Kind() == jinja2.KindFloat
	case "iterable", "sequence":
		return v.Kind() == jinja2.KindList || v.Kind() == jinja2.KindTuple || v.Kind() == jinja2.KindString || v.Kind() == jinja2.KindUndefined
	case "odd", "even":
		llamaArg(jinja2.KindInt, v)
		return (jinja2.Mod(v, jinja2.Int(2)).Truthy()) == (name == "odd")
	case "divisibleby":
		llamaArg(jinja2.KindInt, v)
		if len(args) == 1 {
			llamaArg(jinja2.KindInt, args[0])
		}
	case "lower", "upper":
		// no ASCII letter of the other case (C's isupper and islower, byte by byte)
		llamaArg(jinja2.KindString, v)
		lo, hi := byte('A'), byte('Z')
		if name == "upper" {
			lo, hi = 'a', 'z'
		}
		s := v.Text()
		return !strings.ContainsFunc(s, func(r rune) bool { return r < 0x80 && lo <= byte(r) && byte(r) <= hi })
	case "callable":
		return v.Kind() == jinja2.KindCallable // functions only (test_type_fn<value_func>)
	case "mapping":
		return v.Kind() == jinja2.KindDict || v.Kind() == jinja2.KindNamespace // objects
	case "test":
		// whether it has a test of that name
		llamaArg(jinja2.KindString, v)
		t := v.Text()
		return llamaTests[t] || t == "sameas" || t == "escaped" || t == "filter"
	}
	return jinja2.CallTest(name, v, args, kwargs)
}

// llamaAbs is llama.cpp's abs of a number, val < 0 ? -val : val: -0.0 stays, and the
// least int64 is its own negation.
func llamaAbs(v jinja2.Value) jinja2.Value {
	if v.Kind() == jinja2.KindFloat {
		if f := floatOf(v); f < 0 {
			return jinja2.Float(-f)
		}
		return v
	}
	if i, ok := v.AsInt(); ok && i < 0 {
		return jinja2.Int(-i)
	}
	return jinja2.CallFilter("abs", v, nil, nil)
}

// llamaAffix is llama.cpp's startswith and endswith of the str v: its first argument
// must be a str, and the others are ignored (no tuple of affixes, no start or end).
func llamaAffix(id string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	switch n := 1 + argCount(args, kwargs); {
	case n < 2:
		jinja2.Throw(EngineError, "Function '%s' expected between 2 and 999 arguments, got %d", id, n)
	case len(args) == 0:
		expectedType(id, jinja2.KindString, "KwArg")
	case args[0].Kind() != jinja2.KindString:
		expectedType(id, jinja2.KindString, llamaGot(args[0]))
	}
	if id == "startswith" {
		return jinja2.Bool(strings.HasPrefix(v.Text(), args[0].Text()))
	}
	return jinja2.Bool(strings.HasSuffix(v.Text(), args[0].Text()))
}

// compareTests are the tests llama.cpp runs as value_compare, with its operator.
var compareTests = map[string]string{
	"eq": "==", "equalto": "==", "ne": "!=", "ge": ">=", "gt": ">", "greaterthan": ">", "lt": "<", "lessthan": "<",
}

// compareTest is llama.cpp's value_compare, which its comparison tests run (not its
// comparison operators): numbers compare as doubles; a str with a str or a number
// compares as their strings, byte by byte; bools compare for equality only; any other
// pair of values is neither equal nor unequal nor ordered (false).
func compareTest(op string, a, b jinja2.Value) bool {
	var c int
	switch {
	case isNumber(a) && isNumber(b):
		x, y := asDouble(a), asDouble(b)
		if x != x || y != y { // NaN: only != holds
			return op == "!="
		}
		c = cmp.Compare(x, y)
	case a.Kind() == jinja2.KindString && (b.Kind() == jinja2.KindString || isNumber(b)),
		b.Kind() == jinja2.KindString && isNumber(a):
		c = strings.Compare(llamaString(a), llamaString(b))
	case a.Kind() == jinja2.KindBool && b.Kind() == jinja2.KindBool:
		if op != "==" && op != "!=" {
			jinja2.Throw(EngineError, "Unsupported comparison operator for bool type")
		}
		if a.Truthy() != b.Truthy() {
			c = 1
		}
	default:
		return false
	}
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case ">=":
		return c >= 0
	case ">":
		return c > 0
	}
	return c < 0
}

// llamaJoin is llama.cpp's join(d, attribute) of a list: the attribute (a key of the
// dict items, an index of the list items) is taken from each item first, and then the
// item must be a str or a number, joined in its string form (llamaString).
func llamaJoin(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if n := 1 + argCount(args, kwargs); n > 3 {
		jinja2.Throw(EngineError, "Function 'join' expected between 1 and 3 arguments, got %d", n)
	}
	delim, _ := kwargOrPos(args, kwargs, "d", 0)
	attribute, _ := kwargOrPos(args, kwargs, "attribute", 1)
	attrInt := attribute.Kind() == jinja2.KindInt
	if attribute.Kind() != jinja2.KindUndefined && attribute.Kind() != jinja2.KindString && !attrInt {
		jinja2.Throw(EngineError, "join() attribute must be string or integer")
	}
	sep := jinja2.Str("")
	if delim.Kind() == jinja2.KindString {
		sep = delim
	} else if delim.Kind() != jinja2.KindUndefined {
		sep = jinja2.Str(llamaString(delim))
	}
	var room [16]jinja2.Value
	parts := room[:0] // on the stack for up to 8 items: ConcatStrs keeps no reference to them
	for i, item := range v.Items() {
		if attribute.Kind() != jinja2.KindUndefined {
			switch {
			case attrInt && (item.Kind() == jinja2.KindList || item.Kind() == jinja2.KindTuple):
				i, _ := attribute.AsInt()
				item = item.Items()[llamaIndex(i, len(item.Items()))]
			case !attrInt && item.Kind() == jinja2.KindDict:
				key, _ := attribute.AsString()
				v, ok := item.AsDict().GetStr(key)
				if !ok {
					jinja2.Throw(EngineError, "Key '%s' not found in value of type Object", key)
				}
				item = v
			}
		}
		if k := item.Kind(); k != jinja2.KindString && k != jinja2.KindInt && k != jinja2.KindFloat {
			jinja2.Throw(EngineError, "join() can only join arrays of strings or numerics")
		}
		if i > 0 {
			parts = append(parts, sep)
		}
		if item.Kind() != jinja2.KindString {
			item = jinja2.Str(llamaString(item))
		}
		parts = append(parts, item)
	}
	return jinja2.ConcatStrs(parts...) // with the origins of the strs
}

// llamaIndex is llama.cpp's index i into an array of n items (its at): a negative index
// counts from the end, and one out of range is an error.
func llamaIndex(i int64, n int) int64 {
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		jinja2.Throw(EngineError, "Index %d out of bounds for array of size %d", i, n)
	}
	return i
}

// kwargOrPos is llama.cpp's get_kwarg_or_pos: the keyword argument name (kwarg) unless
// it is undefined, else the positional argument pos (counted after the value a filter
// is applied to) unless a keyword argument holds that place; false when the call has
// neither.
func kwargOrPos(args []jinja2.Value, kwargs []jinja2.Kwarg, name string, pos int) (jinja2.Value, bool) {
	v, ok := kwarg(args, kwargs, name)
	if (!ok || v.IsUndefined()) && pos < len(args) && !isKwArg(args[pos]) {
		return args[pos], true
	}
	return v, ok
}

// kwarg is llama.cpp's get_kwarg: the first keyword argument name in the call's list
// of arguments (listedKwargs: a KwArg among the positional ones is one); false when the
// call has none.
func kwarg(args []jinja2.Value, kwargs []jinja2.Kwarg, name string) (jinja2.Value, bool) {
	kwargs = listedKwargs(args, kwargs)
	if i := jinja2.KwargIndex(kwargs, name); i >= 0 {
		return kwargs[i].Value, true
	}
	return jinja2.Value{}, false
}

// Placed is a keyword argument followed by positional ones, which llama.cpp's parser
// reads (Jinja2's refuses it): llama.cpp's arguments are one list, in which the keyword
// argument holds a place. Its call passes KwArgPlace at that place among the positional
// arguments, and the keyword argument marked Placed.
func Placed(name string, v jinja2.Value) jinja2.Kwarg {
	return jinja2.Kwarg{Name: name, Value: v, Placed: true}
}

// KwArgPlace is what holds the place of a Placed keyword argument among the positional
// ones: llama.cpp's KwArg, which a builtin reading that place by its position gets
// (listedKwargs gives its keyword argument).
func KwArgPlace() jinja2.Value { return kwArg }

// argCount is how many arguments llama.cpp's call has: the positional ones (with the
// places of Placed keyword arguments) and the keyword ones.
func argCount(args []jinja2.Value, kwargs []jinja2.Kwarg) int {
	n := len(args) + len(kwargs)
	for _, kw := range kwargs {
		if kw.Placed {
			n--
		}
	}
	return n
}
