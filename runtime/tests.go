package runtime

// TestFunc is a Jinja2 test: the value, then the test's arguments.
type TestFunc func(v Value, args []Value, kwargs []Kwarg) bool

// Tests are Jinja2's builtin tests, by name. Generated code calls each through its
// exported Go function, IsName (IsDefined for "defined").
var Tests map[string]TestFunc

func init() {
	Tests = map[string]TestFunc{
		"boolean": IsBoolean, "callable": IsCallable, "defined": IsDefined, "divisibleby": IsDivisibleby,
		"eq": IsEq, "equalto": IsEq, "==": IsEq, "escaped": IsEscaped, "even": IsEven, "false": IsFalse,
		"filter": IsFilter, "float": IsFloat, "ge": IsGe, ">=": IsGe, "gt": IsGt, ">": IsGt,
		"greaterthan": IsGt, "in": IsIn, "integer": IsInteger, "iterable": IsIterable, "le": IsLe,
		"<=": IsLe, "lower": IsLower, "lt": IsLt, "<": IsLt, "lessthan": IsLt, "mapping": IsMapping,
		"ne": IsNe, "!=": IsNe, "none": IsNone, "number": IsNumber, "odd": IsOdd, "sameas": IsSameas,
		"sequence": IsSequence, "string": IsString, "test": IsTest, "true": IsTrue,
		"undefined": IsUndefined, "upper": IsUpper,
	}
}

// CallTest applies the test of that name; an unknown name is the error Jinja2 raises
// when the test is reached.
func CallTest(name string, v Value, args []Value, kwargs []Kwarg) bool {
	t, ok := Tests[name]
	if !ok {
		throw(RuntimeError, "No test named '%s' found.", name)
	}
	return t(v, args, kwargs)
}

func oneArg(name string, args []Value, kwargs []Kwarg) Value {
	a := bindArgs(name, args, kwargs, "other")
	if !given(a[0]) {
		throw(TypeError, "%s() missing 1 required positional argument", name)
	}
	return a[0]
}

// IsBoolean is value is True or value is False.
func IsBoolean(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("boolean", args, kwargs)
	return v.kind == KindBool
}

// IsCallable is callable(value).
func IsCallable(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("callable", args, kwargs)
	switch v.kind {
	case KindCallable, KindUndefined, KindLoop:
		return true
	case KindObject:
		_, ok := v.object().(*joiner)
		return ok
	}
	return false
}

// IsDefined is "not undefined".
func IsDefined(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("defined", args, kwargs)
	return v.kind != KindUndefined
}

// IsUndefined is isinstance(value, Undefined).
func IsUndefined(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("undefined", args, kwargs)
	return v.kind == KindUndefined
}

// IsDivisibleby is value % num == 0.
func IsDivisibleby(v Value, args []Value, kwargs []Kwarg) bool {
	return Eq(Mod(v, oneArg("divisibleby", args, kwargs)), Int(0))
}

// IsEq is value == other.
func IsEq(v Value, args []Value, kwargs []Kwarg) bool { return Eq(v, oneArg("eq", args, kwargs)) }

// IsNe is value != other.
func IsNe(v Value, args []Value, kwargs []Kwarg) bool { return Ne(v, oneArg("ne", args, kwargs)) }

// IsGe is value >= other.
func IsGe(v Value, args []Value, kwargs []Kwarg) bool { return Ge(v, oneArg("ge", args, kwargs)) }

// IsGt is value > other.
func IsGt(v Value, args []Value, kwargs []Kwarg) bool { return Gt(v, oneArg("gt", args, kwargs)) }

// IsLe is value <= other.
func IsLe(v Value, args []Value, kwargs []Kwarg) bool { return Le(v, oneArg("le", args, kwargs)) }

// IsLt is value < other.
func IsLt(v Value, args []Value, kwargs []Kwarg) bool { return Lt(v, oneArg("lt", args, kwargs)) }

// IsIn is value in seq.
func IsIn(v Value, args []Value, kwargs []Kwarg) bool { return In(v, oneArg("in", args, kwargs)) }

// IsEscaped reports whether value is Markup.
func IsEscaped(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("escaped", args, kwargs)
	return v.IsMarkup()
}

// IsEven is value % 2 == 0.
func IsEven(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("even", args, kwargs)
	return Eq(Mod(v, Int(2)), Int(0))
}

// IsOdd is value % 2 == 1.
func IsOdd(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("odd", args, kwargs)
	return Eq(Mod(v, Int(2)), Int(1))
}

// IsFalse is value is False.
func IsFalse(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("false", args, kwargs)
	return v.kind == KindBool && v.n == 0
}

// IsTrue is value is True.
func IsTrue(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("true", args, kwargs)
	return v.kind == KindBool && v.n != 0
}

// IsFilter reports whether value names a filter.
func IsFilter(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("filter", args, kwargs)
	checkHashable(v) // value in the dict of filters
	_, ok := Filters[v.str()]
	return v.kind == KindString && ok
}

// IsTest reports whether value names a test.
func IsTest(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("test", args, kwargs)
	checkHashable(v) // value in the dict of tests
	_, ok := Tests[v.str()]
	return v.kind == KindString && ok
}

// IsFloat is isinstance(value, float).
func IsFloat(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("float", args, kwargs)
	return v.kind == KindFloat
}

// IsInteger is isinstance(value, int) and not a bool.
func IsInteger(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("integer", args, kwargs)
	return v.kind == KindInt
}

// IsNumber is isinstance(value, numbers.Number).
func IsNumber(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("number", args, kwargs)
	return v.isNumber()
}

// IsIterable reports whether iter(value) works.
func IsIterable(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("iterable", args, kwargs)
	switch v.kind {
	case KindList, KindTuple, KindDict, KindString, KindUndefined, KindIterator, KindLoop:
		return true
	}
	return false
}

// IsSequence reports whether value has a length and items (str, list, tuple, dict, and
// Jinja2's Undefined).
func IsSequence(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("sequence", args, kwargs)
	switch v.kind {
	case KindList:
		return !isDictView(v)
	case KindTuple, KindDict, KindString, KindUndefined:
		return true
	}
	return false
}

// IsMapping is isinstance(value, Mapping).
func IsMapping(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("mapping", args, kwargs)
	return v.kind == KindDict
}

// IsNone is value is None.
func IsNone(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("none", args, kwargs)
	return v.kind == KindNone
}

// IsString is isinstance(value, str).
func IsString(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("string", args, kwargs)
	return v.kind == KindString
}

// IsLower is str(value).islower().
func IsLower(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("lower", args, kwargs)
	return isLowerStr(v.String())
}

// IsUpper is str(value).isupper().
func IsUpper(v Value, args []Value, kwargs []Kwarg) bool {
	noArgs("upper", args, kwargs)
	return isUpperStr(v.String())
}

// IsSameas is value is other: identity, as CPython has it for the values templates
// compare (None, bools, small ints, shared containers).
func IsSameas(v Value, args []Value, kwargs []Kwarg) bool {
	o := oneArg("sameas", args, kwargs)
	if v.kind != o.kind {
		return false
	}
	switch v.kind {
	case KindNone, KindUndefined:
		return v.kind == KindNone
	case KindBool:
		return v.n == o.n
	case KindInt:
		return v.ptr == nil && o.ptr == nil && v.n == o.n && v.n >= -5 && v.n <= 256
	case KindString:
		return v.str() == o.str() && len(v.str()) <= 1
	case KindFloat:
		return false
	}
	return v.ptr == o.ptr
}
