package jinja2

// cellChunks hands out the storage of lists and dicts in chunks of cells (Values): a
// container takes its header, the List or Dict struct, and its items from the current
// chunk, so that the containers of a decoded request or a converted Go value take a few
// allocations in all rather than two each. Each container's items are capped at their
// length, so that appending to one reallocates it and never reaches into another's.
type cellChunks struct {
	chunk  []Value   // the current chunk
	cells  []Value   // the rest of it
	taken  int       // cells handed out so far
	bound  int       // how many cells the containers are expected to take in all
	floats []float64 // the rest of the current chunk of floats
}

// floatChunk is how many floats a chunk of floats holds.
const floatChunk = 16

// maxChunkCells is the size of the largest chunk.
const maxChunkCells = 64 << 10

// take returns n new cells. A new chunk holds what bound expects is left, or, past
// bound, as many cells as were taken so far (chunks double). A request for more than
// half a chunk is allocated on its own.
func (c *cellChunks) take(n int) []Value {
	if n > len(c.cells) {
		size := min(max(c.bound-c.taken, c.taken, n), maxChunkCells)
		if n > size/2 {
			c.taken += n
			return make([]Value, n)
		}
		c.chunk = make([]Value, size)
		c.cells = c.chunk
	}
	c.taken += n
	cells := c.cells[:n:n]
	c.cells = c.cells[n:]
	return cells
}

// newList returns a list of items, copied into new storage.
func (c *cellChunks) newList(items []Value) Value { return c.copySeq(KindList, items) }

// copySeq returns a list or tuple (kind) of items, copied into new storage.
func (c *cellChunks) copySeq(kind Kind, items []Value) Value {
	l, cells := c.newSeq(kind, len(items))
	copy(cells, items)
	return l
}

// newSeq returns a list or tuple (kind) of n items, and its items for the caller to set.
func (c *cellChunks) newSeq(kind Kind, n int) (Value, []Value) {
	cells := c.take(listCells + n)
	l := listIn(cells)
	l.setItems(cells[listCells:])
	return listValue(kind, l), cells[listCells:]
}

// listOver returns a list (kind) of items, which it shares: only its header is new.
func (c *cellChunks) listOver(kind Kind, items []Value) Value {
	l := listIn(c.take(listCells))
	l.setItems(items)
	return listValue(kind, l)
}

// newDict returns an empty dict with room for n entries.
func (c *cellChunks) newDict(n int) *Dict {
	checkDictSize(n)
	cells := c.take(dictCells + 2*n)
	dict := dictIn(cells)
	dict.setSlots(cells[dictCells:])
	return dict
}

// dictOf returns the dict of entries (key, value, key, value...) whose keys are
// distinct when distinct is true: a dict of fewer than indexThreshold such entries takes
// them as they are, others go through Dict.Set, which keeps the first place and the last
// value of a key given twice, as Python does, and indexes a large dict.
func (c *cellChunks) dictOf(entries []Value, distinct, interned bool) Value {
	n := len(entries) / 2
	dict := c.newDict(n)
	if n < indexThreshold && distinct {
		kv := dict.slots()
		vals, keys := kv[:n], kv[n:]
		var known knownKeys
		plain := true // every str key is one of plainWords
		for k := range keys {
			key := entries[2*k]
			keys[k], vals[k] = key, entries[2*k+1]
			if id, ok := plainKey(key); ok {
				known = known.with(id, k)
			} else {
				plain = plain && key.kind() != KindString
			}
		}
		dict.n, dict.known = int32(n), known
		if !plain && !interned {
			dict.known = known.unsure() // a str key may be a Key that is not one of plainWords
		}
		return DictValue(dict)
	}
	for k := 0; k < len(entries); k += 2 {
		dict.Set(entries[k], entries[k+1])
	}
	return DictValue(dict)
}

// An Arena hands out the storage of lists and dicts from a few large allocations rather
// than two each, as the decoder does: for code that builds many small containers at
// once (a server profile rewriting a request's messages). Its lists and dicts are
// ordinary ones, each capped at its size (adding to a full dict moves it out); any of
// them keeps its chunk alive. The zero Arena is ready to use.
type Arena struct {
	cells cellChunks
}

// Expect tells a the number of cells its containers will take in all, so that its first
// chunk holds them: a dict of n entries takes 2n+2 cells, a list of n items n+2.
func (a *Arena) Expect(cells int) { a.cells.bound = a.cells.taken + cells }

// maxKeptCells is the largest chunk Reset keeps.
const maxKeptCells = 4 << 10

// Reset empties a for the containers made next, when nothing uses those it made before:
// it keeps its current chunk, cleared, if that is at most maxKeptCells, so that code
// which builds containers over and over (a pooled rewrite of requests) makes them
// without an allocation.
func (a *Arena) Reset() {
	chunk := a.cells.chunk
	if cap(chunk) > maxKeptCells {
		a.cells = cellChunks{}
		return
	}
	clear(chunk[:len(chunk)-len(a.cells.cells)]) // the cells taken (cells is chunk's rest)
	a.cells = cellChunks{chunk: chunk, cells: chunk}
}

// NewDict returns an empty dict with room for n entries.
func (a *Arena) NewDict(n int) *Dict { return a.cells.newDict(n) }

// NewList returns a list of a copy of items.
func (a *Arena) NewList(items []Value) Value { return a.cells.newList(items) }

// CopyDict returns a shallow copy of d made in a, with room for extra entries more.
func (a *Arena) CopyDict(d *Dict, extra int) *Dict {
	c := a.NewDict(d.Len() + extra)
	copy(c.slots(), d.vals())
	copy(c.slots()[c.half:], d.keys())
	c.n, c.known = d.n, d.known
	if c.n >= indexThreshold {
		c.buildIndex()
	}
	return c
}

// ListOfDicts is the package's ListOfDicts with a new list made in a.
func (a *Arena) ListOfDicts(list Value, ds []*Dict) Value {
	if items, ok := sharedDicts(list, ds); ok {
		if len(items) == len(list.Items()) {
			return list
		}
		return a.cells.listOver(KindList, items[:len(items):len(items)])
	}
	l, items := a.cells.newSeq(KindList, len(ds))
	for i, d := range ds {
		items[i] = DictValue(d)
	}
	return l
}
