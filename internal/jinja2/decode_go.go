package jinja2

import (
	"cmp"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// ValueOf converts an ordinary Go value into a Value: the value Python's json.loads
// returns for the JSON encoding/json's Marshal writes for x, without writing it.
//
//   - nil, and a nil pointer, interface, slice or map, is None.
//   - A bool is a bool; every int and uint kind is an int (a uint64 beyond the int64
//     range too, exactly); a float is a float, even an integral one (encoding/json writes
//     3.0 as 3, which json.loads would read as an int), a float32 through its shortest
//     decimal (float32(0.1) is 0.1), as encoding/json writes it. NaN and infinities are
//     an error.
//   - A string is a str; each byte of invalid UTF-8 becomes U+FFFD, as encoding/json
//     writes it.
//   - A slice or array is a list; a []byte is the str of its base64 (standard encoding),
//     as encoding/json writes it, while a byte array is a list of ints.
//   - A map is a dict. Its keys are strings, or implement encoding.TextMarshaler, or are
//     of an int or uint kind (written in decimal), in that order of precedence; since Go
//     maps have no order, the entries are sorted by key as encoding/json sorts them:
//     bytewise, so 10 comes before 9. Other key types are an error.
//   - A struct is a dict of its fields in their order, named and chosen as encoding/json
//     does: the name of the json tag, else of the field; unexported fields and "-" are
//     left out; omitempty leaves out false, 0, "", nil and empty collections, omitzero
//     zero values (or those whose IsZero method says so); the string option makes a
//     bool, number or string (or a pointer to one) the str of its JSON text; the fields of
//     embedded structs are flattened with Go's rules of visibility, a field named by a
//     tag winning over an untagged one at the same depth.
//   - A pointer or interface is what it points to or holds.
//   - A json.Number is the number it spells, an int or a float as json.loads reads it;
//     a json.RawMessage is its JSON, parsed with ParseJSON (keys in their order).
//   - A type implementing json.Marshaler is what its MarshalJSON returns, parsed with
//     ParseJSON; else a type implementing encoding.TextMarshaler is the str MarshalText
//     returns. A method with a pointer receiver is used for a value that is addressable
//     (an element of a slice, a field reached through a pointer), as encoding/json does.
//   - A Value is used as it is, a *Dict as its dict. A TemplateValuer (tmplgen's chat
//     types: Message, ContentPart, ToolCall, Tool) is what its TemplateValue returns,
//     before any MarshalJSON.
//
// Channels, functions, complex numbers and unsafe pointers are an error naming the Go
// type and where it is (messages[2].content), and so is a value that nests more than
// MaxNesting levels (counting every pointer, interface, collection and struct on the
// way) or contains itself.
func ValueOf(x any) (Value, error) {
	c := getConverter(0)
	defer c.release()
	v, err := c.anyValue(x, 0)
	if err != nil {
		return Value{}, fmt.Errorf("tmplgen.ValueOf: %w", err)
	}
	return v, nil
}

// A TemplateValuer is a Go value that converts itself into a template value.
type TemplateValuer interface {
	// TemplateValue returns the value a template sees for the receiver.
	TemplateValue() (Value, error)
}

// A converter converts Go values into Values. Its containers take their storage from
// chunks of cells, a few allocations for a whole conversion.
type converter struct {
	// pairs are the keys and values, in turn, of the dicts being made, and the items of
	// the lists: each conversion pushes the entries of its dict (or the items of its
	// list) above those of the containers that hold it, then makes its container of
	// them, at its size, and pops them.
	pairs   valueStack
	cells   cellChunks
	entries []mapEntry    // the entries of the maps being converted (see mapValue)
	key     reflect.Value // a settable map key of the last key type mapValue met
}

// A mapEntry is a map's key, as a str's text, and value.
type mapEntry struct {
	key string
	val reflect.Value
}

// converters keeps converters' stacks for reuse.
var converters = sync.Pool{New: func() any { return new(converter) }}

// getConverter returns a converter whose first chunk of cells holds cells Values (when
// that is more than a small chunk's).
func getConverter(cells int) *converter {
	c := converters.Get().(*converter)
	c.cells.bound = max(cells, minConverterCells)
	return c
}

// minConverterCells is the size of the first chunk of cells of a converter.
const minConverterCells = 32

// release returns c to the pool, without the storage of the values it made.
func (c *converter) release() {
	c.pairs.reset() // clears the pairs, which a failed conversion leaves some of
	clear(c.entries)
	c.cells, c.entries, c.key = cellChunks{}, c.entries[:0], reflect.Value{}
	if cap(c.entries) > maxPooledStack {
		c.entries = nil
	}
	converters.Put(c)
}

// mark returns where the entries or items of a container about to be made start.
func (c *converter) mark() int { return len(c.pairs.s) }

// push pushes an entry of the dict being made.
func (c *converter) push(key, v Value) { c.pairs.push2(key, v) }

// dict returns a dict of the entries pushed since mark, and pops them. Their keys are
// distinct strs (a struct's fields, a map's keys, a chat type's keys).
func (c *converter) dict(mark int) Value { return c.cells.dictOf(c.pairs.pop(mark), true, true) }

// list returns a list of the items pushed (with c.pairs.push) since mark, and pops
// them.
func (c *converter) list(mark int) Value { return c.cells.newList(c.pairs.pop(mark)) }

// anyValue converts x, nested depth levels deep; nil, a Value and a string skip
// reflection.
func (c *converter) anyValue(x any, depth int) (Value, *convError) {
	switch x := x.(type) {
	case nil:
		return None(), nil
	case Value:
		return x, nil
	case string:
		return strValue(x), nil
	}
	v := reflect.ValueOf(x)
	return c.goValue(v, typeInfoOf(v.Type()), depth)
}

// goValue converts v, of the type info describes, nested depth levels deep.
func (c *converter) goValue(v reflect.Value, info *typeInfo, depth int) (Value, *convError) {
	if depth > MaxNesting {
		return Value{}, &convError{deep: true}
	}
	val, err := c.convertGo(v, info, depth)
	if err != nil && err.deep {
		err.sawRef(v)
	}
	return val, err
}

// convertGo converts v, of the type info describes, nested depth levels deep.
func (c *converter) convertGo(v reflect.Value, info *typeInfo, depth int) (Value, *convError) {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return None(), nil
	}
	switch conv := info.conversion(v); conv {
	case convBool:
		return Bool(v.Bool()), nil
	case convInt:
		return Int(v.Int()), nil
	case convUint:
		return uintValue(v.Uint()), nil
	case convFloat32, convFloat64:
		return floatValue(v.Float(), conv == convFloat32)
	case convString:
		return strValue(v.String()), nil
	case convNumber:
		return numberValue(v.String())
	case convElem:
		if v.Kind() == reflect.Interface {
			v = v.Elem()
			return c.goValue(v, typeInfoOf(v.Type()), depth+1)
		}
		return c.goValue(v.Elem(), info.elem, depth+1)
	case convList:
		return c.listValue(v, info.elem, depth)
	case convBytes:
		if v.IsNil() {
			return None(), nil
		}
		return strValue(base64.StdEncoding.EncodeToString(v.Bytes())), nil
	case convStruct:
		return c.structValue(v, info.fields, depth)
	case convMap:
		return c.mapValue(v, info, depth)
	case convValue:
		x, _ := reflect.TypeAssert[Value](v)
		return x, nil
	case convDict:
		d, _ := reflect.TypeAssert[*Dict](v)
		return DictValue(d), nil
	case convTemplateValuer:
		x, _ := reflect.TypeAssert[TemplateValuer](v)
		tv, err := x.TemplateValue()
		if err != nil {
			if ce, ok := err.(*convError); ok { // a chat type's: ValueOf's path goes before its own
				return Value{}, ce
			}
			return Value{}, &convError{msg: err.Error(), err: err}
		}
		return tv, nil
	case convMarshalJSON, convAddrMarshalJSON:
		m, _ := reflect.TypeAssert[json.Marshaler](addrIf(v, conv == convAddrMarshalJSON))
		return marshalJSON(m, v.Type())
	case convMarshalText, convAddrMarshalText:
		m, _ := reflect.TypeAssert[encoding.TextMarshaler](addrIf(v, conv == convAddrMarshalText))
		return marshalText(m, v.Type())
	}
	return Value{}, &convError{msg: "unsupported type " + v.Type().String()}
}

// addrIf returns the address of v when addr is true, else v.
func addrIf(v reflect.Value, addr bool) reflect.Value {
	if addr {
		return v.Addr()
	}
	return v
}

// A conversion is how ValueOf converts the values of a Go type.
type conversion uint8

// The conversions.
const (
	convUnsupported     conversion = iota // chan, func, complex, unsafe pointer; a map with other keys
	convBool                              // a bool
	convInt                               // an int of any size
	convUint                              // a uint of any size
	convFloat32                           // a float32, through its shortest decimal
	convFloat64                           // a float64
	convString                            // a string
	convNumber                            // a json.Number: the number it spells
	convElem                              // a pointer or interface: what it points to
	convList                              // a slice or array: a list
	convBytes                             // a []byte: the str of its base64
	convStruct                            // a struct: a dict of its fields
	convMap                               // a map: a dict, keys sorted
	convValue                             // a Value, as it is
	convDict                              // a *Dict, as its dict
	convTemplateValuer                    // a TemplateValuer: what its method returns
	convMarshalJSON                       // a json.Marshaler
	convAddrMarshalJSON                   // a json.Marshaler through its address
	convMarshalText                       // an encoding.TextMarshaler
	convAddrMarshalText                   // an encoding.TextMarshaler through its address
)

// A typeInfo is how ValueOf converts the values of a Go type.
type typeInfo struct {
	conv   conversion  // how a value converts
	addr   conversion  // how an addressable value converts
	elem   *typeInfo   // of the element type of a pointer, slice, array or map
	fields []jsonField // a struct's fields, as encoding/json encodes them
	key    conversion  // how a map's keys convert: convString, convMarshalText, convInt or convUint
}

// conversion returns how v converts.
func (info *typeInfo) conversion(v reflect.Value) conversion {
	if v.CanAddr() {
		return info.addr
	}
	return info.conv
}

// typeInfos caches the typeInfo of each Go type ValueOf met.
var typeInfos sync.Map // reflect.Type → *typeInfo

// typeInfoOf returns how ValueOf converts the values of t.
func typeInfoOf(t reflect.Type) *typeInfo {
	if info, ok := typeInfos.Load(t); ok {
		return info.(*typeInfo)
	}
	building := map[reflect.Type]*typeInfo{}
	info := buildTypeInfo(t, building)
	for t, info := range building { // only now complete
		typeInfos.LoadOrStore(t, info)
	}
	return info
}

var (
	valueType         = reflect.TypeFor[Value]()
	dictType          = reflect.TypeFor[*Dict]()
	valuerType        = reflect.TypeFor[TemplateValuer]()
	numberType        = reflect.TypeFor[json.Number]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// buildTypeInfo works out how ValueOf converts the values of t, with the typeInfos of the
// types it holds: cached ones, else those in building, where it adds those it builds.
func buildTypeInfo(t reflect.Type, building map[reflect.Type]*typeInfo) *typeInfo {
	if info, ok := typeInfos.Load(t); ok {
		return info.(*typeInfo)
	}
	if info, ok := building[t]; ok {
		return info // a type that holds itself
	}
	info := &typeInfo{conv: methodConversion(t, false), addr: methodConversion(t, true)}
	building[t] = info
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		info.elem = buildTypeInfo(t.Elem(), building)
	case reflect.Map:
		info.elem = buildTypeInfo(t.Elem(), building)
		info.key = keyConversion(t.Key())
	case reflect.Struct:
		info.fields = structFields(t)
		for i := range info.fields {
			f := &info.fields[i]
			f.info = buildTypeInfo(t.FieldByIndex(f.index).Type, building)
		}
	}
	return info
}

// methodConversion returns how a value of t converts, addressable or not, choosing as
// encoding/json does: MarshalJSON, then MarshalText (each with a pointer receiver when the
// value is addressable), then t's kind.
func methodConversion(t reflect.Type, addressable bool) conversion {
	ptr := reflect.PointerTo(t)
	byAddr := addressable && t.Kind() != reflect.Pointer
	switch {
	case t == valueType:
		return convValue
	case t == dictType:
		return convDict
	case t.Kind() == reflect.Interface:
		return convElem // the value it holds has the methods
	case t.Implements(valuerType):
		return convTemplateValuer
	case byAddr && ptr.Implements(marshalerType):
		return convAddrMarshalJSON
	case t.Implements(marshalerType):
		return convMarshalJSON
	case byAddr && ptr.Implements(textMarshalerType):
		return convAddrMarshalText
	case t.Implements(textMarshalerType):
		return convMarshalText
	}
	return kindConversion(t)
}

// kindConversion returns how a value of t converts by its kind, leaving its methods
// aside.
func kindConversion(t reflect.Type) conversion {
	switch t.Kind() {
	case reflect.Bool:
		return convBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return convInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return convUint
	case reflect.Float32:
		return convFloat32
	case reflect.Float64:
		return convFloat64
	case reflect.String:
		if t == numberType {
			return convNumber
		}
		return convString
	case reflect.Pointer, reflect.Interface:
		return convElem
	case reflect.Slice:
		if ptr := reflect.PointerTo(t.Elem()); t.Elem().Kind() == reflect.Uint8 &&
			!ptr.Implements(marshalerType) && !ptr.Implements(textMarshalerType) {
			return convBytes
		}
		return convList
	case reflect.Array:
		return convList
	case reflect.Struct:
		return convStruct
	case reflect.Map:
		if keyConversion(t.Key()) != convUnsupported {
			return convMap
		}
	}
	return convUnsupported
}

// keyConversion returns how map keys of type t become strs, in encoding/json's order of
// precedence, or convUnsupported.
func keyConversion(t reflect.Type) conversion {
	switch {
	case t.Kind() == reflect.String:
		return convString
	case t.Implements(textMarshalerType):
		return convMarshalText
	}
	switch c := kindConversion(t); c {
	case convInt, convUint:
		return c
	}
	return convUnsupported
}

// uintValue returns u as an int, a big one beyond the int64 range.
func uintValue(u uint64) Value {
	if u > math.MaxInt64 {
		return BigInt(new(big.Int).SetUint64(u))
	}
	return Int(int64(u))
}

// floatValue returns f as a float; when single, f is a float32 (given as the float64 of
// the same value), taken through its shortest decimal as encoding/json writes it.
func floatValue(f float64, single bool) (Value, *convError) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Value{}, &convError{msg: "unsupported value " + strconv.FormatFloat(f, 'g', -1, 64)}
	}
	if single {
		f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
	}
	return Float(f), nil
}

// strValue returns s as a str, as encoding/json writes it and ParseJSON reads it: a
// common word of chat requests is the str internStr shares, and each byte of invalid
// UTF-8 becomes U+FFFD.
func strValue(s string) Value {
	if v := internStr(s); v.strFlags()&flagPlainJSON != 0 || utf8.ValidString(s) {
		return v
	}
	var b strings.Builder
	for _, r := range s { // an invalid byte is utf8.RuneError, one byte at a time
		b.WriteRune(r)
	}
	return Str(b.String())
}

// numberValue returns the number a json.Number spells, as json.loads reads it; the empty
// number is 0, as encoding/json writes it.
func numberValue(s string) (Value, *convError) {
	if s == "" {
		return Int(0), nil
	}
	// ParseJSON reads Python's JSON, which has NaN and Infinity besides: a JSON number
	// starts with a digit or '-' and ends with a digit, with no space around.
	first, last := s[0], s[len(s)-1]
	v, err := ParseJSON([]byte(s))
	if err != nil || (v.kind() != KindInt && v.kind() != KindFloat) || last < '0' || last > '9' ||
		first != '-' && (first < '0' || first > '9') {
		return Value{}, &convError{msg: "invalid number literal " + strconv.Quote(s)}
	}
	return v, nil
}

// listValue converts a slice or an array, of elements of the type elem describes, into a
// list.
func (c *converter) listValue(v reflect.Value, elem *typeInfo, depth int) (Value, *convError) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		return None(), nil
	}
	mark := c.mark()
	for i := range v.Len() {
		item, err := c.goValue(v.Index(i), elem, depth+1)
		if err != nil {
			return Value{}, err.at(indexStep(i))
		}
		c.pairs.push(item)
	}
	return c.list(mark), nil
}

// mapValue converts a map, of the type info describes, into a dict, keys sorted bytewise
// as encoding/json sorts them.
func (c *converter) mapValue(v reflect.Value, info *typeInfo, depth int) (Value, *convError) {
	if v.IsNil() {
		return None(), nil
	}
	// the entries go on c.entries above those of the maps that hold this one
	base := len(c.entries)
	var iter reflect.MapIter
	iter.Reset(v)
	if kt := v.Type().Key(); !c.key.IsValid() || c.key.Type() != kt {
		c.key = reflect.New(kt).Elem() // each key in turn, without a copy of its own
	}
	k := c.key
	for iter.Next() {
		k.SetIterKey(&iter)
		ks, err := mapKey(k, info.key)
		if err != nil {
			return Value{}, err
		}
		c.entries = append(c.entries, mapEntry{ks, iter.Value()})
	}
	entries := c.entries[base:]
	slices.SortFunc(entries, func(a, b mapEntry) int { return strings.Compare(a.key, b.key) })
	// Two keys may marshal to the same text: json.loads keeps one of them, and so does
	// this (which one is arbitrary with encoding/json too, its sort being unstable).
	entries = slices.CompactFunc(entries, func(a, b mapEntry) bool { return a.key == b.key })
	mark := c.mark()
	for i := range entries {
		e := c.entries[base+i] // c.entries may have moved: the values convert maps too
		val, err := c.goValue(e.val, info.elem, depth+1)
		if err != nil {
			return Value{}, err.at(keyStep(e.key))
		}
		c.push(strValue(e.key), val)
	}
	clear(c.entries[base:])
	c.entries = c.entries[:base]
	return c.dict(mark), nil
}

// mapKey returns the str of a map key, as its type's conversion says.
func mapKey(k reflect.Value, conv conversion) (string, *convError) {
	switch conv {
	case convMarshalText:
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		m, _ := reflect.TypeAssert[encoding.TextMarshaler](k)
		b, err := m.MarshalText()
		if err != nil {
			return "", &convError{msg: "MarshalText of map key " + k.Type().String(), err: err}
		}
		return string(b), nil
	case convInt:
		return strconv.FormatInt(k.Int(), 10), nil
	case convUint:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return k.String(), nil
}

// marshalJSON returns the value of m's JSON, m being of type t.
func marshalJSON(m json.Marshaler, t reflect.Type) (Value, *convError) {
	b, err := m.MarshalJSON()
	if err != nil {
		return Value{}, &convError{msg: "MarshalJSON of " + t.String(), err: err}
	}
	v, err := ParseJSON(b)
	if err != nil {
		return Value{}, &convError{msg: "MarshalJSON of " + t.String() + " returned bad JSON", err: err}
	}
	return v, nil
}

// marshalText returns the str of m's text, m being of type t.
func marshalText(m encoding.TextMarshaler, t reflect.Type) (Value, *convError) {
	b, err := m.MarshalText()
	if err != nil {
		return Value{}, &convError{msg: "MarshalText of " + t.String(), err: err}
	}
	return strValue(string(b)), nil
}

// A jsonField is a struct field as encoding/json encodes it.
type jsonField struct {
	name      string    // its JSON name
	key       Value     // name as a str
	index     []int     // the indexes of the embedded fields to it, then its own
	info      *typeInfo // of its type
	tagged    bool      // name comes from the json tag
	omitEmpty bool      // the omitempty option
	omitZero  bool      // the omitzero option
	quoted    bool      // the string option, on a field it applies to
}

// structValue converts struct v, whose fields are given, into a dict.
func (c *converter) structValue(v reflect.Value, fields []jsonField, depth int) (Value, *convError) {
	mark := c.mark()
	for i := range fields {
		f := &fields[i]
		fv, ok := f.of(v)
		if !ok {
			continue
		}
		var val Value
		var err *convError
		if f.quoted {
			val, err = c.quotedValue(fv, f.info, depth+1)
		} else {
			val, err = c.goValue(fv, f.info, depth+1)
		}
		if err != nil {
			return Value{}, err.at(keyStep(f.name))
		}
		c.push(f.key, val)
	}
	return c.dict(mark), nil
}

// of returns the field in struct v, and false when it is left out: an embedded pointer on
// the way is nil, or omitempty or omitzero omit it.
func (f *jsonField) of(v reflect.Value) (reflect.Value, bool) {
	for _, i := range f.index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, !(f.omitEmpty && isEmpty(v) || f.omitZero && isZero(v))
}

// quotedValue converts a field with the string option, of the type info describes: a
// bool, number or string, or a pointer to one, becomes the str of its JSON text; another
// value converts as usual.
func (c *converter) quotedValue(v reflect.Value, info *typeInfo, depth int) (Value, *convError) {
	if info.conversion(v) == convElem && !v.IsNil() {
		v, info = v.Elem(), info.elem
	}
	val, err := c.goValue(v, info, depth)
	switch info.conversion(v) {
	case convBool, convInt, convUint, convFloat32, convFloat64, convString, convNumber:
		if err == nil {
			b, _ := json.Marshal(v.Interface()) // it converted: it is not NaN, nor a bad number
			val = strValue(string(b))
		}
	}
	return val, err
}

// isEmpty reports whether omitempty leaves v out: false, 0, a nil pointer or interface,
// an empty string, array, slice or map.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// zeroer is the method omitzero asks.
type zeroer interface{ IsZero() bool }

var zeroerType = reflect.TypeFor[zeroer]()

// isZero reports whether omitzero leaves v out: a nil pointer or interface, a value whose
// IsZero method (through its address when the receiver is a pointer) says so, or else the
// zero value of its type.
func isZero(v reflect.Value) bool {
	t := v.Type()
	switch {
	case (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil():
		return true
	case t.Implements(zeroerType):
		z, _ := reflect.TypeAssert[zeroer](v)
		return z.IsZero()
	case reflect.PointerTo(t).Implements(zeroerType):
		if !v.CanAddr() {
			c := reflect.New(t).Elem()
			c.Set(v)
			v = c
		}
		z, _ := reflect.TypeAssert[zeroer](v.Addr())
		return z.IsZero()
	}
	return v.IsZero()
}

// structFields returns the fields encoding/json encodes of struct type t, in its order,
// with its rules: a field's name is its json tag's (when the tag names it validly) or its
// own; untagged embedded structs, and pointers to them, have their fields promoted,
// breadth first; of fields of the same name, the shallowest wins, then a tagged one,
// and two equally good ones hide each other.
func structFields(t reflect.Type) []jsonField {
	type embedded struct {
		t     reflect.Type
		index []int
	}
	var fields []jsonField
	next := []embedded{{t: t}}
	var count, nextCount map[reflect.Type]int // how often each struct type is embedded at this depth and the next
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, e := range current {
			if visited[e.t] {
				continue
			}
			visited[e.t] = true
			for i := range e.t.NumField() {
				sf := e.t.Field(i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clip(e.index), i)
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					nextCount[ft]++
					if nextCount[ft] == 1 {
						next = append(next, embedded{ft, index})
					}
					continue
				}
				f := jsonField{
					name:      cmp.Or(name, sf.Name),
					index:     index,
					tagged:    name != "",
					omitEmpty: hasOption(opts, "omitempty"),
					omitZero:  hasOption(opts, "omitzero"),
					quoted:    hasOption(opts, "string") && quotable(ft.Kind()),
				}
				f.key = strValue(f.name)
				fields = append(fields, f)
				if count[e.t] > 1 { // embedded twice at this depth: its fields hide each other
					fields = append(fields, f)
				}
			}
		}
	}
	slices.SortFunc(fields, func(a, b jsonField) int {
		return cmp.Or(strings.Compare(a.name, b.name), cmp.Compare(len(a.index), len(b.index)),
			compareBool(b.tagged, a.tagged), slices.Compare(a.index, b.index))
	})
	kept := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		first := fields[i]
		if j == i+1 || len(first.index) < len(fields[i+1].index) || first.tagged != fields[i+1].tagged {
			kept = append(kept, first)
		}
		i = j
	}
	slices.SortFunc(kept, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return kept
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// validTagName reports whether encoding/json takes s as a field's name: letters, digits
// and punctuation other than quotes and backslashes.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// hasOption reports whether the options of a json tag (after its name) include option.
func hasOption(opts, option string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if o == option {
			return true
		}
	}
	return false
}

// quotable reports whether the string option applies to a field of kind k.
func quotable(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// A convError is why a Go value does not convert, and where in it.
type convError struct {
	steps []string // the path to the value, innermost step first: "[2]", ".content", "messages"
	msg   string
	err   error // what msg reports, if anything
	// deep marks a value nesting more than MaxNesting levels; refs are the pointers, maps
	// and slices it went through, innermost first, until one came again: then it is a
	// cycle, whose outermost reference so far is refs[cycleAt] at steps[cycleSteps:].
	deep       bool
	refs       []ref
	cycle      bool
	cycleAt    int
	cycleSteps int
}

// A ref is a pointer, map or slice as a value of its type.
type ref struct {
	p any // the pointer (an unsafe.Pointer) of the reference
	t reflect.Type
}

// maxPathSteps is how many steps of a path an error prints.
const maxPathSteps = 16

func (e *convError) Error() string {
	steps, msg := e.steps, e.msg
	switch {
	case e.cycle:
		steps, msg = steps[e.cycleSteps:], "cycle through "+e.refs[e.cycleAt].t.String()
	case e.deep:
		msg = fmt.Sprintf("nests more than %d levels", MaxNesting)
	}
	if e.err != nil {
		msg += ": " + e.err.Error()
	}
	var path strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		if len(steps)-i > maxPathSteps {
			path.WriteString("...")
			break
		}
		path.WriteString(steps[i])
	}
	if path.Len() == 0 {
		return msg
	}
	return strings.TrimPrefix(path.String(), ".") + ": " + msg
}

func (e *convError) Unwrap() error { return e.err }

// at adds a step further out to the path of e, and returns e.
func (e *convError) at(step string) *convError {
	e.steps = append(e.steps, step)
	return e
}

// sawRef notes, on the way out of a too deep value, a pointer, map or slice it went
// through: one met again makes it a cycle, which starts at the outermost of its
// references.
func (e *convError) sawRef(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
	default:
		return
	}
	r := ref{v.UnsafePointer(), v.Type()}
	if i := slices.Index(e.refs, r); i >= 0 {
		e.cycle, e.cycleAt, e.cycleSteps = true, i, len(e.steps)
	} else if !e.cycle {
		e.refs = append(e.refs, r)
	}
}

// indexStep is the path step of item i of a list.
func indexStep(i int) string { return "[" + strconv.Itoa(i) + "]" }

// keyStep is the path step of a dict's key: .key for an identifier, else ["key"].
func keyStep(key string) string {
	for i, c := range key {
		if c != '_' && !unicode.IsLetter(c) && (i == 0 || !unicode.IsDigit(c)) {
			return "[" + strconv.Quote(key) + "]"
		}
	}
	if key == "" {
		return `[""]`
	}
	return "." + key
}
