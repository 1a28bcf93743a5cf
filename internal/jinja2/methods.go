package jinja2

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// method implements a Python method on its receiver.
type method func(recv Value, args []Value, kwargs []Kwarg) Value

// strMethods are the methods of str that templates call (set in init: they refer back
// to the method tables).
var strMethods map[string]method

func init() {
	strMethods = map[string]method{
		"split":        func(r Value, a []Value, k []Kwarg) Value { return strSplit(r, a, k, false) },
		"rsplit":       func(r Value, a []Value, k []Kwarg) Value { return strSplit(r, a, k, true) },
		"strip":        func(r Value, a []Value, k []Kwarg) Value { return strStrip(r, a, k, "strip", true, true) },
		"lstrip":       func(r Value, a []Value, k []Kwarg) Value { return strStrip(r, a, k, "lstrip", true, false) },
		"rstrip":       func(r Value, a []Value, k []Kwarg) Value { return strStrip(r, a, k, "rstrip", false, true) },
		"startswith":   func(r Value, a []Value, k []Kwarg) Value { return strAffix(r, a, k, "startswith") },
		"endswith":     func(r Value, a []Value, k []Kwarg) Value { return strAffix(r, a, k, "endswith") },
		"replace":      strReplace,
		"find":         func(r Value, a []Value, k []Kwarg) Value { return strFind(r, a, k, "find", false, false) },
		"rfind":        func(r Value, a []Value, k []Kwarg) Value { return strFind(r, a, k, "rfind", true, false) },
		"index":        func(r Value, a []Value, k []Kwarg) Value { return strFind(r, a, k, "index", false, true) },
		"rindex":       func(r Value, a []Value, k []Kwarg) Value { return strFind(r, a, k, "rindex", true, true) },
		"count":        strCount,
		"upper":        strCase("upper", pystr.Upper),
		"lower":        strCase("lower", pystr.Lower),
		"title":        strCase("title", pystr.Title),
		"capitalize":   strCase("capitalize", pystr.Capitalize),
		"swapcase":     strCase("swapcase", pystr.Swapcase),
		"casefold":     strCase("casefold", pystr.Casefold),
		"join":         strJoin,
		"format":       strFormat,
		"splitlines":   strSplitlines,
		"partition":    func(r Value, a []Value, k []Kwarg) Value { return strPartition(r, a, k, false) },
		"rpartition":   func(r Value, a []Value, k []Kwarg) Value { return strPartition(r, a, k, true) },
		"removeprefix": func(r Value, a []Value, k []Kwarg) Value { return strRemoveAffix(r, a, k, true) },
		"removesuffix": func(r Value, a []Value, k []Kwarg) Value { return strRemoveAffix(r, a, k, false) },
		"center":       func(r Value, a []Value, k []Kwarg) Value { return strPad(r, a, k, "center") },
		"ljust":        func(r Value, a []Value, k []Kwarg) Value { return strPad(r, a, k, "ljust") },
		"rjust":        func(r Value, a []Value, k []Kwarg) Value { return strPad(r, a, k, "rjust") },
		"zfill":        strZfill,
		"isdigit":      strPredicate("isdigit", pystr.IsDigit),
		"isdecimal":    strPredicate("isdecimal", pystr.IsDecimal),
		"isnumeric":    strPredicate("isnumeric", pystr.IsNumeric),
		"isalpha":      strPredicate("isalpha", pystr.IsAlpha),
		"isalnum":      strPredicate("isalnum", func(r rune) bool { return pystr.IsAlpha(r) || pystr.IsNumeric(r) }),
		"isspace":      strPredicate("isspace", pystr.IsSpace),
		"isascii": func(r Value, a []Value, k []Kwarg) Value {
			noArgs("str.isascii", a, k)
			return Bool(pystr.IsASCII(r.str()))
		},
		"islower": func(r Value, a []Value, k []Kwarg) Value {
			noArgs("str.islower", a, k)
			return Bool(pystr.IsLower(r.str()))
		},
		"isupper": func(r Value, a []Value, k []Kwarg) Value {
			noArgs("str.isupper", a, k)
			return Bool(pystr.IsUpper(r.str()))
		},
		"istitle": func(r Value, a []Value, k []Kwarg) Value {
			noArgs("str.istitle", a, k)
			return Bool(pystr.IsTitle(r.str()))
		},
		"encode":     strEncode,
		"expandtabs": strExpandtabs,
		"format_map": strFormatMap,
		"isidentifier": func(r Value, a []Value, k []Kwarg) Value {
			noArgs("str.isidentifier", a, k)
			return Bool(isIdentifier(r.str()))
		},
		"isprintable": func(r Value, a []Value, k []Kwarg) Value {
			noArgs("str.isprintable", a, k)
			return Bool(strings.IndexFunc(r.str(), func(c rune) bool { return !pystr.IsPrintable(c) }) < 0)
		},
		"maketrans": nil,
		"translate": strTranslate,
	}
}

// markupMethods are the methods markupsafe.Markup adds to str.
var markupMethods = map[string]method{
	// Markup.escape(s) is a classmethod: it escapes its argument, not the receiver
	"escape": func(r Value, a []Value, k []Kwarg) Value {
		b := bindArgs("escape", a, k, "s")
		if !given(b[0]) {
			throw(TypeError, "Markup.escape() missing 1 required positional argument: 's'")
		}
		return Markup(escapeUnlessMarkup(b[0]))
	},
	"striptags": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("striptags", a, k)
		return Str(pystr.Striptags(r.str()))
	},
	"unescape": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("unescape", a, k)
		return Str(pystr.UnescapeHTML(r.str()))
	},
}

// dictMethods are the methods of dict; the mutating ones are refused by the sandbox.
var dictMethods = map[string]method{
	"get":   dictGet,
	"items": func(r Value, a []Value, k []Kwarg) Value { noArgs("dict.items", a, k); return dictItems(r.dict()) },
	"keys": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("dict.keys", a, k)
		return dictView("dict_keys", r.dict().keys())
	},
	"values": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("dict.values", a, k)
		return dictView("dict_values", r.dict().vals())
	},
	"copy": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("dict.copy", a, k)
		return DictValue(r.dict().Copy())
	},
	"pop":        nil,
	"popitem":    nil,
	"setdefault": nil,
	"update":     nil,
	"clear":      nil,
	"fromkeys":   nil,
}

// listMethods are the methods of list; the mutating ones are refused by the sandbox.
var listMethods = map[string]method{
	"count": seqCount,
	"index": seqIndex,
	"copy": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("list.copy", a, k)
		return ListOf(append([]Value(nil), r.Items()...))
	},
	"append":  nil,
	"extend":  nil,
	"insert":  nil,
	"pop":     nil,
	"remove":  nil,
	"reverse": nil,
	"sort":    nil,
	"clear":   nil,
}

var tupleMethods = map[string]method{
	"count": seqCount,
	"index": seqIndex,
}

var intMethods = map[string]method{
	"bit_length": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("int.bit_length", a, k)
		return Int(int64(r.bigInt().BitLen()))
	},
	"bit_count": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("int.bit_count", a, k)
		n := 0
		for _, w := range r.bigInt().Bits() {
			n += bits.OnesCount(uint(w))
		}
		return Int(int64(n))
	},
	"as_integer_ratio": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("int.as_integer_ratio", a, k)
		return NewTuple(BigInt(r.bigInt()), Int(1))
	},
	"conjugate": func(r Value, a []Value, k []Kwarg) Value { noArgs("int.conjugate", a, k); return r },
}

var floatMethods = map[string]method{
	"is_integer": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("float.is_integer", a, k)
		f := r.float()
		return Bool(!math.IsInf(f, 0) && f == math.Trunc(f))
	},
	"as_integer_ratio": func(r Value, a []Value, k []Kwarg) Value {
		noArgs("float.as_integer_ratio", a, k)
		f := r.float()
		switch {
		case math.IsInf(f, 0):
			throw(OverflowError, "cannot convert Infinity to integer ratio")
		case math.IsNaN(f):
			throw(ValueError, "cannot convert NaN to integer ratio")
		}
		q := new(big.Rat).SetFloat64(f)
		return NewTuple(BigInt(q.Num()), BigInt(q.Denom()))
	},
	"hex":       func(r Value, a []Value, k []Kwarg) Value { noArgs("float.hex", a, k); return Str(floatHex(r.float())) },
	"conjugate": func(r Value, a []Value, k []Kwarg) Value { noArgs("float.conjugate", a, k); return r },
}

// floatHex is Python's float.hex(): "0x1.8000000000000p+0" for 1.5, the 13 hex digits
// of the fraction in full; subnormals have a leading 0 and exponent -1022.
func floatHex(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	sign := ""
	if math.Signbit(f) {
		sign = "-"
	}
	if f == 0 {
		return sign + "0x0.0p+0"
	}
	b := math.Float64bits(f)
	exp := int(b>>52) & 0x7ff
	frac := b & (1<<52 - 1)
	lead := "1"
	if exp == 0 {
		lead, exp = "0", 1 // subnormal
	}
	return fmt.Sprintf("%s0x%s.%013xp%+d", sign, lead, frac, exp-1023)
}

// unsafeMethods are the mutating methods ImmutableSandboxedEnvironment refuses.
var unsafeMethods = map[Kind]map[string]bool{
	KindDict: {"clear": true, "pop": true, "popitem": true, "setdefault": true, "update": true},
	KindList: {"append": true, "clear": true, "pop": true, "reverse": true, "insert": true, "sort": true, "extend": true, "remove": true},
}

func isUnsafeMethod(recv Value, name string) bool { return unsafeMethods[recv.kind()][name] }

// methodTable returns the methods of v's type.
func methodTable(v Value) map[string]method {
	switch v.kind() {
	case KindString:
		return strMethods
	case KindDict:
		return dictMethods
	case KindList:
		switch {
		case isRange(v):
			return tupleMethods // a range has count and index, and no mutating method
		case isDictView(v):
			return nil
		}
		return listMethods
	case KindTuple:
		return tupleMethods
	case KindInt, KindBool:
		return intMethods
	case KindFloat:
		return floatMethods
	}
	return nil
}

// methodFor returns the implementation of v.name, if v's type has that method.
func methodFor(v Value, name string) (method, bool) {
	if v.IsMarkup() {
		if m, ok := markupMethods[name]; ok {
			return m, true
		}
	}
	m, ok := methodTable(v)[name]
	if ok && m == nil {
		m = func(recv Value, _ []Value, _ []Kwarg) Value {
			if isUnsafeMethod(recv, name) {
				throw(SecurityError, "access to attribute '%s' of '%s' object is unsafe.", name, recv.TypeName())
			}
			throw(NotImplemented_, "%s.%s() is not supported", recv.TypeName(), name)
			return Value{}
		}
	}
	return m, ok
}

// lookupMethod returns v.name as a bound method value: a callable, or for a method the
// sandbox refuses, an undefined value that raises SecurityError when used. Special
// attributes (__class__ and the like) are refused the same way.
func lookupMethod(v Value, name string) (Value, bool) {
	if isDunder(name) {
		if v.kind() == KindDict && !dictDunders[name] {
			return Value{}, false // not an attribute: x.__key__ is then the item
		}
		return unsafeAttr(v, name), true
	}
	m, ok := methodFor(v, name)
	if !ok {
		return Value{}, false
	}
	if isUnsafeMethod(v, name) {
		return unsafeAttr(v, name), true
	}
	return callableValue(&Callable{name: name, recv: v, method: m}), true
}

// unsafeAttr is the undefined value the sandbox gives for an attribute it refuses.
func unsafeAttr(v Value, name string) Value {
	return makeStr(KindUndefined, hintMessage<<hintShift|flagUnsafe,
		"access to attribute '"+name+"' of '"+v.TypeName()+"' object is unsafe.")
}

// dictDunders are the special attributes a Python dict has (dir(dict)).
var dictDunders = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`__class__ __class_getitem__ __contains__ __delattr__ __delitem__
		__dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ __getitem__ __getstate__ __gt__
		__hash__ __init__ __init_subclass__ __ior__ __iter__ __le__ __len__ __lt__ __ne__ __new__
		__or__ __reduce__ __reduce_ex__ __repr__ __reversed__ __ror__ __setattr__ __setitem__
		__sizeof__ __str__ __subclasshook__`) {
		dictDunders[n] = true
	}
}

// sameKind returns s as a str, or as Markup when r is Markup (its methods keep the type).
func sameKind(r Value, s string) Value {
	if r.IsMarkup() {
		return Markup(s)
	}
	return Str(s)
}

// bindArgs matches positional and keyword arguments to the named parameters of a
// builtin; parameters not given are Missing. It raises Python's TypeError when there
// are too many arguments or an unknown keyword.
func bindArgs(fname string, args []Value, kwargs []Kwarg, params ...string) boundArgs {
	if len(args) > len(params) {
		takesArgs(fname, len(args), 0, len(params))
	}
	if len(params) > len(boundArgs{}) {
		panic("runtime: bindArgs: too many parameters for " + fname)
	}
	if len(args) == 0 && len(kwargs) == 0 {
		return noneGiven
	}
	var out boundArgs
	for i := range params {
		out[i] = Missing()
	}
	copy(out[:], args)
	for _, kw := range kwargs {
		found := false
		for i, p := range params {
			if p == kw.Name {
				if i < len(args) {
					throw(TypeError, "%s() got multiple values for argument '%s'", fname, kw.Name)
				}
				out[i] = kw.Value
				found = true
			}
		}
		if !found {
			throw(TypeError, "%s() got an unexpected keyword argument '%s'", fname, kw.Name)
		}
	}
	return out
}

// boundArgs are the arguments bindArgs binds, one per parameter; an array, so that
// binding the arguments of a filter or method allocates nothing.
type boundArgs [5]Value

// noneGiven is what bindArgs binds when no argument is given.
var noneGiven = boundArgs{Missing(), Missing(), Missing(), Missing(), Missing()}

// given reports whether an argument bound by bindArgs was passed.
func given(v Value) bool { return !v.IsMissing() }

// noArgs fails a call to fname, which takes no arguments, given some.
func noArgs(fname string, args []Value, kwargs []Kwarg) {
	if len(args) > 0 || len(kwargs) > 0 {
		givenArgs(fname, len(args)+len(kwargs)) // a call, so that the check inlines
	}
}

// givenArgs fails a call to fname, which takes no arguments, with n of them.
//
//go:noinline
func givenArgs(fname string, n int) {
	throw(TypeError, "%s() takes no arguments (%d given)", fname, n)
}

// optStr returns the str in an optional argument, or def when it is missing or None.
func optStr(fname string, v Value, def string) (string, bool) {
	if !given(v) || v.kind() == KindNone {
		return def, false
	}
	if v.kind() != KindString {
		throw(TypeError, "%s arg must be None or str", fname)
	}
	return v.str(), true
}

// intArg returns the int in an optional argument of a Python builtin, or def when it is
// missing; None is a TypeError there, as for any value that is not an int.
func intArg(v Value, def int) int {
	if !given(v) {
		return def
	}
	if !v.isIntegral() {
		throw(TypeError, "'%s' object cannot be interpreted as an integer", v.TypeName())
	}
	return sliceInt(v)
}

// indexBound is the start or stop of list.index and tuple.index, which take an int
// only (not None, as a slice does).
func indexBound(v Value) int {
	if !v.isIntegral() {
		throw(TypeError, "slice indices must be integers or have an __index__ method")
	}
	return sliceInt(v)
}

// optInt returns the int in an optional argument, or def when it is missing or None.
func optInt(v Value, def int) int {
	if !given(v) || v.kind() == KindNone {
		return def
	}
	if !v.isIntegral() {
		throw(TypeError, "'%s' object cannot be interpreted as an integer", v.TypeName())
	}
	return sliceInt(v)
}

func strSplit(r Value, args []Value, kwargs []Kwarg, right bool) Value {
	name := "split"
	if right {
		name = "rsplit"
	}
	a := bindArgs(name, args, kwargs, "sep", "maxsplit")
	maxsplit := intArg(a[1], -1)
	if sep := a[0]; given(sep) && sep.kind() != KindNone && sep.kind() != KindString {
		throw(TypeError, "must be str or None, not %s", sep.TypeName()) // split's words
	}
	sep, hasSep := optStr(name, a[0], "")
	if hasSep && sep == "" {
		throw(ValueError, "empty separator")
	}
	var parts []string
	switch {
	case hasSep && right:
		parts = rsplitSep(r.str(), sep, maxsplit)
	case hasSep:
		if maxsplit < 0 {
			parts = strings.Split(r.str(), sep)
		} else {
			parts = strings.SplitN(r.str(), sep, maxsplit+1)
		}
	case right:
		parts = rsplitSpace(r.str(), maxsplit)
	default:
		parts = splitSpace(r.str(), maxsplit)
	}
	items := make([]Value, len(parts))
	for i, p := range parts {
		items[i] = sameKind(r, p)
	}
	return FromTemplate(ListOf(items), r) // each part is r's
}

// splitSpace is Python's str.split() without a separator: runs of whitespace separate
// words, leading whitespace is dropped; after maxsplit splits the rest is one word.
func splitSpace(s string, maxsplit int) []string {
	var out []string
	i := 0
	for {
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !pystr.IsSpace(r) {
				break
			}
			i += size
		}
		if i >= len(s) {
			return out
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			return append(out, s[i:])
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if pystr.IsSpace(r) {
				break
			}
			j += size
		}
		out = append(out, s[i:j])
		i = j
	}
}

// rsplitSpace is Python's str.rsplit() without a separator.
func rsplitSpace(s string, maxsplit int) []string {
	var rev []string
	j := len(s)
	for {
		for j > 0 {
			r, size := utf8.DecodeLastRuneInString(s[:j])
			if !pystr.IsSpace(r) {
				break
			}
			j -= size
		}
		if j <= 0 {
			break
		}
		if maxsplit >= 0 && len(rev) == maxsplit {
			rev = append(rev, s[:j])
			break
		}
		i := j
		for i > 0 {
			r, size := utf8.DecodeLastRuneInString(s[:i])
			if pystr.IsSpace(r) {
				break
			}
			i -= size
		}
		rev = append(rev, s[i:j])
		j = i
	}
	for a, b := 0, len(rev)-1; a < b; a, b = a+1, b-1 {
		rev[a], rev[b] = rev[b], rev[a]
	}
	return rev
}

func rsplitSep(s, sep string, maxsplit int) []string {
	if maxsplit < 0 {
		return strings.Split(s, sep)
	}
	var rev []string
	for len(rev) < maxsplit {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			break
		}
		rev = append(rev, s[i+len(sep):])
		s = s[:i]
	}
	rev = append(rev, s)
	for a, b := 0, len(rev)-1; a < b; a, b = a+1, b-1 {
		rev[a], rev[b] = rev[b], rev[a]
	}
	return rev
}

func strStrip(r Value, args []Value, kwargs []Kwarg, name string, left, right bool) Value {
	if len(kwargs) > 0 {
		throw(TypeError, "%s() takes no keyword arguments", name)
	}
	expectsArgs(name, len(args), 0, 1)
	chars := Missing()
	if len(args) == 1 {
		chars = args[0]
	}
	return pyStrip(r, chars, name, left, right)
}

// pyStrip is Python's str.strip/lstrip/rstrip of the str (or Markup) r: whitespace, or
// the characters of chars. What remains keeps its origin.
func pyStrip(r Value, chars Value, name string, left, right bool) Value {
	set, hasSet := optStr(name, chars, "")
	if !hasSet {
		return stripSpace(r, left, right)
	}
	s := r.str()
	cut := func(r rune) bool { return strings.ContainsRune(set, r) }
	start, end := 0, len(s)
	if left {
		start = len(s) - len(strings.TrimLeftFunc(s, cut))
	}
	if right {
		end = start + len(strings.TrimRightFunc(s[start:], cut))
	}
	return stripped(r, start, end)
}

// stripSpace is pyStrip of whitespace.
func stripSpace(r Value, left, right bool) Value {
	start, end := pystr.StripSpace(r.str(), left, right)
	return stripped(r, start, end)
}

// stripped returns what a strip leaves of the str (or Markup) r, its bytes [start, end):
// a str keeps its origin, and is itself when nothing was stripped (as Python's
// str.strip() returns the str).
func stripped(r Value, start, end int) Value {
	switch {
	case r.IsMarkup():
		return Markup(r.str()[start:end])
	case start == 0 && end == len(r.str()):
		return r
	}
	return Substr(r, start, end)
}

// runeRange converts the optional start and end arguments of str.find, str.count,
// str.startswith and str.endswith (args[1] and args[2]) to byte offsets in s, with
// Python's slice clamping by character position.
func runeRange(s string, args []Value) (int, int) {
	start, end := Missing(), Missing()
	if len(args) > 1 {
		start = args[1]
	}
	if len(args) > 2 {
		end = args[2]
	}
	if (!given(start) || start.kind() == KindNone) && (!given(end) || end.kind() == KindNone) {
		return 0, len(s) // the whole string, without counting its characters
	}
	n := utf8.RuneCountInString(s)
	lo, hi := 0, n
	if given(start) && start.kind() != KindNone {
		// Python's ADJUST_INDICES: a start beyond the end stays there (no range, not
		// even an empty one at the end)
		if lo = sliceInt(start); lo < 0 {
			lo = max(lo+n, 0)
		}
	}
	if given(end) && end.kind() != KindNone {
		hi = clampIndex(sliceInt(end), n)
	}
	if hi < lo {
		return -1, -1
	}
	return byteOffset(s, lo), byteOffset(s, hi)
}

func clampIndex(i, n int) int {
	if i < 0 {
		i += n
		if i < 0 {
			i = 0
		}
	}
	return min(i, n)
}

// byteOffset returns the byte offset of the i-th character of s.
func byteOffset(s string, i int) int {
	if pystr.IsASCII(s) {
		return i
	}
	for off := range s {
		if i == 0 {
			return off
		}
		i--
	}
	return len(s)
}

func strAffix(r Value, args []Value, kwargs []Kwarg, name string) Value {
	if len(kwargs) > 0 {
		throw(TypeError, "%s() takes no keyword arguments", name)
	}
	takesArgs(name, len(args), 1, 3)
	lo, hi := runeRange(r.str(), args)
	has := strings.HasPrefix
	if name == "endswith" {
		has = strings.HasSuffix
	}
	// lo < 0: the range starts past the end, where not even "" is
	test := func(affix string) bool { return lo >= 0 && has(r.str()[lo:hi], affix) }
	switch p := args[0]; p.kind() {
	case KindString:
		return Bool(test(p.str()))
	case KindTuple:
		for _, it := range p.list().items() {
			if it.kind() != KindString {
				throw(TypeError, "tuple for %s must only contain str, not %s", name, it.TypeName())
			}
			if test(it.str()) {
				return Bool(true)
			}
		}
		return Bool(false)
	default:
		throw(TypeError, "%s first arg must be str or a tuple of str, not %s", name, p.TypeName())
	}
	return Value{}
}

// strReplace is str.replace(old, new[, count]), which takes no keyword arguments (the
// Python 3.11 of the reference; 3.13 takes count=).
func strReplace(r Value, args []Value, kwargs []Kwarg) Value {
	if len(kwargs) > 0 {
		throw(TypeError, "str.replace() takes no keyword arguments")
	}
	expectsArgs("replace", len(args), 2, 3)
	a := bindArgs("replace", args, kwargs, "old", "new", "count")
	for i, x := range a[:2] {
		if x.kind() != KindString {
			throw(TypeError, "replace() argument %d must be str, not %s", i+1, clinicTypeName(x))
		}
	}
	newStr := a[1].str()
	if r.IsMarkup() {
		newStr = escapeUnlessMarkup(a[1]) // Markup.replace escapes the replacement
	}
	return FromTemplate(sameKind(r, pyReplace(r.str(), a[0].str(), newStr, intArg(a[2], -1))), r, a[0], a[1])
}

// pyReplace is Python's str.replace: an empty old inserts new between characters.
func pyReplace(s, old, new string, count int) string {
	if old == "" {
		n := utf8.RuneCountInString(s) + 1
		if count >= 0 && count < n {
			n = count
		}
		checkSize(len(s) + n*len(new))
	} else if count < 0 {
		if c := strings.Count(s, old); c > 0 {
			checkSize(len(s) + c*(len(new)-len(old)))
		}
	}
	return strings.Replace(s, old, new, count)
}

func strFind(r Value, args []Value, kwargs []Kwarg, name string, last, raise bool) Value {
	if len(kwargs) > 0 {
		throw(TypeError, "%s() takes no keyword arguments", name)
	}
	takesArgs(name, len(args), 1, 3)
	lo, hi := runeRange(r.str(), args) // the bounds are read first
	if args[0].kind() != KindString {
		throw(TypeError, "must be str, not %s", args[0].TypeName())
	}
	i := -1
	if lo >= 0 {
		if last {
			i = strings.LastIndex(r.str()[lo:hi], args[0].str())
		} else {
			i = strings.Index(r.str()[lo:hi], args[0].str())
		}
		if i >= 0 {
			i = utf8.RuneCountInString(r.str()[:lo+i])
		}
	}
	if i < 0 && raise {
		throw(ValueError, "substring not found")
	}
	return Int(int64(i))
}

func strCount(r Value, args []Value, kwargs []Kwarg) Value {
	if len(kwargs) > 0 {
		throw(TypeError, "count() takes no keyword arguments")
	}
	takesArgs("count", len(args), 1, 3)
	lo, hi := runeRange(r.str(), args) // the bounds are read first
	if args[0].kind() != KindString {
		throw(TypeError, "must be str, not %s", args[0].TypeName())
	}
	if lo < 0 {
		return Int(0)
	}
	sub := r.str()[lo:hi]
	if args[0].str() == "" {
		return Int(int64(utf8.RuneCountInString(sub) + 1))
	}
	return Int(int64(strings.Count(sub, args[0].str())))
}

func strJoin(r Value, args []Value, kwargs []Kwarg) Value {
	takesOne("str.join", args, kwargs)
	if !IsIterable(args[0]) {
		throw(TypeError, "can only join an iterable")
	}
	items := iterate(args[0])
	for i, it := range items {
		if it.kind() != KindString {
			throw(TypeError, "sequence item %d: expected str instance, %s found", i, it.TypeName())
		}
	}
	markup := r.IsMarkup()
	if !markup && tracking.Load() > 0 { // a tracked render may need the origins
		return joinOrigins(items, r)
	}
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(r.str())
		}
		if markup {
			b.WriteString(escapeUnlessMarkup(it))
		} else {
			b.WriteString(it.str())
		}
	}
	checkSize(b.Len())
	return sameKind(r, b.String())
}

func strSplitlines(r Value, args []Value, kwargs []Kwarg) Value {
	a := bindArgs("splitlines", args, kwargs, "keepends")
	keep := intArg(a[0], 0) != 0
	var items []Value
	s := r.str()
	for len(s) > 0 {
		end, next := -1, -1
		for i, c := range s {
			if pystr.IsLineBreak(c) {
				end = i
				next = i + utf8.RuneLen(c)
				if c == '\r' && next < len(s) && s[next] == '\n' {
					next++
				}
				break
			}
		}
		if end < 0 {
			items = append(items, sameKind(r, s))
			break
		}
		if keep {
			items = append(items, sameKind(r, s[:next]))
		} else {
			items = append(items, sameKind(r, s[:end]))
		}
		s = s[next:]
	}
	if items == nil {
		items = []Value{}
	}
	return ListOf(items)
}

func strPartition(r Value, args []Value, kwargs []Kwarg, right bool) Value {
	if right {
		takesOne("str.rpartition", args, kwargs)
	} else {
		takesOne("str.partition", args, kwargs)
	}
	sep := args[0]
	if sep.kind() != KindString {
		throw(TypeError, "must be str, not %s", sep.TypeName())
	}
	if sep.str() == "" {
		throw(ValueError, "empty separator")
	}
	part := func(s string) Value { return sameKind(r, s) }
	var i int
	if right {
		i = strings.LastIndex(r.str(), sep.str())
		if i < 0 {
			return NewTuple(part(""), part(""), part(r.str()))
		}
	} else {
		i = strings.Index(r.str(), sep.str())
		if i < 0 {
			return NewTuple(part(r.str()), part(""), part(""))
		}
	}
	return NewTuple(part(r.str()[:i]), part(sep.str()), part(r.str()[i+len(sep.str()):]))
}

func strRemoveAffix(r Value, args []Value, kwargs []Kwarg, prefix bool) Value {
	qualname := "str.removesuffix"
	if prefix {
		qualname = "str.removeprefix"
	}
	takesOne(qualname, args, kwargs)
	if args[0].kind() != KindString {
		throw(TypeError, "%s() argument must be str, not %s", strings.TrimPrefix(qualname, "str."), clinicTypeName(args[0]))
	}
	if prefix {
		return sameKind(r, strings.TrimPrefix(r.str(), args[0].str()))
	}
	return sameKind(r, strings.TrimSuffix(r.str(), args[0].str()))
}

func strPad(r Value, args []Value, kwargs []Kwarg, name string) Value {
	if len(kwargs) > 0 {
		throw(TypeError, "%s() takes no keyword arguments", name)
	}
	expectsArgs(name, len(args), 1, 2)
	width := intArg(args[0], 0)
	fill := " "
	if len(args) == 2 {
		if args[1].kind() != KindString {
			throw(TypeError, "The fill character must be a unicode character, not %s", args[1].TypeName())
		}
		fill = args[1].str()
		if r.IsMarkup() {
			fill = escapeUnlessMarkup(args[1]) // Markup escapes its fill character
		}
		if utf8.RuneCountInString(fill) != 1 {
			throw(TypeError, "The fill character must be exactly one character long")
		}
	}
	return sameKind(r, pad(r.str(), width, fill, name))
}

// pad is Python's str.center, ljust or rjust.
func pad(s string, width int, fill, how string) string {
	n := utf8.RuneCountInString(s)
	if width <= n {
		return s
	}
	checkSize(width * len(fill))
	total := width - n
	var left int
	switch how {
	case "ljust":
		left = 0
	case "rjust":
		left = total
	default:
		// CPython's pad: the extra fill goes left when both the margin and the
		// width are odd
		left = total/2 + total&width&1
	}
	return strings.Repeat(fill, left) + s + strings.Repeat(fill, total-left)
}

// strExpandtabs is str.expandtabs(tabsize=8): each tab becomes the spaces up to the
// next multiple of tabsize columns (counted from the last line break).
func strExpandtabs(r Value, args []Value, kwargs []Kwarg) Value {
	a := bindArgs("expandtabs", args, kwargs, "tabsize")
	size := intArg(a[0], 8)
	var b strings.Builder
	col := 0
	for _, c := range r.str() {
		switch c {
		case '\t':
			if size > 0 {
				n := size - col%size
				checkSize(b.Len() + n)
				b.WriteString(strings.Repeat(" ", n))
				col += n
			}
		case '\n', '\r':
			b.WriteRune(c)
			col = 0
		default:
			b.WriteRune(c)
			col++
		}
	}
	return sameKind(r, b.String())
}

// isIdentifier is str.isidentifier: a letter or underscore, then letters, digits,
// combining marks and connector punctuation.
func isIdentifier(s string) bool {
	for i, c := range s {
		start := c == '_' || pystr.IsAlpha(c) || unicode.Is(unicode.Nl, c)
		if i == 0 && !start {
			return false
		}
		if !start && !unicode.In(c, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) {
			return false
		}
	}
	return s != ""
}

// strTranslate is str.translate(table): each character looked up by its code point in
// the table (a dict), and replaced by the str, or the character of the int, it maps
// to, or deleted where it maps to None; characters not in the table are kept.
func strTranslate(r Value, args []Value, kwargs []Kwarg) Value {
	if len(args) != 1 || len(kwargs) > 0 {
		throw(TypeError, "translate() takes exactly one argument (%d given)", len(args)+len(kwargs))
	}
	table := args[0]
	var b strings.Builder
	for _, c := range r.str() {
		var m Value
		var ok bool
		switch table.kind() {
		case KindDict:
			m, ok = table.dict().Get(Int(int64(c)))
		case KindList, KindTuple, KindString:
			m, ok = table.lookupItem(Int(int64(c)))
		default:
			throw(TypeError, "'%s' object is not subscriptable", table.TypeName())
		}
		switch {
		case !ok:
			b.WriteRune(c)
		case m.kind() == KindNone:
		case m.kind() == KindString:
			b.WriteString(m.str())
		case m.isIntegral() && !m.isBig() && m.num() >= 0 && m.num() <= unicode.MaxRune:
			b.WriteRune(rune(m.num()))
		default:
			throw(TypeError, "character mapping must return integer, None or str")
		}
		checkSize(b.Len())
	}
	return sameKind(r, b.String())
}

func strZfill(r Value, args []Value, kwargs []Kwarg) Value {
	takesOne("str.zfill", args, kwargs)
	width := intArg(args[0], 0)
	s := r.str()
	n := utf8.RuneCountInString(s)
	if width <= n {
		return sameKind(r, s)
	}
	checkSize(width)
	sign := ""
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		sign, s = s[:1], s[1:]
	}
	return sameKind(r, sign+strings.Repeat("0", width-n)+s)
}

// strCase is a method of str that maps it to another (upper, lower...) and takes no
// arguments: a Markup str gives a Markup str.
func strCase(name string, mapping func(string) string) method {
	name = "str." + name // as Python names it in an error
	return func(r Value, args []Value, kwargs []Kwarg) Value {
		noArgs(name, args, kwargs)
		return sameShape(sameKind(r, mapping(r.str())), r)
	}
}

// strPredicate is a method of str that tests each character (isdigit, isalpha...): false
// for an empty str.
func strPredicate(name string, test func(rune) bool) method {
	name = "str." + name // as Python names it in an error
	return func(r Value, args []Value, kwargs []Kwarg) Value {
		noArgs(name, args, kwargs)
		if r.str() == "" {
			return Bool(false)
		}
		for _, c := range r.str() {
			if !test(c) {
				return Bool(false)
			}
		}
		return Bool(true)
	}
}

func dictGet(r Value, args []Value, kwargs []Kwarg) Value {
	if len(kwargs) > 0 {
		throw(TypeError, "dict.get() takes no keyword arguments")
	}
	expectsArgs("get", len(args), 1, 2)
	checkHashable(args[0])
	if v, ok := r.dict().Get(args[0]); ok {
		return v
	}
	if len(args) == 2 {
		return args[1]
	}
	return None()
}

// dictItems returns d.items(): a dict_items view of (key, value) tuples, the view and
// its tuples in one allocation.
func dictItems(d *Dict) Value {
	view := ItemsList(d)
	view.list().name = "dict_items"
	return view
}

// ItemsList returns the (key, value) tuples of d as a list of its own (what
// list(d.items()) gives), in one allocation.
func ItemsList(d *Dict) Value {
	n := d.Len()
	c := cellChunks{bound: listCells + n + n*(listCells+2)}
	list, items := c.newSeq(KindList, n)
	for i, k := range d.keys() {
		tuple, pair := c.newSeq(KindTuple, 2)
		pair[0], pair[1] = k, d.at(i)
		items[i] = tuple
	}
	return list
}

// dictView is a list that prints as a dict view: dict_items([...]).
func dictView(name string, items []Value) Value {
	return listValue(KindList, newListNamed(append([]Value(nil), items...), name))
}

func seqCount(r Value, args []Value, kwargs []Kwarg) Value {
	if len(args) != 1 || len(kwargs) > 0 {
		takesOne(r.TypeName()+".count", args, kwargs) // (its name made only then)
	}
	n := 0
	for _, it := range r.Items() {
		if Eq(it, args[0]) {
			n++
		}
	}
	return Int(int64(n))
}

// seqIndex is list.index(x, start=0, stop=len) (and tuple's): the first position of x
// between start and stop, which are clamped as a slice's.
func seqIndex(r Value, args []Value, kwargs []Kwarg) Value {
	switch {
	case len(kwargs) > 0:
		throw(TypeError, "index() takes no keyword arguments")
	case len(args) < 1:
		throw(TypeError, "index expected at least 1 argument, got %d", len(args))
	case len(args) > 3:
		throw(TypeError, "index expected at most 3 arguments, got %d", len(args))
	}
	items := r.Items()
	lo, hi := 0, len(items)
	if len(args) > 1 {
		lo = clampIndex(indexBound(args[1]), len(items))
	}
	if len(args) > 2 {
		hi = clampIndex(indexBound(args[2]), len(items))
	}
	for i := lo; i < hi; i++ {
		if Eq(items[i], args[0]) {
			return Int(int64(i))
		}
	}
	throw(ValueError, "%s is not in %s", args[0].Repr(), r.TypeName())
	return Value{}
}
