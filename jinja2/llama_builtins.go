package jinja2

import "strings"

// llama.cpp's filters, methods and tests (common/jinja/runtime.cpp filter_expression,
// try_builtin_func, test_expression; value.cpp get_builtins): every type has its own
// builtins, and a filter or method the type lacks is an error, so that a template llama
// renders with |round, |sum of a list or 'x'.zfill() fails under llama-server where
// Jinja2 renders it. The builtins llama.cpp has are run as Jinja2's, except where
// llamaFilter and LlamaCallMethod give llama.cpp's own.

// LlamaKind is a value's type in llama.cpp's engine, which decides its builtins: "str",
// "int", "float", "bool", "list" (lists, tuples, iterators), "dict" (dicts and
// namespaces), "none" or "undefined"; "" for values llama.cpp has no type of its own for
// (loops, macros, cyclers), whose builtins are Jinja2's.
func LlamaKind(v Value) string {
	switch v.kind() {
	case KindUndefined:
		return "undefined"
	case KindNone:
		return "none"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindString:
		return "str"
	case KindList, KindTuple, KindIterator:
		return "list"
	case KindDict, KindNamespace:
		return "dict"
	}
	return ""
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

// llamaNotImplemented are the builtins llama.cpp declares but raises for.
var llamaNotImplemented = map[string]string{
	"str join":    "String join builtin not implemented",
	"dict join":   "object join not implemented",
	"list unique": "Array unique builtin not implemented",
}

// llamaFilterAliases are the filter names llama.cpp maps to another.
var llamaFilterAliases = map[string]string{"count": "length", "d": "default", "e": "escape", "trim": "strip"}

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// LlamaHasBuiltin reports whether llama.cpp's engine has the filter or method name for
// v (always, for a value LlamaKind has no type for).
func LlamaHasBuiltin(v Value, name string) bool {
	k := LlamaKind(v)
	return k == "" || llamaBuiltins[k][name]
}

// LlamaFilterTarget is the builtin llama.cpp applies for filter name to v, after its
// aliases, and the value it applies it to: the string form of a value that is neither a
// str nor undefined for the filters of llamaCoerced.
func LlamaFilterTarget(name string, v Value) (string, Value) {
	id := name
	if a, ok := llamaFilterAliases[name]; ok {
		id = a
	}
	if k := LlamaKind(v); k != "" && k != "undefined" && k != "str" && llamaCoerced[id] {
		v = Str(llamaString(v))
	}
	return id, v
}

// LlamaCallFilter is CallFilter as llama.cpp's engine applies a filter: the builtin of
// LlamaFilterTarget, an error when the value's type lacks it.
func LlamaCallFilter(name string, v Value, args []Value, kwargs []Kwarg) Value {
	id, input := LlamaFilterTarget(name, v)
	if !LlamaHasBuiltin(input, id) {
		throw(EngineError, "Unknown (built-in) filter '%s' for type %s", id, llamaTypeName(input))
	}
	return LlamaBuiltin(id, name, input, args, kwargs, false)
}

// LlamaCallMethod is CallMethod as llama.cpp's engine calls a method: the builtin of that
// name (a list's append and pop change it), a callable item of a dict, else an error.
func LlamaCallMethod(recv Value, name string, args []Value, kwargs []Kwarg) Value {
	if !LlamaHasBuiltin(recv, name) {
		if d := recv.AsDict(); d != nil {
			if fn, ok := d.GetStr(name); ok && fn.kind() == KindCallable {
				return Call(fn, args, kwargs)
			}
		}
		throw(EngineError, "Callee is not a function: got Undefined (hint: '%s')", name)
	}
	return LlamaBuiltin(name, name, recv, args, kwargs, true)
}

// LlamaBuiltin runs llama.cpp's builtin id on v, called as a method when method is set,
// else as the filter the template names jinjaName: undefined gives empty values (its
// default aside), none empty lists (but for default, tojson, string and safe), lists
// and dicts keep llama.cpp's methods, and the other builtins are Jinja2's filters or
// methods of the same name, with lists where Jinja2 gives iterators.
func LlamaBuiltin(id, jinjaName string, v Value, args []Value, kwargs []Kwarg, method bool) Value {
	k := LlamaKind(v)
	if msg, ok := llamaNotImplemented[k+" "+id]; ok {
		throw(EngineError, "%s", msg)
	}
	if id == "tojson" {
		for _, kw := range kwargs {
			if kw.Name == "sort_keys" && kw.Value.Truthy() {
				throw(EngineError, "tojson sort_keys=true not implemented")
			}
		}
		if len(args) >= 4 && args[3].Truthy() {
			throw(EngineError, "tojson sort_keys=true not implemented")
		}
	}
	switch {
	case id == "default":
		return llamaDefault(v, args, kwargs)
	case id == "tojson", (id == "string" || id == "safe") && (k == "int" || k == "float"):
		return llamaToJSON(v, args, kwargs)
	case id == "string" && (k == "list" || k == "dict"):
		return Str(llamaString(v)) // its as_string, as + and ~ join it
	case k == "str":
		if r, ok := llamaStrBuiltin(id, v.str(), args, kwargs); ok {
			return r
		}
	}
	switch k {
	case "undefined":
		return llamaEmpty(id)
	case "none":
		if id != "string" && id != "safe" {
			return NewList()
		}
	case "list":
		switch id {
		case "select", "selectattr", "reject", "rejectattr", "map":
			return llamaFilter(id, v, args, kwargs)
		case "join":
			for _, it := range v.Items() {
				if it.kind() != KindString && it.kind() != KindInt && it.kind() != KindFloat {
					throw(EngineError, "join() can only join arrays of strings or numerics")
				}
			}
		case "append", "pop":
			return llamaListMethod(v, id, args, kwargs)
		}
		if method {
			return llamaList(CallFilter(jinjaName, v, args, kwargs))
		}
	case "str":
		if method {
			switch id {
			case "length", "int", "float", "string", "slice", "safe", "tojson", "indent", "default":
				return CallFilter(id, v, args, kwargs)
			}
			return CallMethod(v, id, args, kwargs)
		}
	case "dict":
		if method {
			switch id {
			case "get", "keys", "values", "items":
				return CallMethod(v, id, args, kwargs)
			}
			return CallFilter(id, v, args, kwargs)
		}
	}
	if method {
		return CallFilter(id, v, args, kwargs)
	}
	if hasLlamaFilter(jinjaName) {
		return llamaFilter(jinjaName, v, args, kwargs)
	}
	return llamaList(CallFilter(jinjaName, v, args, kwargs))
}

// llamaDefault is llama.cpp's default(value, boolean=false): none is a missing value
// too, and the default is required.
func llamaDefault(v Value, args []Value, kwargs []Kwarg) Value {
	if n := 1 + len(args) + len(kwargs); n < 2 || n > 3 {
		throw(EngineError, "Function 'default' expected between 2 and 3 arguments, got %d", n)
	}
	def, boolean := Undefined("default_value"), false
	if len(args) > 0 {
		def = args[0]
	}
	if len(args) > 1 {
		boolean = args[1].Truthy()
	}
	for _, kw := range kwargs {
		switch kw.Name {
		case "boolean":
			boolean = kw.Value.Truthy()
		case "default_value":
			def = kw.Value
		}
	}
	if boolean && !v.Truthy() || !boolean && isNull(v) {
		return def
	}
	return v
}

// llamaEmpty is what a builtin of undefined returns.
func llamaEmpty(name string) Value {
	switch name {
	case "capitalize", "join", "lower", "replace", "safe", "string", "strip", "title", "truncate", "upper":
		return Str("")
	case "items", "list", "map", "reject", "rejectattr", "reverse", "select", "selectattr", "sort", "unique":
		return NewList()
	case "length", "sum", "wordcount":
		return Int(0)
	}
	return Undefined(name)
}

// llamaList turns the one-shot iterators Jinja2's filters return into the lists
// llama.cpp's return.
func llamaList(v Value) Value {
	if v.kind() == KindIterator {
		return FilterList(v)
	}
	return v
}

// LlamaCallTest is CallTest as llama.cpp's engine runs a test: an error for a test it
// lacks, and anything in an undefined value is false.
func LlamaCallTest(name string, v Value, args []Value, kwargs []Kwarg) bool {
	switch {
	case name == "sameas" || name == "escaped" || name == "filter":
		throw(EngineError, "%s test not implemented", name) // declared, not implemented
	case !llamaTests[name]:
		throw(EngineError, "Unknown test '%s'", name)
	}
	if name == "in" && len(args) == 1 && args[0].kind() == KindUndefined {
		return false
	}
	// the tests whose llama.cpp semantics differ from Jinja2's: its types (a bool is not
	// a number; a dict is neither iterable nor a sequence, an undefined value is both),
	// and the arguments its tests take (ints for odd, even and divisibleby, strs for lower
	// and upper)
	llamaArg := func(want Kind, x Value) {
		if x.kind() != want {
			throw(EngineError, "Function 'test_is_%s' expected value of type %s, got %s", name, pointerValue(want, nil).TypeName(), llamaTypeName(x))
		}
	}
	switch name {
	case "number":
		return v.kind() == KindInt || v.kind() == KindFloat
	case "iterable", "sequence":
		return v.kind() == KindList || v.kind() == KindTuple || v.kind() == KindString || v.kind() == KindUndefined
	case "odd", "even":
		llamaArg(KindInt, v)
		return (Mod(v, Int(2)).num() != 0) == (name == "odd")
	case "divisibleby":
		llamaArg(KindInt, v)
		if len(args) == 1 {
			llamaArg(KindInt, args[0])
		}
	case "lower", "upper":
		llamaArg(KindString, v)
	}
	return CallTest(name, v, args, kwargs)
}
