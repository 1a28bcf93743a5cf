package jinja2

import "github.com/tmplgen/tmplgen/internal/pystr"

// TestFunc is a Jinja2 test: the value, then the test's arguments.
type TestFunc func(v Value, args []Value, kwargs []Kwarg) bool

// Tests are Jinja2's builtin tests, by name: what generated code calls when a test is
// called with arguments its Go function does not take (the error Jinja2 raises), and
// what filters such as select call by name. Generated code calls a test's exported Go
// function (IsName: IsDefined for "defined") directly.
var Tests map[string]TestFunc

func init() {
	Tests = map[string]TestFunc{
		"boolean":     test0("boolean", IsBoolean),
		"callable":    testCallable,
		"defined":     test0("defined", IsDefined),
		"divisibleby": test1("divisibleby", "num", IsDivisibleby),
		"eq":          testOperator("eq", IsEq),
		"equalto":     testOperator("eq", IsEq),
		"==":          testOperator("eq", IsEq),
		"escaped":     test0("escaped", IsEscaped),
		"even":        test0("even", IsEven),
		"false":       test0("false", IsFalse),
		"filter":      testEnv("filter", IsFilter),
		"float":       test0("float", IsFloat),
		"ge":          testOperator("ge", IsGe),
		">=":          testOperator("ge", IsGe),
		"gt":          testOperator("gt", IsGt),
		">":           testOperator("gt", IsGt),
		"greaterthan": testOperator("gt", IsGt),
		"in":          test1("in", "seq", IsIn),
		"integer":     test0("integer", IsInteger),
		"iterable":    test0("iterable", IsIterable),
		"le":          testOperator("le", IsLe),
		"<=":          testOperator("le", IsLe),
		"lower":       test0("lower", IsLower),
		"lt":          testOperator("lt", IsLt),
		"<":           testOperator("lt", IsLt),
		"lessthan":    testOperator("lt", IsLt),
		"mapping":     test0("mapping", IsMapping),
		"ne":          testOperator("ne", IsNe),
		"!=":          testOperator("ne", IsNe),
		"none":        test0("none", IsNone),
		"number":      test0("number", IsNumber),
		"odd":         test0("odd", IsOdd),
		"sameas":      test1("sameas", "other", IsSameas),
		"sequence":    test0("sequence", IsSequence),
		"string":      test0("string", IsString),
		"test":        testEnv("test", IsTest),
		"true":        test0("true", IsTrue),
		"undefined":   test0("undefined", IsUndefined),
		"upper":       test0("upper", IsUpper),
	}
}

// CallTest applies the test of that name; an unknown name is the error Jinja2 raises
// when the test is reached.
func CallTest(name string, v Value, args []Value, kwargs []Kwarg) bool {
	t, ok := Tests[name]
	if !ok {
		throw(RuntimeError, "No test named '%s'.", name) // environment.call_test's words
	}
	return t(v, args, kwargs)
}

// test0 is the TestFunc of the test name, Jinja2's test_name(value).
func test0(name string, f func(Value) bool) TestFunc {
	return testOf(&pyFunc{name: "test_" + name, added: []string{"value"}}, f)
}

// testEnv is test0 of a test that Jinja2 passes the environment, test_name(env, value).
func testEnv(name string, f func(Value) bool) TestFunc {
	return testOf(&pyFunc{name: "test_" + name, added: []string{"env", "value"}}, f)
}

// testOf is the TestFunc of f, a test of the signature sig, which takes no argument.
func testOf(sig *pyFunc, f func(Value) bool) TestFunc {
	return func(v Value, args []Value, kwargs []Kwarg) bool {
		sig.bindNone(args, kwargs)
		return f(v)
	}
}

// test1 is the TestFunc of the test name, Jinja2's test_name(value, param).
func test1(name, param string, f func(v, other Value) bool) TestFunc {
	sig := &pyFunc{name: "test_" + name, added: []string{"value"}, required: 1, params: []string{param}}
	return func(v Value, args []Value, kwargs []Kwarg) bool { return f(v, sig.bind(args, kwargs)[0]) }
}

// testOperator is the TestFunc of a test that is Python's function operator.name(a, b).
func testOperator(name string, f func(v, other Value) bool) TestFunc {
	return func(v Value, args []Value, kwargs []Kwarg) bool {
		if len(kwargs) > 0 {
			throw(TypeError, "_operator.%s() takes no keyword arguments", name)
		}
		expectsArgs(name, 1+len(args), 2, 2)
		return f(v, args[0])
	}
}

// testCallable is the TestFunc of callable, Python's builtin callable(obj).
func testCallable(v Value, args []Value, kwargs []Kwarg) bool {
	if len(kwargs) > 0 {
		throw(TypeError, "callable() takes no keyword arguments")
	}
	if len(args) > 0 {
		throw(TypeError, "callable() takes exactly one argument (%d given)", 1+len(args))
	}
	return IsCallable(v)
}

// IsBoolean is value is True or value is False.
func IsBoolean(v Value) bool {
	return v.kind() == KindBool
}

// IsCallable is callable(value).
func IsCallable(v Value) bool {
	switch v.kind() {
	case KindCallable, KindUndefined, KindLoop:
		return true
	case KindObject:
		_, ok := v.object().(*joiner)
		return ok
	}
	return false
}

// IsDefined is "not undefined".
func IsDefined(v Value) bool {
	return v.kind() != KindUndefined
}

// IsUndefined is isinstance(value, Undefined).
func IsUndefined(v Value) bool {
	return v.kind() == KindUndefined
}

// IsDivisibleby is value % num == 0.
func IsDivisibleby(v, num Value) bool {
	return Eq(Mod(v, num), Int(0))
}

// IsEq is value == other.
func IsEq(v, other Value) bool { return Eq(v, other) }

// IsNe is value != other.
func IsNe(v, other Value) bool { return Ne(v, other) }

// IsGe is value >= other.
func IsGe(v, other Value) bool { return Ge(v, other) }

// IsGt is value > other.
func IsGt(v, other Value) bool { return Gt(v, other) }

// IsLe is value <= other.
func IsLe(v, other Value) bool { return Le(v, other) }

// IsLt is value < other.
func IsLt(v, other Value) bool { return Lt(v, other) }

// IsIn is value in seq.
func IsIn(v, other Value) bool { return In(v, other) }

// IsEscaped reports whether value is Markup.
func IsEscaped(v Value) bool {
	return v.IsMarkup()
}

// IsEven is value % 2 == 0.
func IsEven(v Value) bool {
	return Eq(Mod(v, Int(2)), Int(0))
}

// IsOdd is value % 2 == 1.
func IsOdd(v Value) bool {
	return Eq(Mod(v, Int(2)), Int(1))
}

// IsFalse is value is False.
func IsFalse(v Value) bool {
	return v.kind() == KindBool && v.num() == 0
}

// IsTrue is value is True.
func IsTrue(v Value) bool {
	return v.kind() == KindBool && v.num() != 0
}

// IsFilter reports whether value names a filter.
func IsFilter(v Value) bool {
	checkHashable(v) // value in the dict of filters
	_, ok := Filters[v.str()]
	return v.kind() == KindString && ok
}

// IsTest reports whether value names a test.
func IsTest(v Value) bool {
	checkHashable(v) // value in the dict of tests
	_, ok := Tests[v.str()]
	return v.kind() == KindString && ok
}

// IsFloat is isinstance(value, float).
func IsFloat(v Value) bool {
	return v.kind() == KindFloat
}

// IsInteger is isinstance(value, int) and not a bool.
func IsInteger(v Value) bool {
	return v.kind() == KindInt
}

// IsNumber is isinstance(value, numbers.Number).
func IsNumber(v Value) bool {
	if v.kind() == KindObject {
		_, ok := v.object().(*complexNum)
		return ok
	}
	return v.isNumber()
}

// IsIterable reports whether iter(value) works.
func IsIterable(v Value) bool {
	switch v.kind() {
	case KindList, KindTuple, KindDict, KindString, KindUndefined, KindIterator, KindLoop:
		return true
	}
	_, ok := asBytes(v)
	return ok
}

// IsSequence reports whether value has a length and items (str, bytes, list, tuple,
// dict, and Jinja2's Undefined).
func IsSequence(v Value) bool {
	switch v.kind() {
	case KindList:
		return !isDictView(v)
	case KindTuple, KindDict, KindString, KindUndefined:
		return true
	}
	_, ok := asBytes(v)
	return ok
}

// IsMapping is isinstance(value, Mapping).
func IsMapping(v Value) bool {
	return v.kind() == KindDict
}

// IsNone is value is None.
func IsNone(v Value) bool {
	return v.kind() == KindNone
}

// IsString is isinstance(value, str).
func IsString(v Value) bool {
	return v.kind() == KindString
}

// IsLower is str(value).islower().
func IsLower(v Value) bool {
	return pystr.IsLower(v.String())
}

// IsUpper is str(value).isupper().
func IsUpper(v Value) bool {
	return pystr.IsUpper(v.String())
}

// IsSameas is value is other: identity, as CPython has it for the values templates
// compare (None, bools, small ints, shared containers).
func IsSameas(v, o Value) bool {
	if v.kind() != o.kind() {
		return false
	}
	switch v.kind() {
	case KindNone, KindUndefined:
		return v.kind() == KindNone
	case KindBool:
		return v.num() == o.num()
	case KindInt:
		return v.ptr == nil && o.ptr == nil && v.num() == o.num() && v.num() >= -5 && v.num() <= 256
	case KindString:
		return v.str() == o.str() && len(v.str()) <= 1
	case KindFloat:
		return false
	}
	return v.ptr == o.ptr
}
