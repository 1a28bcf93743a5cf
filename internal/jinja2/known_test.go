package jinja2

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestKeys: the Keys are the names generated code looks up by their constants, in the
// order of the constants, and KeyOf knows them and nothing else.
func TestKeys(t *testing.T) {
	want := []string{"role", "content", "type", "text", "name", "id", "function", "arguments",
		"tool_calls", "tool_call_id", "reasoning_content", "description", "parameters",
		"properties", "required", "enum"}
	consts := []Key{KeyRole, KeyContent, KeyType, KeyText, KeyName, KeyID, KeyFunction, KeyArguments,
		KeyToolCalls, KeyToolCallID, KeyReasoningContent, KeyDescription, KeyParameters,
		KeyProperties, KeyRequired, KeyEnum}
	if len(want) != int(NumKeys) || len(consts) != int(NumKeys) {
		t.Fatalf("%d Keys, want %d", NumKeys, len(want))
	}
	for i, name := range want {
		if k := consts[i]; k.String() != name {
			t.Errorf("Key %d is %q, want %q", k, k.String(), name)
		}
		if k, ok := KeyOf(strings.Clone(name)); !ok || k != consts[i] {
			t.Errorf("KeyOf(%q) = %v, %v", name, k, ok)
		}
		if MayBeDictAttribute(name) {
			t.Errorf("%q may be a dict's attribute: its lookup by Key (itemKeyMiss) would miss it", name)
		}
	}
	for _, name := range []string{"roles", "rol", "system", "", "r", "Role", "tool_call", "messages"} {
		if k, ok := KeyOf(name); ok {
			t.Errorf("KeyOf(%q) = %v, want none", name, k)
		}
		if k, ok := KeyOfValue(internStr(name)); ok {
			t.Errorf("KeyOfValue(%q) = %v, want none", name, k)
		}
	}
	for _, v := range []Value{Str(strings.Clone("content")), internStr("content"), boxStr(KindString, 0, &boxedStr{s: "content"})} {
		if k, ok := KeyOfValue(v); !ok || k != KeyContent {
			t.Errorf("KeyOfValue(%s) = %v, %v, want content", v.Repr(), k, ok)
		}
	}
	if k, ok := KeyOfValue(Int(1)); ok {
		t.Errorf("KeyOfValue(1) = %v", k)
	}
}

// TestRecordOfKeys builds dicts every way the package builds them, with keys that are
// Keys made from the constants, Keys made anew (equal, not plainWords'), other strs and
// other types, and then mutates them; after each step every Key lookup (GetKey,
// ItemAttrKey, ItemStrKey, RecordedKey) must agree with a comparison of every key.
func TestRecordOfKeys(t *testing.T) {
	names := []string{"role", "content", "tool_calls", "type", "enum", "name", "other", "x", "roles", "id"}
	keyOf := func(r *rand.Rand) Value {
		switch n := names[r.IntN(len(names))]; r.IntN(5) {
		case 0:
			return Str(strings.Clone(n)) // not interned
		case 1:
			return Int(int64(r.IntN(3)))
		default:
			return internStr(n)
		}
	}
	check := func(step string, d *Dict) {
		t.Helper()
		// KeysAt: never true where the keys are not those, and true where they are Keys
		// of plainWords' strs, within what the record holds
		var ks []Key
		var ns []string
		interned := true
		for _, key := range d.keys() {
			k, ok := plainKey(key)
			if !ok {
				k, ok = keyOfOther(key)
				interned = false
			}
			if !ok {
				ks = nil
				break
			}
			ks, ns = append(ks, k), append(ns, k.String())
		}
		if ks != nil {
			at, are := d.KeysAt(ks...), d.KeysAre(ns...)
			if at && !are || !at && interned && d.Len() < knownBeyond-1 {
				t.Fatalf("%s: KeysAt(%v) = %v, KeysAre %v: %s", step, ks, at, are, DictValue(d).Repr())
			}
		}
		for _, pair := range [][]Key{{KeyRole, KeyContent}, {KeyType, KeyFunction}} {
			if d.KeysAt(pair...) && !d.KeysAre(pair[0].String(), pair[1].String()) {
				t.Fatalf("%s: KeysAt(%v) where the keys differ: %s", step, pair, DictValue(d).Repr())
			}
		}
		for k := range NumKeys {
			want := -1
			for i, key := range d.keys() {
				if key.kind() == KindString && key.str() == k.String() {
					want = i
				}
			}
			v := DictValue(d)
			got, ok := d.GetKey(k)
			rec, recOK := v.RecordedKey(k)
			switch {
			case want < 0 && (ok || recOK):
				t.Fatalf("%s: %v: found %s (recorded %v) in a dict without it: %s", step, k, got.Repr(), recOK, v.Repr())
			case want >= 0 && (!ok || got != d.at(want)):
				t.Fatalf("%s: %v: got %s, %v, want %s: %s", step, k, got.Repr(), ok, d.at(want).Repr(), v.Repr())
			case recOK && rec != d.at(want):
				t.Fatalf("%s: %v: recorded %s, want %s", step, k, rec.Repr(), d.at(want).Repr())
			}
			if a, b := ItemAttrKey(v, k), ItemAttr(v, k.String()); !sameLookup(a, b) {
				t.Fatalf("%s: ItemAttrKey(%v) = %s, ItemAttr %s", step, k, a.Repr(), b.Repr())
			}
			if a, b := ItemStrKey(v, k), ItemStr(v, k.String()); !sameLookup(a, b) {
				t.Fatalf("%s: ItemStrKey(%v) = %s, ItemStr %s", step, k, a.Repr(), b.Repr())
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	var a Arena
	for round := range 3000 {
		// a dict made one of the ways dicts are made
		var d *Dict
		var kv []Value
		for range r.IntN(20) {
			kv = append(kv, keyOf(r), Int(int64(r.IntN(100))))
		}
		made := ""
		switch r.IntN(5) {
		case 0:
			made = "DictOf"
			d = DictOf(kv...).dict()
		case 1:
			made = "ParseJSON"
			var b strings.Builder
			b.WriteString("{")
			for i := 0; i < len(kv); i += 2 {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q: %d", kv[i].String(), i)
			}
			b.WriteString("}")
			v, err := ParseJSON([]byte(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			d = v.dict()
		case 2:
			made = "ValueOf"
			m := map[string]int{}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].String()] = i
			}
			v, err := ValueOf(m)
			if err != nil {
				t.Fatal(err)
			}
			d = v.dict()
		default:
			made = "NewDict"
			d = NewDict(r.IntN(4))
		}
		step := fmt.Sprintf("round %d, %s", round, made)
		check(step, d)
		for j := range 20 {
			step := fmt.Sprintf("%s, step %d", step, j)
			key := keyOf(r)
			switch r.IntN(10) {
			case 0, 1, 2:
				d.Set(key, Int(int64(j)))
			case 3:
				if k := Key(r.IntN(int(NumKeys))); !d.Has(Str(k.String())) {
					d.AddKey(k, Int(int64(j)))
				}
			case 4:
				if s := names[r.IntN(len(names))]; !d.Has(Str(s)) {
					d.AddStr(strings.Clone(s), Int(int64(j)))
				}
			case 5:
				d.Delete(key)
			case 6:
				d.Truncate(r.IntN(d.Len() + 1))
			case 7:
				d = d.Copy()
			case 8:
				d = a.CopyDict(d, r.IntN(3))
			case 9:
				if r.IntN(4) == 0 {
					d.Clear()
				}
			}
			check(step, d)
		}
	}
}

// sameLookup reports whether two lookups gave the same value, or undefined values whose
// use fails with the same message.
func sameLookup(a, b Value) bool {
	if a.Kind() == KindUndefined || b.Kind() == KindUndefined {
		return a.Kind() == b.Kind() && a.undefinedMessage() == b.undefinedMessage()
	}
	return a.Repr() == b.Repr() && a.Kind() == b.Kind()
}
