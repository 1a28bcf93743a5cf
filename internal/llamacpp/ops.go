package llamacpp

import (
	"math"
	"strings"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// llama.cpp's arithmetic and ordering (common/jinja/runtime.cpp binary_expression), the
// variants of Sub, Mul, Div, FloorDiv, Mod, Pow, Lt, Le, Gt, Ge and of the + of Add
// for what is not a str:
//
//   - an undefined or none operand is an error;
//   - two numbers (ints or floats, not bools) are computed as doubles (an int a double
//     does not hold exactly is infinite): + - * give an int (the double truncated, the
//     minimum int64 when it is out of range) when both are ints, / a float, % is C's fmod (the sign of
//     the dividend: -7 % 3 is -1 where Python gives 2), and the orderings compare the
//     doubles;
//   - two lists + into one list, two strs + into one str, and a str * an int repeats it;
//   - anything else is llama.cpp's "Unknown operator" error: // and ** always, the
//     ordering of strs, lists or bools, arithmetic on bools, and division by zero gives
//     inf or nan instead of Python's ZeroDivisionError.

// Sub is jinja2.Sub as llama.cpp's -.
func Sub(a, b jinja2.Value) jinja2.Value {
	if x, y, ok := smallInts(a, b); ok {
		return jinja2.Int(x - y) // exact in a double too
	}
	return llamaBinary("-", a, b)
}

// smallInts returns the ints a and b when both are ints of at most 52 bits: llama.cpp
// adds and subtracts ints as doubles, which hold such sums and differences exactly.
func smallInts(a, b jinja2.Value) (x, y int64, ok bool) {
	x, okx := a.UnboxedInt() // a boxed int is wider than 52 bits
	y, oky := b.UnboxedInt()
	const limit = 1 << 52
	return x, y, okx && oky && -limit < x && x < limit && -limit < y && y < limit
}

// Mul is jinja2.Mul as llama.cpp's *.
func Mul(a, b jinja2.Value) jinja2.Value { return llamaBinary("*", a, b) }

// Div is jinja2.Div as llama.cpp's /.
func Div(a, b jinja2.Value) jinja2.Value { return llamaBinary("/", a, b) }

// Mod is jinja2.Mod as llama.cpp's %.
func Mod(a, b jinja2.Value) jinja2.Value { return llamaBinary("%", a, b) }

// FloorDiv is jinja2.FloorDiv in llama.cpp, which has no //.
func FloorDiv(a, b jinja2.Value) jinja2.Value { return llamaBinary("//", a, b) }

// Pow is jinja2.Pow in llama.cpp, which has no **.
func Pow(a, b jinja2.Value) jinja2.Value { return llamaBinary("**", a, b) }

// Lt is jinja2.Lt as llama.cpp's <.
func Lt(a, b jinja2.Value) bool {
	if x, y, ok := smallInts(a, b); ok {
		return x < y // as their doubles compare
	}
	return llamaBinary("<", a, b).Truthy()
}

// Le is jinja2.Le as llama.cpp's <=.
func Le(a, b jinja2.Value) bool {
	if x, y, ok := smallInts(a, b); ok {
		return x <= y // as their doubles compare
	}
	return llamaBinary("<=", a, b).Truthy()
}

// Gt is jinja2.Gt as llama.cpp's >.
func Gt(a, b jinja2.Value) bool {
	if x, y, ok := smallInts(a, b); ok {
		return x > y // as their doubles compare
	}
	return llamaBinary(">", a, b).Truthy()
}

// Ge is jinja2.Ge as llama.cpp's >=.
func Ge(a, b jinja2.Value) bool {
	if x, y, ok := smallInts(a, b); ok {
		return x >= y // as their doubles compare
	}
	return llamaBinary(">=", a, b).Truthy()
}

// llamaBinary is binary_expression for the operators above and + (after Add's
// handling of strs).
func llamaBinary(op string, a, b jinja2.Value) jinja2.Value {
	if isNull(a) || isNull(b) {
		nullOperand(op, a, b)
	}
	if isNumber(a) && isNumber(b) {
		x, y := asDouble(a), asDouble(b)
		isFloat := a.Kind() == jinja2.KindFloat || b.Kind() == jinja2.KindFloat
		number := func(r float64) jinja2.Value {
			if isFloat {
				return jinja2.Float(r)
			}
			return jinja2.Int(llamaTrunc(r))
		}
		switch op {
		case "+":
			return number(x + y)
		case "-":
			return number(x - y)
		case "*":
			return number(x * y)
		case "/":
			return jinja2.Float(x / y)
		case "%":
			return number(llamaFmod(x, y))
		case "<":
			return jinja2.Bool(x < y)
		case "<=":
			return jinja2.Bool(x <= y)
		case ">":
			return jinja2.Bool(x > y)
		case ">=":
			return jinja2.Bool(x >= y)
		}
	}
	switch {
	case op == "+" && a.Kind() == jinja2.KindList && b.Kind() == jinja2.KindList,
		op == "+" && a.Kind() == jinja2.KindString && b.Kind() == jinja2.KindString:
		return jinja2.Add(a, b)
	case op == "*" && a.Kind() == jinja2.KindString && b.Kind() == jinja2.KindInt:
		return llamaRepeat(a.Text(), b)
	case op == "*" && a.Kind() == jinja2.KindInt && b.Kind() == jinja2.KindString:
		return llamaRepeat(b.Text(), a)
	}
	jinja2.Throw(EngineError, "Unknown operator \"%s\" between %s and %s", op, llamaTypeName(a), llamaTypeName(b))
	return jinja2.Value{}
}

// isNumber reports whether v is an int or a float (a bool is neither in llama.cpp).
func isNumber(v jinja2.Value) bool { return v.Kind() == jinja2.KindInt || v.Kind() == jinja2.KindFloat }

// asDouble is a number as the double llama.cpp computes with: an int the double does
// not hold exactly is infinite (value_int_t's val_flt).
func asDouble(v jinja2.Value) float64 {
	if v.Kind() == jinja2.KindFloat {
		return floatOf(v)
	}
	i, ok := v.AsInt()
	if !ok { // beyond 64 bits
		return math.Inf(v.Sign())
	}
	f := float64(i)
	if f >= 0x1p63 || int64(f) != i {
		return math.Inf(int(max(min(i, 1), -1)))
	}
	return f
}

// llamaTrunc is C++'s static_cast<int64_t> of a double on the x86-64 machine the
// references ran on: a value out of range (or nan) gives the minimum int64.
func llamaTrunc(r float64) int64 {
	if math.IsNaN(r) || r >= 0x1p63 || r < -0x1p63 {
		return math.MinInt64
	}
	return int64(r)
}

// llamaRepeat is a str repeated as many times as an int says (none for n <= 0).
func llamaRepeat(s string, n jinja2.Value) jinja2.Value {
	count, ok := n.AsInt()
	if !ok || count <= 0 || s == "" {
		return jinja2.Str("")
	}
	if int64(len(s)) > jinja2.MaxValueSize/count {
		jinja2.CheckSize(jinja2.MaxValueSize + 1)
	}
	return jinja2.Str(strings.Repeat(s, int(count)))
}

// llamaTypeName is the name llama.cpp's engine gives a value's type in its errors.
func llamaTypeName(v jinja2.Value) string {
	switch v.Kind() {
	case jinja2.KindUndefined:
		return "Undefined"
	case jinja2.KindNone:
		return "None"
	case jinja2.KindBool:
		return "Boolean"
	case jinja2.KindInt:
		return "Integer"
	case jinja2.KindFloat:
		return "Float"
	case jinja2.KindString:
		return "String"
	case jinja2.KindList:
		return "Array"
	case jinja2.KindTuple:
		return "Tuple"
	case jinja2.KindCallable:
		return "Function"
	}
	return "Object"
}

// llamaFmod is C's fmod as glibc computes it: where the result is NaN (a zero divisor,
// an infinite dividend, a NaN operand) it is (x*y)/(x*y), whose sign the hardware gives
// (on x86 a new NaN is negative, which llama.cpp prints as -nan), where math.Mod returns
// a positive NaN.
func llamaFmod(x, y float64) float64 {
	if y == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsNaN(y) {
		p := x * y
		return p / p
	}
	return math.Mod(x, y)
}

// floatOf returns a float's value.
func floatOf(v jinja2.Value) float64 {
	f, _ := v.AsFloat()
	return f
}

// Truthy is Value.Truthy as llama.cpp's as_bool: a function and a KwArg have no truth
// value (value_t::as_bool throws "Function is not a bool value"), and a namespace is
// an object, true when it has an attribute.
func Truthy(v jinja2.Value) bool {
	switch k := v.Kind(); {
	case k == jinja2.KindCallable || k == jinja2.KindObject && isKwArg(v):
		noTruthValue(v)
	case k == jinja2.KindNamespace:
		return v.NamespaceAttrs().Len() > 0
	}
	return v.Truthy()
}

// noTruthValue fails as llama.cpp's as_bool of a value without a truth value.
func noTruthValue(v jinja2.Value) {
	name := "Function"
	if isKwArg(v) {
		name = "KwArg"
	}
	jinja2.Throw(EngineError, "%s is not a bool value", name)
}

// Or is jinja2.Or with llama.cpp's truth values (Truthy).
func Or(a jinja2.Value, b func() jinja2.Value) jinja2.Value {
	if Truthy(a) {
		return a
	}
	return b()
}

// And is jinja2.And with llama.cpp's truth values (Truthy).
func And(a jinja2.Value, b func() jinja2.Value) jinja2.Value {
	if !Truthy(a) {
		return a
	}
	return b()
}

// Len is jinja2.Len as llama.cpp's length filter counts: the int FilterLength gives.
func Len(v jinja2.Value) int {
	if n := v.ListLen(); n >= 0 {
		return n // what the list's builtin, Jinja2's, gives
	}
	n, _ := FilterLength(v).AsInt()
	return int(n)
}
