package llamacpp

import (
	"slices"
	"strings"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// Eq is jinja2.Eq as llama.cpp's == (value_t::operator==, each type's equivalent):
// numbers (bools among them) are equal when both their int and their double are; strs,
// none and undefined equal their own kind only; a list equals a list and a tuple a tuple
// with equal items in order, and a dict a dict with equal keys and values in the same
// order (a namespace is a dict to it), but only when neither holds a list, a dict or an
// undefined value (then they are not hashable, and equal nothing).
func Eq(a, b jinja2.Value) bool {
	switch a.Kind() {
	case jinja2.KindInt, jinja2.KindFloat, jinja2.KindBool:
		return isNumeric(b) && valInt(a) == valInt(b) && asDouble(a) == asDouble(b)
	case jinja2.KindString:
		return b.Kind() == jinja2.KindString && a.Text() == b.Text()
	case jinja2.KindNone, jinja2.KindUndefined:
		return b.Kind() == a.Kind()
	case jinja2.KindList, jinja2.KindTuple:
		if b.Kind() != a.Kind() || !hashable(a) || !hashable(b) {
			return false
		}
		return slices.EqualFunc(a.Items(), b.Items(), Eq)
	case jinja2.KindDict, jinja2.KindNamespace:
		x, y := object(a), object(b)
		if y == nil || !hashable(a) || !hashable(b) {
			return false
		}
		if x.Len() != y.Len() {
			return false
		}
		xk, xv, yk, yv := x.Keys(), x.Values(), y.Keys(), y.Values()
		for i := range xk {
			if !Eq(xk[i], yk[i]) || !Eq(xv[i], yv[i]) {
				return false
			}
		}
		return true
	}
	return jinja2.Eq(a, b)
}

// Ne is jinja2.Ne as llama.cpp's !=, the negation of its == (Eq).
func Ne(a, b jinja2.Value) bool { return !Eq(a, b) }

// isNumeric reports whether llama.cpp holds v as a number: an int, a float or a bool.
func isNumeric(v jinja2.Value) bool {
	return isNumber(v) || v.Kind() == jinja2.KindBool
}

// valInt is the int64 llama.cpp keeps beside a number's double (val_int): a float's
// truncated as C converts it.
func valInt(v jinja2.Value) int64 {
	if v.Kind() == jinja2.KindFloat {
		return llamaTrunc(floatOf(v))
	}
	if v.Kind() == jinja2.KindBool {
		if v.Truthy() {
			return 1
		}
		return 0
	}
	i, ok := v.AsInt()
	if !ok {
		return llamaTrunc(asDouble(v))
	}
	return i
}

// hashable is llama.cpp's is_hashable of a list, tuple or dict: none of its items (a
// dict's values) is a list or a dict (which are mutable) or a value that is not hashable
// itself (undefined, a function, a tuple that is not).
func hashable(v jinja2.Value) bool {
	var items []jinja2.Value
	switch v.Kind() {
	case jinja2.KindList, jinja2.KindTuple:
		items = v.Items()
	case jinja2.KindDict, jinja2.KindNamespace:
		items = object(v).Values()
	case jinja2.KindUndefined, jinja2.KindCallable:
		return false
	default:
		return true
	}
	for _, it := range items {
		if k := it.Kind(); k == jinja2.KindList || k == jinja2.KindDict || k == jinja2.KindNamespace || !hashable(it) {
			return false
		}
	}
	return true
}

// In is jinja2.In as llama.cpp's in: false for an undefined container, an error for
// another undefined or none operand; an item of a list or tuple is found by Eq, a str in
// a str, a key in a dict; a list or tuple in a list or tuple, and any other pair, is an
// error (its binary operator takes two arrays for +, and nothing else).
func In(item, container jinja2.Value) bool {
	if container.Kind() == jinja2.KindUndefined {
		return false
	}
	if isNull(item) || container.Kind() == jinja2.KindNone {
		nullOperand("in", item, container)
	}
	isArray := func(v jinja2.Value) bool { return v.Kind() == jinja2.KindList || v.Kind() == jinja2.KindTuple }
	switch {
	case isArray(container) && !isArray(item),
		container.Kind() == jinja2.KindString && item.Kind() == jinja2.KindString,
		container.Kind() == jinja2.KindDict:
		return testIn(item, container)
	}
	jinja2.Throw(EngineError, "Unknown operator \"in\" between %s and %s", llamaTypeName(item), llamaTypeName(container))
	return false
}

// testIn is llama.cpp's test in (test_is_in), which its select family runs too: false for
// an undefined haystack, an item of a list or tuple found by Eq, a str in a str, a key in
// a dict; any other haystack, or a str haystack and a needle that is not a str, is an
// error.
func testIn(needle, haystack jinja2.Value) bool {
	switch haystack.Kind() {
	case jinja2.KindUndefined:
		return false
	case jinja2.KindList, jinja2.KindTuple:
		return slices.ContainsFunc(haystack.Items(), func(it jinja2.Value) bool { return Eq(needle, it) })
	case jinja2.KindString:
		if needle.Kind() != jinja2.KindString {
			jinja2.Throw(EngineError, "'in' test expects args[1] as string when args[0] is string, got args[1] as %s", llamaTypeName(needle))
		}
		return strings.Contains(haystack.Text(), needle.Text())
	case jinja2.KindDict:
		objectKey(needle)
		return jinja2.In(needle, haystack)
	}
	jinja2.Throw(EngineError, "'in' test expects iterable as first argument, got %s", llamaTypeName(haystack))
	return false
}

// object returns the entries of a dict or namespace (both an object to llama.cpp), or
// nil for another value.
func object(v jinja2.Value) *jinja2.Dict {
	if d := v.AsDict(); d != nil {
		return d
	}
	return v.NamespaceAttrs()
}
