package jinja2

import (
	"slices"
	"unicode/utf8"
)

// iterate returns the items a for loop visits in v: a list's or tuple's items, a dict's
// keys, a str's characters, nothing for undefined, the rest of an iterator (consuming
// it). Other values are not iterable: a TypeError.
func iterate(v Value) []Value {
	switch v.kind() {
	case KindList, KindTuple:
		return v.list().items()
	case KindDict:
		return v.dict().keys()
	case KindString:
		return chars(v.str())
	case KindUndefined:
		return nil
	case KindIterator:
		it := v.iterator()
		rest := it.items[it.pos:]
		it.pos = len(it.items)
		return rest
	case KindLoop:
		l := v.loop()
		var rest []Value
		for l.Next() {
			rest = append(rest, l.Item())
		}
		return rest
	case KindObject:
		if p, ok := v.object().(*pyBytes); ok {
			return p.items()
		}
	}
	throw(TypeError, "'%s' object is not iterable", v.TypeName())
	return nil
}

// Iterate returns the items of v for a for loop, and charges them to the writer's
// iteration budget.
func Iterate(w *Writer, v Value) []Value {
	var items []Value
	if v.kind() == KindList { // the commonest, without iterate's call
		items = v.list().items()
	} else {
		items = iterate(v)
	}
	w.charge(len(items))
	return items
}

// IterateReversed is Iterate for v[::-1] visited from its end: it returns the items of
// v[::-1] in reverse, so that item len-1-i is the i-th of v[::-1]. For a list or tuple
// these are v's own items, without building the reversed list.
func IterateReversed(w *Writer, v Value) []Value {
	if isPlainSeq(v) {
		return Iterate(w, v)
	}
	items := slices.Clone(Iterate(w, v.Slice(None(), None(), Int(-1))))
	slices.Reverse(items)
	return items
}

// chars splits s into one-character strings.
func chars(s string) []Value {
	if len(s) > MaxListItems {
		checkItems(utf8.RuneCountInString(s))
	}
	out := make([]Value, 0, len(s))
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		out = append(out, Str(s[i:i+size]))
		i += size
	}
	return out
}

// Iterator is a one-shot iterator, such as what map(), select() or reverse() return:
// always true, has no length, and is empty once iterated.
type Iterator struct {
	items    []Value
	pos      int
	typeName string
}

// Loop is the state of a for loop that reads the special loop variable (loop.index,
// loop.last...), or that filters its items with an inline if: Jinja2's LoopContext.
type Loop struct {
	w        *Writer
	src      []Value
	srcPos   int
	filter   func(Value) bool
	ahead    []Value // items fetched past the current one (for loop.last, nextitem, length)
	index    int     // index0 of the current item
	cur      Value
	prev     Value
	hasPrev  bool
	total    int // length, once known (-1 before)
	changed  []Value
	hasLast  bool
	depth    int              // loop.depth: 1, or deeper in a recursive loop's loop(x)
	reversed bool             // src is visited from its end
	recurse  func(Value, int) // renders a recursive loop over an iterable at a depth
}

// NewLoop starts a loop over v. filter, when not nil, is the loop's inline if: only the
// items it accepts are visited, and it is evaluated as late as Jinja2 evaluates it.
func NewLoop(w *Writer, v Value, filter func(Value) bool) *Loop {
	l := &Loop{}
	l.Start(w, v, filter)
	return l
}

// Start starts the loop l (a variable of the generated code, so that a loop costs no
// allocation) over v, as NewLoop does.
func (l *Loop) Start(w *Writer, v Value, filter func(Value) bool) {
	*l = Loop{w: w, src: iterate(v), filter: filter, index: -1, total: -1, depth: 1}
	if filter == nil {
		l.total = len(l.src)
	}
}

// StartReversed starts the loop l over v[::-1] without building the reversed sequence.
func (l *Loop) StartReversed(w *Writer, v Value, filter func(Value) bool) {
	if !isPlainSeq(v) {
		l.Start(w, v.Slice(None(), None(), Int(-1)), filter)
		return
	}
	l.Start(w, v, filter)
	l.reversed = true
}

// NewRecursiveLoop starts a loop of a recursive for at depth (1 for the outermost).
// recurse runs the whole loop over another iterable at a given depth; calling the loop
// variable, loop(x), renders it one level deeper and returns what it wrote.
func NewRecursiveLoop(w *Writer, v Value, filter func(Value) bool, depth int, recurse func(Value, int)) *Loop {
	l := NewLoop(w, v, filter)
	l.depth, l.recurse = depth, recurse
	return l
}

// call is loop(iterable) in a recursive loop. Its arguments are bound as Python binds
// those of LoopContext.__call__ (loopCall) before it finds that the loop is not
// recursive.
func (l *Loop) call(args []Value, kwargs []Kwarg) Value {
	iterable := loopCall.bind(args, kwargs)[0]
	if l.recurse == nil {
		throw(TypeError, "The loop must have the 'recursive' marker to be called recursively.")
	}
	return l.w.capture(func() { l.recurse(iterable, l.depth+1) })
}

// loopCall is the signature of Jinja2's LoopContext.__call__(self, iterable).
var loopCall = &pyFunc{name: "LoopContext.__call__", added: []string{"self"}, required: 1, params: []string{"iterable"}}

// fetch returns the next item of the source the filter accepts.
func (l *Loop) fetch() (Value, bool) {
	for l.srcPos < len(l.src) {
		v := l.src[l.srcPos]
		if l.reversed {
			v = l.src[len(l.src)-1-l.srcPos]
		}
		l.srcPos++
		if l.filter == nil || l.filter(v) {
			return v, true
		}
	}
	return Value{}, false
}

// Next advances to the next item; it returns false when the loop is done.
func (l *Loop) Next() bool {
	var v Value
	if len(l.ahead) > 0 {
		v = l.ahead[0]
		l.ahead = l.ahead[1:]
	} else {
		var ok bool
		if v, ok = l.fetch(); !ok {
			return false
		}
	}
	l.w.charge(1)
	if l.index >= 0 {
		l.prev, l.hasPrev = l.cur, true
	}
	l.cur = v
	l.index++
	return true
}

// Item returns the current item.
func (l *Loop) Item() Value { return l.cur }

// peek returns the item after the current one.
func (l *Loop) peek() (Value, bool) {
	if len(l.ahead) == 0 {
		v, ok := l.fetch()
		if !ok {
			return Value{}, false
		}
		l.ahead = append(l.ahead, v)
	}
	return l.ahead[0], true
}

// length returns the number of items the loop visits in all.
func (l *Loop) length() int {
	if l.total < 0 {
		for {
			v, ok := l.fetch()
			if !ok {
				break
			}
			l.ahead = append(l.ahead, v)
		}
		l.total = l.index + 1 + len(l.ahead)
	}
	return l.total
}

// Index returns loop.index (1-based).
func (l *Loop) Index() Value { return Int(int64(l.index + 1)) }

// Index0 returns loop.index0.
func (l *Loop) Index0() Value { return Int(int64(l.index)) }

// First returns loop.first.
func (l *Loop) First() Value { return Bool(l.index == 0) }

// Last returns loop.last.
func (l *Loop) Last() Value {
	_, more := l.peek()
	return Bool(!more)
}

// Length returns loop.length.
func (l *Loop) Length() Value { return Int(int64(l.length())) }

func (l *Loop) attr(name string) (Value, bool) {
	switch name {
	case "index":
		return l.Index(), true
	case "index0":
		return l.Index0(), true
	case "first":
		return l.First(), true
	case "last":
		return l.Last(), true
	case "length":
		return l.Length(), true
	case "revindex":
		return Int(int64(l.length() - l.index)), true
	case "revindex0":
		return Int(int64(l.length() - l.index - 1)), true
	case "depth":
		return Int(int64(l.depth)), true
	case "depth0":
		return Int(int64(l.depth - 1)), true
	case "previtem":
		if !l.hasPrev {
			return undefinedMessage("there is no previous item"), true
		}
		return l.prev, true
	case "nextitem":
		v, ok := l.peek()
		if !ok {
			return undefinedMessage("there is no next item"), true
		}
		return v, true
	case "cycle", "changed":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value {
			v, _ := l.callMethod(name, a, k)
			return v
		}), true
	}
	return Value{}, false
}

// Cycle returns loop.cycle(items...): the item at the loop's index modulo their number.
func (l *Loop) Cycle(items ...Value) Value {
	if len(items) == 0 {
		throw(TypeError, "no items for cycling given")
	}
	return items[l.index%len(items)]
}

func (l *Loop) callMethod(name string, args []Value, kwargs []Kwarg) (Value, bool) {
	switch name {
	case "cycle":
		noKwargs(name, kwargs)
		return l.Cycle(args...), true
	case "changed":
		noKwargs(name, kwargs)
		if l.hasLast && Eq(NewTuple(l.changed...), NewTuple(args...)) {
			return Bool(false), true
		}
		l.changed, l.hasLast = append([]Value(nil), args...), true
		return Bool(true), true
	}
	return Value{}, false
}

// DictItems returns the keys and values {% for k, v in x.items() %} visits: a dict's own
// storage, without building (key, value) tuples; for anything else, what x.items()
// gives, unpacked.
func DictItems(x Value) (keys, values []Value) {
	if x.kind() == KindDict {
		d := x.dict()
		return d.keys(), d.vals()
	}
	return unpackPairs(iterate(CallMethod(x, "items", nil, nil)))
}

// ItemsFilterPairs is DictItems for {% for k, v in x | items %}.
func ItemsFilterPairs(x Value) (keys, values []Value) {
	if x.kind() == KindDict {
		d := x.dict()
		return d.keys(), d.vals()
	}
	return unpackPairs(iterate(FilterItems(x)))
}

// DictsortPairs is DictItems for {% for k, v in x | dictsort(args) %}: the pairs in
// sorted order.
func DictsortPairs(x Value, args []Value, kwargs []Kwarg) (keys, values []Value) {
	d, order := dictsortOrder(x, args, kwargs)
	keys, values = make([]Value, len(order)), make([]Value, len(order))
	dkeys := d.keys()
	for i, j := range order {
		keys[i], values[i] = dkeys[j], d.at(j)
	}
	return keys, values
}

// unpackPairs splits (key, value) pairs, unpacking each as Python's k, v = pair does.
func unpackPairs(items []Value) (keys, values []Value) {
	keys, values = make([]Value, len(items)), make([]Value, len(items))
	for i, it := range items {
		pair := Unpack(it, 2)
		keys[i], values[i] = pair[0], pair[1]
	}
	return keys, values
}

// Count charges n loop iterations to the budget and returns n, for a loop over n items.
func (w *Writer) Count(n int) int {
	w.charge(n)
	return n
}
