package jinja2

// at returns the value at position i < d.Len().
func (d *Dict) at(i int) Value { return d.vals()[i] }

// indexThreshold is the size from which a dict keeps an index of its str keys.
const indexThreshold = 12

// NewDict returns an empty dict with room for n entries.
func NewDict(n int) *Dict {
	d := &Dict{}
	d.init(n)
	return d
}

// init empties the dict and gives it room for n entries, keys and values in one
// allocation.
func (d *Dict) init(n int) {
	checkDictSize(n)
	var kv []Value
	if n > 0 {
		kv = make([]Value, 2*n)
	}
	d.setSlots(kv)
	d.n, d.known = 0, 0
}

// grow moves the entries to storage for n.
func (d *Dict) grow(n int) {
	checkDictSize(n)
	kv := make([]Value, 2*n)
	copy(kv, d.vals())
	copy(kv[n:], d.keys())
	d.setSlots(kv)
}

// DictOf returns a dict Value of key, value pairs given in order; a later key replaces
// the value of an earlier equal key, as in a Python dict display.
func DictOf(kv ...Value) Value {
	for i := 0; i+1 < len(kv); i += 2 {
		checkHashable(kv[i])
	}
	var c cellChunks // the dict and its entries: one allocation
	return c.dictOf(kv[:len(kv)&^1], false, false)
}

// Len returns the number of entries.
func (d *Dict) Len() int { return int(d.n) }

// Keys returns the keys in order (shared, not copied).
func (d *Dict) Keys() []Value { return d.keys() }

// Values returns the values in key order (shared, not copied).
func (d *Dict) Values() []Value { return d.vals() }

// find returns the position of key, or -1.
func (d *Dict) find(key Value) int {
	if key.kind() == KindString {
		return d.findStr(key.str())
	}
	for i, k := range d.keys() {
		if k.kind() != KindString && Eq(k, key) {
			return i
		}
	}
	return -1
}

// unboxedFlags are the bits of a str's w that hold its flags other than flagBoxed.
const unboxedFlags = (flagsMask &^ flagBoxed) << flagsShift

// ListOfDicts returns the list of the dicts ds: list itself when it is a list of
// exactly those dicts, in order (a request's messages a profile hands on unchanged), a
// list of its items when they start with them (all but a final message a profile
// continues).
func ListOfDicts(list Value, ds []*Dict) Value {
	var a Arena // a list made anew is one allocation
	return a.ListOfDicts(list, ds)
}

// sharedDicts returns the first len(ds) items of the list list when they are the
// dicts ds, in order, and whether they are.
func sharedDicts(list Value, ds []*Dict) ([]Value, bool) {
	if list.kind() != KindList || list.list().name != "" { // a tuple, range or dict view
		return nil, false
	}
	items := list.list().items()
	if len(items) < len(ds) {
		return nil, false
	}
	for i, d := range ds {
		if items[i].AsDict() != d {
			return nil, false
		}
	}
	return items[:len(ds)], true
}

// KeysAre reports whether the keys of d are keys, in that order.
func (d *Dict) KeysAre(keys ...string) bool {
	if d == nil || int(d.n) != len(keys) {
		return false
	}
	for i, k := range d.keys() {
		if !EqStr(k, keys[i]) {
			return false
		}
	}
	return true
}

// Clear removes every entry; the dict keeps its storage for the entries set next.
func (d *Dict) Clear() {
	if d.n > 0 {
		clear(d.slots()[:int(d.half)+int(d.n)]) // the values and the keys, in one call
	}
	d.n, d.index, d.known = 0, nil, 0
}

// Truncate removes the entries after the first n (at most Len) in place, as Clear
// removes them all: the dict keeps its storage for the entries set next.
func (d *Dict) Truncate(n int) {
	if d.index != nil {
		for _, k := range d.keys()[n:] {
			delete(d.index, k.str())
		}
	}
	clear(d.vals()[n:])
	clear(d.keys()[n:])
	d.n = int32(n)
	d.noteKeys()
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
	d.init(len(keys) - 1) // new storage, with room for the rest
	for j := range keys {
		if j != i {
			d.setEntry(int(d.n), keys[j], vals[j])
			d.noteKey(int(d.n), keys[j], false)
			d.n++
		}
	}
	d.index = nil
	if d.n >= indexThreshold {
		d.buildIndex()
	}
}

// Set sets the value of key, appending it when it is new.
func (d *Dict) Set(key, v Value) {
	if i := d.find(key); i >= 0 {
		d.slots()[i] = v
		return
	}
	d.appendEntry(key, v, false)
}

// AddStr adds the entry key: v at the end of a dict that does not have key (one built
// from distinct keys), without looking for it as SetStr does.
func (d *Dict) AddStr(key string, v Value) { d.appendEntry(Str(key), v, false) }

// appendEntry adds the entry key: v, key not in d, and indexes it; interned says that
// key, when a str, was interned (internStr).
func (d *Dict) appendEntry(key, v Value, interned bool) {
	n := int(d.n)
	if n == int(d.half) {
		d.grow(max(4, 2*n))
	}
	d.setEntry(n, key, v)
	d.noteKey(n, key, interned)
	d.n = int32(n + 1)
	switch {
	case d.index != nil:
		if key.kind() == KindString {
			d.index[key.str()] = n
		}
	case d.n >= indexThreshold:
		d.buildIndex()
	}
}

// buildIndex indexes the str keys of a large dict.
func (d *Dict) buildIndex() {
	d.index = make(map[string]int, 2*int(d.n))
	for i, k := range d.keys() {
		if k.kind() == KindString {
			d.index[k.str()] = i
		}
	}
}

// Copy returns a shallow copy.
func (d *Dict) Copy() *Dict {
	c := NewDict(d.Len())
	vals := d.vals()
	for i, k := range d.keys() {
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
