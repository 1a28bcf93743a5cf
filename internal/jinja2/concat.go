package jinja2

import (
	"sync/atomic"
)

// Templates often build a text piece by piece, {% set ns.out = ns.out ~ part %} in a loop;
// copying the whole text at every step would make that quadratic in its length. A str
// made by concatenation therefore keeps the spare room of its buffer (flagAppendable),
// and a later concatenation of strs onto it appends there, as appending to a Go slice
// does: the text costs linear time and memory.
//
// Such a str points at the bytes of a buffer that begins with a concatHeader. A
// concatenation appends in place only when its first operand ends where the used part of
// the buffer ends, and it claims the bytes it appends (an atomic compare-and-swap of the
// used length) before writing them: bytes that some str covers are never written again,
// so the strs that share a buffer stay immutable, even across goroutines
// (x = a ~ "1" and y = a ~ "2" copy a for y).

// concatHeader begins the buffer of a str made by concatenation.
type concatHeader struct {
	used atomic.Int64 // the bytes after the header that strs cover
	room int64        // the bytes after the header that the buffer holds
}

// concatBuf is the buffer of a concatenation being made: a header, then the text.
type concatBuf struct {
	b       []byte
	claimed bool // b is the buffer of the first operand, and more bytes of it are claimed
}

// startConcat returns a buffer that holds the str() of first, for a concatenation to
// append the rest to. When exact, the rest are exactly more bytes (strs): they go into
// first's own buffer when first is the last str made in it and the buffer has the room.
// Otherwise the buffer is new, with room for about more bytes, and for twice the result
// (up to MaxValueSize) when first was made by concatenation (a text being built).
func startConcat(first Value, more int, exact bool) concatBuf {
	n := len(first.str())
	checkSize(n + more)
	appendable := first.flags()&flagAppendable != 0
	if exact && appendable {
		h := concatHeaderOf(first)
		if h.room-int64(n) >= int64(more) && h.used.CompareAndSwap(int64(n), int64(n+more)) {
			b := concatBytes(h, concatHeaderSize+n+more)
			return concatBuf{b: b[:concatHeaderSize+n], claimed: true}
		}
	}
	size := n + more
	if appendable {
		size = min(2*size, MaxValueSize)
	}
	return concatBuf{b: appendStr(make([]byte, concatHeaderSize, concatHeaderSize+size), first)}
}

// concatStrs returns the str first + parts..., all strs, more bytes in all: first, or the
// only part, when the others are empty (as Python's + returns its operand), else a str in
// a concatenation's buffer.
func concatStrs(first Value, parts []Value, more int) Value {
	switch {
	case more == 0:
		return asPlainStr(first)
	case len(parts) == 1 && len(first.str()) == 0:
		return asPlainStr(parts[0])
	}
	c := startConcat(first, more, true)
	for _, p := range parts {
		c.b = append(c.b, p.str()...)
	}
	return concatOrigin(c.end(), first, parts, tracking.Load() > 0)
}

// asPlainStr returns the str v as a plain str (not Markup, without a tag): v itself when
// its flags only describe its bytes and their origin.
func asPlainStr(v Value) Value {
	if v.flags()&^(flagAppendable|flagPlainJSON|flagTemplate) == 0 {
		return v
	}
	return Substr(v, 0, len(v.str()))
}

// end returns the str of the buffer; a new buffer records what the str covers.
func (c concatBuf) end() Value {
	n := len(c.b) - concatHeaderSize
	checkSize(n)
	if n == 0 {
		return Str("")
	}
	if !c.claimed {
		h := bufHeader(c.b)
		h.room = int64(cap(c.b) - concatHeaderSize)
		h.used.Store(int64(n))
	}
	return makeStr(KindString, flagAppendable, view(c.b[concatHeaderSize:]))
}
