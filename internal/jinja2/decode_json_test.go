package jinja2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// pythonCase is an entry of testdata/json/cases.json: a JSON text and what Python's
// json.loads gave for it (record.py wrote it).
type pythonCase struct {
	Name  string `json:"name"`
	JSON  string `json:"json"`
	Repr  string `json:"repr"`
	Error string `json:"error"`
}

func readPythonCases(tb testing.TB) []pythonCase {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "json", "cases.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var cases []pythonCase
	if err := json.Unmarshal(b, &cases); err != nil {
		tb.Fatal(err)
	}
	return cases
}

// loneSurrogates are the recorded cases where ParseJSON knowingly differs from Python: a
// lone surrogate escape, which Python keeps in its str and no UTF-8 text can hold, is
// refused (as llama-server's nlohmann::json refuses it).
var loneSurrogates = map[string]bool{
	"str lone high surrogate":        true,
	"str lone low surrogate":         true,
	"str high surrogate then letter": true,
	"str high surrogate then text":   true,
	"str pair reversed":              true,
}

// TestParseJSONPython: ParseJSON gives what Python's json.loads gives (the repr of the
// result), and fails where it fails, on each recorded input.
func TestParseJSONPython(t *testing.T) {
	cases := readPythonCases(t)
	if len(cases) < 100 {
		t.Fatalf("%d recorded cases; record.py writes more", len(cases))
	}
	for _, c := range cases {
		v, err := ParseJSON([]byte(c.JSON))
		if c.Error != "" {
			var je *JSONError
			if !errors.As(err, &je) {
				t.Errorf("%s: %q gave %s and error %v; Python: %s", c.Name, trim(c.JSON), trim(v.Repr()), err, c.Error)
			}
			continue
		}
		if loneSurrogates[c.Name] {
			if !strings.Contains(c.Repr, `\ud`) {
				t.Errorf("%s: Python's repr %s has no lone surrogate: no deviation left", c.Name, c.Repr)
			}
			if err == nil || !strings.Contains(err.Error(), "lone surrogate") {
				t.Errorf("%s: %q gave %v, want the error of a lone surrogate", c.Name, trim(c.JSON), err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %q: %v; Python gives %s", c.Name, trim(c.JSON), err, trim(c.Repr))
			continue
		}
		want := c.Repr
		if got := v.Repr(); got != want {
			t.Errorf("%s: %q gives\n%s\nPython:\n%s", c.Name, trim(c.JSON), trim(got), trim(want))
		}
	}
}

// trim shortens a long text for a message.
func trim(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// TestParseJSONKinds: the kinds and exact values behind the reprs: int64 and big ints,
// the sign of -0.0, inf, nan.
func TestParseJSONKinds(t *testing.T) {
	v, err := ParseJSON([]byte(`[1, -0, 1.0, -0.0, 1e400, NaN, 9223372036854775807, 9223372036854775808, -9223372036854775809]`))
	if err != nil {
		t.Fatal(err)
	}
	it := v.Items()
	if n, ok := it[0].AsInt(); !ok || n != 1 || it[0].isBig() {
		t.Errorf("1: %v", it[0].Repr())
	}
	if n, ok := it[1].AsInt(); !ok || n != 0 {
		t.Errorf("-0: %v", it[1].Repr())
	}
	if f, ok := it[2].AsFloat(); !ok || f != 1 {
		t.Errorf("1.0: %v", it[2].Repr())
	}
	if f, ok := it[3].AsFloat(); !ok || f != 0 || !math.Signbit(f) {
		t.Errorf("-0.0: %v", it[3].Repr())
	}
	if f, ok := it[4].AsFloat(); !ok || !math.IsInf(f, 1) {
		t.Errorf("1e400: %v", it[4].Repr())
	}
	if f, ok := it[5].AsFloat(); !ok || !math.IsNaN(f) {
		t.Errorf("NaN: %v", it[5].Repr())
	}
	if n, ok := it[6].AsInt(); !ok || n != math.MaxInt64 {
		t.Errorf("max int64: %v", it[6].Repr())
	}
	for i, want := range map[int]string{7: "9223372036854775808", 8: "-9223372036854775809"} {
		if !it[i].isBig() || it[i].big().String() != want {
			t.Errorf("%s: %v", want, it[i].Repr())
		}
	}
}

// TestParseJSONInvalidUTF8: a byte that is not UTF-8, in a key or a value, with or
// without escapes around it, is an error at that byte, as llama-server's parser and
// Python's decoding of the bytes refuse it.
func TestParseJSONInvalidUTF8(t *testing.T) {
	for _, s := range []string{
		"\"a\xffb\"", "\"\xe2\x82\"", "\"\xed\xa0\x80\"", "\"\xc0\xaf\"", "\"\xf4\x90\x80\x80\"",
		"\"\xff\\n\xfe\"", "\"\\u00e9\xff\"", "\"" + strings.Repeat("\xff", 40) + "\"",
	} {
		bad := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError })
		for _, doc := range []string{"[" + s + "]", "{" + s + ": 1}", `{"k": ` + s + "}"} {
			_, err := ParseJSON([]byte(doc))
			var je *JSONError
			off := strings.Index(doc, s) + bad
			want := fmt.Sprintf("invalid UTF-8 byte 0x%02x in string literal", doc[off])
			if !errors.As(err, &je) || je.Offset != off || je.Msg != want {
				t.Errorf("%q: %v, want %q at offset %d", doc, err, want, off)
			}
		}
	}
	if _, err := ParseJSON([]byte("[\xff]")); err == nil || !strings.Contains(err.Error(), "invalid byte 0xff looking for beginning of value") {
		t.Errorf("a byte that is not UTF-8 outside a str: %v", err)
	}
}

// TestJSONErrorPositions: errors say the offset, line, column (in characters) and path
// of the problem.
func TestJSONErrorPositions(t *testing.T) {
	tests := []struct {
		json                 string
		offset, line, column int
		path, msg            string
	}{
		{`{"messages": [{"role": "user", "content": "hi`, 45, 1, 46, "messages[0].content", "unexpected end of JSON input"},
		{"{\n  \"a\": [1,\n  2,,\n]}", 17, 3, 5, "a[2]", "invalid character ',' looking for beginning of value"},
		{`{"a": {"b c": [1, 2, x]}}`, 21, 1, 22, `a["b c"][2]`, "invalid character 'x' looking for beginning of value"},
		{`{"é": x}`, 7, 1, 7, "é", "invalid character 'x' looking for beginning of value"},
		{"\"a\x01\"", 2, 1, 3, "", `invalid character '\x01' in string literal`},
		{"{\"k\": \"line\nbreak\"}", 11, 1, 12, "k", `invalid character '\n' in string literal`},
		{`[1, 2 3]`, 6, 1, 7, "", "invalid character '3' after array element"},
		{`{"a": 1 "b": 2}`, 8, 1, 9, "", "invalid character '\"' after object key:value pair"},
		{`{"a" 1}`, 5, 1, 6, "", "invalid character '1' after object key"},
		{`{"a": 1,}`, 8, 1, 9, "", "invalid character '}' looking for beginning of object key string"},
		{`[tru]`, 4, 1, 5, "[0]", "invalid character ']' in literal true"},
		{`["\q"]`, 3, 1, 4, "[0]", "invalid character 'q' in string escape code"},
		{`["\u12G4"]`, 6, 1, 7, "[0]", `invalid character 'G' in \u hexadecimal character escape`},
		{`[1.]`, 3, 1, 4, "[0]", "invalid character ']' after decimal point in numeric literal"},
		{`[1e+x]`, 4, 1, 5, "[0]", "invalid character 'x' in exponent of numeric literal"},
		{`[-x]`, 2, 1, 3, "[0]", "invalid character 'x' in numeric literal"},
		{"{} {}", 3, 1, 4, "", "invalid character '{' after top-level value"},
		{"\ufeff{}", 0, 1, 1, "", `invalid character '\ufeff' looking for beginning of value`},
		{"", 0, 1, 1, "", "unexpected end of JSON input"},
		{`{"n": -` + strings.Repeat("1", 4301) + `}`, 6, 1, 7, "n", "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits"},
		{`["a\ud800b"]`, 3, 1, 4, "[0]", `lone surrogate \ud800 in string literal (no UTF-8 text holds it)`},
		{`{"k": "\udc00\ud800"}`, 7, 1, 8, "k", `lone surrogate \udc00 in string literal (no UTF-8 text holds it)`},
		{"{\"k\": \"é\xff\"}", 9, 1, 9, "k", "invalid UTF-8 byte 0xff in string literal"},
		// a deep path keeps its ends, a long key its start
		{`{"a": [[[[[[[[[[x]]]]]]]]]]}`, 16, 1, 17, "a[0][0][0][…3 steps…][0][0][0][0]", "invalid character 'x' looking for beginning of value"},
		{`{"a": [[[[[[[[x]]]]]]]]}`, 14, 1, 15, "a[0][0][0][0][0][0][0][0]", "invalid character 'x' looking for beginning of value"},
		{`{"` + strings.Repeat("k", 41) + `": x, "` + strings.Repeat("é", 30) + `": 1}`, 46, 1, 47, `["` + strings.Repeat("k", 40) + `…"]`, "invalid character 'x' looking for beginning of value"},
		{`{"` + strings.Repeat("é", 30) + `": [x]}`, 66, 1, 37, `["` + strings.Repeat("é", 20) + `…"][0]`, "invalid character 'x' looking for beginning of value"},
	}
	for _, tt := range tests {
		_, err := ParseJSON([]byte(tt.json))
		var je *JSONError
		if !errors.As(err, &je) {
			t.Errorf("%q: error %v, want a *JSONError", trim(tt.json), err)
			continue
		}
		if je.Offset != tt.offset || je.Line != tt.line || je.Column != tt.column || je.Path != tt.path || je.Msg != tt.msg {
			t.Errorf("%q: got offset %d, line %d, column %d, path %q, %q\nwant offset %d, line %d, column %d, path %q, %q",
				trim(tt.json), je.Offset, je.Line, je.Column, je.Path, je.Msg, tt.offset, tt.line, tt.column, tt.path, tt.msg)
		}
	}
}

// TestJSONErrorText: the message names the file when set, the line and column, and the
// path; callers that wrap it keep it reachable.
func TestJSONErrorText(t *testing.T) {
	_, err := ParseJSON([]byte(`{"messages": [{"role": 1,}]}`))
	want := `invalid character '}' looking for beginning of object key string at line 1, column 26 (messages[0])`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	var je *JSONError
	errors.As(err, &je)
	je.File = "chat.json"
	if got := je.Error(); got != "chat.json: "+want {
		t.Errorf("with File: %s", got)
	}
}

// TestParseJSONLimits: nesting deeper than MaxNesting, input larger than the size limit
// and hostile input fail quickly, with an error.
func TestParseJSONLimits(t *testing.T) {
	nest := func(open, close string, n int) []byte {
		return []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
	}
	if _, err := ParseJSON(nest("[", "]", MaxNesting)); err != nil {
		t.Errorf("%d levels: %v", MaxNesting, err)
	}
	if _, err := ParseJSON(nest(`{"a":`, "}", MaxNesting)); err != nil {
		t.Errorf("%d levels of dicts: %v", MaxNesting, err)
	}
	for _, data := range [][]byte{nest("[", "]", MaxNesting+1), nest(`{"a":[`, "]}", MaxNesting/2+1)} {
		_, err := ParseJSON(data)
		var je *JSONError
		if !errors.As(err, &je) || je.Msg != "nests more than the limit of 1000 levels" || !strings.ContainsRune("[{", rune(data[je.Offset])) {
			t.Errorf("%.20s...: %v", data, err)
		}
	}
	start := time.Now()
	for _, data := range [][]byte{
		[]byte(strings.Repeat("[", 10<<20)),
		[]byte(strings.Repeat(`{"a":`, 2<<20)),
		[]byte("[" + strings.Repeat(`"\u00e9",`, 1<<20) + "1"),
		[]byte(strings.Repeat("7", 10<<20)),
		[]byte("[" + strings.Repeat("1e99999,", 1<<20) + "]"),
	} {
		if _, err := ParseJSON(data); err == nil {
			t.Errorf("%.20s... (%d bytes) decoded", data, len(data))
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("hostile inputs took %v", d)
	}

	_, jerr := decodeJSON("[1, 2, 3]", 8)
	if jerr == nil || jerr.Msg != "the JSON text of 9 bytes exceeds the limit of 8 bytes" || jerr.Offset != 8 {
		t.Errorf("size limit: %v", jerr)
	}
	if testing.Short() {
		return
	}
	big := bytes.Repeat([]byte(" "), MaxJSONSize+1)
	big[0] = '1'
	if _, err := ParseJSON(big); err == nil || !strings.Contains(err.Error(), "exceeds the limit of 67108864 bytes") {
		t.Errorf("MaxJSONSize+1 bytes: %v", err)
	}
	if v, err := ParseJSON(big[:MaxJSONSize]); err != nil || v.Repr() != "1" {
		t.Errorf("MaxJSONSize bytes: %v %v", v.Repr(), err)
	}
}

// TestParseJSONStorage: lists and dicts share chunks of storage, and changing one never
// changes another; large dicts are indexed; the strs are the decoder's own copy.
func TestParseJSONStorage(t *testing.T) {
	data := []byte(`[[1, 2], [3, 4], {"a": 1, "a": 2}, {"b": 3}, "x\ty", "z"]`)
	v, err := ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	copy(data, bytes.Repeat([]byte("!"), len(data))) // the caller's buffer, reused
	it := v.Items()
	first := it[0].list()
	first.setItems(append(first.items(), Int(5), Int(6)))
	dup := it[2].dict()
	for i := range 20 {
		dup.SetStr("k"+strconv.Itoa(i), Int(int64(i)))
	}
	want := `[[1, 2, 5, 6], [3, 4], {'a': 2, 'k0': 0, 'k1': 1, 'k2': 2, 'k3': 3, 'k4': 4, 'k5': 5, 'k6': 6, 'k7': 7, 'k8': 8, 'k9': 9, 'k10': 10, 'k11': 11, 'k12': 12, 'k13': 13, 'k14': 14, 'k15': 15, 'k16': 16, 'k17': 17, 'k18': 18, 'k19': 19}, {'b': 3}, 'x\ty', 'z']`
	if got := v.Repr(); got != want {
		t.Errorf("after appends:\n%s\nwant\n%s", got, want)
	}
	if _, err := ParseJSON([]byte(`[[7, 8], {"c": "w"}, "q\nr"]`)); err != nil { // a decoder reused
		t.Fatal(err)
	}
	if got := v.Repr(); got != want {
		t.Errorf("after another decode:\n%s\nwant\n%s", got, want)
	}

	var b strings.Builder
	b.WriteString("{")
	for i := range 30 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"key` + strconv.Itoa(i) + `": ` + strconv.Itoa(i))
	}
	b.WriteString(`, "key7": "seven", "role": "user"}`)
	v, err = ParseJSON([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	d := v.dict()
	if d.index == nil || d.Len() != 31 {
		t.Fatalf("a dict of %d keys, index %v", d.Len(), d.index != nil)
	}
	for i := range 30 {
		got, ok := d.GetStr("key" + strconv.Itoa(i))
		want := Int(int64(i))
		if i == 7 {
			want = Str("seven")
		}
		if !ok || !Eq(got, want) {
			t.Errorf("key%d: %v %v", i, got.Repr(), ok)
		}
	}
	if got, ok := d.GetStr("role"); !ok || got.str() != "user" || got.flags()&flagPlainJSON == 0 {
		t.Errorf("role: %v %v", got.Repr(), ok)
	}
	d.SetStr("new", Int(1))
	if got, ok := d.GetStr("new"); !ok || !Eq(got, Int(1)) || d.keys()[d.Len()-1].str() != "new" {
		t.Errorf("Set on an indexed dict: %v %v", got.Repr(), ok)
	}
}

// TestParseJSONBigDocument: a document larger than a chunk of storage decodes as
// encoding/json decodes it.
func TestParseJSONBigDocument(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"i": ` + strconv.Itoa(i) + `, "s": "v\u00e9` + strconv.Itoa(i) + `", "l": [` + strconv.Itoa(i) + `, true, null]}`)
	}
	b.WriteString("]")
	data := []byte(b.String())
	v, err := ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	var ref any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&ref); err != nil {
		t.Fatal(err)
	}
	if why := sameAsEncodingJSON(v, ref); why != "" {
		t.Error(why)
	}
}

// sameAsEncodingJSON says how v differs from the value encoding/json decoded (with
// UseNumber) from the same JSON, or "" when it does not.
func sameAsEncodingJSON(v Value, ref any) string {
	switch r := ref.(type) {
	case nil:
		if v.kind() == KindNone {
			return ""
		}
	case bool:
		if b, ok := v.AsBool(); ok && b == r {
			return ""
		}
	case string:
		if s, ok := v.AsString(); ok && s == r {
			return ""
		}
	case json.Number:
		if strings.ContainsAny(string(r), ".eE") {
			want, _ := strconv.ParseFloat(string(r), 64)
			if f, ok := v.AsFloat(); ok && f == want {
				return ""
			}
		} else if want, _ := new(big.Int).SetString(string(r), 10); v.kind() == KindInt && v.bigInt().Cmp(want) == 0 {
			return ""
		}
	case []any:
		items := v.Items()
		if v.kind() != KindList || len(items) != len(r) {
			break
		}
		for i := range r {
			if why := sameAsEncodingJSON(items[i], r[i]); why != "" {
				return why
			}
		}
		return ""
	case map[string]any:
		d := v.AsDict()
		if d == nil || d.Len() != len(r) {
			break
		}
		for k, rv := range r {
			dv, ok := d.GetStr(k)
			if !ok {
				return "no key " + strconv.Quote(k)
			}
			if why := sameAsEncodingJSON(dv, rv); why != "" {
				return why
			}
		}
		return ""
	}
	return trim(v.Repr()) + " is not " + trim(strconv.Quote(fmtAny(ref)))
}

func fmtAny(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// maxFuzzSeed is the size of the largest seed of FuzzParseJSON: the fuzzer minimizes
// each input that finds new code, which takes minutes for the 4300-digit ints.
const maxFuzzSeed = 2 << 10

// FuzzParseJSON checks that no input panics, that ParseJSON fails or succeeds where
// encoding/json's grammar does (except for Python's NaN and Infinity, which only
// ParseJSON accepts, and its limits), that it decodes what encoding/json decodes, and
// that tojson's text of a result decodes to the same value.
func FuzzParseJSON(f *testing.F) {
	for _, c := range readPythonCases(f) {
		if len(c.JSON) <= maxFuzzSeed {
			f.Add([]byte(c.JSON))
		}
	}
	if b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "oracle", "cases.json")); err == nil {
		var requests []json.RawMessage
		if err := json.Unmarshal(b, &requests); err != nil {
			f.Fatal(err)
		}
		for _, r := range requests {
			f.Add([]byte(r))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		valid := json.Valid(data)
		if err != nil {
			var je *JSONError
			if !errors.As(err, &je) || je.Offset < 0 || je.Offset > len(data) || je.Line < 1 || je.Column < 1 {
				t.Fatalf("%q: error %v", data, err)
			}
			if valid && !strings.Contains(je.Msg, "limit") && !strings.Contains(je.Msg, "UTF-8") && !strings.Contains(je.Msg, "surrogate") {
				t.Fatalf("%q is valid JSON, ParseJSON: %v", data, err)
			}
			return
		}
		if !valid {
			if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
				t.Fatalf("%q is not JSON, ParseJSON gives %s", data, trim(v.Repr()))
			}
		} else {
			var ref any
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			if err := dec.Decode(&ref); err == nil {
				if why := sameAsEncodingJSON(v, ref); why != "" {
					t.Fatalf("%q: %s", data, why)
				}
			}
		}
		text := AppendJSON(nil, v)
		again, err := ParseJSON(text)
		if err != nil || again.Repr() != v.Repr() {
			t.Fatalf("%q decodes to %s, whose JSON %s decodes to %s (%v)", data, trim(v.Repr()), trim(string(text)), trim(again.Repr()), err)
		}
	})
}

// TestParseJSONAllocations: a chat request decodes into two allocations (the copy of the
// text and one chunk of cells), whichever order its keys come in: with the messages
// last, the outer containers close when few bytes are left.
func TestParseJSONAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates: the count is not the decoder's")
	}
	for _, text := range []string{
		`{"messages": [{"role": "user", "content": "Hello!"}], "add_generation_prompt": true, "bos_token": "<s>"}`,
		`{"add_generation_prompt": true, "bos_token": "<s>", "messages": [{"content": "Hello!", "role": "user"}]}`,
	} {
		data := []byte(text)
		if n := testing.AllocsPerRun(20, func() { _, _ = ParseJSON(data) }); n != 2 {
			t.Errorf("%s: %v allocations, want 2", text, n)
		}
	}
}

// TestParseJSONFacts: ParseJSONFacts reports an int beyond int64, and a NaN, an
// infinity or a float beyond a float's range, wherever they are, and only then.
func TestParseJSONFacts(t *testing.T) {
	for in, want := range map[string]JSONFacts{
		`[9223372036854775807, -9223372036854775808, 1e300, -1e-400]`: {},
		`{"a": [{"b": 9223372036854775808}]}`:                         {BigInts: true},
		`-9223372036854775809`:                                        {BigInts: true},
		`"9223372036854775808"`:                                       {},
		`"NaN Infinity 1e400"`:                                        {},
		`[1, {"a": NaN}]`:                                             {NonFinite: true},
		`{"a": Infinity}`:                                             {NonFinite: true},
		`[-Infinity]`:                                                 {NonFinite: true},
		`{"a": [1e400]}`:                                              {NonFinite: true},
		`-1.5E+309`:                                                   {NonFinite: true},
		`[1e400, 18446744073709551616]`:                               {BigInts: true, NonFinite: true},
	} {
		_, got, err := ParseJSONFacts([]byte(in))
		if err != nil || got != want {
			t.Errorf("ParseJSONFacts(%s) = %+v, %v; want %+v", in, got, err, want)
		}
	}
}

// TestArenaParseJSON: an Arena's ParseJSONFacts decodes as ParseJSONFacts does, its
// containers in the arena's chunk: once the chunk is there, a text takes one allocation,
// the copy of its bytes.
func TestArenaParseJSON(t *testing.T) {
	text := `{"city": "Paris", "days": [1, 2.5, {"a": null}], "big": 18446744073709551615, "x": NaN}`
	want, wantFacts, err := ParseJSONFacts([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var a Arena
	for range 3 {
		got, facts, err := a.ParseJSONFacts(text)
		if err != nil || got.Repr() != want.Repr() || facts != wantFacts {
			t.Fatalf("Arena.ParseJSONFacts = %s, %+v, %v; want %s, %+v", got.Repr(), facts, err, want.Repr(), wantFacts)
		}
	}
	if _, _, err := a.ParseJSONFacts(`{"a": }`); err == nil || err.Error() != "invalid character '}' looking for beginning of value at line 1, column 7 (a)" {
		t.Errorf("Arena.ParseJSONFacts of bad JSON: %v", err)
	}
	if raceEnabled {
		return // the race detector's instrumentation allocates
	}
	a.Expect(64)
	if n := testing.AllocsPerRun(20, func() {
		a.Reset()
		_, _, _ = a.ParseJSONFacts(`{"city": "Paris", "days": [1, 2, {"a": null}]}`)
	}); n != 1 {
		t.Errorf("Arena.ParseJSONFacts: %v allocations, want 1", n)
	}
}

// TestParseJSONKeysOfOneLength: an object's repeated keys are found among keys of one
// length and of others (distinctKeys), the empty key and keys 64 bytes apart included;
// the reprs are Python's json.loads, recorded from Python 3.
func TestParseJSONKeysOfOneLength(t *testing.T) {
	b64, a65 := strings.Repeat("b", 64), strings.Repeat("a", 65)
	tests := []struct{ in, want string }{
		{`{"bos_token": 1, "eos_token": 2, "messages": 3, "add_generation_prompt": 4}`, `{'bos_token': 1, 'eos_token': 2, 'messages': 3, 'add_generation_prompt': 4}`},
		{`{"ab": 1, "cd": 2, "ab": 3}`, `{'ab': 3, 'cd': 2}`},
		{`{"a": 1, "` + b64 + `": 2, "a": 3}`, `{'a': 3, '` + b64 + `': 2}`},
		{`{"a": 1, "` + a65 + `": 2}`, `{'a': 1, '` + a65 + `': 2}`},
		{`{"": 1, "x": 2, "": 3}`, `{'': 3, 'x': 2}`},
		{`{"role": "user", "content": "hi", "role": "system"}`, `{'role': 'system', 'content': 'hi'}`},
	}
	for _, tt := range tests {
		v, err := ParseJSON([]byte(tt.in))
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if got := v.Repr(); got != tt.want {
			t.Errorf("%s gives %s, Python %s", tt.in, got, tt.want)
		}
	}
}
