package jinja2

import (
	"slices"
	"strings"
	"testing"
)

// TestDictStrKeys: a str key is found whether the lookup's bytes are the key's own (a
// key of parsed JSON that internStr shares with the literals) or a copy, and an equal
// length is not enough.
func TestDictStrKeys(t *testing.T) {
	v, err := ParseJSON([]byte(`{"role": 1, "rolf": 2, "content": 3, "zzzz": 4}`))
	if err != nil {
		t.Fatal(err)
	}
	d := v.dict()
	tests := []struct {
		key  string
		want int64 // -1: not found
	}{
		{"role", 1}, {strings.Clone("role"), 1}, {"rolf", 2}, {strings.Clone("content"), 3}, {"content", 3},
		{"zzzz", 4}, {"type", -1}, {"rol", -1}, {"", -1},
	}
	for _, tt := range tests {
		key, want := tt.key, tt.want
		got, ok := d.GetStr(key)
		if want < 0 {
			if ok {
				t.Errorf("%q: found %v, want none", key, got)
			}
			continue
		}
		if n, isInt := got.AsInt(); !ok || !isInt || n != want {
			t.Errorf("%q: got %v (found %v), want %d", key, got, ok, want)
		}
	}
}

// letterDict returns the dict {"a": 0, "b": 1, ...} of n entries, indexed when n is at
// least indexThreshold.
func letterDict(n int) *Dict {
	d := NewDict(0)
	for i := range n {
		d.SetStr(string(rune('a'+i)), Int(int64(i)))
	}
	return d
}

// TestDictClear: a cleared dict is empty, holds nothing of what it had, and takes new
// entries in its old storage, with or without the index of a large dict.
func TestDictClear(t *testing.T) {
	for _, n := range []int{3, indexThreshold + 2} {
		d := letterDict(n)
		slots := &d.slots()[0]
		d.Clear()
		if d.Len() != 0 || d.Has(Str("a")) {
			t.Fatalf("%d entries: after Clear, Len %d, has a %v", n, d.Len(), d.Has(Str("a")))
		}
		for _, v := range d.slots() {
			if v != (Value{}) {
				t.Fatalf("%d entries: after Clear, the storage still holds %v", n, v)
			}
		}
		d.SetStr("b", Int(7))
		d.SetStr("z", Int(8))
		if got := string(AppendJSON(nil, DictValue(d))); got != `{"b": 7, "z": 8}` {
			t.Errorf("%d entries: after Clear and two sets, %s", n, got)
		}
		if &d.slots()[0] != slots {
			t.Errorf("%d entries: Clear let go of the storage", n)
		}
	}
}

// TestDictTruncate: a truncated dict keeps its first entries and storage, finds none of
// the others (with or without the index of a large dict), holds nothing of them, and
// takes new entries after its first ones.
func TestDictTruncate(t *testing.T) {
	for _, n := range []int{3, indexThreshold + 2} {
		d := letterDict(n)
		slots := &d.slots()[0]
		d.Truncate(2)
		if d.Len() != 2 || !d.Has(Str("b")) || d.Has(Str("c")) {
			t.Fatalf("%d entries: after Truncate(2), Len %d, has b %v, has c %v", n, d.Len(), d.Has(Str("b")), d.Has(Str("c")))
		}
		for _, v := range slices.Concat(d.slots()[2:d.half], d.slots()[d.half+2:]) {
			if v != (Value{}) {
				t.Fatalf("%d entries: after Truncate, the storage still holds %v", n, v)
			}
		}
		d.SetStr("c", Int(9))
		d.SetStr("z", Int(8))
		if got := string(AppendJSON(nil, DictValue(d))); got != `{"a": 0, "b": 1, "c": 9, "z": 8}` {
			t.Errorf("%d entries: after Truncate and two sets, %s", n, got)
		}
		if &d.slots()[0] != slots {
			t.Errorf("%d entries: Truncate let go of the storage", n)
		}
	}
}

// TestDictAddStr: entries added without a lookup are found as set ones are, in a small
// dict and in one large enough to be indexed, and Set then replaces them in place.
func TestDictAddStr(t *testing.T) {
	d := NewDict(0)
	n := indexThreshold + 3
	for i := range n {
		d.AddStr(string(rune('a'+i)), Int(int64(i)))
	}
	for i := range n {
		if v, ok := d.GetStr(string(rune('a' + i))); !ok || v.String() != Int(int64(i)).String() {
			t.Errorf("%c: got %v, %v; want %d", 'a'+i, v, ok, i)
		}
	}
	d.SetStr("b", Str("x"))
	if d.Len() != n || !strings.HasPrefix(string(AppendJSON(nil, DictValue(d))), `{"a": 0, "b": "x", "c": 2`) {
		t.Errorf("after Set of an added key: %d entries, %s", d.Len(), AppendJSON(nil, DictValue(d)))
	}
}

// TestFunctionTool: only a tool in exactly the shape servers rebuild is one.
func TestFunctionTool(t *testing.T) {
	for _, tt := range []struct {
		json string
		want bool
	}{
		{`{"type": "function", "function": {"name": "f", "description": "d", "parameters": {}}}`, true},
		{`{"type": "function", "function": {"name": "f", "description": null, "parameters": null}}`, true},
		{`{"function": {"name": "f", "description": "d", "parameters": {}}, "type": "function"}`, false},
		{`{"type": "tool", "function": {"name": "f", "description": "d", "parameters": {}}}`, false},
		{`{"type": "function", "function": {"name": "f", "parameters": {}, "description": "d"}}`, false},
		{`{"type": "function", "function": {"name": "f", "description": "d", "parameters": {}, "strict": true}}`, false},
		{`{"type": "function", "function": {"name": "f"}}`, false},
		{`{"type": "function", "function": "f"}`, false},
		{`[1]`, false},
	} {
		v, err := ParseJSON([]byte(tt.json))
		if err != nil {
			t.Fatal(err)
		}
		if name, _, _, ok := FunctionTool(v); ok != tt.want || ok && name.Text() != "f" {
			t.Errorf("%s: FunctionTool says %v (name %v), want %v", tt.json, ok, name, tt.want)
		}
	}
}

// TestArenaContainersApart: the lists and dicts of one Arena share its chunks but
// never each other's cells: a dict that grows past its room moves out, and its
// neighbours keep their entries.
func TestArenaContainersApart(t *testing.T) {
	var a Arena
	a.Expect(16)
	d1, d2 := a.NewDict(1), a.NewDict(1)
	l := a.NewList([]Value{Int(7)})
	d1.SetStr("a", Int(1))
	d2.SetStr("c", Int(3))
	d1.SetStr("b", Int(2)) // past d1's room
	d1.SetStr("d", Int(4))
	for _, c := range []struct {
		v    Value
		want string
	}{{DictValue(d1), `{"a": 1, "b": 2, "d": 4}`}, {DictValue(d2), `{"c": 3}`}, {l, `[7]`}} {
		if got := string(AppendJSON(nil, c.v)); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

// TestArenaCopies: a dict copied into an Arena has the entries of the original, takes
// its room for more without changing the original, and is indexed when large; a list of
// dicts made there is a new list of them, unless the original list already is one.
func TestArenaCopies(t *testing.T) {
	for _, n := range []int{2, indexThreshold + 1} {
		var a Arena
		orig := letterDict(n)
		before := string(AppendJSON(nil, DictValue(orig)))
		c := a.CopyDict(orig, 2)
		c.SetStr("a", Int(-1))
		c.SetStr("zz", Int(99))
		if got := string(AppendJSON(nil, DictValue(orig))); got != before {
			t.Errorf("%d entries: the copy changed the original: %s", n, got)
		}
		want := strings.Replace(before, `"a": 0`, `"a": -1`, 1)
		want = want[:len(want)-1] + `, "zz": 99}`
		if got := string(AppendJSON(nil, DictValue(c))); got != want {
			t.Errorf("%d entries: the copy is %s, want %s", n, got, want)
		}
		if v, ok := c.GetStr(string(rune('a' + n - 1))); !ok || v != Int(int64(n-1)) {
			t.Errorf("%d entries: the copy's last key: %v %v", n, v, ok)
		}
		list := NewList(DictValue(orig), DictValue(c))
		if got := a.ListOfDicts(list, []*Dict{orig, c}); got != list {
			t.Errorf("%d entries: ListOfDicts of the list's own dicts made another list", n)
		}
		got := a.ListOfDicts(list, []*Dict{c})
		if items := got.Items(); len(items) != 1 || items[0].AsDict() != c || got == list {
			t.Errorf("%d entries: ListOfDicts of other dicts: %v", n, items)
		}
		prefix := a.ListOfDicts(list, []*Dict{orig})
		if items := prefix.Items(); len(items) != 1 || cap(items) != 1 || &items[0] != &list.Items()[0] || prefix == list {
			t.Errorf("%d entries: ListOfDicts of the list's first dict is not a list of 1 sharing its item: %v", n, items)
		}
	}
}

// TestArenaReset: an Arena reset keeps its chunk, its cells cleared, for the containers
// made next, which take no allocation; a chunk beyond maxKeptCells is let go.
func TestArenaReset(t *testing.T) {
	var a Arena
	a.Expect(64)
	d := a.NewDict(2)
	d.AddStr("k", Str("v"))
	a.Reset()
	if d.Len() != 0 {
		t.Errorf("the reset left the cells of a dict made before it: %d entries", d.Len())
	}
	allocs := testing.AllocsPerRun(100, func() {
		a.Reset()
		d := a.NewDict(2)
		d.AddStr("k", Str("v"))
		a.NewList([]Value{DictValue(d)})
	})
	if allocs != 0 {
		t.Errorf("containers made after a reset took %v allocations, want 0", allocs)
	}
	var big Arena
	big.Expect(maxKeptCells + 1)
	big.NewDict(1)
	big.Reset()
	if big.cells.chunk != nil || big.cells.cells != nil {
		t.Errorf("the reset kept a chunk of %d cells", cap(big.cells.chunk))
	}
}

// TestDictOf: a dict display keeps a repeated key's first place and last value, as
// Python does, refuses a key that is not hashable, and takes one allocation.
func TestDictOf(t *testing.T) {
	d := DictOf(Str("a"), Int(1), Str("b"), Int(2), Str("a"), Int(3))
	if got := string(AppendJSON(nil, d)); got != `{"a": 3, "b": 2}` {
		t.Errorf("DictOf = %s", got)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("DictOf took a list for a key")
			}
		}()
		DictOf(NewList(), Int(1))
	}()
	if n := testing.AllocsPerRun(100, func() { DictOf(Str("type"), Str("x"), Str("n"), Int(1)) }); n != 1 {
		t.Errorf("DictOf took %v allocations, want 1", n)
	}
}
