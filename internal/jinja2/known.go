package jinja2

// A Key is one of the dict keys a lookup finds without comparing keys: the fields of
// messages, tool calls, tools and their schemas that templates read most ("role",
// "content", "tool_calls"...), present or missing. A dict records where each of them
// is, so that looking one up, as a template does message.role for every message, reads
// four bits. Generated code passes a Key (KeyRole) where a template looks up one of
// these names as a constant.
type Key uint8

// The Keys, the first NumKeys of plainWords; each is "Key" and its name in camel case
// (an initialism as Go writes it: KeyToolCallID).
const (
	KeyRole Key = iota
	KeyContent
	KeyType
	KeyText
	KeyName
	KeyID
	KeyFunction
	KeyArguments
	KeyToolCalls
	KeyToolCallID
	KeyReasoningContent
	KeyDescription
	KeyParameters
	KeyProperties
	KeyRequired
	KeyEnum
	NumKeys // how many Keys there are
)

// String returns the key's name.
func (k Key) String() string { return plainWords[k%NumKeys] }

// KeyOf returns the Key named name, ok false when name is not one of them.
func KeyOf(name string) (Key, bool) { return plainKey(internStr(name)) }

// KeyOfValue returns the Key v is, ok false when v is not a str or not one of them.
func KeyOfValue(v Value) (Key, bool) {
	if k, ok := plainKey(v); ok {
		return k, true
	}
	return keyOfOther(v)
}

// keyOfOther is KeyOfValue of a value that is not one of plainWords' strs: a str equal
// to a Key, not made from one, is one.
func keyOfOther(v Value) (Key, bool) {
	if v.kind() != KindString || v.strFlags()&flagPlainJSON != 0 {
		return 0, false
	}
	return plainKey(internStr(v.str()))
}

// plainKey returns the Key v is when it is a str of plainWords (internStr's), ok false
// otherwise.
func plainKey(v Value) (Key, bool) {
	const plain = uint64(KindString)<<kindShift | flagPlainJSON<<flagsShift
	id := uint32(v.w>>(flagsShift+plainWordShift)) & (flagsMask >> plainWordShift)
	return Key(id), v.w&(kindMaskW|flagPlainJSON<<flagsShift) == plain && id < uint32(NumKeys)
}

// GetKey is GetStr(k.String()), found from the dict's record of its Keys.
func (d *Dict) GetKey(k Key) (Value, bool) {
	switch i := d.known.pos(k); {
	case i < knownBeyond-1:
		return d.entry(i), true
	case i == lacksKey:
		return Value{}, false
	}
	return d.GetStr(k.String())
}

// KeysAt reports whether the dict's keys are keys, in that order, as its record of its
// Keys says: KeysAre of their names, answered without comparing a key, where the record
// knows (false may only mean that it does not: a nil dict, a key further than it
// records, or one it is unsure of).
func (d *Dict) KeysAt(keys ...Key) bool {
	if d == nil || int(d.n) != len(keys) {
		return false
	}
	for i, k := range keys {
		if d.known.pos(k) != uint(i) {
			return false
		}
	}
	return true
}

// AddKey is AddStr(k.String(), v).
func (d *Dict) AddKey(k Key, v Value) { d.appendEntry(plainWordStr(int(k%NumKeys)), v, true) }

// RecordedKey returns the value of the key k when v is a dict whose record of its Keys
// says where k is: the lookup of a message's field without a call. ok is false when v
// is not a dict, lacks k, or holds it further than its record says (GetKey finds it).
func (v Value) RecordedKey(k Key) (_ Value, ok bool) {
	if v.kind() == KindDict {
		if i := v.dict().known.pos(k); i < knownBeyond-1 {
			return v.dict().entry(i), true
		}
	}
	return Value{}, false
}

// ItemAttrKey is ItemAttr(v, k.String()).
func ItemAttrKey(v Value, k Key) Value {
	if r, ok := v.RecordedKey(k); ok {
		return r
	}
	return itemKeyMiss(v, k, true)
}

// InKey is In(k's str, container), Python's 'role' in message: a dict answers from its
// record of its Keys, without comparing keys, where the record knows.
func InKey(k Key, container Value) bool {
	if container.kind() == KindDict {
		switch i := container.dict().known.pos(k); {
		case i == lacksKey:
			return false
		case i < knownBeyond-1:
			return true
		}
	}
	return In(Str(k.String()), container)
}

// ItemStrKey is ItemStr(v, k.String()).
func ItemStrKey(v Value, k Key) Value {
	if r, ok := v.RecordedKey(k); ok {
		return r
	}
	return itemKeyMiss(v, k, false)
}

// itemKeyMiss is ItemAttrKey (attr) or ItemStrKey of a value that is not a dict with
// the key where its record says: a dict's miss is undefined (no Key is an attribute of
// a dict).
func itemKeyMiss(v Value, k Key, attr bool) Value {
	switch {
	case v.kind() == KindDict:
		if v.dict().known.pos(k) == lacksKey {
			// GetKey's answer, without its call (it is not inlined): most messages
			// lack most Keys
			return missingKeys[k%NumKeys]
		}
		if r, ok := v.dict().GetKey(k); ok {
			return r // further than the record says
		}
		return missingKeys[k%NumKeys]
	case attr:
		return Attr(v, k.String())
	}
	return Item(v, Str(k.String()))
}

// missingKeys are the undefined values a dict gives for the Keys it lacks:
// missingAttr of a dict, made once.
var missingKeys = func() (m [NumKeys]Value) {
	d := DictValue(NewDict(0))
	for k := range m {
		m[k] = missingAttr(d, Key(k).String())
	}
	return m
}()

// knownKeys are where a dict's Keys are: four bits for each, the k-th four for Key k: 0
// when the dict lacks the key, 1 + its position when that is below knownBeyond-1, and
// knownBeyond when it is further or when the dict may hold it under a str that is not
// one of plainWords (unsure): a lookup then compares keys.
type knownKeys uint64

// knownBeyond is the four bits of a Key at position knownBeyond-1 or further.
const knownBeyond = 15

// pos returns the position of key that k records: knownBeyond-1 or more when the dict
// lacks it (lacksKey) or holds it further.
func (k knownKeys) pos(key Key) uint { return uint(k>>(4*uint(key%NumKeys)))&15 - 1 }

// lacksKey is the pos of a key the dict lacks.
const lacksKey = ^uint(0)

// noteKey records key, new to the dict, at position i when it is a Key. A str equal to
// a Key is one of plainWords when it was interned (internStr: the decoder's and
// ValueOf's keys are, and AddKey's; AddStr's are not); another str may be a Key
// (unsure).
func (d *Dict) noteKey(i int, key Value, interned bool) {
	if k, ok := plainKey(key); ok {
		d.known = d.known.with(k, i)
	} else if !interned && key.kind() == KindString && key.strFlags()&flagPlainJSON == 0 {
		d.known = d.known.unsure()
	}
}

// unsure returns k with each Key it records as lacking marked knownBeyond instead
// (looked for by comparing keys): what a dict records once it has a str key that may
// be a Key without being one of plainWords.
func (k knownKeys) unsure() knownKeys {
	const low = 0x1111111111111111 // the lowest bit of each Key's four
	has := (k | k>>1 | k>>2 | k>>3) & low
	return k | (low&^has)*knownBeyond
}

// with returns k with key, which k lacks, at position i.
func (k knownKeys) with(key Key, i int) knownKeys {
	return k | knownKeys(min(i+1, knownBeyond))<<(4*uint(key%NumKeys))
}

// noteKeys records anew where the dict's Keys are.
func (d *Dict) noteKeys() {
	d.known = 0
	for i, k := range d.keys() {
		d.noteKey(i, k, false)
	}
}
