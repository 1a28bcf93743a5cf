package runtime

import "unsafe"

// Dict is a Python dict: keys in insertion order. Lookups of str keys go through an index
// once the dict is large; other keys (int, float, bool, None, tuple) are compared with
// Python equality, so 1, 1.0 and True are the same key as in Python.
type Dict struct {
	// kv holds the keys in kv[:len(kv)] and their values in the second half of its
	// storage, from cap(kv)/2: one allocation, and a header of two Values' size, in
	// which a decoded dict is stored with its entries (see the decoder's newDict).
	kv    []Value
	index map[string]int // position of each str key; built when the dict grows large
}

// indexThreshold is the size from which a dict keeps an index of its str keys.
const indexThreshold = 12

// NewDict returns an empty dict with room for n entries.
func NewDict(n int) *Dict {
	d := &Dict{}
	d.init(n)
	return d
}

// init gives an empty dict room for n entries, keys and values in one allocation.
func (d *Dict) init(n int) {
	if n > 0 {
		d.kv = make([]Value, 0, 2*n)
	}
}

// keys returns the keys in order, capped so that an append copies them.
func (d *Dict) keys() []Value { return d.kv[:len(d.kv):len(d.kv)] }

// vals returns the values in key order, capped so that an append copies them.
func (d *Dict) vals() []Value {
	half := cap(d.kv) / 2
	return d.kv[half : half+len(d.kv) : half+len(d.kv)]
}

// add appends an entry without looking for its key: key is not in d.
func (d *Dict) add(key, v Value) {
	n := len(d.kv)
	if half := cap(d.kv) / 2; n == half {
		d.grow(max(4, 2*half))
	}
	d.kv = d.kv[:n+1]
	d.kv[n], *d.val(n) = key, v
}

// val returns where the value of entry i is.
func (d *Dict) val(i int) *Value { return &d.kv[:cap(d.kv)][cap(d.kv)/2+i] }

// grow moves the entries to storage for n.
func (d *Dict) grow(n int) {
	kv := make([]Value, len(d.kv), 2*n)
	copy(kv, d.kv)
	copy(kv[n:2*n], d.vals())
	d.kv = kv
}

// DictValue wraps d as a Value.
func DictValue(d *Dict) Value { return Value{kind: KindDict, ptr: unsafe.Pointer(d)} }

// DictOf returns a dict Value of key, value pairs given in order; a later key replaces
// the value of an earlier equal key, as in a Python dict display.
func DictOf(kv ...Value) Value {
	d := NewDict(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		checkHashable(kv[i])
		d.Set(kv[i], kv[i+1])
	}
	return DictValue(d)
}

// Len returns the number of entries.
func (d *Dict) Len() int { return len(d.kv) }

// Keys returns the keys in order (shared, not copied).
func (d *Dict) Keys() []Value { return d.keys() }

// Values returns the values in key order (shared, not copied).
func (d *Dict) Values() []Value { return d.vals() }

// find returns the position of key, or -1.
func (d *Dict) find(key Value) int {
	if key.kind == KindString {
		return d.findStr(key.str())
	}
	for i, k := range d.kv {
		if k.kind != KindString && Eq(k, key) {
			return i
		}
	}
	return -1
}

// GetStr returns the value of a str key.
func (d *Dict) GetStr(key string) (Value, bool) {
	if i := d.findStr(key); i >= 0 {
		return *d.val(i), true
	}
	return Value{}, false
}

// findStr returns the position of a str key, or -1.
func (d *Dict) findStr(key string) int {
	if d.index != nil {
		if i, ok := d.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range d.kv {
		k := &d.kv[i]
		if k.kind != KindString {
			continue
		}
		if k.flags&flagBoxed == 0 && k.ptr == unsafe.Pointer(unsafe.StringData(key)) && k.n == int64(len(key)) {
			return i // the same bytes (see internStr)
		}
		if k.str() == key {
			return i
		}
	}
	return -1
}

// Get returns the value of key.
func (d *Dict) Get(key Value) (Value, bool) {
	if i := d.find(key); i >= 0 {
		return *d.val(i), true
	}
	return Value{}, false
}

// Has reports whether key is in the dict.
func (d *Dict) Has(key Value) bool { return d.find(key) >= 0 }

// SetStr sets the value of a str key.
func (d *Dict) SetStr(key string, v Value) { d.Set(Str(key), v) }

// Delete removes key and its value, if d has it; the other keys keep their order.
func (d *Dict) Delete(key Value) {
	i := d.find(key)
	if i < 0 {
		return
	}
	keys, vals := d.keys(), d.vals()
	d.kv = nil
	d.init(len(keys) - 1)
	for j := range keys {
		if j != i {
			d.add(keys[j], vals[j])
		}
	}
	d.index = nil
	if len(d.kv) >= indexThreshold {
		d.buildIndex()
	}
}

// Set sets the value of key, appending it when it is new.
func (d *Dict) Set(key, v Value) {
	if i := d.find(key); i >= 0 {
		*d.val(i) = v
		return
	}
	d.add(key, v)
	switch {
	case d.index != nil:
		if key.kind == KindString {
			d.index[key.str()] = len(d.kv) - 1
		}
	case len(d.kv) >= indexThreshold:
		d.buildIndex()
	}
}

// buildIndex indexes the str keys of a large dict.
func (d *Dict) buildIndex() {
	d.index = make(map[string]int, len(d.kv)*2)
	for i, k := range d.kv {
		if k.kind == KindString {
			d.index[k.str()] = i
		}
	}
}

// Copy returns a shallow copy.
func (d *Dict) Copy() *Dict {
	c := NewDict(len(d.kv))
	vals := d.vals()
	for i, k := range d.kv {
		c.Set(k, vals[i])
	}
	return c
}

// Namespace is the object namespace() returns: attributes a template can assign with
// {% set ns.attr = value %}, kept in insertion order.
type Namespace struct {
	attrs Dict
	// inline is the storage of the first few attributes, so that a namespace is one
	// allocation
	inline [2 * namespaceInline]Value
}

// namespaceInline is how many attributes a namespace holds without allocating more.
const namespaceInline = 4

// NamespaceValue wraps ns as a Value.
func NamespaceValue(ns *Namespace) Value { return Value{kind: KindNamespace, ptr: unsafe.Pointer(ns)} }
