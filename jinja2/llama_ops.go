package jinja2

import (
	"math"
	"strings"
)

// llama.cpp's arithmetic and ordering (common/jinja/runtime.cpp binary_expression), the
// variants of Sub, Mul, Div, FloorDiv, Mod, Pow, Lt, Le, Gt, Ge and of the + of LlamaAdd
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

// LlamaSub is Sub as llama.cpp's -.
func LlamaSub(a, b Value) Value { return llamaBinary("-", a, b) }

// LlamaMul is Mul as llama.cpp's *.
func LlamaMul(a, b Value) Value { return llamaBinary("*", a, b) }

// LlamaDiv is Div as llama.cpp's /.
func LlamaDiv(a, b Value) Value { return llamaBinary("/", a, b) }

// LlamaMod is Mod as llama.cpp's %.
func LlamaMod(a, b Value) Value { return llamaBinary("%", a, b) }

// LlamaFloorDiv is FloorDiv in llama.cpp, which has no //.
func LlamaFloorDiv(a, b Value) Value { return llamaBinary("//", a, b) }

// LlamaPow is Pow in llama.cpp, which has no **.
func LlamaPow(a, b Value) Value { return llamaBinary("**", a, b) }

// LlamaLt is Lt as llama.cpp's <.
func LlamaLt(a, b Value) bool { return llamaBinary("<", a, b).Truthy() }

// LlamaLe is Le as llama.cpp's <=.
func LlamaLe(a, b Value) bool { return llamaBinary("<=", a, b).Truthy() }

// LlamaGt is Gt as llama.cpp's >.
func LlamaGt(a, b Value) bool { return llamaBinary(">", a, b).Truthy() }

// LlamaGe is Ge as llama.cpp's >=.
func LlamaGe(a, b Value) bool { return llamaBinary(">=", a, b).Truthy() }

// llamaBinary is binary_expression for the operators above and + (after LlamaAdd's
// handling of strs).
func llamaBinary(op string, a, b Value) Value {
	if isNull(a) || isNull(b) {
		nullOperand(op, a, b)
	}
	if isNumber(a) && isNumber(b) {
		x, y := asDouble(a), asDouble(b)
		isFloat := a.kind() == KindFloat || b.kind() == KindFloat
		number := func(r float64) Value {
			if isFloat {
				return Float(r)
			}
			return Int(llamaTrunc(r))
		}
		switch op {
		case "+":
			return number(x + y)
		case "-":
			return number(x - y)
		case "*":
			return number(x * y)
		case "/":
			return Float(x / y)
		case "%":
			return number(llamaFmod(x, y))
		case "<":
			return Bool(x < y)
		case "<=":
			return Bool(x <= y)
		case ">":
			return Bool(x > y)
		case ">=":
			return Bool(x >= y)
		}
	}
	switch {
	case op == "+" && a.kind() == KindList && b.kind() == KindList,
		op == "+" && a.kind() == KindString && b.kind() == KindString:
		return Add(a, b)
	case op == "*" && a.kind() == KindString && b.kind() == KindInt:
		return llamaRepeat(a.str(), b)
	case op == "*" && a.kind() == KindInt && b.kind() == KindString:
		return llamaRepeat(b.str(), a)
	}
	throw(EngineError, "Unknown operator \"%s\" between %s and %s", op, llamaTypeName(a), llamaTypeName(b))
	return Value{}
}

// isNumber reports whether v is an int or a float (a bool is neither in llama.cpp).
func isNumber(v Value) bool { return v.kind() == KindInt || v.kind() == KindFloat }

// asDouble is a number as the double llama.cpp computes with: an int the double does
// not hold exactly is infinite (value_int_t's val_flt).
func asDouble(v Value) float64 {
	if v.kind() == KindFloat {
		return v.float()
	}
	i, ok := v.AsInt()
	if !ok { // beyond 64 bits
		return math.Inf(v.bigInt().Sign())
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
func llamaRepeat(s string, n Value) Value {
	count, ok := n.AsInt()
	if !ok || count <= 0 || s == "" {
		return Str("")
	}
	if int64(len(s)) > MaxValueSize/count {
		checkSize(MaxValueSize + 1)
	}
	return Str(strings.Repeat(s, int(count)))
}

// llamaTypeName is the name llama.cpp's engine gives a value's type in its errors.
func llamaTypeName(v Value) string {
	switch v.kind() {
	case KindUndefined:
		return "Undefined"
	case KindNone:
		return "None"
	case KindBool:
		return "Boolean"
	case KindInt:
		return "Integer"
	case KindFloat:
		return "Float"
	case KindString:
		return "String"
	case KindList:
		return "Array"
	case KindTuple:
		return "Tuple"
	case KindCallable:
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
