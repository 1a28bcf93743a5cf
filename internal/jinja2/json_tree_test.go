package jinja2

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// jsonTreeReference is json.dumps written the plain recursive way, as Python's
// json.encoder does: the reference for appendJSON's separators, indentation, key order
// and nesting (strs through jsonStringReference).
func jsonTreeReference(v Value, o *jsonOptions, depth int) string {
	newline := func(depth int) string {
		if !o.pretty {
			return ""
		}
		return "\n" + strings.Repeat(o.indent, depth)
	}
	switch v.kind() {
	case KindNone:
		return "null"
	case KindBool:
		return strconv.FormatBool(v.num() != 0)
	case KindInt:
		return v.bigInt().String()
	case KindString:
		return jsonStringReference(v.str(), o.ensureASCII)
	case KindList:
		items := v.list().items()
		if len(items) == 0 {
			return "[]"
		}
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = newline(depth+1) + jsonTreeReference(it, o, depth+1)
		}
		return "[" + strings.Join(parts, o.itemSep) + newline(depth) + "]"
	case KindDict:
		d := v.dict()
		if d.Len() == 0 {
			return "{}"
		}
		order := make([]int, d.Len())
		for i := range order {
			order[i] = i
		}
		if o.sortKeys {
			sort.SliceStable(order, func(i, j int) bool { return d.keys()[order[i]].str() < d.keys()[order[j]].str() })
		}
		parts := make([]string, len(order))
		for n, i := range order {
			parts[n] = newline(depth+1) + jsonStringReference(d.keys()[i].str(), o.ensureASCII) + o.keySep + jsonTreeReference(d.at(i), o, depth+1)
		}
		return "{" + strings.Join(parts, o.itemSep) + newline(depth) + "}"
	}
	panic("unexpected kind " + v.TypeName())
}

// TestAppendJSONTrees compares tojson with the reference on random nests of lists and
// dicts (str keys, the words parsed JSON shares among them), under each option tojson
// passes on: indent (a number or a str), separators, sort_keys and ensure_ascii.
func TestAppendJSONTrees(t *testing.T) {
	words := []string{"type", "function", "string", "role", "user", "a", "b\"q", "é", "x\ny", "", "long description, e.g. \"Paris\" or 😀", "properties"}
	rng := rand.New(rand.NewPCG(3, 4))
	var tree func(depth int) Value
	tree = func(depth int) Value {
		switch k := rng.IntN(8); {
		case depth < 4 && k < 2:
			items := make([]Value, rng.IntN(4))
			for i := range items {
				items[i] = tree(depth + 1)
			}
			return ListOf(items)
		case depth < 4 && k < 4:
			d := NewDict(0)
			for range rng.IntN(5) {
				d.Set(internStr(words[rng.IntN(len(words))]), tree(depth+1))
			}
			return DictValue(d)
		case k == 4:
			return Int(rng.Int64N(2000) - 1000)
		case k == 5:
			return Bool(rng.IntN(2) == 0)
		case k == 6:
			return None()
		}
		return internStr(words[rng.IntN(len(words))])
	}
	options := []struct {
		args   []Value
		kwargs []Kwarg
	}{
		{},
		{kwargs: []Kwarg{KW("indent", Int(2))}},
		{kwargs: []Kwarg{KW("indent", Str("\t")), KW("sort_keys", Bool(true))}},
		{kwargs: []Kwarg{KW("separators", NewTuple(Str(","), Str(":")))}},
		{kwargs: []Kwarg{KW("ensure_ascii", Bool(true)), KW("sort_keys", Bool(true))}},
		{kwargs: []Kwarg{KW("indent", Int(0)), KW("separators", NewTuple(Str(" ,  "), Str(" = ")))}},
	}
	for n := range 3000 {
		v := tree(0)
		for _, opt := range options {
			var given jsonOptions
			o := jsonOptionsFor(Value{}, opt.args, opt.kwargs, &given)
			got := ToJSON(v, opt.args, opt.kwargs).str()
			if want := jsonTreeReference(v, o, 0); got != want {
				t.Fatalf("tree %d, options %v: got\n%s\nwant\n%s", n, opt.kwargs, got, want)
			}
		}
	}
}
