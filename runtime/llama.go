package runtime

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
//     value or none written as "" (LlamaAdd, LlamaSum, LlamaConcat): Jinja2 raises for
//     +, and writes none as "None" for ~;
//   - in: anything in an undefined value is false, but an undefined or none operand is
//     otherwise an error (LlamaIn, LlamaNotIn, LlamaInStrs), where Jinja2 compares;
//   - a for loop cannot iterate over a str (LlamaIterable);
//   - {{ x }} writes a str as it is, a number or a bool in llama.cpp's string form, the
//     items of a list one after the other, and nothing for anything else (LlamaWrite):
//     Jinja2 writes str(x), "None" for none.

// EngineError is the kind of an error llama.cpp's engine raises where Jinja2 does not
// (a std::runtime_error, which llama-server returns as the request's error).
const EngineError ErrorKind = "llama.cpp"

// isNull reports whether v is none or undefined, which llama.cpp's + and ~ write as ""
// next to a str.
func isNull(v Value) bool { return v.kind == KindNone || v.kind == KindUndefined }

// LlamaAttr is Attr with llama.cpp's lenient undefined.
func LlamaAttr(v Value, name string) Value {
	if v.kind == KindUndefined {
		return Undefined(name)
	}
	return v.Attr(name)
}

// LlamaItem is Item with llama.cpp's lenient undefined.
func LlamaItem(v, key Value) Value {
	if v.kind == KindUndefined {
		return Undefined("object_property")
	}
	return v.Item(key)
}

// LlamaItemStr is ItemStr with llama.cpp's lenient undefined.
func LlamaItemStr(v Value, key string) Value {
	if v.kind == KindUndefined {
		return Undefined(key)
	}
	return v.ItemStr(key)
}

// LlamaItemInt is ItemInt with llama.cpp's lenient undefined.
func LlamaItemInt(v Value, i int64) Value {
	if v.kind == KindUndefined {
		return Undefined("object_property")
	}
	return v.ItemInt(i)
}

// LlamaAdd is Add as llama.cpp's +: none or undefined next to a str is "".
func LlamaAdd(a, b Value) Value {
	switch {
	case isNull(a) && b.kind == KindString:
		return b
	case isNull(b) && a.kind == KindString:
		return a
	}
	return Add(a, b)
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
		case isNull(first) && second.kind == KindString:
			first = Str("")
		case isNull(first) || first.kind != KindString && isNull(second):
			nullOperand("~", first, second)
		}
	}
	out := []Value{first}
	for _, it := range items[1:] {
		if isNull(it) {
			it = Str("") // the operand before it is a str by now
		}
		out = append(out, it)
	}
	return Concat(out...)
}

// nullOperand raises llama.cpp's error for a binary operator with an undefined or none
// operand it does not take.
func nullOperand(op string, a, b Value) {
	if a.kind == KindUndefined || b.kind == KindUndefined {
		throw(EngineError, "Cannot perform operation %s on undefined values", op)
	}
	throw(EngineError, "Cannot perform operation on null values")
}

// LlamaIn is In as llama.cpp's in: false for an undefined container, an error for
// another undefined or none operand.
func LlamaIn(item, container Value) bool {
	if container.kind == KindUndefined {
		return false
	}
	if isNull(item) || container.kind == KindNone {
		nullOperand("in", item, container)
	}
	return In(item, container)
}

// LlamaNotIn is NotIn as llama.cpp's not in (see LlamaIn).
func LlamaNotIn(item, container Value) bool {
	if container.kind == KindUndefined {
		return true
	}
	return !LlamaIn(item, container)
}

// LlamaInStrs is InStrs as llama.cpp's in: an undefined or none item is an error.
func LlamaInStrs(item Value, strs ...string) bool {
	if isNull(item) {
		nullOperand("in", item, Value{kind: KindList})
	}
	return InStrs(item, strs...)
}

// LlamaIterable is what a for loop iterates, as llama.cpp's for loop takes it: v itself,
// unless it is a str, which llama.cpp cannot iterate over.
func LlamaIterable(v Value) Value {
	if v.kind == KindString {
		throw(EngineError, "Expected iterable or object type in for loop: got String")
	}
	return v
}

// LlamaWrite writes v as llama.cpp's output writes the value of {{ v }}: a str, a number
// or a bool in its string form, the items of a list or tuple, nothing for other values.
func LlamaWrite(w *Writer, v Value) {
	switch v.kind {
	case KindString:
		w.WriteString(v.str())
	case KindBool, KindInt:
		w.WriteString(v.String())
	case KindFloat:
		w.WriteString(llamaFloatString(v.float()))
	case KindList, KindTuple:
		for _, it := range v.list().Items {
			LlamaWrite(w, it)
		}
	}
}

// llamaFloatString is llama.cpp's string form of a float: C's %f (six decimals) without
// its trailing zeros, but one.
func llamaFloatString(f float64) string {
	s := strconv.FormatFloat(f, 'f', 6, 64)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strings.ToLower(strings.TrimPrefix(s, "+"))
	}
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	return s
}
