package jinja2

// What another engine's semantics builds on: package llamacpp, which renders as
// llama.cpp's Jinja engine does, reads and changes values and raises errors through
// these, as Jinja2's own functions do inside this package.

// Text returns the text of a str, or the name or message of an undefined value; "" for
// other kinds.
func (v Value) Text() string { return v.str() }

// LookupHint returns, for an undefined value made by a failed lookup, the name looked
// up (a variable's, an attribute's or a dict key's), and whether the lookup was of an
// element (an index out of range, or anything looked up in an undefined value); "" for
// an undefined value made with a message (UndefinedMessage).
func (v Value) LookupHint() (name string, element bool) {
	switch v.hint() {
	case hintElement:
		return "", true
	case hintMessage:
		return "", false
	}
	return v.str(), false
}

// UndefinedMessage returns an undefined value whose use raises an UndefinedError with
// msg.
func UndefinedMessage(msg string) Value { return undefinedMessage(msg) }

// Sign returns -1, 0 or +1 by the sign of an int or a bool; 0 for other kinds.
func (v Value) Sign() int {
	if v.kind() != KindInt && v.kind() != KindBool {
		return 0
	}
	return v.bigInt().Sign()
}

// AppendItem appends x to the list v in place (list.append), raising a LimitError
// beyond MaxListItems items.
func (v Value) AppendItem(x Value) {
	l := v.list()
	checkItems(len(l.items()) + 1)
	l.append(x)
}

// DeleteItem removes the item at index i of the list v in place, into new storage, so
// that a loop over the list's items goes on over the items it started with.
func (v Value) DeleteItem(i int) {
	l := v.list()
	items := l.items()
	l.setItems(append(items[:i:i], items[i+1:]...))
}

// TypeName is the name of the kind's Python type ("str", "list"...).
func (k Kind) TypeName() string { return pointerValue(k, nil).TypeName() }

// Throw raises an error of kind with the message format makes of args: the render stops
// and returns it as an *Error at the template position of the code that raised it.
func Throw(kind ErrorKind, format string, args ...any) { throw(kind, format, args...) }

// CheckSize raises a LimitError when a value of n items or bytes would exceed
// MaxValueSize.
func CheckSize(n int) { checkSize(n) }

// AppendJSONString appends s as a JSON string, escaped as json.dumps escapes it (every
// non-ASCII character with ensureASCII).
func AppendJSONString(b []byte, s string, ensureASCII bool) []byte {
	return appendJSONString(b, s, ensureASCII)
}

// AppendJSONStr appends the str v as a JSON string, escaped as json.dumps escapes it
// without ensure_ascii: a common word of requests (see internStr) is copied ready-made.
func AppendJSONStr(b []byte, v Value) []byte {
	if v.strFlags()&flagPlainJSON != 0 {
		return appendJSONWord(b, &plainWordJSON[v.strFlags()>>plainWordShift].value)
	}
	return appendJSONString(b, v.str(), false)
}

// KwargIndex returns the position of the keyword argument name in kwargs, or -1.
func KwargIndex(kwargs []Kwarg, name string) int { return kwargIndex(kwargs, name) }

// IsBlockCaller reports whether v is the caller of a call block (an anonymous macro).
func IsBlockCaller(v Value) bool {
	if v.kind() != KindCallable {
		return false
	}
	spec := v.callable().spec
	return spec != nil && spec.Anonymous
}
