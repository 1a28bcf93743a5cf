package jinja2

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// FilterFunc is a Jinja2 filter: the value, then the filter's arguments.
type FilterFunc func(v Value, args []Value, kwargs []Kwarg) Value

// Filters are Jinja2's builtin filters and transformers' tojson, by name: what filters
// such as map and the filter blocks of an interpreter call by name. Generated code calls
// a filter's exported Go function (FilterName: FilterTrim for "trim") directly.
var Filters map[string]FilterFunc

func init() {
	Filters = map[string]FilterFunc{
		"abs":            builtinFilter("abs", FilterAbs),
		"attr":           FilterAttr,
		"batch":          FilterBatch,
		"capitalize":     filter0("do_capitalize", []string{"s"}, FilterCapitalize),
		"center":         FilterCenter,
		"count":          builtinFilter("len", FilterLength),
		"d":              FilterDefault,
		"default":        FilterDefault,
		"dictsort":       FilterDictsort,
		"e":              filter0("escape", []string{"s"}, FilterEscape),
		"escape":         filter0("escape", []string{"s"}, FilterEscape),
		"filesizeformat": FilterFilesizeformat,
		"first":          filter0("sync_do_first", []string{"environment", "seq"}, FilterFirst),
		"float":          FilterFloat,
		"forceescape":    filter0("do_forceescape", []string{"value"}, FilterForceescape),
		"format":         FilterFormat,
		"groupby":        FilterGroupby,
		"indent":         FilterIndent,
		"int":            FilterInt,
		"items":          filter0("do_items", []string{"value"}, FilterItems),
		"join":           FilterJoin,
		"last":           filter0("do_last", []string{"environment", "seq"}, FilterLast),
		"length":         builtinFilter("len", FilterLength),
		"list":           filter0("sync_do_list", []string{"value"}, FilterList),
		"lower":          filter0("do_lower", []string{"s"}, FilterLower),
		"map":            FilterMap,
		"max":            FilterMax,
		"min":            FilterMin,
		"pprint":         filter0("do_pprint", []string{"value"}, FilterPprint),
		"reject":         FilterReject,
		"rejectattr":     FilterRejectattr,
		"replace":        FilterReplace,
		"random":         filter0("do_random", []string{"context", "seq"}, FilterRandom),
		"reverse":        filter0("do_reverse", []string{"value"}, FilterReverse),
		"round":          FilterRound,
		"safe":           filter0("do_mark_safe", []string{"value"}, FilterSafe),
		"select":         FilterSelect,
		"selectattr":     FilterSelectattr,
		"slice":          FilterSlice,
		"sort":           FilterSort,
		"string":         filter0("soft_str", []string{"s"}, FilterString),
		"striptags":      filter0("do_striptags", []string{"value"}, FilterStriptags),
		"sum":            FilterSum,
		"title":          filter0("do_title", []string{"s"}, FilterTitle),
		"tojson":         FilterTojson,
		"trim":           FilterTrim,
		"truncate":       FilterTruncate,
		"unique":         FilterUnique,
		"upper":          filter0("do_upper", []string{"s"}, FilterUpper),
		"urlencode":      filter0("do_urlencode", []string{"value"}, FilterUrlencode),
		"urlize":         FilterUrlize,
		"wordcount":      filter0("do_wordcount", []string{"s"}, FilterWordcount),
		"wordwrap":       FilterWordwrap,
		"xmlattr":        FilterXmlattr,
	}
}

// The Python functions of Jinja2's filters that take arguments, whose calls bind them
// (pyFunc.bind): the value and, for some, the environment or context come first.
var (
	attrFilter           = &pyFunc{name: "do_attr", added: []string{"environment", "obj"}, required: 1, params: []string{"name"}}
	batchFilter          = &pyFunc{name: "do_batch", added: []string{"value"}, required: 1, params: []string{"linecount", "fill_with"}}
	centerFilter         = &pyFunc{name: "do_center", added: []string{"value"}, params: []string{"width"}}
	defaultFilter        = &pyFunc{name: "do_default", added: []string{"value"}, params: []string{"default_value", "boolean"}}
	dictsortFilter       = &pyFunc{name: "do_dictsort", added: []string{"value"}, params: []string{"case_sensitive", "by", "reverse"}}
	filesizeformatFilter = &pyFunc{name: "do_filesizeformat", added: []string{"value"}, params: []string{"binary"}}
	floatFilter          = &pyFunc{name: "do_float", added: []string{"value"}, params: []string{"default"}}
	groupbyFilter        = &pyFunc{name: "sync_do_groupby", added: []string{"environment", "value"}, required: 1, params: []string{"attribute", "default", "case_sensitive"}}
	indentFilter         = &pyFunc{name: "do_indent", added: []string{"s"}, params: []string{"width", "first", "blank"}}
	intFilter            = &pyFunc{name: "do_int", added: []string{"value"}, params: []string{"default", "base"}}
	joinFilter           = &pyFunc{name: "sync_do_join", added: []string{"eval_ctx", "value"}, params: []string{"d", "attribute"}}
	minMaxFilters        = map[string]*pyFunc{
		"min": {name: "do_min", added: []string{"environment", "value"}, params: []string{"case_sensitive", "attribute"}},
		"max": {name: "do_max", added: []string{"environment", "value"}, params: []string{"case_sensitive", "attribute"}},
	}
	replaceFilter  = &pyFunc{name: "do_replace", added: []string{"eval_ctx", "s"}, required: 2, params: []string{"old", "new", "count"}}
	roundFilter    = &pyFunc{name: "do_round", added: []string{"value"}, params: []string{"precision", "method"}}
	sliceFilter    = &pyFunc{name: "sync_do_slice", added: []string{"value"}, required: 1, params: []string{"slices", "fill_with"}}
	sortFilter     = &pyFunc{name: "do_sort", added: []string{"environment", "value"}, params: []string{"reverse", "case_sensitive", "attribute"}}
	sumFilter      = &pyFunc{name: "sync_do_sum", added: []string{"environment", "iterable"}, params: []string{"attribute", "start"}}
	trimFilter     = &pyFunc{name: "do_trim", added: []string{"value"}, params: []string{"chars"}}
	truncateFilter = &pyFunc{name: "do_truncate", added: []string{"env", "s"}, params: []string{"length", "killwords", "end", "leeway"}}
	uniqueFilter   = &pyFunc{name: "sync_do_unique", added: []string{"environment", "value"}, params: []string{"case_sensitive", "attribute"}}
	urlizeFilter   = &pyFunc{name: "do_urlize", added: []string{"eval_ctx", "value"}, params: []string{"trim_url_limit", "nofollow", "target", "rel", "extra_schemes"}}
	wordwrapFilter = &pyFunc{name: "do_wordwrap", added: []string{"environment", "s"}, params: []string{"width", "break_long_words", "wrapstring", "break_on_hyphens"}}
	xmlattrFilter  = &pyFunc{name: "do_xmlattr", added: []string{"eval_ctx", "d"}, params: []string{"autospace"}}
)

// filter0 is the FilterFunc of a filter that takes no arguments: f, the Python
// function name, to which Jinja2 passes the added arguments (the value, and the
// environment or context for some).
func filter0(name string, added []string, f func(Value) Value) FilterFunc {
	sig := &pyFunc{name: name, added: added}
	return func(v Value, args []Value, kwargs []Kwarg) Value {
		sig.bindNone(args, kwargs)
		return f(v)
	}
}

// builtinFilter is the FilterFunc of a filter that is Python's builtin function name
// (abs, len), which takes the value only.
func builtinFilter(name string, f func(Value) Value) FilterFunc {
	return func(v Value, args []Value, kwargs []Kwarg) Value {
		if len(args) > 0 || len(kwargs) > 0 {
			takesOne(name, append([]Value{v}, args...), kwargs) // the value is its argument
		}
		return f(v)
	}
}

// CallFilter applies the filter of that name; an unknown name is the error Jinja2
// raises when the filter is reached.
func CallFilter(name string, v Value, args []Value, kwargs []Kwarg) Value {
	f, ok := Filters[name]
	if !ok {
		throw(RuntimeError, "No filter named '%s'.", name) // environment.call_filter's words
	}
	return f(v, args, kwargs)
}

// softStr is Jinja2's soft_str: Markup and str stay as they are, anything else becomes
// its str().
func softStr(v Value) Value {
	if v.kind() == KindString {
		return v
	}
	return Str(v.String())
}

// FilterAbs is abs(x).
func FilterAbs(v Value) Value {
	switch v.kind() {
	case KindInt, KindBool:
		if v.ptr == nil && v.num() >= 0 {
			return Int(v.num())
		}
		return BigInt(new(big.Int).Abs(v.bigInt()))
	case KindFloat:
		return Float(math.Abs(v.float()))
	case KindObject:
		if c, ok := v.object().(*complexNum); ok {
			return Float(c.abs())
		}
	}
	throw(TypeError, "bad operand type for abs(): '%s'", v.TypeName())
	return Value{}
}

// FilterAttr is attr(obj, name): an attribute only, never an item.
func FilterAttr(v Value, args []Value, kwargs []Kwarg) Value {
	a := attrFilter.bind(args, kwargs)
	name := a[0].String()
	switch v.kind() {
	case KindUndefined:
		v.undefinedError()
	case KindNamespace:
		if r, ok := v.namespace().attrs.GetStr(name); ok {
			return r
		}
	case KindLoop:
		if r, ok := v.loop().attr(name); ok {
			return r
		}
	default:
		if m, ok := lookupMethod(v, name); ok {
			return m
		}
	}
	return missingAttr(v, name)
}

// FilterBatch is batch(value, linecount, fill_with=None).
func FilterBatch(v Value, args []Value, kwargs []Kwarg) Value {
	a := batchFilter.bind(args, kwargs)
	// as in Jinja2, a batch ends when its length equals linecount (in Python's ==): a
	// size of 0 gives an empty first batch, and a negative size or one that is no number
	// one batch
	n := a[0]
	var out, tmp []Value
	for _, it := range iterate(v) {
		if Eq(Int(int64(len(tmp))), n) {
			out = append(out, ListOf(tmp))
			tmp = nil
		}
		tmp = append(tmp, it)
	}
	if len(tmp) > 0 {
		if given(a[1]) && a[1].kind() != KindNone && Lt(Int(int64(len(tmp))), n) {
			// tmp += [fill_with] * (linecount - len(tmp))
			tmp = append(tmp, Mul(ListOf([]Value{a[1]}), Sub(n, Int(int64(len(tmp))))).Items()...)
		}
		out = append(out, ListOf(tmp))
	}
	return newIterator(out, "generator")
}

// FilterCapitalize is soft_str(s).capitalize().
func FilterCapitalize(v Value) Value {
	s := softStr(v)
	return sameKind(s, pystr.Capitalize(s.str()))
}

// FilterCenter is value.center(width=80).
func FilterCenter(v Value, args []Value, kwargs []Kwarg) Value {
	a := centerFilter.bind(args, kwargs)
	s := softStr(v)
	return sameKind(s, pad(s.str(), optInt(a[0], 80), " ", "center"))
}

// FilterDefault is default(value, default_value=”, boolean=False).
func FilterDefault(v Value, args []Value, kwargs []Kwarg) Value {
	a := defaultFilter.bind(args, kwargs)
	if v.kind() == KindUndefined || (given(a[1]) && a[1].Truthy() && !v.Truthy()) {
		if !given(a[0]) {
			return Str("")
		}
		return a[0]
	}
	return v
}

// FilterDictsort is dictsort(value, case_sensitive=False, by='key', reverse=False).
func FilterDictsort(v Value, args []Value, kwargs []Kwarg) Value {
	d, order := dictsortOrder(v, args, kwargs)
	items, keys := make([]Value, len(order)), d.keys()
	for i, j := range order {
		items[i] = NewTuple(keys[j], d.at(j))
	}
	return ListOf(items)
}

// dictsortOrder binds dictsort's arguments and returns the dict and the positions of
// its entries in sorted order.
func dictsortOrder(v Value, args []Value, kwargs []Kwarg) (*Dict, []int) {
	a := dictsortFilter.bind(args, kwargs)
	if v.kind() != KindDict {
		noItems(v)
	}
	d := v.dict()
	by := d.keys()
	if given(a[1]) {
		switch a[1].String() {
		case "key":
		case "value":
			by = d.vals()
		default:
			throw(FilterArgumentError, "You can only sort by either \"key\" or \"value\"")
		}
	}
	caseSensitive := given(a[0]) && a[0].Truthy()
	keys := make([]Value, len(by))
	for i, k := range by {
		keys[i] = sortKey(k, caseSensitive)
	}
	return d, sortOrder(keys, given(a[2]) && a[2].Truthy())
}

// sortKey is Jinja2's ignore_case postprocessing: str keys compare lowercased.
func sortKey(v Value, caseSensitive bool) Value {
	if !caseSensitive && v.kind() == KindString {
		return Str(pystr.Lower(v.str()))
	}
	return v
}

// sortByKeys sorts items by their keys as Python's sorted does: stable, and stable in
// reverse too.
func sortByKeys(items, keys []Value, reverse bool) []Value {
	order := sortOrder(keys, reverse)
	out := make([]Value, len(items))
	for i, j := range order {
		out[i] = items[j]
	}
	return out
}

// sortOrder returns the positions of keys in Python's sorted order: list.sort's, which
// reverses the list, sorts it and reverses it again when reverse (stable both ways).
// Below 64 items it compares the keys as CPython's timsort does, one run then a
// binary insertion sort, so that a comparison that fails (a TypeError) or does not
// order (nan) gives what Python gives; a longer list is sorted stably.
func sortOrder(keys []Value, reverse bool) []int {
	return sortedOrder(len(keys), func(a, b int) bool { return Lt(keys[a], keys[b]) }, reverse)
}

// sortedOrder is sortOrder of n items that less orders by position.
func sortedOrder(n int, less func(a, b int) bool, reverse bool) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if reverse {
		slices.Reverse(idx)
	}
	if len(idx) < 64 {
		timsortShort(idx, less)
	} else {
		sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
	}
	if reverse {
		slices.Reverse(idx)
	}
	return idx
}

// timsortShort sorts s as CPython's list.sort sorts fewer than 64 items: the run at its
// start (count_run: ascending, or strictly descending and then reversed), then each
// item after it inserted by binary search (binarysort).
func timsortShort(s []int, less func(a, b int) bool) {
	if len(s) < 2 {
		return
	}
	run := 2
	if less(s[1], s[0]) {
		for run < len(s) && less(s[run], s[run-1]) {
			run++
		}
		slices.Reverse(s[:run])
	} else {
		for run < len(s) && !less(s[run], s[run-1]) {
			run++
		}
	}
	for start := run; start < len(s); start++ {
		pivot := s[start]
		l, r := 0, start
		for l < r {
			if p := l + (r-l)/2; less(pivot, s[p]) {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(s[l+1:start+1], s[l:start])
		s[l] = pivot
	}
}

// FilterEscape is markupsafe.escape(value).
func FilterEscape(v Value) Value {
	return Markup(escapeUnlessMarkup(v))
}

// FilterForceescape escapes even Markup.
func FilterForceescape(v Value) Value {
	return Markup(pystr.EscapeHTML(v.String()))
}

// FilterFilesizeformat is filesizeformat(value, binary=False).
func FilterFilesizeformat(v Value, args []Value, kwargs []Kwarg) Value {
	a := filesizeformatFilter.bind(args, kwargs)
	binary := given(a[0]) && a[0].Truthy()
	f := pyFloat(v)
	base := 1000.0
	prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	if binary {
		base = 1024
		prefixes = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	}
	switch {
	case f == 1:
		return Str("1 Byte")
	case f < base:
		return Str(floatToInt(f).String() + " Bytes")
	}
	unit := 0.0
	for i, p := range prefixes {
		unit = math.Pow(base, float64(i+2))
		if f < unit {
			return Str(strconv.FormatFloat(base*f/unit, 'f', 1, 64) + " " + p)
		}
	}
	return Str(strconv.FormatFloat(base*f/unit, 'f', 1, 64) + " " + prefixes[len(prefixes)-1])
}

// FilterFirst is first(seq).
func FilterFirst(v Value) Value {
	if v.kind() == KindIterator {
		it := v.iterator()
		if it.pos < len(it.items) {
			it.pos++
			return it.items[it.pos-1]
		}
	} else if items := iterate(v); len(items) > 0 {
		return items[0]
	}
	return undefinedMessage("No first item, sequence was empty.")
}

// FilterLast is last(seq).
func FilterLast(v Value) Value {
	if v.kind() == KindIterator {
		throw(TypeError, "'%s' object is not reversible", v.TypeName())
	}
	if items := iterate(v); len(items) > 0 {
		return items[len(items)-1]
	}
	return undefinedMessage("No last item, sequence was empty.")
}

// FilterFloat is float(value, default=0.0).
func FilterFloat(v Value, args []Value, kwargs []Kwarg) Value {
	a := floatFilter.bind(args, kwargs)
	def := Float(0)
	if given(a[0]) {
		def = a[0]
	}
	switch v.kind() {
	case KindFloat:
		return v
	case KindInt, KindBool:
		return Float(toFloat(v))
	case KindString:
		if f, ok := parsePyFloat(v.str()); ok {
			return Float(f)
		}
		return def
	case KindUndefined:
		v.undefinedError()
	}
	return def
}

// pyFloat is Python's float(v): a number, or a str that parses (else a ValueError); an
// undefined value raises, anything else is a TypeError.
func pyFloat(v Value) float64 {
	switch v.kind() {
	case KindFloat, KindInt, KindBool:
		return toFloat(v)
	case KindString:
		if f, ok := parsePyFloat(v.str()); ok {
			return f
		}
		throw(ValueError, "could not convert string to float: %s", v.Repr())
	case KindUndefined:
		v.undefinedError()
	}
	throw(TypeError, "float() argument must be a string or a real number, not '%s'", v.TypeName())
	return 0
}

// parsePyFloat is Python's float(str): surrounding whitespace, underscores between
// digits, inf and nan spellings.
func parsePyFloat(s string) (float64, bool) {
	s = strings.TrimFunc(asciiDigits(s), pystr.IsSpace)
	unsigned, sign := s, 1
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		unsigned = s[1:] // one sign, which nan takes too ("-nan")
	}
	switch strings.ToLower(unsigned) {
	case "inf", "infinity":
		return math.Inf(sign), true
	case "nan":
		return math.NaN(), true
	}
	if s == "" || strings.Contains(s, "__") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") ||
		strings.ContainsAny(s, "xXpP") {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

// isRangeErr reports whether err is strconv's error for a number out of range.
func isRangeErr(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && ne.Err == strconv.ErrRange
}

// FilterFormat is format(value, *args, **kwargs): printf-style formatting.
func FilterFormat(v Value, args []Value, kwargs []Kwarg) Value {
	if len(args) > 0 && len(kwargs) > 0 {
		throw(RuntimeError, "can't handle positional and keyword arguments at the same time")
	}
	var operand Value
	if len(kwargs) > 0 {
		d := NewDict(len(kwargs))
		for _, kw := range kwargs {
			d.SetStr(kw.Name, kw.Value)
		}
		operand = DictValue(d)
	} else {
		operand = NewTuple(args...)
	}
	s := softStr(v)
	return percentOrigin(formatPercent(s, operand), s, operand)
}

// FilterGroupby is groupby(value, attribute, default=None, case_sensitive=False): a list
// of (grouper, list) tuples sorted by the grouper.
func FilterGroupby(v Value, args []Value, kwargs []Kwarg) Value {
	a := groupbyFilter.bind(args, kwargs)
	caseSensitive := given(a[2]) && a[2].Truthy()
	def := None()
	if given(a[1]) {
		def = a[1]
	}
	get := attrGetter(a[0], def)
	items := iterate(v)
	keys := make([]Value, len(items))
	for i, it := range items {
		keys[i] = sortKey(get(it), caseSensitive)
	}
	idx := sortOrder(keys, false)
	var out []Value
	for start := 0; start < len(idx); {
		end := start + 1
		for end < len(idx) && Eq(keys[idx[end]], keys[idx[start]]) {
			end++
		}
		group := make([]Value, 0, end-start)
		for _, j := range idx[start:end] {
			group = append(group, items[j])
		}
		grouper := keys[idx[start]]
		if !caseSensitive {
			grouper = get(group[0])
		}
		out = append(out, listValue(KindTuple, newListNamed([]Value{grouper, ListOf(group)}, groupTuple)))
		start = end
	}
	return ListOf(out)
}

// groupTuple tags the tuples groupby returns, whose items are also .grouper and .list.
const groupTuple = "_GroupTuple"

// attrGetter is Jinja2's make_attrgetter: a dotted path of items ("a.b.0"); with a
// default, an undefined step gives the default.
func attrGetter(attr Value, def Value) func(Value) Value {
	var parts []Value
	switch {
	case attr.kind() == KindString && !strings.Contains(attr.str(), ".") && !isAllDigits(attr.str()):
		// one str key, the common case
		return func(item Value) Value {
			item = item.Item(attr)
			if def.kind() != KindNone && item.kind() == KindUndefined {
				item = def
			}
			return item
		}
	case attr.kind() == KindString:
		for _, p := range strings.Split(attr.str(), ".") {
			if p != "" && isAllDigits(p) {
				n, _ := strconv.ParseInt(p, 10, 64)
				parts = append(parts, Int(n))
			} else {
				parts = append(parts, Str(p))
			}
		}
	case attr.kind() == KindNone || attr.kind() == KindUndefined:
	default:
		parts = []Value{attr}
	}
	return func(item Value) Value {
		for _, p := range parts {
			item = item.Item(p)
			if def.kind() != KindNone && item.kind() == KindUndefined {
				item = def
			}
		}
		return item
	}
}

// isAllDigits is Python's s.isdigit() (false for "").
func isAllDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !pystr.IsDigit(r) {
			return false
		}
	}
	return true
}

// FilterIndent is indent(s, width=4, first=False, blank=False).
func FilterIndent(v Value, args []Value, kwargs []Kwarg) Value {
	a := indentFilter.bind(args, kwargs)
	indention := "    "
	if given(a[0]) {
		if a[0].kind() == KindString {
			indention = a[0].str()
		} else {
			indention = Mul(Str(" "), a[0]).str()
		}
	}
	if v.kind() == KindUndefined {
		v.undefinedError()
	}
	if v.kind() != KindString {
		throw(TypeError, "unsupported operand type(s) for +=: '%s' and 'str'", v.TypeName())
	}
	lines := strSplitlines(Str(v.str()+"\n"), nil, nil).Items()
	var b strings.Builder
	if given(a[2]) && a[2].Truthy() {
		for i, l := range lines {
			if i > 0 {
				b.WriteString("\n" + indention)
			}
			b.WriteString(l.str())
		}
	} else {
		b.WriteString(lines[0].str())
		for _, l := range lines[1:] {
			b.WriteByte('\n')
			if l.str() != "" {
				b.WriteString(indention)
			}
			b.WriteString(l.str())
		}
	}
	s := b.String()
	if given(a[1]) && a[1].Truthy() {
		s = indention + s
	}
	checkSize(len(s))
	return sameKind(v, s)
}

// FilterInt is int(value, default=0, base=10).
func FilterInt(v Value, args []Value, kwargs []Kwarg) Value {
	a := intFilter.bind(args, kwargs)
	def := Int(0)
	if given(a[0]) {
		def = a[0]
	}
	switch v.kind() {
	case KindInt:
		return v
	case KindBool:
		return Int(v.num())
	case KindFloat:
		// int(nan) is a ValueError, which int(float(nan)) repeats: the default
		if math.IsNaN(v.float()) {
			return def
		}
		return floatToInt(v.float())
	case KindString:
		// int(s, base), where a base that is not an int is a TypeError, caught as the
		// ValueError of a str that is no int
		base := a[1]
		if !given(base) || base.kind() == KindNone {
			base = Int(10)
		}
		if base.isIntegral() {
			if i, ok := parsePyInt(v.str(), sliceInt(base)); ok {
				return i
			}
		}
		// int(float(s)), where the OverflowError of inf and ValueError of nan give the default
		if f, ok := parsePyFloat(v.str()); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return floatToInt(f)
		}
		return def
	case KindUndefined:
		v.undefinedError()
	}
	return def
}

// floatToInt is Python's int(float): truncation, an error for inf and nan.
func floatToInt(f float64) Value {
	switch {
	case math.IsInf(f, 0):
		throw(OverflowError, "cannot convert float infinity to integer")
	case math.IsNaN(f):
		throw(ValueError, "cannot convert float NaN to integer")
	}
	f = math.Trunc(f)
	if f >= -9.2e18 && f <= 9.2e18 {
		return Int(int64(f))
	}
	b, _ := big.NewFloat(f).Int(nil)
	return BigInt(b)
}

// asciiDigits replaces the Unicode decimal digits in s by ASCII ones, as Python's int()
// and float() read "١٢" as 12 (whitespace is left for the caller to trim).
func asciiDigits(s string) string {
	if pystr.IsASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= utf8.RuneSelf && pystr.IsDecimal(r) {
			// decimal digits come in runs from 0 to 9
			n := 0
			for pystr.IsDecimal(r - rune(n) - 1) {
				n++
			}
			b.WriteByte(byte('0' + n%10))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// parsePyInt is Python's int(str, base).
func parsePyInt(s string, base int) (Value, bool) {
	s = strings.TrimFunc(asciiDigits(s), pystr.IsSpace)
	sign := ""
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		sign, s = s[:1], s[1:]
	}
	if base == 0 || base == 16 || base == 8 || base == 2 {
		lower := strings.ToLower(s)
		for p, b := range map[string]int{"0x": 16, "0o": 8, "0b": 2} {
			if strings.HasPrefix(lower, p) && (base == 0 || base == b) {
				s, base = s[2:], b
				s = strings.TrimPrefix(s, "_")
				break
			}
		}
		if base == 0 {
			base = 10
			if len(s) > 1 && strings.Trim(s, "0_") == "" {
				s = "0"
			} else if len(s) > 1 && s[0] == '0' {
				return Value{}, false
			}
		}
	}
	if s == "" || strings.Contains(s, "__") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || base < 2 || base > 36 {
		return Value{}, false
	}
	if base&(base-1) != 0 && len(s)-strings.Count(s, "_") > maxStrDigits {
		return Value{}, false // Python's ValueError for too many digits
	}
	b, ok := new(big.Int).SetString(sign+strings.ReplaceAll(s, "_", ""), base)
	if !ok {
		return Value{}, false
	}
	return BigInt(b), true
}

// FilterItems is items(value): the (key, value) pairs of a mapping.
func FilterItems(v Value) Value {
	switch v.kind() {
	case KindUndefined:
		return newIterator(nil, "generator")
	case KindDict:
		return newIterator(dictItems(v.dict()).Items(), "generator")
	}
	throw(TypeError, "Can only get item pairs from a mapping.")
	return Value{}
}

// FilterJoin is join(value, d=”, attribute=None): str() of each item joined.
func FilterJoin(v Value, args []Value, kwargs []Kwarg) Value {
	a := joinFilter.bind(args, kwargs)
	sep := ""
	if given(a[0]) {
		sep = a[0].String()
	}
	items := iterate(v)
	if given(a[1]) && a[1].kind() != KindNone {
		get := attrGetter(a[1], None())
		mapped := make([]Value, len(items))
		for i, it := range items {
			mapped[i] = get(it)
		}
		items = mapped
	}
	if tracking.Load() > 0 { // a tracked render may need the origins
		return joinOrigins(items, a[0])
	}
	var b []byte
	for i, it := range items {
		if i > 0 {
			b = append(b, sep...)
		}
		b = appendStr(b, it)
		checkSize(len(b))
	}
	return Str(string(b))
}

// FilterLength is len(value).
func FilterLength(v Value) Value {
	return Int(int64(Len(v)))
}

// Len is Python's len(v); undefined has length 0.
func Len(v Value) int {
	if v.kind() == KindList {
		return int(uint32((*List)(v.ptr).size)) // size's low 32 bits (inlined: messages|length)
	}
	return lenOf(v)
}

// lenOf is Len of a value that is not a list.
func lenOf(v Value) int {
	switch v.kind() {
	case KindString:
		return utf8.RuneCountInString(v.str())
	case KindList, KindTuple:
		return len(v.list().items())
	case KindDict:
		return v.dict().Len()
	case KindUndefined:
		return 0
	case KindLoop:
		return v.loop().length()
	}
	if b, ok := asBytes(v); ok {
		return len(b)
	}
	throw(TypeError, "object of type '%s' has no len()", v.TypeName())
	return 0
}

// FilterList is list(value).
func FilterList(v Value) Value {
	if v.kind() == KindIterator {
		// what a one-shot iterator yields is no one else's: the list takes it over
		return ListOf(iterate(v))
	}
	return ListOf(append([]Value{}, iterate(v)...))
}

// FilterLower is soft_str(s).lower().
func FilterLower(v Value) Value {
	s := softStr(v)
	return sameShape(sameKind(s, pystr.Lower(s.str())), s)
}

// FilterUpper is soft_str(s).upper().
func FilterUpper(v Value) Value {
	s := softStr(v)
	return sameShape(sameKind(s, pystr.Upper(s.str())), s)
}

// FilterMap is map(value, filter_name, *args) or map(value, attribute=..., default=...).
func FilterMap(v Value, args []Value, kwargs []Kwarg) Value {
	if !v.Truthy() {
		return newIterator(nil, "generator")
	}
	var fn func(Value) Value
	if len(args) == 0 && kwargIndex(kwargs, "attribute") >= 0 {
		attr := kwargs[kwargIndex(kwargs, "attribute")].Value
		def := None()
		for _, kw := range kwargs {
			switch kw.Name {
			case "attribute":
			case "default":
				def = kw.Value
			default:
				throw(FilterArgumentError, "Unexpected keyword argument %s", Str(kw.Name).Repr())
			}
		}
		fn = attrGetter(attr, def)
	} else {
		if len(args) == 0 {
			throw(RuntimeError, "map requires a filter argument")
		}
		name := args[0].String()
		rest := args[1:]
		fn = func(x Value) Value { return CallFilter(name, x, rest, kwargs) }
	}
	items := iterate(v)
	out := make([]Value, len(items))
	for i, it := range items {
		out[i] = fn(it)
	}
	return newIterator(out, "generator")
}

func minMax(name string, v Value, args []Value, kwargs []Kwarg, want int) Value {
	a := minMaxFilters[name].bind(args, kwargs)
	items := iterate(v)
	if len(items) == 0 {
		return undefinedMessage("No aggregated item, sequence was empty.")
	}
	get := func(x Value) Value { return x }
	if given(a[1]) && a[1].kind() != KindNone {
		get = attrGetter(a[1], None())
	}
	cs := given(a[0]) && a[0].Truthy()
	best, bestKey := items[0], sortKey(get(items[0]), cs)
	for _, it := range items[1:] {
		k := sortKey(get(it), cs)
		if (want < 0 && Lt(k, bestKey)) || (want > 0 && Gt(k, bestKey)) {
			best, bestKey = it, k
		}
	}
	return best
}

// FilterMin is min(value, case_sensitive=False, attribute=None).
func FilterMin(v Value, args []Value, kwargs []Kwarg) Value {
	return minMax("min", v, args, kwargs, -1)
}

// FilterMax is max(value, case_sensitive=False, attribute=None).
func FilterMax(v Value, args []Value, kwargs []Kwarg) Value { return minMax("max", v, args, kwargs, 1) }

// FilterPprint is pprint(value): the repr.
func FilterPprint(v Value) Value {
	return Str(pformat(v))
}

// selectOrReject implements select, reject, selectattr and rejectattr.
func selectOrReject(v Value, args []Value, kwargs []Kwarg, keep bool, byAttr bool) Value {
	if !v.Truthy() {
		return newIterator(nil, "generator")
	}
	trans := func(x Value) Value { return x }
	off := 0
	if byAttr {
		if len(args) == 0 {
			throw(FilterArgumentError, "Missing parameter for attribute name")
		}
		trans = attrGetter(args[0], None())
		off = 1
	}
	test := func(x Value) bool { return x.Truthy() }
	if len(args) > off {
		name := args[off].String()
		rest := args[off+1:]
		test = func(x Value) bool { return CallTest(name, x, rest, kwargs) }
	}
	items := iterate(v)
	out := make([]Value, 0, len(items))
	for _, it := range items {
		if test(trans(it)) == keep {
			out = append(out, it)
		}
	}
	return newIterator(out, "generator")
}

// FilterSelect is select(value, test_name?, *args).
func FilterSelect(v Value, args []Value, kwargs []Kwarg) Value {
	return selectOrReject(v, args, kwargs, true, false)
}

// FilterReject is reject(value, test_name?, *args).
func FilterReject(v Value, args []Value, kwargs []Kwarg) Value {
	return selectOrReject(v, args, kwargs, false, false)
}

// FilterSelectattr is selectattr(value, attribute, test_name?, *args).
func FilterSelectattr(v Value, args []Value, kwargs []Kwarg) Value {
	return selectOrReject(v, args, kwargs, true, true)
}

// FilterRejectattr is rejectattr(value, attribute, test_name?, *args).
func FilterRejectattr(v Value, args []Value, kwargs []Kwarg) Value {
	return selectOrReject(v, args, kwargs, false, true)
}

// FilterReplace is replace(s, old, new, count=None).
func FilterReplace(v Value, args []Value, kwargs []Kwarg) Value {
	a := replaceFilter.bind(args, kwargs)
	count := optInt(a[2], -1)
	// without autoescape (as transformers renders) do_replace works on str(s), so Markup
	// in gives a plain str out
	return FromTemplate(Str(pyReplace(v.String(), a[0].String(), a[1].String(), count)), v, a[0], a[1])
}

// FilterRandom is random(seq): an item of a sequence chosen at random (random.choice),
// or undefined when it is empty.
func FilterRandom(v Value) Value {
	if !v.Truthy() {
		return undefinedMessage("No random item, sequence was empty.")
	}
	n := Len(v)
	return v.Item(Int(int64(rand.IntN(n))))
}

// FilterReverse is reverse(value): a str reversed, otherwise a reverse iterator.
func FilterReverse(v Value) Value {
	switch v.kind() {
	case KindString:
		return v.Slice(None(), None(), Int(-1))
	case KindNone, KindInt, KindFloat, KindBool, KindNamespace, KindCallable:
		throw(FilterArgumentError, "argument must be iterable")
	}
	items := iterate(v)
	out := make([]Value, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it
	}
	switch v.kind() {
	case KindIterator:
		return ListOf(out)
	case KindDict:
		return newIterator(out, "dict_reversekeyiterator")
	case KindUndefined:
		return newIterator(out, "reversed")
	}
	return newIterator(out, "list_reverseiterator")
}

// FilterRound is round(value, precision=0, method='common').
func FilterRound(v Value, args []Value, kwargs []Kwarg) Value {
	a := roundFilter.bind(args, kwargs)
	method := "common"
	if given(a[1]) {
		method = a[1].String()
	}
	if method != "common" && method != "ceil" && method != "floor" {
		throw(FilterArgumentError, "method must be common, ceil or floor")
	}
	if !v.isNumber() {
		throw(TypeError, "type %s doesn't define __round__ method", v.TypeName())
	}
	prec := optInt(a[0], 0)
	if method != "common" {
		return roundCeilFloor(v, prec, method == "ceil")
	}
	if v.kind() != KindFloat {
		return roundInt(v.bigInt(), prec)
	}
	return Float(roundHalfEven(toFloat(v), prec))
}

// roundCeilFloor is Jinja2's round with method ceil or floor:
// math.ceil(value * 10**precision) / 10**precision (math.floor for floor), in Python's
// arithmetic: math.ceil gives an int, so a zero result is 0.0, never -0.0.
func roundCeilFloor(v Value, prec int, ceil bool) Value {
	unit := Pow(Int(10), Int(int64(prec)))
	scaled := Mul(v, unit)
	if scaled.kind() == KindFloat {
		if ceil {
			scaled = floatToInt(math.Ceil(scaled.float()))
		} else {
			scaled = floatToInt(math.Floor(scaled.float()))
		}
	}
	return Div(scaled, unit)
}

// roundInt is Python's round(int, ndigits): the int itself when ndigits >= 0, else
// rounded to a multiple of 10**-ndigits, ties to even.
func roundInt(i *big.Int, ndigits int) Value {
	if ndigits >= 0 {
		return BigInt(i)
	}
	if ndigits < -4400 {
		return Int(0)
	}
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-ndigits)), nil)
	q, r := floorDivMod(i, unit)
	twice := new(big.Int).Lsh(r, 1)
	if c := twice.Cmp(unit); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	return BigInt(q.Mul(q, unit))
}

// roundHalfEven is Python's round(float, ndigits): the exact binary value of f rounded
// to ndigits decimal places, ties to even, then the float nearest to that decimal. A
// zero result keeps the sign of f.
func roundHalfEven(f float64, ndigits int) float64 {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f) || f == 0 || ndigits > 330:
		return f
	case ndigits < -330:
		return math.Copysign(0, f)
	}
	x := new(big.Rat).SetFloat64(f)
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs64(int64(ndigits)))), nil))
	if ndigits >= 0 {
		x.Mul(x, scale)
	} else {
		x.Quo(x, scale)
	}
	// x = q + r/den with 0 <= r < den (floor division of the numerator)
	q, r := floorDivMod(x.Num(), x.Denom())
	twice := new(big.Int).Lsh(r, 1)
	if c := twice.Cmp(x.Denom()); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	y := new(big.Rat).SetInt(q)
	if ndigits >= 0 {
		y.Quo(y, scale)
	} else {
		y.Mul(y, scale)
	}
	out, _ := y.Float64()
	if math.IsInf(out, 0) {
		throw(OverflowError, "rounded value too large to represent")
	}
	return math.Copysign(out, f)
}

// FilterSafe is Markup(value).
func FilterSafe(v Value) Value {
	return Markup(v.String())
}

// FilterSlice is slice(value, slices, fill_with=None).
func FilterSlice(v Value, args []Value, kwargs []Kwarg) Value {
	a := sliceFilter.bind(args, kwargs)
	seq := iterate(v)
	slices := intArg(a[0], 0)
	switch {
	case slices == 0:
		throw(ZeroDivision, "integer division or modulo by zero")
	case slices < 0:
		return newIterator(nil, "generator") // range(slices) is empty
	}
	length := len(seq)
	per, extra := length/slices, length%slices
	offset := 0
	var out []Value
	for i := 0; i < slices; i++ {
		start := offset + i*per
		if i < extra {
			offset++
		}
		end := offset + (i+1)*per
		tmp := append([]Value{}, seq[start:end]...)
		if given(a[1]) && a[1].kind() != KindNone && i >= extra {
			tmp = append(tmp, a[1])
		}
		out = append(out, ListOf(tmp))
	}
	return newIterator(out, "generator")
}

// FilterSort is sort(value, reverse=False, case_sensitive=False, attribute=None).
func FilterSort(v Value, args []Value, kwargs []Kwarg) Value {
	a := sortFilter.bind(args, kwargs)
	if given(a[0]) && !a[0].isIntegral() {
		// sorted(..., reverse=reverse) takes an int
		throw(TypeError, "'%s' object cannot be interpreted as an integer", a[0].TypeName())
	}
	items := iterate(v)
	cs := given(a[1]) && a[1].Truthy()
	// make_multi_attrgetter: the key of an item is the list of its attributes ("a,b"
	// sorts by [item.a, item.b]; no attribute by [item]), so keys that are equal (two
	// undefined attributes) are never ordered with <
	getters := []func(Value) Value{func(x Value) Value { return x }}
	if given(a[2]) && a[2].kind() != KindNone {
		getters = getters[:0]
		parts := []Value{a[2]}
		if a[2].kind() == KindString {
			parts = parts[:0]
			for _, part := range strings.Split(a[2].str(), ",") {
				parts = append(parts, Str(part))
			}
		}
		for _, part := range parts {
			getters = append(getters, attrGetter(part, None()))
		}
	}
	keys := make([]Value, len(items))
	for i, it := range items {
		key := make([]Value, len(getters))
		for j, get := range getters {
			key[j] = sortKey(get(it), cs)
		}
		keys[i] = ListOf(key)
	}
	return ListOf(sortByKeys(items, keys, given(a[0]) && a[0].Truthy()))
}

// FilterString is soft_str(value).
func FilterString(v Value) Value {
	return softStr(v)
}

// FilterStriptags is Markup(value).striptags().
func FilterStriptags(v Value) Value {
	return Str(pystr.Striptags(v.String()))
}

// FilterSum is sum(iterable, attribute=None, start=0).
func FilterSum(v Value, args []Value, kwargs []Kwarg) Value {
	a := sumFilter.bind(args, kwargs)
	total := Int(0)
	if given(a[1]) {
		total = a[1]
		if total.kind() == KindString {
			throw(TypeError, "sum() can't sum strings [use ''.join(seq) instead]")
		}
	}
	get := func(x Value) Value { return x }
	if given(a[0]) && a[0].kind() != KindNone {
		get = attrGetter(a[0], None())
	}
	for _, it := range iterate(v) {
		total = Add(total, get(it))
	}
	return total
}

// FilterTitle is Jinja2's title: each word (split at whitespace, -, (, {, [ and <)
// with its first character upper-cased and the rest lowered, as a plain str.
func FilterTitle(v Value) Value {
	s := softStr(v).str()
	var b strings.Builder
	start := true
	for i, r := range s {
		if pystr.IsSpace(r) || strings.ContainsRune("-({[<", r) {
			b.WriteRune(r)
			start = true
			continue
		}
		if start {
			pystr.UpperRune(&b, r)
			start = false
		} else {
			pystr.LowerRune(&b, s, i, r)
		}
	}
	// "".join of the words is a plain str, even for a Markup value
	return Str(b.String())
}

// FilterTojson is transformers' tojson (json.dumps, non-ASCII kept).
func FilterTojson(v Value, args []Value, kwargs []Kwarg) Value {
	return FromTemplate(ToJSON(v, args, kwargs), v) // the JSON of template text is template text
}

// FilterTrim is soft_str(value).strip(chars=None).
func FilterTrim(v Value, args []Value, kwargs []Kwarg) Value {
	if len(args) == 0 && len(kwargs) == 0 { // the commonest call, bare, binds nothing
		return stripSpace(softStr(v), true, true)
	}
	return pyStrip(softStr(v), trimFilter.bind(args, kwargs)[0], "strip", true, true)
}

// FilterTruncate is truncate(s, length=255, killwords=False, end='...', leeway=None).
func FilterTruncate(v Value, args []Value, kwargs []Kwarg) Value {
	a := truncateFilter.bind(args, kwargs)
	end := Str("...")
	if given(a[2]) {
		end = a[2]
	}
	endLen := Len(end)
	length := 255
	if given(a[0]) {
		// assert length >= len(end), f"expected length >= {len(end)}, got {length}"
		if !a[0].isNumber() {
			throw(TypeError, "'>=' not supported between instances of '%s' and 'int'", a[0].TypeName())
		}
		if toFloat(a[0]) < float64(endLen) {
			throw(AssertionError, "expected length >= %d, got %s", endLen, a[0].String())
		}
		length = intArg(a[0], 255) // an index of a slice
	}
	leeway := optInt(a[3], 5)
	if leeway < 0 {
		throw(AssertionError, "expected leeway >= 0, got %d", leeway)
	}
	// Jinja2 does not convert the value to str: a list, dict or undefined value short
	// enough is returned as it is, and len() of a number is a TypeError
	if Len(v) <= length+leeway {
		return v
	}
	if v.kind() == KindDict {
		throw(TypeError, "unhashable type: 'slice'")
	}
	head := v.Slice(None(), Int(int64(length-endLen)), None())
	if given(a[1]) && a[1].Truthy() {
		return Add(head, end)
	}
	if head.kind() != KindString {
		throw(AttributeError, "'%s' object has no attribute 'rsplit'", head.TypeName())
	}
	if i := strings.LastIndexByte(head.str(), ' '); i >= 0 {
		head = sameKind(head, head.str()[:i])
	}
	return Add(head, end)
}

// FilterUnique is unique(value, case_sensitive=False, attribute=None).
func FilterUnique(v Value, args []Value, kwargs []Kwarg) Value {
	a := uniqueFilter.bind(args, kwargs)
	get := func(x Value) Value { return x }
	if given(a[1]) && a[1].kind() != KindNone {
		get = attrGetter(a[1], None())
	}
	cs := given(a[0]) && a[0].Truthy()
	var out, seen []Value
	for _, it := range iterate(v) {
		k := sortKey(get(it), cs)
		checkHashable(k)
		dup := false
		for _, s := range seen {
			if Eq(s, k) {
				dup = true
				break
			}
		}
		if !dup {
			seen = append(seen, k)
			out = append(out, it)
		}
	}
	return newIterator(out, "generator")
}

// FilterUrlencode is urlencode(value) for str values and dicts.
func FilterUrlencode(v Value) Value {
	switch v.kind() {
	case KindDict, KindList, KindTuple, KindIterator, KindLoop:
		// a mapping or an iterable of pairs: a query string, spaces as "+"
		var items []Value
		if v.kind() == KindDict {
			items = dictItems(v.dict()).Items()
		} else {
			items = iterate(v)
		}
		parts := make([]string, len(items))
		for i, it := range items {
			kv := Unpack(it, 2)
			parts[i] = urlQuote(kv[0].String(), true) + "=" + urlQuote(kv[1].String(), true)
		}
		return Str(strings.Join(parts, "&"))
	}
	return Str(urlQuote(v.String(), false))
}

// urlQuote is Jinja2's url_quote: the UTF-8 bytes of s percent-encoded except letters,
// digits and "_.-~" (and "/" outside a query string, where spaces become "+").
func urlQuote(s string, forQS bool) string {
	safe := "_.-~/"
	if forQS {
		safe = "_.-~"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) || strings.IndexByte(safe, c) >= 0):
			b.WriteByte(c)
		case forQS && c == ' ':
			b.WriteByte('+')
		default:
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)|0x100, 16)[1:]))
		}
	}
	return b.String()
}

// FilterWordcount counts the words (runs of \w) in a string.
func FilterWordcount(v Value) Value {
	n, in := 0, false
	for _, r := range softStr(v).str() {
		w := pystr.IsWordRune(r)
		if w && !in {
			n++
		}
		in = w
	}
	return Int(int64(n))
}

// FilterWordwrap is wordwrap(s, width=79, break_long_words=True, wrapstring=None,
// break_on_hyphens=True): every line of s wrapped by Python's textwrap.
func FilterWordwrap(v Value, args []Value, kwargs []Kwarg) Value {
	a := wordwrapFilter.bind(args, kwargs)
	if given(a[0]) && !a[0].isNumber() {
		// TextWrapper checks width <= 0
		throw(TypeError, "'<=' not supported between instances of '%s' and 'int'", a[0].TypeName())
	}
	switch v.kind() {
	case KindUndefined:
		v.undefinedError()
	case KindString:
	default:
		throw(AttributeError, "'%s' object has no attribute 'splitlines'", v.TypeName())
	}
	wrap := "\n"
	if given(a[2]) && a[2].kind() != KindNone {
		wrap = a[2].String()
	}
	tw := &pystr.TextWrapper{
		Width:          optInt(a[0], 79),
		BreakLongWords: !given(a[1]) || a[1].Truthy(),
		HyphenChunks:   !given(a[3]) || (a[3].kind() == KindBool && a[3].num() == 1),
		BreakOnHyphens: !given(a[3]) || a[3].Truthy(),
	}
	s, err := pystr.Wordwrap(v.str(), tw, wrap)
	if err != nil {
		throw(ValueError, "%s", err)
	}
	return Str(s)
}

// noItems raises what Python's value.items() raises for v, which is no dict: the
// UndefinedError of an undefined value, else an AttributeError.
func noItems(v Value) {
	if v.kind() == KindUndefined {
		v.undefinedError()
	}
	throw(AttributeError, "'%s' object has no attribute 'items'", v.TypeName())
}

// FilterXmlattr is xmlattr(d, autospace=True), a plain str of escaped attributes.
func FilterXmlattr(v Value, args []Value, kwargs []Kwarg) Value {
	a := xmlattrFilter.bind(args, kwargs)
	d := v.AsDict()
	if d == nil {
		noItems(v)
	}
	var parts []string
	for i, k := range d.keys() {
		val := d.at(i)
		if val.kind() == KindNone || val.kind() == KindUndefined {
			continue
		}
		if strings.ContainsFunc(k.String(), func(r rune) bool { return r == '/' || r == '>' || r == '=' || (r < 0x80 && pystr.IsSpace(r)) }) {
			throw(ValueError, "Invalid character in attribute name: %s", k.Repr())
		}
		parts = append(parts, pystr.EscapeHTML(k.String())+`="`+escapeUnlessMarkup(val)+`"`)
	}
	s := strings.Join(parts, " ")
	if s != "" && (!given(a[0]) || a[0].Truthy()) {
		s = " " + s
	}
	// the result is Markup only where autoescape is on, which it is not in transformers
	return Str(s)
}

// FilterUrlize is urlize(value, trim_url_limit=None, nofollow=False, target=None,
// rel=None, extra_schemes=None): the escaped text with its URLs and email addresses made
// links, a plain str (transformers does not autoescape).
func FilterUrlize(v Value, args []Value, kwargs []Kwarg) Value {
	a := urlizeFilter.bind(args, kwargs)
	extra := a[4]
	relParts := map[string]bool{"noopener": true} // the urlize.rel policy
	if given(a[3]) && a[3].Truthy() {
		if a[3].kind() != KindString {
			throw(AttributeError, "'%s' object has no attribute 'split'", a[3].TypeName())
		}
		for _, p := range strings.FieldsFunc(a[3].str(), pystr.IsSpace) {
			relParts[p] = true
		}
	}
	if given(a[1]) && a[1].Truthy() {
		relParts["nofollow"] = true
	}
	rel := make([]string, 0, len(relParts))
	for p := range relParts {
		rel = append(rel, p)
	}
	sort.Strings(rel)
	attrs := ` rel="` + pystr.EscapeHTML(strings.Join(rel, " ")) + `"`
	if given(a[2]) && a[2].Truthy() {
		attrs += ` target="` + escapeUnlessMarkup(a[2]) + `"`
	}
	var schemes []string
	if given(extra) && extra.kind() != KindNone {
		for _, s := range iterate(extra) {
			if s.kind() != KindString || !pystr.URLizeScheme.MatchString(s.str()) {
				throw(FilterArgumentError, "%s is not a valid URI scheme prefix.", s.Repr())
			}
			schemes = append(schemes, s.str())
		}
	}
	trim := func(x string) string { return x }
	if given(a[0]) && a[0].kind() != KindNone {
		limit := a[0]
		trim = func(x string) string {
			if Gt(Int(int64(Len(Str(x)))), limit) {
				return Str(x).Slice(None(), limit, None()).str() + "..."
			}
			return x
		}
	}
	text := escapeUnlessMarkup(v)
	var b strings.Builder
	for text != "" {
		// the text in runs of whitespace and of other characters: the words
		r, _ := utf8.DecodeRuneInString(text)
		space := pystr.IsSpace(r)
		end := strings.IndexFunc(text, func(r rune) bool { return pystr.IsSpace(r) != space })
		if end < 0 {
			end = len(text)
		}
		word := text[:end]
		text = text[end:]
		if !space {
			word = pystr.URLizeWord(word, attrs, trim, schemes)
		}
		b.WriteString(word)
	}
	return Str(b.String())
}

// escapeUnlessMarkup is markupsafe.escape(v) as text: Markup stays as it is, any other
// value is converted with str() and escaped.
func escapeUnlessMarkup(v Value) string {
	if v.IsMarkup() {
		return v.str()
	}
	return pystr.EscapeHTML(v.String())
}
