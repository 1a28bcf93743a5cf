// Package runtime is what compiled chat templates call: values with Python semantics,
// the filters, tests and methods Jinja2 templates use, the output Writer, the Input a
// template renders from, and the Template type of the registry.
//
// It imports the standard library only, so a program that imports compiled renderers
// takes on no other dependency.
package runtime

import (
	"math"
	"math/big"
	"unsafe"
)

// Kind is the Python type of a Value.
type Kind uint8

// The kinds of values.
const (
	KindUndefined Kind = iota // Jinja2's lenient Undefined: falsy, prints empty
	KindNone
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
	KindTuple
	KindDict
	KindNamespace
	KindCallable // macro, builtin function, bound method
	KindLoop     // the loop variable of a for loop
	KindIterator // a one-shot iterator such as map() or reverse() return
	KindObject   // cycler, joiner
)

// Value is a template value. The zero Value is Undefined. Values are small and passed by
// value; lists, dicts and other containers are shared references, as in Python.
//
// A Value is three words and at most four fields, so that the Go compiler keeps it in
// registers (a larger struct goes through memory at every call, which costs several
// times the call itself).
type Value struct {
	// ptr is, by kind: the bytes of a str, or of an undefined value's name or message;
	// *List (list, tuple); *Dict; *Namespace; *Callable; *Loop; *Iterator; *objectBox;
	// *big.Int for an int beyond 64 bits; with flagBoxed, a *boxedStr.
	ptr unsafe.Pointer
	// n is a bool (0 or 1), an int, a float's bits, or the length of the bytes at ptr.
	n    int64
	kind Kind
	// flags are flag bits; an undefined value's hint and owner (see hintShift); a plain
	// word's index (plainWordShift).
	flags uint32
}

const (
	flagMarkup     = 1 << iota // a str that is markupsafe.Markup (from |safe, |escape)
	flagMissing                // a macro argument the caller did not give
	flagUnsafe                 // an attribute the sandbox refused: using it is a SecurityError
	flagBoxed                  // ptr is a *boxedStr
	flagPlainJSON              // a str json.dumps writes unescaped: a word internStr shares
	flagAppendable             // a str made by concatenation, in a buffer with room (see concat.go)
)

// Undefined hint kinds, kept in the flags so that building an undefined value never
// allocates.
const (
	hintName      = iota // 'name' is undefined
	hintAttribute        // 'T object' has no attribute 'name'
	hintElement          // T object has no element name
	hintMessage          // the message is the value's str
)

// The flags of an undefined value hold its hint at hintShift and, for a failed lookup,
// the kind of the value looked into plus one at ownerShift (with ownerMarkup for a
// Markup str); an owner whose type name does not follow from its kind is boxed.
const (
	hintShift   = 8
	ownerShift  = 16
	ownerMarkup = 1 << 24
)

// boxedStr is the storage of a str or undefined value that carries more than its text.
type boxedStr struct {
	s     string
	tag   any    // the tag of a TaggedStr
	owner string // the type name of what an undefined value was looked up in
}

// objectBox holds an object (cycler, joiner...) behind a pointer.
type objectBox struct{ obj object }

// makeStr returns a value of kind k whose ptr and n hold s.
func makeStr(k Kind, flags uint32, s string) Value {
	return Value{ptr: unsafe.Pointer(unsafe.StringData(s)), n: int64(len(s)), kind: k, flags: flags}
}

// str returns the text of a str, or the name or message of an undefined value; "" for
// other kinds.
func (v Value) str() string {
	switch {
	case v.flags&flagBoxed != 0:
		return (*boxedStr)(v.ptr).s
	case v.kind == KindString || v.kind == KindUndefined:
		return unsafe.String((*byte)(v.ptr), int(v.n))
	}
	return ""
}

// The storage of container values (v must be of the kind).
func (v Value) list() *List           { return (*List)(v.ptr) }
func (v Value) dict() *Dict           { return (*Dict)(v.ptr) }
func (v Value) namespace() *Namespace { return (*Namespace)(v.ptr) }
func (v Value) callable() *Callable   { return (*Callable)(v.ptr) }
func (v Value) loop() *Loop           { return (*Loop)(v.ptr) }
func (v Value) iterator() *Iterator   { return (*Iterator)(v.ptr) }
func (v Value) object() object        { return (*objectBox)(v.ptr).obj }

// big returns the big.Int of an int beyond 64 bits, nil for another int.
func (v Value) big() *big.Int { return (*big.Int)(v.ptr) }

// hint returns an undefined value's hint kind.
func (v Value) hint() uint32 { return v.flags >> hintShift & 3 }

// List is the storage of a list or tuple.
type List struct {
	Items []Value
	// name is the type name of a dict view (dict_keys...) or the repr of a range, which
	// are lists too; empty for a list.
	name string
}

// None is Python's None.
func None() Value { return Value{kind: KindNone} }

// Undefined returns the undefined value of a variable name that was not found.
func Undefined(name string) Value { return makeStr(KindUndefined, 0, name) }

// undefinedMessage returns an undefined value whose errors say msg.
func undefinedMessage(msg string) Value {
	return makeStr(KindUndefined, hintMessage<<hintShift, msg)
}

// missingAttr is the undefined value of a failed attribute lookup on v.
func missingAttr(v Value, name string) Value { return lookupMiss(v, hintAttribute, name) }

// lookupMiss is the undefined value of a failed lookup of name in v.
func lookupMiss(v Value, hint uint32, name string) Value {
	flags := hint << hintShift
	switch v.kind {
	case KindCallable, KindIterator, KindObject:
	case KindList:
		if v.list().name != "" {
			break
		}
		fallthrough
	default:
		flags |= uint32(v.kind+1) << ownerShift
		if v.IsMarkup() {
			flags |= ownerMarkup
		}
		return makeStr(KindUndefined, flags, name)
	}
	return Value{ptr: unsafe.Pointer(&boxedStr{s: name, owner: v.TypeName()}), kind: KindUndefined, flags: flags | flagBoxed}
}

// ownerTypeName returns the type name of what a failed lookup looked into.
func (v Value) ownerTypeName() string {
	if v.flags&flagBoxed != 0 {
		return (*boxedStr)(v.ptr).owner
	}
	k := v.flags >> ownerShift & 0xff
	switch {
	case k == 0:
		return ""
	case Kind(k-1) == KindList:
		return "list" // a range or dict view is boxed
	case v.flags&ownerMarkup != 0:
		return "Markup"
	}
	return Value{kind: Kind(k - 1)}.TypeName()
}

// missingItem is the undefined value of a failed subscript of v.
func missingItem(v Value, key Value) Value {
	if key.kind == KindString {
		return missingAttr(v, key.str())
	}
	return lookupMiss(v, hintElement, key.Repr())
}

// Missing marks a macro argument that was not given; generated code replaces it with
// the parameter's default.
func Missing() Value { return Value{kind: KindUndefined, flags: flagMissing} }

// IsMissing reports whether v is a macro argument that was not given.
func (v Value) IsMissing() bool { return v.kind == KindUndefined && v.flags&flagMissing != 0 }

// Bool returns a Python bool.
func Bool(b bool) Value {
	if b {
		return Value{kind: KindBool, n: 1}
	}
	return Value{kind: KindBool}
}

// Int returns a Python int.
func Int(i int64) Value { return Value{kind: KindInt, n: i} }

// BigInt returns a Python int of any size.
func BigInt(i *big.Int) Value {
	if i.IsInt64() {
		return Int(i.Int64())
	}
	return Value{kind: KindInt, ptr: unsafe.Pointer(new(big.Int).Set(i))}
}

// IntString returns the Python int written in decimal in s; it panics on bad input and
// is meant for literals in generated code.
func IntString(s string) Value {
	i, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("runtime.IntString: bad integer literal " + s)
	}
	return BigInt(i)
}

// Float returns a Python float.
func Float(f float64) Value { return Value{kind: KindFloat, n: int64(math.Float64bits(f))} }

// Str returns a Python str.
func Str(s string) Value { return makeStr(KindString, 0, s) }

// Markup returns a str marked safe (markupsafe.Markup), as |safe returns.
func Markup(s string) Value { return makeStr(KindString, flagMarkup, s) }

// listValue returns a value of kind k (list or tuple) with storage l.
func listValue(k Kind, l *List) Value { return Value{kind: k, ptr: unsafe.Pointer(l)} }

// NewList returns a list of the given items.
func NewList(items ...Value) Value { return listValue(KindList, &List{Items: items}) }

// NewTuple returns a tuple of the given items.
func NewTuple(items ...Value) Value { return listValue(KindTuple, &List{Items: items}) }

// ListOf returns a list that uses items as its storage.
func ListOf(items []Value) Value { return listValue(KindList, &List{Items: items}) }

// Kind returns the Python type of v.
func (v Value) Kind() Kind { return v.kind }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.kind == KindUndefined }

// IsNone reports whether v is None.
func (v Value) IsNone() bool { return v.kind == KindNone }

// IsMarkup reports whether v is a str marked safe.
func (v Value) IsMarkup() bool { return v.kind == KindString && v.flags&flagMarkup != 0 }

// AsString returns the str in v and whether v is a str.
func (v Value) AsString() (string, bool) { return v.str(), v.kind == KindString }

// AsBool returns the bool in v and whether v is a bool.
func (v Value) AsBool() (bool, bool) { return v.n != 0, v.kind == KindBool }

// AsInt returns the int in v and whether v is an int that fits in 64 bits (bools count,
// as in Python).
func (v Value) AsInt() (int64, bool) {
	return v.n, (v.kind == KindInt && v.ptr == nil) || v.kind == KindBool
}

// AsFloat returns the float in v and whether v is a float.
func (v Value) AsFloat() (float64, bool) {
	return math.Float64frombits(uint64(v.n)), v.kind == KindFloat
}

// float returns a float's value.
func (v Value) float() float64 { return math.Float64frombits(uint64(v.n)) }

// Items returns the items of a list or tuple (shared, not copied), or nil.
func (v Value) Items() []Value {
	if v.kind == KindList || v.kind == KindTuple {
		return v.list().Items
	}
	return nil
}

// AsDict returns the dict in v, or nil.
func (v Value) AsDict() *Dict {
	if v.kind == KindDict {
		return v.dict()
	}
	return nil
}

// bigInt returns an int's value as a big.Int (a new one for small ints).
func (v Value) bigInt() *big.Int {
	if b := v.big(); b != nil {
		return b
	}
	return big.NewInt(v.n)
}

// isBig reports whether v is an int beyond 64 bits.
func (v Value) isBig() bool {
	return v.kind == KindInt && v.ptr != nil
}

// isNumber reports whether v is a bool, int or float (Python numbers).
func (v Value) isNumber() bool {
	return v.kind == KindInt || v.kind == KindFloat || v.kind == KindBool
}

// isIntegral reports whether v is a bool or an int.
func (v Value) isIntegral() bool { return v.kind == KindInt || v.kind == KindBool }

// TypeName returns the Python type name of v, as error messages print it.
func (v Value) TypeName() string {
	switch v.kind {
	case KindUndefined:
		return "Undefined"
	case KindNone:
		return "NoneType"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindString:
		if v.IsMarkup() {
			return "Markup"
		}
		return "str"
	case KindList:
		switch {
		case isRange(v):
			return "range"
		case isDictView(v):
			return v.list().name
		}
		return "list"
	case KindTuple:
		return "tuple"
	case KindDict:
		return "dict"
	case KindNamespace:
		return "Namespace"
	case KindCallable:
		return v.callable().typeName()
	case KindLoop:
		return "LoopContext"
	case KindIterator:
		return v.iterator().typeName
	case KindObject:
		return v.object().typeName()
	}
	return "object"
}

// Truthy reports whether v is true in a boolean context, as Python's bool().
func (v Value) Truthy() bool {
	switch v.kind {
	case KindUndefined, KindNone:
		return false
	case KindBool:
		return v.n != 0
	case KindInt:
		if b := v.big(); b != nil {
			return b.Sign() != 0
		}
		return v.n != 0
	case KindFloat:
		return v.float() != 0
	case KindString:
		return v.str() != ""
	case KindList, KindTuple:
		return len(v.list().Items) > 0
	case KindDict:
		return v.dict().Len() > 0
	}
	return true
}

// Truthy reports whether v is true; it is v.Truthy() for generated code.
func Truthy(v Value) bool { return v.Truthy() }
