package jinja2

// This is the only file of the module that imports unsafe: the representation of a
// Value, of a List and of a Dict, and the views of bytes as strings that the decoder
// and the JSON writer take without copying. Everything else reads and builds values
// through the functions here.
//
// The invariants it relies on:
//   - A Value's ptr is, by the kind in its w, the storage of that kind and nothing else
//     (see Value): every conversion of ptr below reads it as the type its kind stores,
//     and every Value is built here with the pointer its kind stores. The pointer keeps
//     what it points to alive, so the garbage collector sees every value's storage.
//   - A List's data and a Dict's kv point to the first of a []Value's items, and the
//     counts beside them never exceed that slice's capacity (setItems, setSlots).
//   - cellChunks stores a List or a Dict in the cells of a []Value: both are laid out as
//     whole cells whose pointer words fall on the cells' pointer words, which the
//     assertions below check when the package compiles.
//   - A string made from bytes (view, and the decoder's strs in its copy of the input)
//     is used only while those bytes do not change: the decoder's copy is never written
//     after the strs in it are made, and a concatenation writes only past the bytes its
//     strs cover (concat.go).
//
// How they are checked: the layout assertions fail to compile; TestHotPathsInline
// checks that the accessors still inline; `go test -race ./jinja2` runs the package's
// tests with the checkptr instrumentation, which fails on a conversion of ptr to a type
// larger than its storage or a pointer past the end of an allocation; and
// TestUnsafeOneFile fails when another file of the module imports unsafe.

import (
	"encoding/binary"
	"math/big"
	"unsafe"
)

// Value is a template value. The zero Value is Undefined. Values are small and passed by
// value; lists, dicts and other containers are shared references, as in Python.
//
// A Value is two words, a pointer and a scalar, so that the Go compiler keeps it in
// registers and a list or dict of decoded JSON takes 16 bytes an item. The scalar, w,
// holds the kind in its top byte (kindShift) and below it, by kind:
//   - bool, int: the value, as a 56-bit two's complement integer; an int beyond 56 bits
//     is at ptr instead, an *int64 (marked by boxedInt64) or a *big.Int;
//   - str, undefined: the flags (flagsShift) and the length of the bytes at ptr (the low
//     32 bits; a longer str is boxed);
//   - other kinds: nothing; ptr is the value's storage.
type Value struct {
	// ptr is, by kind: the bytes of a str, or of an undefined value's name or message;
	// *float64; *List (list, tuple); *Dict; *Namespace; *Callable; *Loop; *Iterator;
	// *objectBox; *int64 or *big.Int for an int beyond 56 bits; with flagBoxed, a
	// *boxedStr.
	ptr unsafe.Pointer
	w   uint64
}

// pointerValue returns a value of kind k whose storage is p.
func pointerValue(k Kind, p unsafe.Pointer) Value {
	return Value{ptr: p, w: uint64(k) << kindShift}
}

// makeStr returns a value of kind k with flags whose ptr and length hold s (boxed
// beyond the length w holds).
func makeStr(k Kind, flags uint32, s string) Value {
	if len(s) > lenMask {
		return boxStr(k, flags, &boxedStr{s: s})
	}
	return Value{ptr: unsafe.Pointer(unsafe.StringData(s)), w: uint64(k)<<kindShift | uint64(flags)<<flagsShift | uint64(len(s))}
}

// Lit returns the str s of template text: a str literal of the template, or a special
// token the model's files give. It is a str as Str(s) is; a tracked render reports its
// bytes as template text. s is shorter than 4 GiB (a template is at most 4 MiB, a
// model file's string at most 64 MiB), so that s is never boxed and Lit, inlined at
// each literal of generated code, is a few instructions.
func Lit(s string) Value {
	return Value{ptr: unsafe.Pointer(unsafe.StringData(s)), w: uint64(KindString)<<kindShift | flagTemplate<<flagsShift | uint64(len(s))&lenMask}
}

// boxStr returns a value of kind k (str or undefined) with flags whose text and more
// are in b.
func boxStr(k Kind, flags uint32, b *boxedStr) Value {
	return Value{ptr: unsafe.Pointer(b), w: uint64(k)<<kindShift | uint64(flags|flagBoxed)<<flagsShift}
}

// str returns the text of a str, or the name or message of an undefined value; "" for
// other kinds.
func (v Value) str() string {
	if k := v.kind(); k != KindString && k != KindUndefined {
		return ""
	}
	if v.w&(flagBoxed<<flagsShift) != 0 {
		return v.boxed().s
	}
	return v.text()
}

// text returns the bytes at ptr of an unboxed str or undefined value.
func (v Value) text() string { return unsafe.String((*byte)(v.ptr), v.length()) }

// The storage of container values and of boxed strs (v must be of the kind; boxed
// needs flagBoxed).
func (v Value) list() *List           { return (*List)(v.ptr) }
func (v Value) dict() *Dict           { return (*Dict)(v.ptr) }
func (v Value) namespace() *Namespace { return (*Namespace)(v.ptr) }
func (v Value) callable() *Callable   { return (*Callable)(v.ptr) }
func (v Value) loop() *Loop           { return (*Loop)(v.ptr) }
func (v Value) iterator() *Iterator   { return (*Iterator)(v.ptr) }
func (v Value) object() object        { return (*objectBox)(v.ptr).obj }
func (v Value) boxed() *boxedStr      { return (*boxedStr)(v.ptr) }

// float returns a float's value.
func (v Value) float() float64 { return *(*float64)(v.ptr) }

// big returns the value of an int beyond intBits bits as a big.Int, nil for another int
// or a bool.
func (v Value) big() *big.Int {
	if v.ptr != nil && v.w&boxedInt64 != 0 {
		return big.NewInt(*(*int64)(v.ptr))
	}
	return (*big.Int)(v.ptr)
}

// bigInt returns an int's value as a big.Int (a new one for small ints).
func (v Value) bigInt() *big.Int {
	if b := v.big(); b != nil {
		return b
	}
	return big.NewInt(v.num())
}

// Int returns a Python int. Its boxing is out of line, so that Go inlines the rest.
func Int(i int64) Value {
	if uint64(i)+1<<(intBits-1) < 1<<intBits { // fitsInline(i), SmallInt(i)
		return Value{w: uint64(KindInt)<<kindShift | uint64(i)&(1<<intBits-1)}
	}
	return boxInt(i)
}

// SmallInt returns the Python int i, which is within 56 bits (intBits): an int literal
// of a template, or a loop's counter, as generated code makes them. Its body has no
// branch, so that Go inlines it at little cost to compile.
func SmallInt(i int64) Value {
	return Value{w: uint64(KindInt)<<kindShift | uint64(i)&(1<<intBits-1)}
}

// FitsSmallInt reports whether SmallInt can make the int i.
func FitsSmallInt(i int64) bool { return fitsInline(i) }

// boxInt returns the int i, beyond intBits bits, at ptr.
//
//go:noinline
func boxInt(i int64) Value {
	p := new(int64) // not a big.Int, which Value.big makes when it is read
	*p = i
	return Value{ptr: unsafe.Pointer(p), w: uint64(KindInt)<<kindShift | boxedInt64}
}

// BigInt returns a Python int of any size.
func BigInt(i *big.Int) Value {
	if i.IsInt64() && fitsInline(i.Int64()) {
		return Int(i.Int64())
	}
	return pointerValue(KindInt, unsafe.Pointer(new(big.Int).Set(i)))
}

// Float returns a Python float.
func Float(f float64) Value {
	p := new(float64)
	*p = f
	return pointerValue(KindFloat, unsafe.Pointer(p))
}

// listValue returns a value of kind k (list or tuple) with storage l.
func listValue(k Kind, l *List) Value { return pointerValue(k, unsafe.Pointer(l)) }

// DictValue wraps d as a Value.
func DictValue(d *Dict) Value { return pointerValue(KindDict, unsafe.Pointer(d)) }

// NamespaceValue wraps ns as a Value.
func NamespaceValue(ns *Namespace) Value { return pointerValue(KindNamespace, unsafe.Pointer(ns)) }

// callableValue returns the value of a callable.
func callableValue(c *Callable) Value { return pointerValue(KindCallable, unsafe.Pointer(c)) }

// objectValue returns the value of an object.
func objectValue(o object) Value {
	return pointerValue(KindObject, unsafe.Pointer(&objectBox{obj: o}))
}

// newIterator returns an iterator value over items; typeName is how Python names its
// type ("generator", "list_reverseiterator").
func newIterator(items []Value, typeName string) Value {
	return pointerValue(KindIterator, unsafe.Pointer(&Iterator{items: items, typeName: typeName}))
}

// Value returns the loop variable as a template value.
func (l *Loop) Value() Value { return pointerValue(KindLoop, unsafe.Pointer(l)) }

// float returns the float f, stored in a chunk of floats.
func (c *cellChunks) float(f float64) Value {
	if len(c.floats) == 0 {
		c.floats = make([]float64, floatChunk)
	}
	p := &c.floats[0]
	*p, c.floats = f, c.floats[1:]
	return pointerValue(KindFloat, unsafe.Pointer(p))
}

// List is the storage of a list or tuple. Its items are a slice kept as a pointer and
// its length and capacity packed in one word, so that a List is two Values' size, a
// pointer and a scalar each (see cellChunks.newList).
type List struct {
	data unsafe.Pointer // the items' first
	size uint64         // the length, and the capacity << 32
	// name is the type name of a dict view (dict_keys...) or the repr of a range, which
	// are lists too; empty for a list.
	name string
}

// items returns the items (shared, not copied), capped at their length.
func (l *List) items() []Value { return unsafe.Slice((*Value)(l.data), l.size&maxListItems) }

// append adds v at the end, in the room the storage has.
func (l *List) append(v Value) {
	l.setItems(append(unsafe.Slice((*Value)(l.data), l.size>>32)[:l.size&maxListItems], v))
}

// setItems makes items the list's storage. It raises a LimitError beyond
// maxListItems items.
func (l *List) setItems(items []Value) {
	if cap(items) > maxListItems {
		throw(LimitError, "a list of more than %d items", maxListItems)
	}
	l.data, l.size = unsafe.Pointer(unsafe.SliceData(items)), uint64(len(items))|uint64(cap(items))<<32
}

// Dict is a Python dict: keys in insertion order. Lookups of str keys go through an index
// once the dict is large, and a dict records where its Keys are (known.go); other keys
// (int, float, bool, None, tuple) are compared with Python equality, so 1, 1.0 and True
// are the same key as in Python.
type Dict struct {
	// kv points to the dict's storage, 2*half Values: the n values in its first n
	// Values and their keys from half; one allocation. A value is found by its key's
	// position i as at(i). The fields fall on a pointer and a scalar word each, so that
	// a Dict is two Values' size and a decoded dict is stored with its entries
	// (cellChunks.newDict).
	kv    unsafe.Pointer
	n     int32          // how many entries there are
	half  int32          // room for half entries
	index map[string]int // position of each str key; built when the dict grows large
	known knownKeys      // where its Keys are
}

// maxDictEntries is the most entries a dict holds.
const maxDictEntries = 1<<31 - 1

// slots returns the storage: values, then keys.
func (d *Dict) slots() []Value { return unsafe.Slice((*Value)(d.kv), 2*int(d.half)) }

// setSlots makes kv, of an even length, the dict's storage: room for len(kv)/2 entries
// (at most maxDictEntries: see checkDictSize), of which the first d.n are the dict's (kv
// holds them where slots says).
func (d *Dict) setSlots(kv []Value) {
	d.kv, d.half = unsafe.Pointer(unsafe.SliceData(kv)), int32(len(kv)/2)
}

// checkDictSize raises a LimitError for storage of more than maxDictEntries entries.
func checkDictSize(n int) {
	if n > maxDictEntries {
		throw(LimitError, "a dict of more than %d entries", maxDictEntries)
	}
}

// setEntry stores key and its value v as entry i, which the storage has room for
// (i < half): appendEntry's store, without the checks of a slice's bounds.
func (d *Dict) setEntry(i int, key, v Value) {
	*(*Value)(unsafe.Add(d.kv, uintptr(i)*cell)) = v
	*(*Value)(unsafe.Add(d.kv, uintptr(int(d.half)+i)*cell)) = key
}

// keys returns the keys in order, capped so that an append copies them.
func (d *Dict) keys() []Value {
	return unsafe.Slice((*Value)(unsafe.Add(d.kv, uintptr(d.half)*cell)), d.n)
}

// vals returns the values in key order, capped so that an append copies them.
func (d *Dict) vals() []Value { return unsafe.Slice((*Value)(d.kv), d.n) }

// GetStr returns the value of a str key.
func (d *Dict) GetStr(key string) (Value, bool) {
	if i := d.findStr(key); i >= 0 {
		return *(*Value)(unsafe.Add(d.kv, i*int(cell))), true // d.at(i), without a slice's checks
	}
	return Value{}, false
}

// findStr returns the position of a str key, or -1. It walks the keys by address,
// without the checks of a slice of them (keys), which cost as much as the comparisons
// in the lookups of a message's fields that renders are made of; a key that is not an
// unboxed str of key's length is passed over by one comparison of its word.
func (d *Dict) findStr(key string) int {
	if d.index != nil {
		if i, ok := d.index[key]; ok {
			return i
		}
		return -1
	}
	keys := unsafe.Add(d.kv, int(d.half)*int(cell))
	unboxed := uint64(KindString)<<kindShift | uint64(len(key)) // an unboxed str of key's length
	for i := 0; i < int(d.n); i++ {
		k := (*Value)(unsafe.Add(keys, i*int(cell)))
		if k.w&^unboxedFlags == unboxed {
			if sameBytes(k, key) || k.text() == key {
				return i // sameBytes: the same bytes (see internStr)
			}
		} else if k.w&(flagBoxed<<flagsShift) != 0 && k.kind() == KindString && k.str() == key {
			return i
		}
	}
	return -1
}

// entry returns the value at position i < d.Len(), without a slice's checks.
func (d *Dict) entry(i uint) Value { return *(*Value)(unsafe.Add(d.kv, i*uint(cell))) }

// Get returns the value of key.
func (d *Dict) Get(key Value) (Value, bool) {
	if i := d.find(key); i >= 0 {
		return *(*Value)(unsafe.Add(d.kv, i*int(cell))), true // as GetStr
	}
	return Value{}, false
}

// sameBytes reports whether the str k's unboxed text is key's own bytes, without
// comparing them: what internStr makes of two equal keys.
func sameBytes(k *Value, key string) bool {
	return k.ptr == unsafe.Pointer(unsafe.StringData(key)) && k.w&^unboxedFlags == uint64(KindString)<<kindShift|uint64(len(key))
}

// A List takes two cells and a Dict two. The words of a Value are a pointer and a
// scalar, and a List's and a Dict's fields fall on the cells' pointer and scalar words
// alike (pointers on the first of each cell), so that the memory holds what the garbage
// collector takes it for. Each index below is 0 exactly when the layout this needs
// holds: a change of the types that breaks it fails to compile.
const (
	listCells = 2
	dictCells = 2
	wordSize  = unsafe.Sizeof(uintptr(0))
	cell      = unsafe.Sizeof(Value{})
)

var (
	_ = [1]int{}[cell-2*wordSize]                      // a Value is two words,
	_ = [1]int{}[unsafe.Offsetof(Value{}.ptr)]         // its pointer first;
	_ = [1]int{}[unsafe.Sizeof(List{})-listCells*cell] // a List is a pointer, a scalar
	_ = [1]int{}[unsafe.Offsetof(List{}.name)-cell]    // and a string;
	_ = [1]int{}[unsafe.Sizeof(Dict{})-dictCells*cell] // a Dict a pointer, a scalar,
	_ = [1]int{}[unsafe.Offsetof(Dict{}.index)-cell]   // a map and a scalar.
)

// listIn returns the List stored in the first listCells of cells.
func listIn(cells []Value) *List { return (*List)(unsafe.Pointer(&cells[0])) }

// dictIn returns the Dict stored in the first dictCells of cells.
func dictIn(cells []Value) *Dict { return (*Dict)(unsafe.Pointer(&cells[0])) }

// concatHeaderSize is the size of concatHeader, a multiple of the alignment of a
// buffer's first byte.
const concatHeaderSize = int(unsafe.Sizeof(concatHeader{}))

// concatHeaderOf returns the header of the concatenation buffer an appendable str's
// bytes are in (flagAppendable: they follow the header; the str may be boxed, its
// boxedStr's text being those bytes, when it mixes template text and data).
func concatHeaderOf(s Value) *concatHeader {
	return (*concatHeader)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s.str())), -concatHeaderSize))
}

// concatBytes returns the buffer that starts with h, n bytes long with the header.
func concatBytes(h *concatHeader, n int) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(h)), n)
}

// bufHeader returns the header a concatenation buffer b starts with.
func bufHeader(b []byte) *concatHeader {
	return (*concatHeader)(unsafe.Pointer(unsafe.SliceData(b)))
}

// view returns b as a string for a call that does not keep it: the bytes of b must not
// change while the string is in use.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// bytesOf returns the bytes of s, which must not be written.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// load8 reads the first eight bytes of s as a little-endian word.
func load8(s string) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
}

// load4 reads the first four bytes of s as a little-endian word.
func load4(s string) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
}
