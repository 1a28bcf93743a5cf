package jinja2

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// Attr is Jinja2's x.name in the sandbox: a Python attribute of x (a method of a dict,
// str or list, an attribute of the loop variable or a namespace) if there is one,
// otherwise the item x["name"], otherwise an undefined value that remembers what was
// looked up. Attributes of undefined values raise UndefinedError, except those Python's
// Undefined object has (its special attributes), which the sandbox refuses.
func Attr(v Value, name string) Value {
	if v.kind() == KindUndefined {
		if undefinedDunders[name] {
			return unsafeAttr(v, name)
		}
		v.undefinedError()
	}
	if v.kind() == KindDict && !MayBeDictAttribute(name) {
		// the common case, message.role: not a dict method, so the item
		if r, ok := v.dict().GetStr(name); ok {
			return r
		}
		return missingAttr(v, name)
	}
	if r, ok := v.pyAttr(name); ok {
		return r
	}
	if v.kind() == KindDict {
		if r, ok := v.dict().GetStr(name); ok {
			return r
		}
	}
	return missingAttr(v, name)
}

// Attr is Attr(v, name).
func (v Value) Attr(name string) Value { return Attr(v, name) }

// ItemAttr is Attr(v, name) for a name no dict has as an attribute (MayBeDictAttribute
// says so when the template is compiled): the item of a dict, found without asking
// which attributes a dict has. Generated code calls it for message.role and the like.
func ItemAttr(v Value, name string) Value {
	if v.kind() == KindDict {
		if r, ok := v.dict().GetStr(name); ok {
			return r
		}
		return missingAttr(v, name)
	}
	return Attr(v, name)
}

// undefinedDunders are the attributes of Jinja2's Undefined object (dir(Undefined())):
// all start with "_", so the sandbox refuses them.
var undefinedDunders = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`__add__ __aiter__ __bool__ __call__ __class__ __complex__
		__delattr__ __dir__ __div__ __doc__ __eq__ __float__ __floordiv__ __format__ __ge__
		__getattr__ __getattribute__ __getitem__ __getstate__ __gt__ __hash__ __init__
		__init_subclass__ __int__ __iter__ __le__ __len__ __lt__ __mod__ __module__ __mul__
		__ne__ __neg__ __new__ __pos__ __pow__ __radd__ __rdiv__ __reduce__ __reduce_ex__
		__repr__ __rfloordiv__ __rmod__ __rmul__ __rpow__ __rsub__ __rtruediv__ __setattr__
		__sizeof__ __slots__ __str__ __sub__ __subclasshook__ __truediv__
		_fail_with_undefined_error _undefined_exception _undefined_hint _undefined_message
		_undefined_name _undefined_obj`) {
		undefinedDunders[n] = true
	}
}

// MayBeDictAttribute reports whether name could be a Python attribute of a dict: one of
// its methods or a special __name__.
func MayBeDictAttribute(name string) bool {
	switch name {
	case "get", "items", "keys", "values", "copy", "pop", "popitem", "setdefault", "update", "clear", "fromkeys":
		return true
	}
	return len(name) > 4 && name[0] == '_' && name[1] == '_'
}

// pyAttr is Python's getattr(v, name) for the attributes a template can reach: the
// methods of v's type (refused ones and special attributes as values that raise
// SecurityError when used), the attributes of a namespace, the loop variable, a macro,
// a cycler or a groupby tuple, and the numeric attributes of int and float.
func (v Value) pyAttr(name string) (Value, bool) {
	switch v.kind() {
	case KindNamespace:
		r, ok := v.namespace().attrs.GetStr(name)
		if (ok && strings.HasPrefix(name, "_")) || name == "__class__" || name == "_Namespace__attrs" {
			return unsafeAttr(v, name), true // the sandbox refuses what starts with _
		}
		return r, ok
	case KindLoop:
		if r, ok := v.loop().attr(name); ok {
			return r, true
		}
	case KindObject:
		if r, ok := v.object().attr(name); ok {
			return r, true
		}
	case KindCallable:
		if r, ok := v.callable().attr(name); ok {
			return r, true
		}
	case KindTuple:
		if v.list().name == groupTuple && (name == "grouper" || name == "list") {
			return v.list().items()[map[string]int{"grouper": 0, "list": 1}[name]], true
		}
	case KindInt, KindBool:
		switch name {
		case "real", "numerator":
			if v.kind() == KindBool {
				return Int(v.num()), true
			}
			return v, true
		case "imag":
			return Int(0), true
		case "denominator":
			return Int(1), true
		}
	case KindFloat:
		switch name {
		case "real":
			return v, true
		case "imag":
			return Float(0), true
		}
	}
	return lookupMethod(v, name)
}

// Item is Jinja2's x[key] in the sandbox: the item if there is one, otherwise for a str
// key the attribute of that name, otherwise an undefined value. Items of undefined
// values raise UndefinedError.
func Item(v Value, key Value) Value {
	if v.kind() == KindUndefined {
		v.undefinedError()
	}
	if r, ok := v.lookupItem(key); ok {
		return r
	}
	if key.kind() == KindString {
		if r, ok := v.pyAttr(key.str()); ok {
			return r
		}
	}
	return missingItem(v, key)
}

// Item is Item(v, key).
func (v Value) Item(key Value) Value { return Item(v, key) }

// ItemStr is v.Item(Str(key)).
func ItemStr(v Value, key string) Value {
	if v.kind() == KindDict {
		if r, ok := v.dict().GetStr(key); ok {
			return r
		}
	}
	return v.Item(Str(key))
}

// ItemStr is ItemStr(v, key).
func (v Value) ItemStr(key string) Value { return ItemStr(v, key) }

// ItemInt is v.Item(Int(i)).
func ItemInt(v Value, i int64) Value {
	if (v.kind() == KindList || v.kind() == KindTuple) && !isDictView(v) {
		items := v.list().items()
		pos := i
		if pos < 0 {
			pos += int64(len(items))
		}
		if pos >= 0 && pos < int64(len(items)) {
			return items[pos]
		}
	}
	return v.Item(Int(i))
}

// ItemInt is ItemInt(v, i).
func (v Value) ItemInt(i int64) Value { return ItemInt(v, i) }

// lookupItem is Python's x[key] without the attribute fallback. Where Python raises
// TypeError (an unhashable key), the sandbox's getitem finds nothing.
func (v Value) lookupItem(key Value) (Value, bool) {
	switch v.kind() {
	case KindDict:
		if key.kind() == KindList || key.kind() == KindDict {
			return Value{}, false
		}
		return v.dict().Get(key)
	case KindList, KindTuple:
		if isDictView(v) {
			return Value{}, false // dict views are not subscriptable
		}
		items := v.list().items()
		if i, ok := index(key, len(items)); ok {
			return items[i], true
		}
	case KindString:
		if key.isIntegral() {
			n := utf8.RuneCountInString(v.str())
			if i, ok := index(key, n); ok {
				return sameKind(v, runeAt(v.str(), i)), true
			}
		}
	case KindObject:
		if b, ok := asBytes(v); ok {
			if i, ok := index(key, len(b)); ok {
				return SmallInt(int64(b[i])), true
			}
		}
	}
	return Value{}, false
}

// index converts a subscript to a position in a sequence of length n, counting negative
// subscripts from the end; ok is false when key is not an int or is out of range.
func index(key Value, n int) (int, bool) {
	if !key.isIntegral() || key.isBig() {
		return 0, false
	}
	i := key.num()
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return 0, false
	}
	return int(i), true
}

// runeAt returns the i-th character of s.
func runeAt(s string, i int) string {
	for off := range s {
		if i == 0 {
			_, size := utf8.DecodeRuneInString(s[off:])
			return s[off : off+size]
		}
		i--
	}
	return ""
}

// Slice is Python's x[start:stop:step]; a missing bound is passed as None (or
// Undefined, Missing). It works on str (by character), list and tuple. (Generated code
// of versions 2 to 5 calls it; version 6 calls SliceIn.)
func Slice(v, start, stop, step Value) Value { return v.Slice(start, stop, step) }

// SliceIn is Slice in a render of w, as generated code takes a slice: the slice of a
// list (messages[1:]) shares the list's items, as Slice's does, and the first two a
// render takes keep their List in w, which the render zeroes at its end, so that they
// cost no allocation.
func SliceIn(w *Writer, v, start, stop, step Value) Value { return v.slice(w, start, stop, step) }

// ListIn returns a list of items, shared, not copied (as ListOf), whose List is kept in
// w as SliceIn keeps those of its slices.
func ListIn(w *Writer, items []Value) Value { return listValue(KindList, w.listStorage(items)) }

// Slice is Slice(v, start, stop, step).
func (v Value) Slice(start, stop, step Value) Value { return v.slice(nil, start, stop, step) }

// slice is v.Slice, in a render of w when w is not nil (see SliceIn).
func (v Value) slice(w *Writer, start, stop, step Value) Value {
	switch v.kind() {
	case KindUndefined:
		v.undefinedError()
	case KindString:
		s := v.str()
		if pystr.IsASCII(s) {
			lo, hi, st, n := sliceIndices(start, stop, step, len(s))
			if st == 1 && !v.IsMarkup() {
				return Substr(v, lo, max(lo, hi))
			}
			if st == 1 {
				return sameKind(v, s[lo:max(lo, hi)])
			}
			b := make([]byte, 0, n)
			for i, k := lo, 0; k < n; i, k = i+st, k+1 {
				b = append(b, s[i])
			}
			return FromTemplate(sameKind(v, string(b)), v)
		}
		runes := []rune(s)
		lo, _, st, n := sliceIndices(start, stop, step, len(runes))
		out := make([]rune, 0, n)
		for i, k := lo, 0; k < n; i, k = i+st, k+1 {
			out = append(out, runes[i])
		}
		return FromTemplate(sameKind(v, string(out)), v)
	case KindList, KindTuple:
		if isDictView(v) {
			break
		}
		items := v.list().items()
		lo, hi, st, n := sliceIndices(start, stop, step, len(items))
		var out []Value
		if st == 1 {
			// lists cannot change: a slice shares its items
			out = items[lo : lo+n : lo+n]
		} else {
			out = make([]Value, 0, n)
			for i, k := lo, 0; k < n; i, k = i+st, k+1 {
				out = append(out, items[i])
			}
		}
		l := w.listStorage(out)
		if isRange(v) {
			// a slice of a range is a range
			rs, _, rstep := rangeParams(v)
			step := rstep * int64(st)
			l.name = rangeRepr(rs+int64(lo)*rstep, rs+int64(hi)*rstep, step, step == 1)
		}
		return listValue(v.kind(), l)
	}
	if v.kind() == KindDict {
		throw(TypeError, "unhashable type: 'slice'") // a dict takes the slice as a key
	}
	throw(TypeError, "'%s' object is not subscriptable", v.TypeName())
	return Value{}
}

// sliceIndices is Python's slice.indices(length) followed by the slice length: the first
// index, the stop, the step and the number of items.
func sliceIndices(start, stop, step Value, length int) (lo, hi, st, n int) {
	st = 1
	if !isNone(step) {
		st = sliceInt(step)
		if st == 0 {
			throw(ValueError, "slice step cannot be zero")
		}
	}
	lower, upper := 0, length
	if st < 0 {
		lower, upper = -1, length-1
	}
	bound := func(x Value, def int) int {
		if isNone(x) {
			return def
		}
		i := sliceInt(x)
		if i < 0 {
			i += length
			if i < lower {
				i = lower
			}
		} else if i > upper {
			i = upper
		}
		return i
	}
	if st > 0 {
		lo, hi = bound(start, lower), bound(stop, upper)
		if hi > lo {
			n = (hi - lo + st - 1) / st
		}
	} else {
		lo, hi = bound(start, upper), bound(stop, lower)
		if lo > hi {
			n = (lo - hi - st - 1) / -st
		}
	}
	return lo, hi, st, n
}

func isNone(v Value) bool { return v.kind() == KindNone || v.kind() == KindUndefined }

// sliceInt converts a slice bound to an int, clamping huge values as Python does.
func sliceInt(v Value) int {
	if !v.isIntegral() {
		throw(TypeError, "slice indices must be integers or None or have an __index__ method")
	}
	if b := v.big(); v.kind() == KindInt && b != nil {
		if b.Sign() < 0 {
			return -MaxValueSize * 4
		}
		return MaxValueSize * 4
	}
	const limit = MaxValueSize * 4
	return int(max(min(v.num(), limit), -limit))
}

// Call calls a macro, a builtin function or a bound method with positional and keyword
// arguments. Calling an undefined value raises its error; calling anything else is a
// TypeError.
func Call(fn Value, args []Value, kwargs []Kwarg) Value {
	if fn.kind() == KindCallable {
		if c := fn.callable(); c.spec != nil {
			return c.callMacro(args, kwargs) // it copies what it keeps
		}
	}
	// args is copied before it reaches code the compiler cannot see through, so that a
	// call's argument list can live on the caller's stack
	owned := slices.Clone(args)
	switch fn.kind() {
	case KindUndefined:
		fn.undefinedError()
	case KindCallable:
		return fn.callable().call(owned, kwargs)
	case KindLoop:
		return fn.loop().call(owned, kwargs)
	case KindObject:
		if c, ok := fn.object().(interface {
			call([]Value, []Kwarg) Value
		}); ok {
			return c.call(owned, kwargs)
		}
	}
	throw(TypeError, "'%s' object is not callable", fn.TypeName())
	return Value{}
}

// CallMethod is x.name(args): the method of that name, or calling the attribute.
func CallMethod(recv Value, name string, args []Value, kwargs []Kwarg) Value {
	if recv.kind() == KindLoop {
		if r, ok := recv.loop().callMethod(name, args, kwargs); ok {
			return r
		}
	}
	if plainStr(recv) {
		if r, ok := callStrMethod(recv, name, args, kwargs); ok {
			return r
		}
	}
	if recv.kind() == KindDict && name == "get" {
		return dictGet(recv, args, kwargs)
	}
	// args is copied before it reaches code the compiler cannot see through, so that a
	// call's argument list can live on the caller's stack
	owned := slices.Clone(args)
	if recv.kind() == KindObject {
		if r, ok := recv.object().callMethod(name, owned, kwargs); ok {
			return r
		}
	}
	if m, ok := methodFor(recv, name); ok && recv.kind() != KindUndefined {
		if isUnsafeMethod(recv, name) {
			throw(SecurityError, "access to attribute '%s' of '%s' object is unsafe.", name, recv.TypeName())
		}
		return m(recv, owned, kwargs)
	}
	return Call(recv.Attr(name), owned, kwargs)
}

// callStrMethod calls the str methods templates call most, directly (see CallMethod),
// as CallMethod calls dict.get.
func callStrMethod(r Value, name string, args []Value, kwargs []Kwarg) (Value, bool) {
	switch name {
	case "startswith", "endswith":
		return strAffix(r, args, kwargs, name), true
	case "strip":
		return strStrip(r, args, kwargs, "strip", true, true), true
	case "lstrip":
		return strStrip(r, args, kwargs, "lstrip", true, false), true
	case "rstrip":
		return strStrip(r, args, kwargs, "rstrip", false, true), true
	case "split":
		return strSplit(r, args, kwargs, false), true
	case "replace":
		return strReplace(r, args, kwargs), true
	case "format":
		return strFormat(r, args, kwargs), true
	}
	return Value{}, false
}

// Kwarg is a keyword argument of a call.
type Kwarg struct {
	Name  string
	Value Value
	// Placed marks a keyword argument that llama.cpp's parser read before a positional
	// one: it also takes a place among the positional arguments, which holds llama.cpp's
	// KwArg there (package llamacpp). Never set for Jinja2, which refuses such a call.
	Placed bool
}

// KW builds a keyword argument.
func KW(name string, v Value) Kwarg { return Kwarg{Name: name, Value: v} }

// isDunder reports whether name is a Python special attribute such as __class__.
func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
