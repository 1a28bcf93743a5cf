package codegen

import "strings"

// The runtime functions generated code calls for the tests and filters a template names:
// a test or filter called with the arguments its Go function takes is a direct call to
// it (runtime.IsDefined(x), runtime.FilterLength(x)); one called otherwise goes through
// runtime.CallTest or runtime.CallFilter, whose table raises Jinja2's error for the
// arguments. TestDirectFuncs checks these tables against the runtime's.

// A direct is the Go function of a test or filter and the positional arguments it takes
// besides the value; args -1 is a filter that takes the generic arguments (v, args,
// kwargs).
type direct struct {
	fn   string
	args int
}

// directTests are the tests by every name Jinja2 gives them.
var directTests = map[string]direct{
	"boolean":     {"IsBoolean", 0},
	"callable":    {"IsCallable", 0},
	"defined":     {"IsDefined", 0},
	"divisibleby": {"IsDivisibleby", 1},
	"eq":          {"IsEq", 1},
	"equalto":     {"IsEq", 1},
	"==":          {"IsEq", 1},
	"escaped":     {"IsEscaped", 0},
	"even":        {"IsEven", 0},
	"false":       {"IsFalse", 0},
	"filter":      {"IsFilter", 0},
	"float":       {"IsFloat", 0},
	"ge":          {"IsGe", 1},
	">=":          {"IsGe", 1},
	"gt":          {"IsGt", 1},
	">":           {"IsGt", 1},
	"greaterthan": {"IsGt", 1},
	"in":          {"IsIn", 1},
	"integer":     {"IsInteger", 0},
	"iterable":    {"IsIterable", 0},
	"le":          {"IsLe", 1},
	"<=":          {"IsLe", 1},
	"lower":       {"IsLower", 0},
	"lt":          {"IsLt", 1},
	"<":           {"IsLt", 1},
	"lessthan":    {"IsLt", 1},
	"mapping":     {"IsMapping", 0},
	"ne":          {"IsNe", 1},
	"!=":          {"IsNe", 1},
	"none":        {"IsNone", 0},
	"number":      {"IsNumber", 0},
	"odd":         {"IsOdd", 0},
	"sameas":      {"IsSameas", 1},
	"sequence":    {"IsSequence", 0},
	"string":      {"IsString", 0},
	"test":        {"IsTest", 0},
	"true":        {"IsTrue", 0},
	"undefined":   {"IsUndefined", 0},
	"upper":       {"IsUpper", 0},
}

// directFilters are the filters by every name Jinja2 gives them.
var directFilters = map[string]direct{
	"abs":            {"FilterAbs", 0},
	"attr":           {"FilterAttr", -1},
	"batch":          {"FilterBatch", -1},
	"capitalize":     {"FilterCapitalize", 0},
	"center":         {"FilterCenter", -1},
	"count":          {"FilterLength", 0},
	"d":              {"FilterDefault", -1},
	"default":        {"FilterDefault", -1},
	"dictsort":       {"FilterDictsort", -1},
	"e":              {"FilterEscape", 0},
	"escape":         {"FilterEscape", 0},
	"filesizeformat": {"FilterFilesizeformat", -1},
	"first":          {"FilterFirst", 0},
	"float":          {"FilterFloat", -1},
	"forceescape":    {"FilterForceescape", 0},
	"format":         {"FilterFormat", -1},
	"groupby":        {"FilterGroupby", -1},
	"indent":         {"FilterIndent", -1},
	"int":            {"FilterInt", -1},
	"items":          {"FilterItems", 0},
	"join":           {"FilterJoin", -1},
	"last":           {"FilterLast", 0},
	"length":         {"FilterLength", 0},
	"list":           {"FilterList", 0},
	"lower":          {"FilterLower", 0},
	"map":            {"FilterMap", -1},
	"max":            {"FilterMax", -1},
	"min":            {"FilterMin", -1},
	"pprint":         {"FilterPprint", 0},
	"reject":         {"FilterReject", -1},
	"rejectattr":     {"FilterRejectattr", -1},
	"replace":        {"FilterReplace", -1},
	"random":         {"FilterRandom", 0},
	"reverse":        {"FilterReverse", 0},
	"round":          {"FilterRound", -1},
	"safe":           {"FilterSafe", 0},
	"select":         {"FilterSelect", -1},
	"selectattr":     {"FilterSelectattr", -1},
	"slice":          {"FilterSlice", -1},
	"sort":           {"FilterSort", -1},
	"string":         {"FilterString", 0},
	"striptags":      {"FilterStriptags", 0},
	"sum":            {"FilterSum", -1},
	"title":          {"FilterTitle", 0},
	"tojson":         {"FilterTojson", -1},
	"trim":           {"FilterTrim", -1},
	"truncate":       {"FilterTruncate", -1},
	"unique":         {"FilterUnique", -1},
	"upper":          {"FilterUpper", 0},
	"urlencode":      {"FilterUrlencode", 0},
	"urlize":         {"FilterUrlize", -1},
	"wordcount":      {"FilterWordcount", 0},
	"wordwrap":       {"FilterWordwrap", -1},
	"xmlattr":        {"FilterXmlattr", -1},
}

// directMethods are the methods with Go functions of their own, by name and by the
// number of positional arguments of the call.
var directMethods = map[string]map[int]string{
	"get":        {1: "MethodGet", 2: "MethodGetDefault"},
	"strip":      {0: "MethodStrip", 1: "MethodStripChars"},
	"lstrip":     {0: "MethodLstrip", 1: "MethodLstripChars"},
	"rstrip":     {0: "MethodRstrip", 1: "MethodRstripChars"},
	"split":      {0: "MethodSplit", 1: "MethodSplitSep"},
	"startswith": {1: "MethodStartswith"},
	"endswith":   {1: "MethodEndswith"},
	"replace":    {2: "MethodReplace"},
}

// llamaDirect reports whether name is the name package llamacpp's function fn applies
// (internal/llamacpp/direct.go): the name fn is named after, such as "length" for FilterLength,
// and not another name Jinja2 gives the same test or filter ("count"), which llama.cpp
// may not have.
func llamaDirect(name, fn string) bool {
	return strings.EqualFold(name, strings.TrimPrefix(strings.TrimPrefix(fn, "Is"), "Filter"))
}
