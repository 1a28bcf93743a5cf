package modelfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"strings"
)

// This file reads the metadata of a GGUF model file (versions 2 and 3, little- or big-endian)
// as a stream: header, then the key/value pairs, stopping before the tensor infos. Only the
// keys a chat template needs are decoded; every other value is skipped by its length.
// Spec: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md

// GGUF metadata value types.
const (
	ggufUint8   = 0
	ggufInt8    = 1
	ggufUint16  = 2
	ggufInt16   = 3
	ggufUint32  = 4
	ggufInt32   = 5
	ggufFloat32 = 6
	ggufBool    = 7
	ggufString  = 8
	ggufArray   = 9
	ggufUint64  = 10
	ggufInt64   = 11
	ggufFloat64 = 12
)

// GGUF keys the reader decodes.
const (
	ggufKeyName         = "general.name"
	ggufKeyArch         = "general.architecture"
	ggufKeyTemplate     = "tokenizer.chat_template"
	ggufKeyTokens       = "tokenizer.ggml.tokens"
	ggufKeyBOSID        = "tokenizer.ggml.bos_token_id"
	ggufKeyEOSID        = "tokenizer.ggml.eos_token_id"
	ggufKeyAddBOS       = "tokenizer.ggml.add_bos_token"
	ggufKeyAddEOS       = "tokenizer.ggml.add_eos_token"
	ggufTemplatePrefix  = ggufKeyTemplate + "."
	ggufMagic           = "GGUF"
	ggufBufferSize      = 64 << 10
	ggufChunk           = 1 << 20 // strings are read in chunks of this size when the input size is unknown
	ggufTokensPrealloc  = 1 << 18 // most tokens whose texts are preallocated for in a tokens array
	ggufMaxKeyInMessage = 80      // longest key quoted in full in an error message
)

// ggufLimits bounds what a GGUF reader accepts. Every count and length read from the file is
// checked against these before anything is allocated or skipped.
type ggufLimits struct {
	maxString     uint64 // bytes in one string value
	maxKey        uint64 // bytes in one key
	maxArray      uint64 // elements in one array
	maxKVs        uint64 // key/value pairs in the file
	maxDepth      int    // nesting of arrays inside arrays
	maxMetadata   uint64 // bytes from the start of the file to the end of the key/value pairs
	maxKeptTokens uint64 // bytes of token text (plus 4 per token) kept while the BOS/EOS ids are unknown
}

var ggufDefaultLimits = ggufLimits{
	maxString:     64 << 20,
	maxKey:        64 << 10,
	maxArray:      10_000_000,
	maxKVs:        1 << 20,
	maxDepth:      8,
	maxMetadata:   1 << 30,
	maxKeptTokens: 64 << 20,
}

// GGUFError reports malformed, unsupported or over-limit GGUF input: what is wrong, at which
// byte offset, and in the value of which metadata key.
type GGUFError struct {
	Path   string // file name, when known
	Offset int64  // byte offset from the start of the file of the item that is wrong
	Key    string // metadata key whose value was being read, or "" (header, keys themselves)
	Msg    string // what is wrong
	Err    error  // underlying error (io.ErrUnexpectedEOF for a truncated file, a read error), or nil
}

// Error formats the error as `gguf: PATH: offset N: MSG: ERR (key "KEY")`, omitting empty parts.
func (e *GGUFError) Error() string {
	var b strings.Builder
	b.WriteString("gguf: ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "offset %d: %s", e.Offset, e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Key != "" {
		k := e.Key
		if len(k) > ggufMaxKeyInMessage {
			k = k[:ggufMaxKeyInMessage] + "..."
		}
		fmt.Fprintf(&b, " (key %q)", k)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *GGUFError) Unwrap() error { return e.Err }

// ReadGGUF reads the metadata of a GGUF file (versions 2 and 3, either byte order) from r and
// returns what a chat template needs: tokenizer.chat_template and its named variants
// tokenizer.chat_template.NAME, the BOS/EOS token texts (tokenizer.ggml.bos_token_id and
// eos_token_id looked up in tokenizer.ggml.tokens), tokenizer.ggml.add_bos_token and
// add_eos_token, general.name and general.architecture. A file without a template gives an empty
// ChatTemplate, not an error (see ModelInfo.Template).
//
// r is read sequentially up to the end of the key/value pairs (through a buffer, so r may be
// consumed further); tensors are never read. Other values are skipped by length, and of the
// token array only the BOS/EOS entries are kept, unless the ids come after the array, in which
// case the token texts are kept until the end of the metadata (at most 64 MiB of them).
//
// Hostile input gives a *GGUFError naming the problem and its byte offset. Limits: 64 MiB per
// string, 64 KiB per key, 10,000,000 elements per array, 1,048,576 key/value pairs, arrays
// nested 8 deep, 1 GiB of metadata. When r reports its size (a Len method, as bytes.Reader has,
// or an *os.File), every length is also checked against the bytes that remain.
func ReadGGUF(r io.Reader) (*ModelInfo, error) {
	return readGGUF(r, ggufAvailable(r), "", ggufDefaultLimits)
}

// ReadGGUFFile reads the metadata of the GGUF file at path, as ReadGGUF does, and records path
// as the Source of the result.
func ReadGGUFFile(path string) (*ModelInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	avail := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		avail = fi.Size()
	}
	return readGGUF(f, avail, path, ggufDefaultLimits)
}

// ggufAvailable returns the number of bytes left in r when r can tell, else -1.
func ggufAvailable(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	}:
		fi, err := v.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		pos, err := v.Seek(0, io.SeekCurrent)
		if err != nil || pos > fi.Size() {
			return -1
		}
		return fi.Size() - pos
	}
	return -1
}

// ggufDecoder holds the state of one metadata read.
type ggufDecoder struct {
	br    *bufio.Reader
	off   int64 // offset of the next unread byte
	avail int64 // size of the input, or -1 when unknown
	order binary.ByteOrder
	lim   ggufLimits
	path  string
	key   string // key whose value is being read
	buf   [8]byte
	info  *ModelInfo
	seen  map[string]bool // decoded keys, to reject duplicates

	// BOS/EOS resolution.
	bos, eos       ggufTokenRef
	tokensSeen     bool
	tokensOff      int64
	tokenCount     uint64
	keepAll        bool     // token texts are being kept (the ids were not both known before the array)
	keptOverflow   bool     // keeping stopped because the texts exceeded maxKeptTokens
	keptText       []byte   // all kept token texts, concatenated
	keptEnds       []uint32 // keptText[keptEnds[i-1]:keptEnds[i]] is token i
	keptTextBudget uint64
}

// ggufTokenRef is the BOS or EOS token id and, once found, its text.
type ggufTokenRef struct {
	known bool // the id key was read
	id    uint64
	off   int64 // offset of the id key
	found bool  // text is set
	text  string
}

func readGGUF(r io.Reader, avail int64, path string, lim ggufLimits) (*ModelInfo, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		size := ggufBufferSize
		if avail >= 0 && avail < int64(size) {
			size = int(avail) // bufio makes it at least 16
		}
		br = bufio.NewReaderSize(r, size)
	}
	d := &ggufDecoder{
		br:    br,
		avail: avail,
		order: binary.LittleEndian,
		lim:   lim,
		path:  path,
		info:  &ModelInfo{Format: FormatGGUF, Source: path},
		seen:  map[string]bool{},
	}
	if err := d.run(); err != nil {
		return nil, err
	}
	return d.info, nil
}

func (d *ggufDecoder) errAt(off int64, err error, format string, args ...any) error {
	return &GGUFError{Path: d.path, Offset: off, Key: d.key, Msg: fmt.Sprintf(format, args...), Err: err}
}

// need checks that n more bytes may be read at the current offset: within the input, when its
// size is known, and within the metadata limit.
func (d *ggufDecoder) need(n uint64, what string) error {
	if d.avail >= 0 {
		left := uint64(0)
		if d.avail > d.off {
			left = uint64(d.avail - d.off)
		}
		if n > left {
			return d.errAt(d.off, io.ErrUnexpectedEOF, "%s needs %d bytes but only %d remain in the file", what, n, left)
		}
	}
	if n > d.lim.maxMetadata-uint64(d.off) {
		return d.errAt(d.off, nil, "%s (%d bytes) would take the metadata past the %s limit", what, n, ggufSize(d.lim.maxMetadata))
	}
	return nil
}

// readErr turns an error from the underlying reader into a *GGUFError at off.
func (d *ggufDecoder) readErr(off int64, err error, what string) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return d.errAt(off, err, "reading %s", what)
}

// fixed reads n ≤ 8 bytes.
func (d *ggufDecoder) fixed(n int, what string) ([]byte, error) {
	if err := d.need(uint64(n), what); err != nil {
		return nil, err
	}
	b := d.buf[:n]
	if _, err := io.ReadFull(d.br, b); err != nil {
		return nil, d.readErr(d.off, err, what)
	}
	d.off += int64(n)
	return b, nil
}

func (d *ggufDecoder) u32(what string) (uint32, error) {
	b, err := d.fixed(4, what)
	if err != nil {
		return 0, err
	}
	return d.order.Uint32(b), nil
}

func (d *ggufDecoder) u64(what string) (uint64, error) {
	b, err := d.fixed(8, what)
	if err != nil {
		return 0, err
	}
	return d.order.Uint64(b), nil
}

// skip discards n bytes after checking them with need.
func (d *ggufDecoder) skip(n uint64, what string) error {
	if err := d.need(n, what); err != nil {
		return err
	}
	// n ≤ maxMetadata (1 GiB) after need, so it fits an int.
	got, err := d.br.Discard(int(n))
	if err != nil {
		return d.readErr(d.off+int64(got), err, what)
	}
	d.off += int64(n)
	return nil
}

// appendBytes reads n bytes, already checked by need, onto dst. When the input size is unknown
// it grows dst a chunk at a time, so a length larger than the data allocates no more than the
// data that is actually there.
func (d *ggufDecoder) appendBytes(dst []byte, n uint64, what string) ([]byte, error) {
	start := d.off
	for n > 0 {
		c := n
		if d.avail < 0 && c > ggufChunk {
			c = ggufChunk
		}
		l := len(dst)
		dst = append(dst, make([]byte, c)...)
		got, err := io.ReadFull(d.br, dst[l:])
		d.off += int64(got)
		if err != nil {
			return nil, d.readErr(start, err, what)
		}
		n -= c
	}
	return dst, nil
}

// strLen reads the length of a string and checks it against limit and the input. what names
// the string in errors; whatLen, its length (passed in so as not to build it for every string).
func (d *ggufDecoder) strLen(what, whatLen string, limit uint64) (uint64, error) {
	off := d.off
	n, err := d.u64(whatLen)
	if err != nil {
		return 0, err
	}
	if n > limit {
		return 0, d.errAt(off, nil, "%s length %d exceeds the %s limit", what, n, ggufSize(limit))
	}
	if err := d.need(n, what); err != nil {
		return 0, err
	}
	return n, nil
}

func (d *ggufDecoder) str(what, whatLen string, limit uint64) (string, error) {
	n, err := d.strLen(what, whatLen, limit)
	if err != nil {
		return "", err
	}
	b, err := d.appendBytes(nil, n, what)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func (d *ggufDecoder) run() error {
	magic, err := d.fixed(4, "magic")
	if err != nil {
		return err
	}
	if string(magic) != ggufMagic {
		return d.errAt(0, nil, "bad magic %q, want %q: not a GGUF file", magic, ggufMagic)
	}
	version, err := d.u32("version")
	if err != nil {
		return err
	}
	if swapped := bits.ReverseBytes32(version); swapped == 2 || swapped == 3 {
		// The file was written on a big-endian machine (GGUF v3 allows it).
		version = swapped
		d.order = binary.BigEndian
	}
	if version != 2 && version != 3 {
		return d.errAt(4, nil, "unsupported GGUF version %d (this reader handles versions 2 and 3)", version)
	}
	if _, err := d.u64("tensor count"); err != nil {
		return err
	}
	countOff := d.off
	nkv, err := d.u64("metadata key/value count")
	if err != nil {
		return err
	}
	if nkv > d.lim.maxKVs {
		return d.errAt(countOff, nil, "metadata key/value count %d exceeds the limit of %d", nkv, d.lim.maxKVs)
	}
	// Each pair takes at least 13 bytes: key length, value type, a one-byte value.
	if err := d.need(nkv*13, fmt.Sprintf("%d metadata key/value pairs", nkv)); err != nil {
		return err
	}
	for i := uint64(0); i < nkv; i++ {
		if err := d.readKV(i, nkv); err != nil {
			return err
		}
	}
	d.key = ""
	return d.finish()
}

func (d *ggufDecoder) readKV(i, n uint64) error {
	d.key = ""
	what := fmt.Sprintf("key of metadata entry %d of %d", i, n)
	key, err := d.str(what, what+" length", d.lim.maxKey)
	if err != nil {
		return err
	}
	d.key = key
	typeOff := d.off
	t, err := d.u32("value type")
	if err != nil {
		return err
	}
	named := strings.HasPrefix(key, ggufTemplatePrefix)
	switch key {
	case ggufKeyName, ggufKeyArch, ggufKeyTemplate, ggufKeyTokens, ggufKeyBOSID, ggufKeyEOSID, ggufKeyAddBOS, ggufKeyAddEOS:
	default:
		if !named {
			return d.skipValue(t, typeOff, 0)
		}
	}
	if d.seen[key] {
		return d.errAt(typeOff-8-int64(len(key)), nil, "duplicate key")
	}
	d.seen[key] = true
	switch key {
	case ggufKeyName:
		d.info.Name, err = d.stringValue(t, typeOff)
	case ggufKeyArch:
		d.info.Architecture, err = d.stringValue(t, typeOff)
	case ggufKeyTemplate:
		d.info.ChatTemplate, err = d.stringValue(t, typeOff)
		if err == nil {
			d.info.TemplateSource = ggufTemplateSource(d.path, key)
		}
	case ggufKeyBOSID:
		err = d.tokenID(&d.bos, t, typeOff)
	case ggufKeyEOSID:
		err = d.tokenID(&d.eos, t, typeOff)
	case ggufKeyAddBOS:
		d.info.AddBOS, err = d.boolValue(t, typeOff)
	case ggufKeyAddEOS:
		d.info.AddEOS, err = d.boolValue(t, typeOff)
	case ggufKeyTokens:
		err = d.tokens(t, typeOff)
	default: // tokenizer.chat_template.NAME
		name := key[len(ggufTemplatePrefix):]
		if name == "" {
			return d.errAt(typeOff-8-int64(len(key)), nil, "named chat template key has an empty name")
		}
		var s string
		if s, err = d.stringValue(t, typeOff); err == nil {
			if d.info.NamedTemplates == nil {
				d.info.NamedTemplates = map[string]string{}
			}
			d.info.NamedTemplates[name] = s
		}
	}
	return err
}

func ggufTemplateSource(path, key string) string {
	if path == "" {
		return key
	}
	return path + ":" + key
}

// wrongType reports a decoded key whose value has the wrong type.
func (d *ggufDecoder) wrongType(t uint32, off int64, want string) error {
	return d.errAt(off, nil, "value has type %s, want %s", ggufTypeName(t), want)
}

func (d *ggufDecoder) stringValue(t uint32, off int64) (string, error) {
	if t != ggufString {
		return "", d.wrongType(t, off, "string")
	}
	return d.str("string", "string length", d.lim.maxString)
}

func (d *ggufDecoder) boolValue(t uint32, off int64) (*bool, error) {
	if t != ggufBool {
		return nil, d.wrongType(t, off, "bool")
	}
	b, err := d.fixed(1, "bool")
	if err != nil {
		return nil, err
	}
	if b[0] > 1 {
		return nil, d.errAt(d.off-1, nil, "bool value is %d, want 0 or 1", b[0])
	}
	v := b[0] == 1
	return &v, nil
}

// tokenID reads a token id; llama.cpp writes uint32, any non-negative integer is accepted.
func (d *ggufDecoder) tokenID(ref *ggufTokenRef, t uint32, off int64) error {
	size := ggufScalarSize(t)
	if size == 0 || t == ggufFloat32 || t == ggufFloat64 || t == ggufBool {
		return d.wrongType(t, off, "an integer token id")
	}
	valOff := d.off
	b, err := d.fixed(size, "token id")
	if err != nil {
		return err
	}
	var id uint64
	neg := false
	switch t {
	case ggufUint8:
		id = uint64(b[0])
	case ggufInt8:
		neg, id = int8(b[0]) < 0, uint64(int8(b[0]))
	case ggufUint16:
		id = uint64(d.order.Uint16(b))
	case ggufInt16:
		v := int16(d.order.Uint16(b))
		neg, id = v < 0, uint64(v)
	case ggufUint32:
		id = uint64(d.order.Uint32(b))
	case ggufInt32:
		v := int32(d.order.Uint32(b))
		neg, id = v < 0, uint64(v)
	case ggufUint64:
		id = d.order.Uint64(b)
	case ggufInt64:
		v := int64(d.order.Uint64(b))
		neg, id = v < 0, uint64(v)
	}
	if neg {
		return d.errAt(valOff, nil, "token id is negative (%d)", int64(id))
	}
	*ref = ggufTokenRef{known: true, id: id, off: off - 8 - int64(len(d.key))}
	return nil
}

// tokens reads tokenizer.ggml.tokens, keeping the texts of the BOS/EOS ids already known and,
// while either id is still unknown, all texts within maxKeptTokens.
func (d *ggufDecoder) tokens(t uint32, off int64) error {
	if t != ggufArray {
		return d.wrongType(t, off, "array of string")
	}
	et, n, err := d.arrayHeader(0)
	if err != nil {
		return err
	}
	if et != ggufString {
		return d.errAt(off+4, nil, "array element type is %s, want string", ggufTypeName(et))
	}
	d.tokensSeen, d.tokensOff, d.tokenCount = true, off-8-int64(len(d.key)), n
	d.keepAll = !d.bos.known || !d.eos.known
	if d.keepAll {
		// Reserve room for typical token texts (under 8 bytes), within what the input can hold.
		text := min(n*8, d.lim.maxKeptTokens, ggufTokensPrealloc*8)
		if d.avail >= 0 {
			text = min(text, uint64(d.avail-d.off)-n*8) // need(n*8) has passed
		}
		d.keptText = make([]byte, 0, text)
		d.keptEnds = make([]uint32, 0, min(n, ggufTokensPrealloc))
	}
	for i := uint64(0); i < n; i++ {
		const what = "token string"
		l, err := d.strLen(what, what+" length", d.lim.maxString)
		if err != nil {
			return err
		}
		wantBOS := d.bos.known && d.bos.id == i
		wantEOS := d.eos.known && d.eos.id == i
		keep := d.keepAll && !d.keptOverflow
		if keep && d.keptTextBudget+l+4 > d.lim.maxKeptTokens {
			d.keptOverflow, d.keptText, d.keptEnds, keep = true, nil, nil, false
		}
		switch {
		case keep:
			start := len(d.keptText)
			if d.keptText, err = d.appendBytes(d.keptText, l, what); err != nil {
				return err
			}
			d.keptEnds = append(d.keptEnds, uint32(len(d.keptText)))
			d.keptTextBudget += l + 4
			if wantBOS || wantEOS {
				s := string(d.keptText[start:])
				if wantBOS {
					d.bos.found, d.bos.text = true, s
				}
				if wantEOS {
					d.eos.found, d.eos.text = true, s
				}
			}
		case wantBOS || wantEOS:
			b, err := d.appendBytes(nil, l, what)
			if err != nil {
				return err
			}
			if wantBOS {
				d.bos.found, d.bos.text = true, string(b)
			}
			if wantEOS {
				d.eos.found, d.eos.text = true, string(b)
			}
		default:
			if err := d.skip(l, what); err != nil {
				return err
			}
		}
	}
	return nil
}

// arrayHeader reads an array's element type and count and checks the count against the limits
// and, for elements of known minimum size, the input.
func (d *ggufDecoder) arrayHeader(depth int) (uint32, uint64, error) {
	typeOff := d.off
	et, err := d.u32("array element type")
	if err != nil {
		return 0, 0, err
	}
	minSize := uint64(ggufScalarSize(et))
	switch et {
	case ggufString:
		minSize = 8
	case ggufArray:
		if depth+1 >= d.lim.maxDepth {
			return 0, 0, d.errAt(typeOff, nil, "arrays nested more than %d deep", d.lim.maxDepth)
		}
		minSize = 12
	default:
		if minSize == 0 {
			return 0, 0, d.errAt(typeOff, nil, "unknown array element type %d", et)
		}
	}
	countOff := d.off
	n, err := d.u64("array length")
	if err != nil {
		return 0, 0, err
	}
	if n > d.lim.maxArray {
		return 0, 0, d.errAt(countOff, nil, "array length %d exceeds the limit of %d elements", n, d.lim.maxArray)
	}
	if err := d.need(n*minSize, fmt.Sprintf("array of %d %s", n, ggufTypeName(et))); err != nil {
		return 0, 0, err
	}
	return et, n, nil
}

// skipValue skips a value of type t without allocating.
func (d *ggufDecoder) skipValue(t uint32, typeOff int64, depth int) error {
	switch t {
	case ggufString:
		n, err := d.strLen("string", "string length", d.lim.maxString)
		if err != nil {
			return err
		}
		return d.skip(n, "string")
	case ggufArray:
		et, n, err := d.arrayHeader(depth)
		if err != nil {
			return err
		}
		if size := uint64(ggufScalarSize(et)); size > 0 {
			return d.skip(n*size, "array")
		}
		for i := uint64(0); i < n; i++ {
			if err := d.skipValue(et, d.off, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if size := ggufScalarSize(t); size > 0 {
		return d.skip(uint64(size), ggufTypeName(t))
	}
	return d.errAt(typeOff, nil, "unknown value type %d", t)
}

// finish resolves the BOS/EOS texts.
func (d *ggufDecoder) finish() error {
	var err error
	d.info.BOSToken, d.info.HasBOS, err = d.resolve(&d.bos, ggufKeyBOSID)
	if err != nil {
		return err
	}
	d.info.EOSToken, d.info.HasEOS, err = d.resolve(&d.eos, ggufKeyEOSID)
	d.keptText, d.keptEnds = nil, nil
	return err
}

func (d *ggufDecoder) resolve(ref *ggufTokenRef, key string) (string, bool, error) {
	switch {
	case !ref.known:
		return "", false, nil
	case ref.found:
		return ref.text, true, nil
	case !d.tokensSeen:
		d.info.Warnings = append(d.info.Warnings, fmt.Sprintf("%s is %d but the file has no %s", key, ref.id, ggufKeyTokens))
		return "", false, nil
	case ref.id >= d.tokenCount:
		d.info.Warnings = append(d.info.Warnings, fmt.Sprintf("%s %d is out of range: %s has %d entries", key, ref.id, ggufKeyTokens, d.tokenCount))
		return "", false, nil
	case d.keptOverflow:
		return "", false, &GGUFError{Path: d.path, Offset: ref.off, Key: key,
			Msg: fmt.Sprintf("cannot resolve token id %d: it comes after %s (offset %d), whose texts exceed the %s kept while the ids are unknown",
				ref.id, ggufKeyTokens, d.tokensOff, ggufSize(d.lim.maxKeptTokens))}
	}
	// The id came after the array: the texts were kept.
	start := uint32(0)
	if ref.id > 0 {
		start = d.keptEnds[ref.id-1]
	}
	return string(d.keptText[start:d.keptEnds[ref.id]]), true, nil
}

// ggufScalarSize returns the encoded size of a fixed-size type, 0 for string, array and unknown.
func ggufScalarSize(t uint32) int {
	switch t {
	case ggufUint8, ggufInt8, ggufBool:
		return 1
	case ggufUint16, ggufInt16:
		return 2
	case ggufUint32, ggufInt32, ggufFloat32:
		return 4
	case ggufUint64, ggufInt64, ggufFloat64:
		return 8
	}
	return 0
}

var ggufTypeNames = [...]string{"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array", "uint64", "int64", "float64"}

func ggufTypeName(t uint32) string {
	if int(t) < len(ggufTypeNames) {
		return ggufTypeNames[t]
	}
	return fmt.Sprintf("unknown type %d", t)
}

// ggufSize formats a byte count as "64 MiB" when it is a whole number of KiB, MiB or GiB.
func ggufSize(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
