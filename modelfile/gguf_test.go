package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// A GGUF writer for tests: values are built as tval and written in the file's byte order.

type tbuf struct {
	bytes.Buffer
	o binary.AppendByteOrder
}

func (b *tbuf) u32(v uint32) { b.Write(b.o.AppendUint32(nil, v)) }
func (b *tbuf) u64(v uint64) { b.Write(b.o.AppendUint64(nil, v)) }
func (b *tbuf) str(s string) { b.u64(uint64(len(s))); b.WriteString(s) }

type tval struct {
	typ   uint32
	write func(*tbuf)
}

func vStr(s string) tval { return tval{ggufString, func(b *tbuf) { b.str(s) }} }
func vU32(v uint32) tval { return tval{ggufUint32, func(b *tbuf) { b.u32(v) }} }
func vBool(v bool) tval {
	return tval{ggufBool, func(b *tbuf) {
		if v {
			b.WriteByte(1)
		} else {
			b.WriteByte(0)
		}
	}}
}

// vInt writes v as an integer (or bit pattern) of type typ.
func vInt(typ uint32, v uint64) tval {
	return tval{typ, func(b *tbuf) {
		switch ggufScalarSize(typ) {
		case 1:
			b.WriteByte(byte(v))
		case 2:
			b.Write(b.o.AppendUint16(nil, uint16(v)))
		case 4:
			b.u32(uint32(v))
		case 8:
			b.u64(v)
		default:
			panic("vInt: not a scalar type")
		}
	}}
}

func vF32(f float32) tval { return vInt(ggufFloat32, uint64(math.Float32bits(f))) }
func vF64(f float64) tval { return vInt(ggufFloat64, math.Float64bits(f)) }

// vArr writes an array of element type et.
func vArr(et uint32, elems ...tval) tval {
	return tval{ggufArray, func(b *tbuf) {
		b.u32(et)
		b.u64(uint64(len(elems)))
		for _, e := range elems {
			e.write(b)
		}
	}}
}

func vStrs(ss ...string) tval {
	elems := make([]tval, len(ss))
	for i, s := range ss {
		elems[i] = vStr(s)
	}
	return vArr(ggufString, elems...)
}

// vRaw writes raw bytes after the type.
func vRaw(typ uint32, raw []byte) tval { return tval{typ, func(b *tbuf) { b.Write(raw) }} }

type tkv struct {
	key string
	v   tval
}

type tfile struct {
	version  uint32
	be       bool
	tensors  uint64
	kvs      []tkv
	tail     []byte // bytes after the metadata (tensor infos, data): never read
	countAdj int64  // added to the key/value count in the header
}

func (f tfile) build() []byte {
	b := &tbuf{o: binary.LittleEndian}
	if f.be {
		b.o = binary.BigEndian
	}
	v := f.version
	if v == 0 {
		v = 3
	}
	b.WriteString("GGUF")
	b.u32(v)
	b.u64(f.tensors)
	b.u64(uint64(int64(len(f.kvs)) + f.countAdj))
	for _, kv := range f.kvs {
		b.str(kv.key)
		b.u32(kv.v.typ)
		kv.v.write(b)
	}
	b.Write(f.tail)
	return b.Bytes()
}

// hideLen hides the Len method of a reader, so the reader does not know the input size.
type hideLen struct{ r io.Reader }

func (h hideLen) Read(p []byte) (int, error) { return h.r.Read(p) }

// readBoth reads data with a known size and as a plain stream, and checks they agree.
func readBoth(t testing.TB, data []byte) (*ModelInfo, error) {
	t.Helper()
	m1, err1 := ReadGGUF(bytes.NewReader(data))
	m2, err2 := ReadGGUF(hideLen{bytes.NewReader(data)})
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("known size: %v; stream: %v", err1, err2)
	}
	if err1 == nil && infoString(m1) != infoString(m2) {
		t.Fatalf("known size and stream disagree:\n%s\n%s", infoString(m1), infoString(m2))
	}
	return m1, err1
}

// distractors are key/values of every type that the reader must skip.
func distractors() []tkv {
	kvs := []tkv{
		{"general.alignment", vU32(32)},
		{"x.u8", vInt(ggufUint8, 200)},
		{"x.i8", vInt(ggufInt8, 0xff)},
		{"x.u16", vInt(ggufUint16, 60000)},
		{"x.i16", vInt(ggufInt16, 0x8000)},
		{"x.u32", vU32(1 << 31)},
		{"x.i32", vInt(ggufInt32, 0xffffffff)},
		{"x.f32", vF32(1.5)},
		{"x.bool", vBool(true)},
		{"x.str", vStr("hello")},
		{"x.u64", vInt(ggufUint64, math.MaxUint64)},
		{"x.i64", vInt(ggufInt64, 1<<63)},
		{"x.f64", vF64(-2.25)},
		{"x.empty_arr", vArr(ggufFloat32)},
		{"x.strs", vStrs("a", "", "ccc")},
		{"x.nested", vArr(ggufArray, vArr(ggufUint8, vInt(ggufUint8, 1)), vStrs("q"), vArr(ggufArray, vStrs("deep")))},
	}
	for _, t := range []uint32{ggufUint8, ggufInt8, ggufUint16, ggufInt16, ggufUint32, ggufInt32, ggufFloat32, ggufBool, ggufUint64, ggufInt64, ggufFloat64} {
		kvs = append(kvs, tkv{"x.arr." + ggufTypeName(t), vArr(t, vInt(t, 1), vInt(t, 0), vInt(t, 1))})
	}
	return kvs
}

var testTokens = []string{"<unk>", "<s>", "</s>", "hello", "<|im_start|>", "<|im_end|>", "", "world"}

func boolp(b bool) *bool { return &b }

func TestReadGGUFFields(t *testing.T) {
	for _, version := range []uint32{2, 3} {
		for _, be := range []bool{false, true} {
			t.Run(fmt.Sprintf("v%d/be=%v", version, be), func(t *testing.T) {
				kvs := []tkv{
					{"general.architecture", vStr("qwen2")},
					{"general.name", vStr("Tiny Qwen")},
				}
				kvs = append(kvs, distractors()...)
				kvs = append(kvs,
					tkv{"tokenizer.ggml.tokens", vStrs(testTokens...)},
					tkv{"tokenizer.ggml.scores", vArr(ggufFloat32, vF32(0), vF32(-1))},
					tkv{"tokenizer.ggml.bos_token_id", vU32(4)},
					tkv{"tokenizer.ggml.eos_token_id", vU32(5)},
					tkv{"tokenizer.ggml.add_bos_token", vBool(false)},
					tkv{"tokenizer.ggml.add_eos_token", vBool(true)},
					tkv{"tokenizer.chat_template", vStr("{{ bos_token }}main")},
					tkv{"tokenizer.chat_template.tool_use", vStr("tools")},
					tkv{"tokenizer.chat_templates", vStrs("tool_use")},
					tkv{"tokenizer.chat_template.rag", vStr("rag")},
				)
				data := tfile{version: version, be: be, tensors: 3, kvs: kvs, tail: bytes.Repeat([]byte{0xff}, 100)}.build()
				m, err := readBoth(t, data)
				if err != nil {
					t.Fatal(err)
				}
				want := ModelInfo{
					Format: FormatGGUF, Name: "Tiny Qwen", Architecture: "qwen2",
					ChatTemplate: "{{ bos_token }}main", TemplateSource: "tokenizer.chat_template",
					NamedTemplates: map[string]string{"tool_use": "tools", "rag": "rag"},
					BOSToken:       "<|im_start|>", EOSToken: "<|im_end|>", HasBOS: true, HasEOS: true,
					AddBOS: boolp(false), AddEOS: boolp(true),
				}
				checkInfo(t, m, &want)
			})
		}
	}
}

// infoString prints a ModelInfo with the values of its pointers.
func infoString(m *ModelInfo) string {
	f := func(b *bool) string {
		if b == nil {
			return "nil"
		}
		return fmt.Sprint(*b)
	}
	c := *m
	c.AddBOS, c.AddEOS = nil, nil
	return fmt.Sprintf("%+v add_bos=%s add_eos=%s", c, f(m.AddBOS), f(m.AddEOS))
}

func checkInfo(t *testing.T, got, want *ModelInfo) {
	t.Helper()
	if infoString(got) != infoString(want) {
		t.Errorf("got  %s\nwant %s", infoString(got), infoString(want))
	}
}

func TestReadGGUFTokenOrder(t *testing.T) {
	tokens := tkv{"tokenizer.ggml.tokens", vStrs(testTokens...)}
	bos := tkv{"tokenizer.ggml.bos_token_id", vU32(1)}
	eos := tkv{"tokenizer.ggml.eos_token_id", vU32(2)}
	same := tkv{"tokenizer.ggml.eos_token_id", vU32(1)}
	last := tkv{"tokenizer.ggml.bos_token_id", vU32(uint32(len(testTokens) - 1))}
	empty := tkv{"tokenizer.ggml.eos_token_id", vU32(6)}
	first := tkv{"tokenizer.ggml.eos_token_id", vU32(0)}
	tests := []struct {
		name     string
		kvs      []tkv
		bos, eos string
		hb, he   bool
		warn     string
	}{
		{"ids before", []tkv{bos, eos, tokens}, "<s>", "</s>", true, true, ""},
		{"ids after", []tkv{tokens, bos, eos}, "<s>", "</s>", true, true, ""},
		{"bos before eos after", []tkv{bos, tokens, eos}, "<s>", "</s>", true, true, ""},
		{"eos before bos after", []tkv{eos, tokens, bos}, "<s>", "</s>", true, true, ""},
		{"same id before", []tkv{bos, same, tokens}, "<s>", "<s>", true, true, ""},
		{"same id after", []tkv{tokens, bos, same}, "<s>", "<s>", true, true, ""},
		{"first and last after", []tkv{tokens, last, first}, "world", "<unk>", true, true, ""},
		{"first and last before", []tkv{last, first, tokens}, "world", "<unk>", true, true, ""},
		{"empty token text", []tkv{bos, empty, tokens}, "<s>", "", true, true, ""},
		{"only bos", []tkv{tokens, bos}, "<s>", "", true, false, ""},
		{"no ids", []tkv{tokens}, "", "", false, false, ""},
		{"no tokens", []tkv{bos, eos}, "", "", false, false, "tokenizer.ggml.bos_token_id is 1 but the file has no tokenizer.ggml.tokens"},
		{"id out of range after", []tkv{tokens, {"tokenizer.ggml.bos_token_id", vU32(8)}}, "", "", false, false, "tokenizer.ggml.bos_token_id 8 is out of range: tokenizer.ggml.tokens has 8 entries"},
		{"id out of range before", []tkv{{"tokenizer.ggml.eos_token_id", vU32(99)}, tokens}, "", "", false, false, "tokenizer.ggml.eos_token_id 99 is out of range"},
		{"other integer types", []tkv{{"tokenizer.ggml.bos_token_id", vInt(ggufUint8, 3)}, {"tokenizer.ggml.eos_token_id", vInt(ggufInt64, 7)}, tokens}, "hello", "world", true, true, ""},
		{"int16 and uint64", []tkv{tokens, {"tokenizer.ggml.bos_token_id", vInt(ggufInt16, 4)}, {"tokenizer.ggml.eos_token_id", vInt(ggufUint64, 5)}}, "<|im_start|>", "<|im_end|>", true, true, ""},
		{"int8 uint16 int32", []tkv{{"tokenizer.ggml.bos_token_id", vInt(ggufInt8, 1)}, tokens, {"tokenizer.ggml.eos_token_id", vInt(ggufUint16, 2)}}, "<s>", "</s>", true, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := readBoth(t, tfile{kvs: tc.kvs}.build())
			if err != nil {
				t.Fatal(err)
			}
			if m.BOSToken != tc.bos || m.EOSToken != tc.eos || m.HasBOS != tc.hb || m.HasEOS != tc.he {
				t.Errorf("got bos %q %v eos %q %v, want %q %v %q %v", m.BOSToken, m.HasBOS, m.EOSToken, m.HasEOS, tc.bos, tc.hb, tc.eos, tc.he)
			}
			warns := strings.Join(m.Warnings, "\n")
			if tc.warn == "" && warns != "" || !strings.Contains(warns, tc.warn) {
				t.Errorf("warnings %q, want %q", warns, tc.warn)
			}
		})
	}
}

func TestReadGGUFEmpty(t *testing.T) {
	m, err := readBoth(t, tfile{version: 2}.build())
	if err != nil {
		t.Fatal(err)
	}
	checkInfo(t, m, &ModelInfo{Format: FormatGGUF})
	if _, err := m.Template(""); !errors.Is(err, ErrNoChatTemplate) {
		t.Errorf("Template: %v, want ErrNoChatTemplate", err)
	}
}

// TestReadGGUFErrorMessage pins the exact form of an error.
func TestReadGGUFErrorMessage(t *testing.T) {
	data := tfile{kvs: []tkv{{"tokenizer.chat_template", vRaw(ggufString, binary.LittleEndian.AppendUint64(nil, 9e18))}}}.build()
	_, err := ReadGGUF(bytes.NewReader(data))
	want := `gguf: offset 59: string length 9000000000000000000 exceeds the 64 MiB limit (key "tokenizer.chat_template")`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	var ge *GGUFError
	if !errors.As(err, &ge) || ge.Offset != 59 || ge.Key != "tokenizer.chat_template" {
		t.Fatalf("GGUFError = %+v", ge)
	}
}

func TestReadGGUFErrors(t *testing.T) {
	le := binary.LittleEndian
	u64 := func(v uint64) []byte { return le.AppendUint64(nil, v) }
	u32 := func(v uint32) []byte { return le.AppendUint32(nil, v) }
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	one := func(key string, v tval) []byte { return tfile{kvs: []tkv{{key, v}}}.build() }
	// deep nests arrays n levels deep.
	deep := func(n int) tval {
		v := vStrs("x")
		for i := 1; i < n; i++ {
			v = vArr(ggufArray, v)
		}
		return v
	}
	tests := []struct {
		name string
		data []byte
		want string // substring of the error
	}{
		{"empty", nil, "offset 0: magic needs 4 bytes but only 0 remain in the file: unexpected EOF"},
		{"short magic", []byte("GG"), "offset 0: magic needs 4 bytes but only 2 remain"},
		{"bad magic", []byte("GGML\x03\x00\x00\x00"), `offset 0: bad magic "GGML", want "GGUF": not a GGUF file`},
		{"version 1", cat([]byte("GGUF"), u32(1), u64(0), u64(0)), "offset 4: unsupported GGUF version 1"},
		{"version 4", cat([]byte("GGUF"), u32(4), u64(0), u64(0)), "offset 4: unsupported GGUF version 4"},
		{"version 0", cat([]byte("GGUF"), u32(0), u64(0), u64(0)), "unsupported GGUF version 0"},
		{"version 0x30000", cat([]byte("GGUF"), u32(0x30000), u64(0), u64(0)), "unsupported GGUF version 196608"},
		{"big-endian version 1", cat([]byte("GGUF"), u32(0x01000000), u64(0), u64(0)), "unsupported GGUF version 16777216"},
		{"huge kv count", cat([]byte("GGUF"), u32(3), u64(0), u64(1<<62)), "offset 16: metadata key/value count 4611686018427387904 exceeds the limit of 1048576"},
		{"kv count beyond data", cat([]byte("GGUF"), u32(3), u64(0), u64(1000)), "offset 24: 1000 metadata key/value pairs needs 13000 bytes but only 0 remain"},
		{"missing kv", tfile{countAdj: 1, kvs: []tkv{{"a", vU32(1)}}}.build(), "offset 24: 2 metadata key/value pairs needs 26 bytes but only 17 remain"},
		{"huge key", cat([]byte("GGUF"), u32(3), u64(0), u64(1), u64(1<<40), make([]byte, 16)), "offset 24: key of metadata entry 0 of 1 length 1099511627776 exceeds the 64 KiB limit"},
		{"key beyond data", cat([]byte("GGUF"), u32(3), u64(0), u64(1), u64(100), []byte("abcde")), "offset 32: key of metadata entry 0 of 1 needs 100 bytes but only 5 remain"},
		{"unknown type", one("x", vRaw(13, nil)), `offset 33: unknown value type 13 (key "x")`},
		{"unknown type big", one("x", vRaw(0xffffffff, nil)), "unknown value type 4294967295"},
		{"huge string", one("x", vRaw(ggufString, u64(1<<63))), "string length 9223372036854775808 exceeds the 64 MiB limit"},
		{"string beyond data", one("x", vRaw(ggufString, cat(u64(10), []byte("abc")))), `offset 45: string needs 10 bytes but only 3 remain in the file: unexpected EOF (key "x")`},
		{"huge array", one("x", vRaw(ggufArray, cat(u32(ggufUint8), u64(10_000_001)))), "offset 41: array length 10000001 exceeds the limit of 10000000 elements"},
		{"array beyond data", one("x", vRaw(ggufArray, cat(u32(ggufUint64), u64(1000), u64(1)))), "array of 1000 uint64 needs 8000 bytes but only 8 remain"},
		{"string array beyond data", one("x", vRaw(ggufArray, cat(u32(ggufString), u64(1000)))), "array of 1000 string needs 8000 bytes"},
		{"unknown element type", one("x", vRaw(ggufArray, cat(u32(99), u64(1)))), `offset 37: unknown array element type 99 (key "x")`},
		{"nested too deep", one("x", deep(9)), "arrays nested more than 8 deep"},
		{"nested huge", one("x", vRaw(ggufArray, cat(u32(ggufArray), u64(1), u32(ggufString), u64(1<<50)))), "array length 1125899906842624 exceeds the limit"},
		{"template not string", one("tokenizer.chat_template", vU32(1)), `offset 55: value has type uint32, want string (key "tokenizer.chat_template")`},
		{"template array", one("tokenizer.chat_template", vStrs("a")), "value has type array, want string"},
		{"named not string", one("tokenizer.chat_template.tool_use", vBool(true)), "value has type bool, want string"},
		{"named empty", one("tokenizer.chat_template.", vStr("x")), "offset 24: named chat template key has an empty name"},
		{"name not string", one("general.name", vF32(1)), "value has type float32, want string"},
		{"arch not string", one("general.architecture", vInt(ggufInt64, 1)), "value has type int64, want string"},
		{"bos float", one("tokenizer.ggml.bos_token_id", vF32(1)), "value has type float32, want an integer token id"},
		{"eos string", one("tokenizer.ggml.eos_token_id", vStr("1")), "value has type string, want an integer token id"},
		{"bos bool", one("tokenizer.ggml.bos_token_id", vBool(true)), "value has type bool, want an integer token id"},
		{"bos negative", one("tokenizer.ggml.bos_token_id", vInt(ggufInt32, 0xffffffff)), "token id is negative (-1)"},
		{"eos negative i8", one("tokenizer.ggml.eos_token_id", vInt(ggufInt8, 0x80)), "token id is negative (-128)"},
		{"eos negative i64", one("tokenizer.ggml.eos_token_id", vInt(ggufInt64, 1<<63)), "token id is negative"},
		{"eos negative i16", one("tokenizer.ggml.eos_token_id", vInt(ggufInt16, 0xffff)), "token id is negative (-1)"},
		{"add_bos int", one("tokenizer.ggml.add_bos_token", vU32(1)), "value has type uint32, want bool"},
		{"add_eos value 2", one("tokenizer.ggml.add_eos_token", vRaw(ggufBool, []byte{2})), "bool value is 2, want 0 or 1"},
		{"tokens not array", one("tokenizer.ggml.tokens", vStr("a")), "value has type string, want array of string"},
		{"tokens of ints", one("tokenizer.ggml.tokens", vArr(ggufUint32, vU32(1))), "array element type is uint32, want string"},
		{"tokens nested", one("tokenizer.ggml.tokens", vArr(ggufArray, vStrs("a"))), "array element type is array, want string"},
		{"token huge", one("tokenizer.ggml.tokens", vRaw(ggufArray, cat(u32(ggufString), u64(2), u64(1), []byte("a"), u64(1<<60)))), `token string length 1152921504606846976 exceeds the 64 MiB limit (key "tokenizer.ggml.tokens")`},
		{"duplicate template", tfile{kvs: []tkv{{"tokenizer.chat_template", vStr("a")}, {"tokenizer.chat_template", vStr("b")}}}.build(), `offset 68: duplicate key (key "tokenizer.chat_template")`},
		{"duplicate named", tfile{kvs: []tkv{{"tokenizer.chat_template.x", vStr("a")}, {"tokenizer.chat_template.x", vStr("b")}}}.build(), "duplicate key"},
		{"duplicate tokens", tfile{kvs: []tkv{{"tokenizer.ggml.tokens", vStrs("a")}, {"tokenizer.ggml.tokens", vStrs("a")}}}.build(), "duplicate key"},
		{"duplicate bos", tfile{kvs: []tkv{{"tokenizer.ggml.bos_token_id", vU32(0)}, {"tokenizer.ggml.bos_token_id", vU32(0)}}}.build(), "duplicate key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				var r io.Reader = bytes.NewReader(tc.data)
				if stream {
					r = hideLen{r}
				}
				m, err := ReadGGUF(r)
				if err == nil {
					t.Fatalf("stream=%v: no error, got %+v", stream, m)
				}
				var ge *GGUFError
				if !errors.As(err, &ge) {
					t.Fatalf("stream=%v: error %T is not a *GGUFError: %v", stream, err, err)
				}
				if !strings.HasPrefix(err.Error(), "gguf: offset ") {
					t.Errorf("stream=%v: %v: no offset", stream, err)
				}
				// With an unknown size, running out of data is found by reading.
				if !stream && !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %q\nwant it to contain %q", err, tc.want)
				}
			}
		})
	}
	// Nesting up to the limit is fine.
	if _, err := readBoth(t, one("x", deep(8))); err != nil {
		t.Errorf("8 levels of arrays: %v", err)
	}
}

func TestReadGGUFStreamErrors(t *testing.T) {
	// Without a known size, a length larger than the data fails when the data ends.
	data := tfile{kvs: []tkv{{"tokenizer.chat_template", vRaw(ggufString, append(binary.LittleEndian.AppendUint64(nil, 60<<20), "abc"...))}}}.build()
	_, err := ReadGGUF(hideLen{bytes.NewReader(data)})
	want := `gguf: offset 67: reading string: unexpected EOF (key "tokenizer.chat_template")`
	if err == nil || err.Error() != want || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	// A reader error is passed on.
	boom := errors.New("boom")
	_, err = ReadGGUF(io.MultiReader(bytes.NewReader(data[:30]), errReader{boom}))
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "offset 24: reading key of metadata entry 0 of 1 length: boom") {
		t.Fatalf("got %v", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// tinyModel builds a file shaped like the oracle's tiny llama models: a few hundred tokens with
// scores and types, ids after the tokens, a template, tensor infos and data after the metadata.
func tinyModel(version uint32, idsFirst bool) []byte { return tinyModelFile(version, idsFirst).build() }

func tinyModelFile(version uint32, idsFirst bool) tfile {
	tokens := []string{"<unk>", "<s>", "</s>"}
	for b := 0; b < 256; b++ {
		tokens = append(tokens, fmt.Sprintf("<0x%02X>", b))
	}
	for _, p := range []string{"\u2581", "\u2581the", "\u2581hello", "ing", "er", "a", "b", "c"} {
		tokens = append(tokens, p)
	}
	tokens = append(tokens, "<|begin_of_text|>", "<|eot_id|>")
	scores := make([]tval, len(tokens))
	types := make([]tval, len(tokens))
	for i := range tokens {
		scores[i] = vF32(-float32(i) / 100)
		types[i] = vInt(ggufInt32, 1)
	}
	ids := []tkv{
		{"tokenizer.ggml.bos_token_id", vU32(uint32(len(tokens) - 2))},
		{"tokenizer.ggml.eos_token_id", vU32(uint32(len(tokens) - 1))},
		{"tokenizer.ggml.unknown_token_id", vU32(0)},
	}
	kvs := []tkv{
		{"general.architecture", vStr("llama")},
		{"general.name", vStr("tiny-oracle")},
		{"general.alignment", vU32(32)},
		{"general.file_type", vU32(0)},
		{"llama.context_length", vU32(512)},
		{"llama.embedding_length", vU32(32)},
		{"llama.block_count", vU32(1)},
		{"llama.attention.layer_norm_rms_epsilon", vF32(1e-5)},
		{"llama.rope.freq_base", vF32(10000)},
		{"tokenizer.ggml.model", vStr("llama")},
	}
	if idsFirst {
		kvs = append(kvs, ids...)
	}
	kvs = append(kvs,
		tkv{"tokenizer.ggml.tokens", vStrs(tokens...)},
		tkv{"tokenizer.ggml.scores", vArr(ggufFloat32, scores...)},
		tkv{"tokenizer.ggml.token_type", vArr(ggufInt32, types...)},
	)
	if !idsFirst {
		kvs = append(kvs, ids...)
	}
	kvs = append(kvs,
		tkv{"tokenizer.ggml.add_bos_token", vBool(true)},
		tkv{"tokenizer.ggml.add_eos_token", vBool(false)},
		tkv{"tokenizer.chat_template", vStr("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}")},
	)
	// Tensor info for one tensor, padding and data: after the metadata, never read.
	tail := &tbuf{o: binary.LittleEndian}
	tail.str("token_embd.weight")
	tail.u32(2)
	tail.u64(32)
	tail.u64(uint64(len(tokens)))
	tail.u32(0)
	tail.u64(0)
	tail.Write(make([]byte, 64))
	return tfile{version: version, tensors: 1, kvs: kvs, tail: tail.Bytes()}
}

func TestReadGGUFTinyModel(t *testing.T) {
	for _, idsFirst := range []bool{false, true} {
		m, err := readBoth(t, tinyModel(3, idsFirst))
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != "tiny-oracle" || m.Architecture != "llama" || m.BOSToken != "<|begin_of_text|>" || m.EOSToken != "<|eot_id|>" ||
			!m.HasBOS || !m.HasEOS || m.AddBOS == nil || !*m.AddBOS || m.AddEOS == nil || *m.AddEOS ||
			!strings.HasPrefix(m.ChatTemplate, "{% for message") || len(m.Warnings) != 0 {
			t.Errorf("idsFirst=%v: %+v", idsFirst, m)
		}
	}
}

// metadataEnd returns the length of data without its tail.
func metadataEnd(f tfile) int { f.tail = nil; return len(f.build()) }

// TestReadGGUFTruncated cuts valid files at every byte of their metadata: each cut must give a
// *GGUFError (never a panic or a success), with a known size and as a stream.
func TestReadGGUFTruncated(t *testing.T) {
	kvs := append(distractors(), tkv{"tokenizer.ggml.tokens", vStrs(testTokens...)}, tkv{"tokenizer.ggml.bos_token_id", vU32(1)},
		tkv{"tokenizer.chat_template", vStr("x")}, tkv{"tokenizer.chat_template.a", vStr("y")}, tkv{"tokenizer.ggml.add_bos_token", vBool(true)})
	files := map[string]tfile{
		"tiny ids after":  tinyModelFile(3, false),
		"tiny ids before": tinyModelFile(2, true),
		"distractors be":  {be: true, kvs: kvs},
	}
	for name, f := range files {
		data, end := f.build(), metadataEnd(f)
		for n := 0; n < end; n++ {
			for _, stream := range []bool{false, true} {
				var r io.Reader = bytes.NewReader(data[:n])
				if stream {
					r = hideLen{r}
				}
				_, err := ReadGGUF(r)
				var ge *GGUFError
				if !errors.As(err, &ge) {
					t.Fatalf("%s cut at %d (stream=%v): error %v, want a *GGUFError", name, n, stream, err)
				}
				if ge.Offset < 0 || ge.Offset > int64(n) {
					t.Fatalf("%s cut at %d: offset %d outside the data: %v", name, n, ge.Offset, err)
				}
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("%s cut at %d: %v does not wrap io.ErrUnexpectedEOF", name, n, err)
				}
			}
		}
		if _, err := readBoth(t, data[:end]); err != nil {
			t.Fatalf("%s: full metadata: %v", name, err)
		}
	}
}

func TestReadGGUFLimits(t *testing.T) {
	small := ggufDefaultLimits
	small.maxKeptTokens = 40 // token texts plus 4 bytes each
	small.maxMetadata = 1000
	tokens := tkv{"tokenizer.ggml.tokens", vStrs(testTokens...)} // 8 tokens, 44 bytes of text
	bos := tkv{"tokenizer.ggml.bos_token_id", vU32(1)}
	eos := tkv{"tokenizer.ggml.eos_token_id", vU32(2)}
	read := func(lim ggufLimits, f tfile) (*ModelInfo, error) {
		data := f.build()
		return readGGUF(bytes.NewReader(data), int64(len(data)), "m.gguf", lim)
	}

	// Ids before the tokens: nothing needs keeping.
	if m, err := read(small, tfile{kvs: []tkv{bos, eos, tokens}}); err != nil || m.BOSToken != "<s>" || m.EOSToken != "</s>" {
		t.Errorf("ids first: %v %+v", err, m)
	}
	// Ids after tokens that exceed the kept-text budget: a clear error.
	_, err := read(small, tfile{kvs: []tkv{tokens, bos, eos}})
	want := `gguf: m.gguf: offset 177: cannot resolve token id 1: it comes after tokenizer.ggml.tokens (offset 24), whose texts exceed the 40 bytes kept while the ids are unknown (key "tokenizer.ggml.bos_token_id")`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// One id before: the other is still resolved from kept texts... or fails the same way.
	if _, err := read(small, tfile{kvs: []tkv{bos, tokens, eos}}); err == nil || !strings.Contains(err.Error(), "cannot resolve token id 2") {
		t.Errorf("bos first, eos after: %v", err)
	}
	// No id at all: exceeding the budget is no error.
	if _, err := read(small, tfile{kvs: []tkv{tokens}}); err != nil {
		t.Errorf("no ids: %v", err)
	}
	// Within a large enough budget, ids after work.
	small.maxKeptTokens = 44 + 4*8
	if m, err := read(small, tfile{kvs: []tkv{tokens, bos, eos}}); err != nil || m.BOSToken != "<s>" {
		t.Errorf("budget exactly enough: %v %+v", err, m)
	}

	// Metadata limit.
	_, err = read(small, tfile{kvs: []tkv{{"x", vStr(strings.Repeat("a", 980))}}})
	if err == nil || !strings.Contains(err.Error(), "offset 45: string (980 bytes) would take the metadata past the 1000 bytes limit") {
		t.Errorf("metadata limit: %v", err)
	}
	elems := make([]tval, 200)
	for i := range elems {
		elems[i] = vInt(ggufUint64, 0)
	}
	_, err = read(small, tfile{kvs: []tkv{{"x", vArr(ggufUint64, elems...)}}})
	if err == nil || !strings.Contains(err.Error(), "would take the metadata past") {
		t.Errorf("metadata limit with array: %v", err)
	}
	// Number of pairs.
	small.maxKVs = 2
	if _, err = read(small, tfile{kvs: []tkv{bos, eos, tokens}}); err == nil || !strings.Contains(err.Error(), "metadata key/value count 3 exceeds the limit of 2") {
		t.Errorf("kv limit: %v", err)
	}
}

// TestReadGGUFAllocation checks that lengths larger than the data do not allocate, and that
// skipped arrays are not allocated.
func TestReadGGUFAllocation(t *testing.T) {
	allocated := func(data []byte) uint64 {
		var before, after goruntime.MemStats
		goruntime.GC()
		goruntime.ReadMemStats(&before)
		_, _ = ReadGGUF(hideLen{bytes.NewReader(data)})
		goruntime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	// A string claiming 60 MiB with 3 bytes of data, with an unknown size.
	huge := tfile{kvs: []tkv{{"tokenizer.chat_template", vRaw(ggufString, append(binary.LittleEndian.AppendUint64(nil, 60<<20), "abc"...))}}}.build()
	if n := allocated(huge); n > 4<<20 {
		t.Errorf("a 60 MiB string length with 3 bytes of data allocated %d bytes", n)
	}
	// A skipped 1M-element array of uint64 (8 MB) and 100k strings.
	big := make([]tval, 1_000_000)
	for i := range big {
		big[i] = vInt(ggufUint64, uint64(i))
	}
	strs := make([]string, 100_000)
	for i := range strs {
		strs[i] = "tok"
	}
	data := tfile{kvs: []tkv{{"x.big", vArr(ggufUint64, big...)}, {"x.strs", vStrs(strs...)}}}.build()
	if n := allocated(data); n > 1<<20 {
		t.Errorf("skipping %d bytes of arrays allocated %d bytes", len(data), n)
	}
	if testing.Verbose() {
		t.Logf("huge string: %d bytes allocated; skipping arrays: %d", allocated(huge), allocated(data))
	}
}

// TestReadGGUFLargeVocab reads a 150k-token vocabulary with the ids before and after it.
func TestReadGGUFLargeVocab(t *testing.T) {
	tokens := make([]string, 150_000)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("tok%d", i)
	}
	for _, after := range []bool{false, true} {
		kvs := []tkv{{"tokenizer.ggml.tokens", vStrs(tokens...)}}
		ids := []tkv{{"tokenizer.ggml.bos_token_id", vU32(149_999)}, {"tokenizer.ggml.eos_token_id", vU32(75_000)}}
		if after {
			kvs = append(kvs, ids...)
		} else {
			kvs = append(ids, kvs...)
		}
		m, err := readBoth(t, tfile{kvs: kvs}.build())
		if err != nil || m.BOSToken != "tok149999" || m.EOSToken != "tok75000" {
			t.Errorf("after=%v: %v %+v", after, err, m)
		}
	}
}

func TestReadGGUFFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gguf")
	if err := os.WriteFile(path, tinyModel(3, false), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadGGUFFile(path)
	if err != nil || m.Source != path || m.TemplateSource != path+":tokenizer.chat_template" || m.BOSToken != "<|begin_of_text|>" {
		t.Fatalf("%v %+v", err, m)
	}
	// An *os.File passed to ReadGGUF knows its size too, from its current position.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ggufAvailable(f) != int64(len(tinyModel(3, false))) {
		t.Errorf("ggufAvailable(file) = %d", ggufAvailable(f))
	}
	if _, err := ReadGGUF(f); err != nil {
		t.Fatal(err)
	}
	// Errors name the file.
	bad := filepath.Join(dir, "bad.gguf")
	if err := os.WriteFile(bad, []byte("GGUF\x03\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadGGUFFile(bad)
	if err == nil || !strings.HasPrefix(err.Error(), "gguf: "+bad+": offset 8: tensor count needs 8 bytes but only 0 remain") {
		t.Fatalf("got %v", err)
	}
	if _, err := ReadGGUFFile(filepath.Join(dir, "missing.gguf")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	// ReadModel recognises GGUF by its magic, whatever the name.
	other := filepath.Join(dir, "model.bin")
	if err := os.WriteFile(other, tinyModel(2, true), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, other} {
		m, err := ReadModel(p)
		if err != nil || m.Format != FormatGGUF || m.Name != "tiny-oracle" {
			t.Errorf("ReadModel(%s): %v %+v", p, err, m)
		}
	}
}

func TestGGUFErrorFormat(t *testing.T) {
	e := &GGUFError{Offset: 3, Key: strings.Repeat("k", 100), Msg: "bad"}
	want := `gguf: offset 3: bad (key "` + strings.Repeat("k", 80) + `...")`
	if e.Error() != want {
		t.Errorf("got %s", e.Error())
	}
	if ggufTypeName(77) != "unknown type 77" || ggufSize(1000) != "1000 bytes" || ggufSize(2<<30) != "2 GiB" {
		t.Error("ggufTypeName/ggufSize")
	}
}

// FuzzReadGGUF checks that no input panics, that errors are *GGUFError with an offset within
// the input, and that reading with a known size and as a stream agree.
func FuzzReadGGUF(f *testing.F) {
	f.Add(tinyModel(3, false))
	f.Add(tinyModel(2, true))
	f.Add(tfile{be: true, kvs: distractors()}.build())
	f.Add(tfile{kvs: []tkv{{"tokenizer.ggml.tokens", vStrs(testTokens...)}, {"tokenizer.ggml.bos_token_id", vU32(1)},
		{"tokenizer.ggml.eos_token_id", vInt(ggufInt64, 2)}, {"tokenizer.chat_template", vStr("t")},
		{"tokenizer.chat_template.tool_use", vStr("u")}, {"tokenizer.ggml.add_eos_token", vBool(true)}}}.build())
	f.Add(tfile{version: 2, kvs: []tkv{{"x", vArr(ggufArray, vArr(ggufArray, vStrs("a")))}}}.build())
	f.Add([]byte("GGUF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := readBoth(t, data)
		if err != nil {
			var ge *GGUFError
			if !errors.As(err, &ge) {
				t.Fatalf("error %T is not a *GGUFError: %v", err, err)
			}
			if ge.Offset < 0 || ge.Offset > int64(len(data)) {
				t.Fatalf("offset %d outside the input of %d bytes: %v", ge.Offset, len(data), err)
			}
			return
		}
		if m.Format != FormatGGUF || (m.BOSToken != "" && !m.HasBOS) || (m.EOSToken != "" && !m.HasEOS) {
			t.Fatalf("inconsistent result %+v", m)
		}
	})
}

// BenchmarkReadGGUFVocab reads a 150k-token vocabulary (plus scores and types) with the ids after
// it, the layout llama.cpp's converter writes.
func BenchmarkReadGGUFVocab(b *testing.B) {
	tokens := make([]string, 150_000)
	scores := make([]tval, len(tokens))
	for i := range tokens {
		tokens[i] = fmt.Sprintf("\u0120tok%d", i)
		scores[i] = vF32(0)
	}
	data := tfile{kvs: []tkv{{"tokenizer.ggml.tokens", vStrs(tokens...)}, {"tokenizer.ggml.scores", vArr(ggufFloat32, scores...)},
		{"tokenizer.ggml.bos_token_id", vU32(1)}, {"tokenizer.ggml.eos_token_id", vU32(149_999)}}}.build()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadGGUF(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
