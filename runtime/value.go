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
type Value struct {
	kind  Kind
	flags uint8
	n     int64  // bool (0 or 1), int, float bits, undefined hint kind
	s     string // str, or the name an undefined value was looked up by
	p     any    // *List, *Dict, *Namespace, *Callable, *Loop, *Iterator, *big.Int, object
}

const (
	flagMarkup  = 1 << iota // a str that is markupsafe.Markup (from |safe, |escape)
	flagMissing             // a macro argument the caller did not give
	flagUnsafe              // an attribute the sandbox refused: using it is a SecurityError
)

// Undefined hint kinds, kept in n so that building an undefined value never allocates.
const (
	hintName      = iota // 'name' is undefined
	hintAttribute        // 'T object' has no attribute 'name'
	hintElement          // T object has no element name
	hintMessage          // the message is s
)

// List is the storage of a list or tuple.
type List struct {
	Items []Value
}

// None is Python's None.
func None() Value { return Value{kind: KindNone} }

// Undefined returns the undefined value of a variable name that was not found.
func Undefined(name string) Value { return Value{kind: KindUndefined, s: name} }

// undefinedMessage returns an undefined value whose errors say msg.
func undefinedMessage(msg string) Value { return Value{kind: KindUndefined, n: hintMessage, s: msg} }

// missingAttr is the undefined value of a failed attribute lookup on v.
func missingAttr(v Value, name string) Value {
	return Value{kind: KindUndefined, n: hintAttribute, s: name, p: typeNameRef(v)}
}

// staticTypeNames are the type names of the kinds whose name does not depend on the
// value, so that an undefined value can refer to its owner's type without allocating.
var staticTypeNames [KindObject + 1]string

func init() {
	for k := range staticTypeNames {
		switch Kind(k) {
		case KindCallable, KindIterator, KindObject, KindString, KindList, KindTuple:
		default:
			staticTypeNames[k] = Value{kind: Kind(k)}.TypeName()
		}
	}
}

// typeNameRef returns v's type name by reference (a *string, which an interface holds
// without allocating for the common types).
func typeNameRef(v Value) *string {
	switch {
	case v.kind <= KindObject && staticTypeNames[v.kind] != "":
		return &staticTypeNames[v.kind]
	case v.kind == KindString && !v.IsMarkup():
		return &strTypeName
	case v.kind == KindList && v.s == "":
		return &listTypeName
	}
	name := v.TypeName()
	return &name
}

var strTypeName, listTypeName = "str", "list"

// missingItem is the undefined value of a failed subscript of v.
func missingItem(v Value, key Value) Value {
	if key.kind == KindString {
		return missingAttr(v, key.s)
	}
	return Value{kind: KindUndefined, n: hintElement, s: key.Repr(), p: typeNameRef(v)}
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
	return Value{kind: KindInt, p: new(big.Int).Set(i)}
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
func Str(s string) Value { return Value{kind: KindString, s: s} }

// Markup returns a str marked safe (markupsafe.Markup), as |safe returns.
func Markup(s string) Value { return Value{kind: KindString, flags: flagMarkup, s: s} }

// NewList returns a list of the given items.
func NewList(items ...Value) Value { return Value{kind: KindList, p: &List{Items: items}} }

// NewTuple returns a tuple of the given items.
func NewTuple(items ...Value) Value { return Value{kind: KindTuple, p: &List{Items: items}} }

// ListOf returns a list that uses items as its storage.
func ListOf(items []Value) Value { return Value{kind: KindList, p: &List{Items: items}} }

// Kind returns the Python type of v.
func (v Value) Kind() Kind { return v.kind }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.kind == KindUndefined }

// IsNone reports whether v is None.
func (v Value) IsNone() bool { return v.kind == KindNone }

// IsMarkup reports whether v is a str marked safe.
func (v Value) IsMarkup() bool { return v.kind == KindString && v.flags&flagMarkup != 0 }

// AsString returns the str in v and whether v is a str.
func (v Value) AsString() (string, bool) { return v.s, v.kind == KindString }

// AsBool returns the bool in v and whether v is a bool.
func (v Value) AsBool() (bool, bool) { return v.n != 0, v.kind == KindBool }

// AsInt returns the int in v and whether v is an int that fits in 64 bits (bools count,
// as in Python).
func (v Value) AsInt() (int64, bool) {
	return v.n, (v.kind == KindInt && v.p == nil) || v.kind == KindBool
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
		return v.p.(*List).Items
	}
	return nil
}

// AsDict returns the dict in v, or nil.
func (v Value) AsDict() *Dict {
	if v.kind == KindDict {
		return v.p.(*Dict)
	}
	return nil
}

// bigInt returns an int's value as a big.Int (a new one for small ints).
func (v Value) bigInt() *big.Int {
	if b, ok := v.p.(*big.Int); ok {
		return b
	}
	return big.NewInt(v.n)
}

// isBig reports whether v is an int beyond 64 bits.
func (v Value) isBig() bool {
	_, ok := v.p.(*big.Int)
	return ok && v.kind == KindInt
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
			return v.s
		}
		return "list"
	case KindTuple:
		return "tuple"
	case KindDict:
		return "dict"
	case KindNamespace:
		return "Namespace"
	case KindCallable:
		return v.p.(*Callable).typeName()
	case KindLoop:
		return "LoopContext"
	case KindIterator:
		return v.p.(*Iterator).typeName
	case KindObject:
		return v.p.(object).typeName()
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
		if b, ok := v.p.(*big.Int); ok {
			return b.Sign() != 0
		}
		return v.n != 0
	case KindFloat:
		return v.float() != 0
	case KindString:
		return v.s != ""
	case KindList, KindTuple:
		return len(v.p.(*List).Items) > 0
	case KindDict:
		return v.p.(*Dict).Len() > 0
	}
	return true
}

// Truthy reports whether v is true; it is v.Truthy() for generated code.
func Truthy(v Value) bool { return v.Truthy() }
