// Package jinja2 implements Python's and Jinja2's semantics for compiled templates:
// values with Python semantics, the operators, filters, tests and methods Jinja2
// templates use, loops, macros, the output Writer a render function writes into and
// reads its variables from, and Run, which runs one; the JSON decoder and the Go-value
// converter that build values. Generated code calls it through package jinja2 (the
// module's jinja2/, which declares the names generated code calls and nothing else);
// packages tmplgen, llamacpp, llamaserver and modelfile build on it here.
//
// It imports the standard library only.
package jinja2

import (
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

// The fields packed in a Value's w.
const (
	kindShift  = 56
	flagsShift = 32
	flagsMask  = 1<<(kindShift-flagsShift) - 1
	lenMask    = 1<<flagsShift - 1
	intBits    = kindShift // an int of intBits bits is kept in w
	kindMaskW  = uint64(0xff) << kindShift
)

// kind returns v's kind.
func (v Value) kind() Kind { return Kind(v.w >> kindShift) }

// flags returns the flags of a str or undefined value; 0 for other kinds.
func (v Value) flags() uint32 {
	if k := v.kind(); k != KindString && k != KindUndefined {
		return 0
	}
	return v.strFlags()
}

// strFlags returns the flags of a value known to be a str or undefined.
func (v Value) strFlags() uint32 { return uint32(v.w>>flagsShift) & flagsMask }

// length returns the length of the bytes at ptr of an unboxed str or undefined value.
func (v Value) length() int { return int(v.w & lenMask) }

// num returns the value of a bool or of an int kept in w.
func (v Value) num() int64 { return int64(v.w<<(64-intBits)) >> (64 - intBits) }

// scalar returns a value of kind k with nothing at ptr and n (a bool or an int of
// intBits bits) in w.
func scalar(k Kind, n int64) Value {
	return Value{w: uint64(k)<<kindShift | uint64(n)&(1<<intBits-1)}
}

// fitsInline reports whether an int of i is kept in w.
func fitsInline(i int64) bool { return i<<(64-intBits)>>(64-intBits) == i }

const (
	flagMarkup     = 1 << iota // a str that is markupsafe.Markup (from |safe, |escape)
	flagMissing                // a macro argument the caller did not give
	flagUnsafe                 // an attribute the sandbox refused: using it is a SecurityError
	flagBoxed                  // ptr is a *boxedStr
	flagPlainJSON              // a str json.dumps writes unescaped: a word internStr shares
	flagAppendable             // a str made by concatenation, in a buffer with room (see concat.go); it may be boxed
	flagTemplate               // a str whose every byte comes from the template or the model's tokens (see origin.go)
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
	hintShift   = 7
	ownerShift  = 9
	ownerMarkup = 1 << 17
)

// boxedStr is the storage of a str or undefined value that carries more than its text.
type boxedStr struct {
	s     string
	tag   any    // the tag of a TaggedStr
	owner string // the type name of what an undefined value was looked up in
	// markup are the byte ranges of s that come from the template, of a str that mixes
	// template text and data (see origin.go); nil for other strs.
	markup []ByteRange
}

// objectBox holds an object (cycler, joiner...) behind a pointer.
type objectBox struct{ obj object }

// boxedInt64 marks, in w, an int beyond intBits bits whose ptr is an *int64 (Int's)
// rather than a *big.Int (BigInt's).
const boxedInt64 = 1

// hint returns an undefined value's hint kind.
func (v Value) hint() uint32 { return v.strFlags() >> hintShift & 3 }

// maxListItems is the most items a list holds (the capacity a List's size holds).
const maxListItems = 1<<32 - 1

// newListNamed returns the storage of a list of items with a name (see List.name).
func newListNamed(items []Value, name string) *List {
	l := &List{name: name}
	l.setItems(items)
	return l
}

// newListStorage returns the storage of a list of items.
func newListStorage(items []Value) *List { return newListNamed(items, "") }

// None is Python's None.
func None() Value { return scalar(KindNone, 0) }

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
	switch v.kind() {
	case KindCallable, KindIterator, KindObject:
	case KindList:
		if v.list().name != "" {
			break
		}
		fallthrough
	default:
		flags |= uint32(v.kind()+1) << ownerShift
		if v.IsMarkup() {
			flags |= ownerMarkup
		}
		return makeStr(KindUndefined, flags, name)
	}
	return boxStr(KindUndefined, flags, &boxedStr{s: name, owner: v.TypeName()})
}

// ownerTypeName returns the type name of what a failed lookup looked into.
func (v Value) ownerTypeName() string {
	flags := v.strFlags()
	if flags&flagBoxed != 0 {
		return v.boxed().owner
	}
	k := flags >> ownerShift & 0xff
	switch {
	case k == 0:
		return ""
	case Kind(k-1) == KindList:
		return "list" // a range or dict view is boxed
	case flags&ownerMarkup != 0:
		return "Markup"
	}
	return pointerValue(Kind(k-1), nil).TypeName()
}

// missingItem is the undefined value of a failed subscript of v.
func missingItem(v Value, key Value) Value {
	if key.kind() == KindString {
		return missingAttr(v, key.str())
	}
	return lookupMiss(v, hintElement, key.Repr())
}

// Missing marks a macro argument that was not given; generated code replaces it with
// the parameter's default.
func Missing() Value { return Value{w: flagMissing << flagsShift} }

// IsMissing reports whether v is a macro argument that was not given.
func (v Value) IsMissing() bool { return v.kind() == KindUndefined && v.strFlags()&flagMissing != 0 }

// Bool returns a Python bool.
func Bool(b bool) Value {
	if b {
		return Value{w: trueBits}
	}
	return Value{w: uint64(KindBool) << kindShift}
}

// IntString returns the Python int written in decimal in s; it panics on bad input and
// is meant for literals in generated code.
func IntString(s string) Value {
	i, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("jinja2.IntString: bad integer literal " + s)
	}
	return BigInt(i)
}

// Str returns a Python str.
func Str(s string) Value { return makeStr(KindString, 0, s) }

// Markup returns a str marked safe (markupsafe.Markup), as |safe returns.
func Markup(s string) Value { return makeStr(KindString, flagMarkup, s) }

// NewList returns a list of a copy of the given items, in one allocation: the items a
// call passes (a list display's) stay on the caller's stack.
func NewList(items ...Value) Value {
	var c cellChunks
	return c.copySeq(KindList, items)
}

// NewTuple returns a tuple of the given items, copied (as NewList).
func NewTuple(items ...Value) Value {
	var c cellChunks
	return c.copySeq(KindTuple, items)
}

// ListOf returns a list that uses items as its storage.
func ListOf(items []Value) Value { return listValue(KindList, newListStorage(items)) }

// Kind returns the Python type of v.
func (v Value) Kind() Kind { return v.kind() }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.kind() == KindUndefined }

// IsNone reports whether v is None.
func (v Value) IsNone() bool { return v.kind() == KindNone }

// IsMarkup reports whether v is a str marked safe.
func (v Value) IsMarkup() bool { return v.kind() == KindString && v.strFlags()&flagMarkup != 0 }

// IsDataStr reports whether v is a str as Str makes it: not Markup, its bytes all data
// (no template text, see origin.go).
func (v Value) IsDataStr() bool {
	// origin's answer, written to inline: neither Markup nor template text, and no
	// template text inside a boxed str
	f := v.strFlags()
	return v.kind() == KindString && f&(flagMarkup|flagTemplate) == 0 && (f&flagBoxed == 0 || v.boxed().markup == nil)
}

// AsString returns the str in v and whether v is a str.
func (v Value) AsString() (string, bool) { return v.str(), v.kind() == KindString }

// AsBool returns the bool in v and whether v is a bool.
func (v Value) AsBool() (bool, bool) { return v.num() != 0, v.kind() == KindBool }

// AsInt returns the int in v and whether v is an int that fits in 64 bits (bools count,
// as in Python).
func (v Value) AsInt() (int64, bool) {
	switch {
	case v.kind() == KindBool || v.kind() == KindInt && v.ptr == nil:
		return v.num(), true
	case v.kind() == KindInt && v.big().IsInt64():
		return v.big().Int64(), true
	}
	return 0, false
}

// UnboxedInt returns the int in v and true when v is an int the Value holds itself (of
// at most 56 bits, not boxed); 0 and false for a wider int and any other kind. It
// inlines, where AsInt does not.
func (v Value) UnboxedInt() (int64, bool) { return v.num(), v.kind() == KindInt && v.ptr == nil }

// AsBigInt returns the int in v, of any size, and whether v is an int (or a bool).
func (v Value) AsBigInt() (*big.Int, bool) {
	if k := v.kind(); k != KindInt && k != KindBool {
		return nil, false
	}
	return v.bigInt(), true
}

// AsFloat returns the float in v and whether v is a float.
func (v Value) AsFloat() (float64, bool) {
	if v.kind() != KindFloat {
		return 0, false
	}
	return v.float(), true
}

// ListLen returns the length of a list, -1 for a value that is not one: Len's, in a
// few instructions.
func (v Value) ListLen() int {
	if v.kind() != KindList {
		return -1
	}
	return int(uint32((*List)(v.ptr).size)) // size's low 32 bits
}

// Items returns the items of a list or tuple (shared, not copied), or nil.
func (v Value) Items() []Value {
	if v.kind() == KindList || v.kind() == KindTuple {
		return v.list().items()
	}
	return nil
}

// NamespaceAttrs returns the attributes of the namespace v as a dict (its own, not a
// copy), or nil: for an engine whose namespace is a dict, as llama.cpp's is.
func (v Value) NamespaceAttrs() *Dict {
	if v.kind() == KindNamespace {
		return &v.namespace().attrs
	}
	return nil
}

// AsDict returns the dict in v, or nil.
func (v Value) AsDict() *Dict {
	if v.kind() == KindDict {
		return v.dict()
	}
	return nil
}

// isBig reports whether v is an int beyond intBits bits.
func (v Value) isBig() bool {
	return v.kind() == KindInt && v.ptr != nil
}

// isNumber reports whether v is a bool, int or float (Python numbers).
func (v Value) isNumber() bool {
	return v.kind() == KindInt || v.kind() == KindFloat || v.kind() == KindBool
}

// isIntegral reports whether v is a bool or an int.
func (v Value) isIntegral() bool { return v.kind() == KindInt || v.kind() == KindBool }

// TypeName returns the Python type name of v, as error messages print it.
func (v Value) TypeName() string {
	switch v.kind() {
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

// Truthy reports whether v is true in a boolean context, as Python's bool(). It is
// inlined for the kinds templates test most (an undefined value, none, a bool).
func (v Value) Truthy() bool {
	if v.w < uint64(KindBool+1)<<kindShift { // undefined, none, a bool
		return v.w == trueBits // Bool(true)'s: w holds a bool's kind and value alone
	}
	return v.truthy()
}

// trueBits is the w of Bool(true).
const trueBits = uint64(KindBool)<<kindShift | 1

// truthy is Truthy of a value of another kind than undefined, none and bool.
func (v Value) truthy() bool {
	switch v.kind() {
	case KindUndefined, KindNone:
		return false
	case KindBool:
		return v.num() != 0
	case KindInt:
		if b := v.big(); b != nil {
			return b.Sign() != 0
		}
		return v.num() != 0
	case KindFloat:
		return v.float() != 0
	case KindString:
		return v.str() != ""
	case KindList, KindTuple:
		return len(v.list().items()) > 0
	case KindDict:
		return v.dict().Len() > 0
	case KindObject:
		switch o := v.object().(type) {
		case *complexNum:
			return o.re != 0 || o.im != 0
		case *pyBytes:
			return o.b != ""
		}
	}
	return true
}

// Truthy reports whether v is true; it is v.Truthy() for generated code.
func Truthy(v Value) bool { return v.Truthy() }
