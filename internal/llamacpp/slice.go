package llamacpp

import "github.com/tmplgen/tmplgen/internal/jinja2"

// llama.cpp's engine indexes and slices a str by bytes, not characters, and reads a
// slice as its own slice() does (value.cpp), which differs from Python's for a negative
// step with an explicit stop of -1.

// Slice is v[start:stop:step] in llama.cpp's engine; a part the template leaves out
// is Missing(). A str is sliced by bytes. The defaults are llama.cpp's: start 0 and
// stop the length, or for a negative step the last index and -1, where -1 as a stop
// with a negative step means before the first item. (Generated code of versions 2 to
// 5 calls it; version 6 calls SliceIn.)
func Slice(v, start, stop, step jinja2.Value) jinja2.Value { return SliceIn(nil, v, start, stop, step) }

// SliceIn is Slice in a render of w, as generated code takes a slice: a list's slice of
// consecutive items shares them, and keeps its List in w as jinja2.SliceIn does.
func SliceIn(w *jinja2.Writer, v, start, stop, step jinja2.Value) jinja2.Value {
	var n int64
	switch v.Kind() {
	case jinja2.KindString:
		n = int64(len(v.Text()))
	case jinja2.KindList, jinja2.KindTuple:
		n = int64(len(v.Items()))
	default:
		jinja2.Throw(EngineError, "Unknown (built-in) filter 'slice' for type %s", llamaTypeName(v))
	}
	by := int64(1)
	if !step.IsMissing() {
		by = llamaSliceInt(step)
	}
	from, to := int64(0), n
	if by < 0 {
		from, to = n-1, -1
	}
	if !start.IsMissing() {
		from = llamaSliceInt(start)
	}
	if !stop.IsMissing() {
		to = llamaSliceInt(stop)
	}
	if by == 0 {
		jinja2.Throw(EngineError, "slice step cannot be zero")
	}
	from, to = llamaSliceBounds(n, from, to, by)
	if by == 1 && v.Kind() == jinja2.KindString {
		return jinja2.Substr(v, int(from), int(max(from, to))) // its bytes, shared
	}
	if by == 1 {
		// a run of items: a list's slice shares them, as Jinja2's does (nothing changes
		// a list's items in place: pop and sort make new storage, append writes past the
		// end, which a slice's capacity excludes); a tuple's is a copy (NewTuple)
		items := v.Items()
		to = max(from, to)
		if v.Kind() == jinja2.KindTuple {
			return jinja2.NewTuple(items[from:to]...)
		}
		return jinja2.ListIn(w, items[from:to:to])
	}
	var picked []int64
	for i := from; (by > 0 && i < to) || (by < 0 && i > to); i += by {
		if i >= 0 && i < n {
			picked = append(picked, i)
		}
	}
	if v.Kind() == jinja2.KindString {
		s := v.Text()
		out := make([]byte, len(picked))
		for k, i := range picked {
			out[k] = s[i]
		}
		return jinja2.Str(string(out))
	}
	items := v.Items()
	out := make([]jinja2.Value, len(picked))
	for k, i := range picked {
		out[k] = items[i]
	}
	if v.Kind() == jinja2.KindTuple {
		return jinja2.NewTuple(out...) // a tuple's slice is a tuple
	}
	return jinja2.NewList(out...)
}

// llamaSliceBounds clamps a slice's start and stop to a sequence of n items as
// llama.cpp's slice() does.
func llamaSliceBounds(n, from, to, by int64) (int64, int64) {
	if by > 0 {
		if from < 0 {
			from = max(n+from, 0)
		} else {
			from = min(from, n)
		}
		if to < 0 {
			to = max(n+to, 0)
		} else {
			to = min(to, n)
		}
		return from, to
	}
	if from < 0 {
		from = max(n+from, 0)
	} else {
		from = min(from, n-1)
	}
	if to < -1 {
		to = max(n+to, -1)
	} else {
		to = min(to, n-1)
	}
	return from, to
}

// llamaSliceInt is a slice's start, stop or step, which llama.cpp takes as an int.
func llamaSliceInt(v jinja2.Value) int64 {
	n, ok := v.AsInt()
	if v.Kind() != jinja2.KindInt || !ok {
		expectedType("slice", jinja2.KindInt, llamaGot(v))
	}
	return n
}

// llamaStrIndex is s[i] in llama.cpp's engine: the i-th byte, for i from 0 to its
// length in bytes; undefined for any other i (a negative one too).
func llamaStrIndex(s string, i int64) jinja2.Value {
	if i < 0 || i >= int64(len(s)) {
		return jinja2.Undefined("object_property")
	}
	return jinja2.Str(s[i : i+1])
}

// llamaSliceBuiltin is llama.cpp's slice filter and method of a list or str,
// slice(start, stop, step): Python's slice with all three ints given (with fewer, its
// reading of the missing ones fails), keyword arguments not read.
func llamaSliceBuiltin(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	n := 1 + argCount(args, kwargs)
	switch {
	case n > 4:
		jinja2.Throw(EngineError, "Function 'slice' expected between 1 and 4 arguments, got %d", n)
	case n < 2:
		jinja2.Throw(EngineError, "Function 'slice' expected between 2 and 999 arguments, got %d", n)
	case len(args) == 0 || args[0].Kind() != jinja2.KindInt:
		got := "KwArg"
		if len(args) > 0 {
			got = llamaGot(args[0])
		}
		expectedType("slice", jinja2.KindInt, got)
	case n < 4:
		jinja2.Throw(EngineError, "Undefined is not an int value")
	case len(args) < 3:
		jinja2.Throw(EngineError, "KwArg is not an int value")
	}
	return Slice(v, jinja2.Int(asInt(args[0])), jinja2.Int(asInt(args[1])), jinja2.Int(asInt(args[2])))
}
