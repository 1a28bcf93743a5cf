package jinja2

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// jsonStringReference is json.dumps of a str written rune by rune, as Python's
// json.encoder does: the reference for appendJSONString, which skips plain runs eight
// bytes at a time.
func jsonStringReference(s string, ensureASCII bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || ensureASCII && r >= 0x7f && r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		case ensureASCII && r >= 0x10000:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestAppendJSONString puts every kind of character that json.dumps escapes (and
// multi-byte ones) at every position of plain strings of every length up to 40, and
// tries random strings over the same alphabet, with and without ensure_ascii.
func TestAppendJSONString(t *testing.T) {
	specials := []string{`"`, `\`, "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f", "é", "€", "😀", " ", "~"}
	var inputs []string
	for n := 0; n <= 40; n++ {
		plain := strings.Repeat("abcdefgh", 6)[:n]
		inputs = append(inputs, plain)
		for i := 0; i <= n; i++ {
			for _, c := range specials {
				inputs = append(inputs, plain[:i]+c+plain[i:])
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := append(specials, "a", "b", "xyz")
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, s := range inputs {
		for _, ensureASCII := range []bool{false, true} {
			got := string(appendJSONString([]byte("x"), s, ensureASCII))
			if want := "x" + jsonStringReference(s, ensureASCII); got != want {
				t.Fatalf("%q (ensure_ascii=%v): got %s, want %s", s, ensureASCII, got, want)
			}
		}
	}
}

// TestPlainJSONWords: the strs parsed JSON shares with the literals (flagPlainJSON) are
// written by tojson as json.dumps writes them, keys and values alike, and a str that
// only resembles one of them is not shared.
func TestPlainJSONWords(t *testing.T) {
	doc := `{"role": "user", "content": "x", "type": "function", "function": {"name": "f",
		"parameters": {"type": "object", "properties": {"a": {"type": "string"},
		"b": {"type": "integer"}, "c": {"type": "number"}, "d": {"type": "boolean"},
		"e": {"type": "array"}}, "required": ["a"]}}, "Role": "User", "role ": "user\n"}`
	v, err := ParseJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	shared := 0
	var walk func(v Value)
	check := func(s Value) {
		if s.flags()&flagPlainJSON == 0 {
			return
		}
		shared++
		for _, ensureASCII := range []bool{false, true} {
			if got, want := string(appendJSON(nil, s, &jsonOptions{ensureASCII: ensureASCII}, 0)), jsonStringReference(s.str(), ensureASCII); got != want {
				t.Errorf("%q: got %s, want %s", s.str(), got, want)
			}
		}
		switch s.str() {
		case "Role", "User", "role ", "user\n":
			t.Errorf("%q is shared", s.str())
		}
	}
	walk = func(v Value) {
		switch v.kind() {
		case KindString:
			check(v)
		case KindList:
			for _, it := range v.list().items() {
				walk(it)
			}
		case KindDict:
			for i, k := range v.dict().keys() {
				check(k)
				walk(v.dict().at(i))
			}
		}
	}
	walk(v)
	if shared < 20 {
		t.Errorf("%d strs shared, want the common keys and values (20)", shared)
	}
	want := `{"role": "user", "content": "x", "type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "number"}, "d": {"type": "boolean"}, "e": {"type": "array"}}, "required": ["a"]}}, "Role": "User", "role ": "user\n"}`
	if got := string(AppendJSON(nil, v)); got != want {
		t.Errorf("tojson: got\n%s\nwant\n%s", got, want)
	}
}

// TestInternWords: every one of plainWords is shared wherever the decoder meets it (a key,
// a value, written with an escape, at the very end of the input) and through internStr,
// and no text that differs from a word in one byte, or in its length, is.
func TestInternWords(t *testing.T) {
	isShared := func(v Value) bool {
		return v.flags()&flagPlainJSON != 0 && sameBytes(&v, plainWords[v.flags()>>plainWordShift&0xff])
	}
	for _, w := range plainWords {
		escaped := `\u00` + strconv.FormatInt(int64(w[0]), 16) + w[1:]
		for _, doc := range []string{`{"` + w + `": "` + w + `"}`, `{"` + escaped + `": "` + escaped + `"}`} {
			v, err := ParseJSON([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			d := v.AsDict()
			if k, val := d.Keys()[0], d.Values()[0]; !isShared(k) || !isShared(val) || k.str() != w || val.str() != w {
				t.Errorf("%s: key %q shared %v, value %q shared %v", doc, k.str(), isShared(k), val.str(), isShared(val))
			}
		}
		if v, err := ParseJSON([]byte(`"` + w + `"`)); err != nil || !isShared(v) {
			t.Errorf("%q alone: shared %v (%v)", w, isShared(v), err)
		}
		if v := internStr(w); !isShared(v) {
			t.Errorf("internStr(%q) is not shared", w)
		}
		variants := []string{w + "x", w[:len(w)-1], w[:len(w)-1] + "X", "X" + w[1:], w + "\u00e9"}
		if len(w) > 8 {
			variants = append(variants, w[:8]+"X"+w[9:])
		}
		for _, s := range variants {
			v, err := ParseJSON([]byte(`{"` + s + `": "` + s + `"}`))
			if err != nil {
				t.Fatal(err)
			}
			d := v.AsDict()
			if k, val := d.Keys()[0], d.Values()[0]; isShared(k) || isShared(val) || isShared(internStr(s)) || k.str() != s || val.str() != s {
				t.Errorf("%q is shared, or decoded as %q / %q", s, k.str(), val.str())
			}
		}
	}
}
