package jinja2

import "strings"

// The methods generated code calls directly: the common methods of strs and dicts,
// called with positional arguments only. Each takes the path CallMethod takes for a
// plain str (or a dict, for get) and leaves every other receiver to CallMethod, so that
// a call behaves (and fails) exactly as the generic one.

// MethodGet is recv.get(key).
func MethodGet(recv, key Value) Value {
	if recv.kind() == KindDict {
		return dictGet(recv, []Value{key}, nil)
	}
	return CallMethod(recv, "get", []Value{key}, nil)
}

// MethodGetDefault is recv.get(key, def).
func MethodGetDefault(recv, key, def Value) Value {
	if recv.kind() == KindDict {
		return dictGet(recv, []Value{key, def}, nil)
	}
	return CallMethod(recv, "get", []Value{key, def}, nil)
}

// MethodStrip is recv.strip().
func MethodStrip(recv Value) Value {
	if plainStr(recv) {
		return strStrip(recv, nil, nil, "strip", true, true)
	}
	return CallMethod(recv, "strip", nil, nil)
}

// MethodStripChars is recv.strip(chars).
func MethodStripChars(recv, chars Value) Value {
	if plainStr(recv) {
		return strStrip(recv, []Value{chars}, nil, "strip", true, true)
	}
	return CallMethod(recv, "strip", []Value{chars}, nil)
}

// MethodLstrip is recv.lstrip().
func MethodLstrip(recv Value) Value {
	if plainStr(recv) {
		return strStrip(recv, nil, nil, "lstrip", true, false)
	}
	return CallMethod(recv, "lstrip", nil, nil)
}

// MethodLstripChars is recv.lstrip(chars).
func MethodLstripChars(recv, chars Value) Value {
	if plainStr(recv) {
		return strStrip(recv, []Value{chars}, nil, "lstrip", true, false)
	}
	return CallMethod(recv, "lstrip", []Value{chars}, nil)
}

// MethodRstrip is recv.rstrip().
func MethodRstrip(recv Value) Value {
	if plainStr(recv) {
		return strStrip(recv, nil, nil, "rstrip", false, true)
	}
	return CallMethod(recv, "rstrip", nil, nil)
}

// MethodRstripChars is recv.rstrip(chars).
func MethodRstripChars(recv, chars Value) Value {
	if plainStr(recv) {
		return strStrip(recv, []Value{chars}, nil, "rstrip", false, true)
	}
	return CallMethod(recv, "rstrip", []Value{chars}, nil)
}

// MethodSplit is recv.split().
func MethodSplit(recv Value) Value {
	if plainStr(recv) {
		return strSplit(recv, nil, nil, false)
	}
	return CallMethod(recv, "split", nil, nil)
}

// MethodSplitSep is recv.split(sep).
func MethodSplitSep(recv, sep Value) Value {
	if plainStr(recv) {
		return strSplit(recv, []Value{sep}, nil, false)
	}
	return CallMethod(recv, "split", []Value{sep}, nil)
}

// SplitItem is recv.split(sep)[i] for i 0 or -1 (a template's first or last piece of
// a str: content.split('</think>')[-1]): of a str split by a non-empty str, the piece is
// found without the list of them. Python splits from the left, so the last piece is
// what follows the last of the separators found from the left (for "aaa".split("aa"),
// "a").
func SplitItem(recv, sep Value, i int64) Value {
	if plainStr(recv) && sep.kind() == KindString && sep.str() != "" && (i == 0 || i == -1) {
		s, p := recv.str(), sep.str()
		if i == 0 {
			if j := strings.Index(s, p); j >= 0 {
				s = s[:j]
			}
		} else {
			for j := strings.Index(s, p); j >= 0; j = strings.Index(s, p) {
				s = s[j+len(p):]
			}
		}
		return FromTemplate(Str(s), recv) // as ItemInt of strSplit's list
	}
	return ItemInt(MethodSplitSep(recv, sep), i)
}

// MethodStartswith is recv.startswith(prefix).
func MethodStartswith(recv, prefix Value) Value {
	if plainStr(recv) {
		if prefix.kind() == KindString {
			return Bool(strings.HasPrefix(recv.str(), prefix.str())) // no start or end to count in characters
		}
		return strAffix(recv, []Value{prefix}, nil, "startswith")
	}
	return CallMethod(recv, "startswith", []Value{prefix}, nil)
}

// MethodEndswith is recv.endswith(suffix).
func MethodEndswith(recv, suffix Value) Value {
	if plainStr(recv) {
		if suffix.kind() == KindString {
			return Bool(strings.HasSuffix(recv.str(), suffix.str()))
		}
		return strAffix(recv, []Value{suffix}, nil, "endswith")
	}
	return CallMethod(recv, "endswith", []Value{suffix}, nil)
}

// MethodReplace is recv.replace(old, new).
func MethodReplace(recv, old, new Value) Value {
	if plainStr(recv) {
		return strReplace(recv, []Value{old, new}, nil)
	}
	return CallMethod(recv, "replace", []Value{old, new}, nil)
}
