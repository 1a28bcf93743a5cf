package llamacpp

import (
	"slices"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// llamaCompare is llama.cpp's value_compare for < (gt false) and > (gt true), the order
// its sort, dictsort, min and max use: numbers by value, a str with a str or a number by
// the bytes of their string forms (case-sensitive, whatever case_sensitive says), two
// bools refused, and any other pair unordered (false).
func llamaCompare(a, b jinja2.Value, gt bool) bool {
	if isNumber(a) && isNumber(b) {
		x, y := asDouble(a), asDouble(b)
		if gt {
			return x > y
		}
		return x < y
	}
	if a.Kind() == jinja2.KindString && (b.Kind() == jinja2.KindString || isNumber(b)) || b.Kind() == jinja2.KindString && isNumber(a) {
		x, y := llamaString(a), llamaString(b)
		if gt {
			return x > y
		}
		return x < y
	}
	if a.Kind() == jinja2.KindBool && b.Kind() == jinja2.KindBool {
		jinja2.Throw(EngineError, "Unsupported comparison operator for bool type")
	}
	return false
}

// llamaSort is llama.cpp's sort(reverse, case_sensitive, attribute) of a list or tuple:
// by llamaCompare, of the items themselves or of their attribute (an index of list
// items, a key of dict items).
func llamaSort(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if n := 1 + argCount(args, kwargs); n > 4 {
		jinja2.Throw(EngineError, "Function 'sort' expected between 1 and 4 arguments, got %d", n)
	}
	reverse, _ := kwargOrPos(args, kwargs, "reverse", 0)
	attr, hasAttr := kwargOrPos(args, kwargs, "attribute", 2)
	hasAttr = hasAttr && !attr.IsUndefined()
	// key is what an item is ordered by: itself, or its attribute (an index of a list or
	// tuple, a key of a dict); ok is false for an item the attribute does not apply to
	key := func(it jinja2.Value) (jinja2.Value, bool) {
		switch {
		case !hasAttr:
			return it, true
		case attr.Kind() == jinja2.KindInt && (it.Kind() == jinja2.KindList || it.Kind() == jinja2.KindTuple):
			i, _ := attr.AsInt()
			items := it.Items()
			if i < 0 {
				i += int64(len(items))
			}
			if i < 0 || i >= int64(len(items)) {
				jinja2.Throw(EngineError, "Index %d out of bounds for array of size %d", i, len(items))
			}
			return items[i], true
		case attr.Kind() != jinja2.KindInt && it.Kind() == jinja2.KindDict:
			// the key itself (no dotted path), which must be there
			v, ok := it.AsDict().Get(attr)
			if !ok {
				jinja2.Throw(EngineError, "Key '%s' not found in value of type Object", llamaString(attr))
			}
			return v, true
		}
		return jinja2.Value{}, false
	}
	items := slices.Clone(v.Items())
	gt := reverse.Truthy()
	cxxSort(items, func(a, b jinja2.Value) bool {
		ka, okA := key(a)
		kb, okB := key(b)
		if !okA || !okB {
			jinja2.Throw(EngineError, "sort: unsupported object attribute comparison between %s and %s", llamaTypeName(a), llamaTypeName(b))
		}
		return llamaCompare(ka, kb, gt)
	})
	if v.Kind() == jinja2.KindTuple {
		return jinja2.NewTuple(items...)
	}
	return jinja2.ListOf(items)
}

// llamaMinMax is llama.cpp's min and max (max when gt) of a list: the first item no
// other is below (above), undefined for an empty list; an attribute is refused.
func llamaMinMax(name string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg, gt bool) jinja2.Value {
	if n := 1 + argCount(args, kwargs); n > 4 {
		jinja2.Throw(EngineError, "Function '%s' expected between 1 and 4 arguments, got %d", name, n)
	}
	if attr, ok := kwargOrPos(args, kwargs, "attribute", 1); ok && !attr.IsUndefined() {
		notImplemented("%s: attribute not implemented", name)
	}
	items := v.Items()
	if len(items) == 0 {
		return jinja2.Undefined("") // without a name: a list writes it "Undefined"
	}
	r := items[0]
	for _, it := range items[1:] {
		if llamaCompare(it, r, gt) {
			r = it
		}
	}
	return r
}

// llamaDictsort is llama.cpp's dictsort(case_sensitive, by, reverse): a dict (not a
// list of pairs) with d's items ordered by llamaCompare of their keys, or of their
// values when by is "value".
func llamaDictsort(d jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	by, _ := kwargOrPos(args, kwargs, "by", 1)
	reverse, _ := kwargOrPos(args, kwargs, "reverse", 2)
	byValue := jinja2.EqStr(by, "value")
	gt := reverse.Truthy()
	src := d.AsDict()
	keys, vals := src.Keys(), src.Values()
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	cxxSort(order, func(i, j int) bool {
		if byValue {
			return llamaCompare(vals[i], vals[j], gt)
		}
		return llamaCompare(keys[i], keys[j], gt)
	})
	out := jinja2.NewDict(len(keys))
	for _, i := range order {
		out.Set(keys[i], vals[i])
	}
	return jinja2.DictValue(out)
}
