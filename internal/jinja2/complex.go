package jinja2

import (
	"math"
	"math/big"
	"sync"
)

// complexNum is a Python complex: what ** makes of a negative number to a fractional
// power. Templates print it, compare it, read its parts, negate it, take its abs(), add,
// subtract, multiply and divide it with numbers and complexes, and raise it to an integer
// power, as Python does; a complex to any other power (or a number to a complex one) is
// refused (TypeError), where Python would compute it.
type complexNum struct{ re, im float64 }

// complexPow returns x ** y for x < 0 and y not an integer, as Python's complex pow
// (_Py_c_pow) computes it: |x|**y (glibc's pow), the phase atan2(0, x) * y = π y, and
// the parts |x|**y cos(π y) and |x|**y sin(π y), each operation rounded as in C.
func complexPow(x, y float64) Value {
	length := floatPow(-x, y) // hypot(x, 0) is |x|
	if math.IsInf(length, 0) {
		throw(OverflowError, "(34, 'Numerical result out of range')")
	}
	phase := math.Pi * y // atan2(0, x) is π rounded: math.Pi
	sin, cos := sinCos(phase)
	return complexValue(length*cos, length*sin)
}

func (c *complexNum) typeName() string { return "complex" }

// complexValue returns the complex re + im j.
func complexValue(re, im float64) Value { return objectValue(&complexNum{re, im}) }

// complexOperands returns a and b as complexes when one is a complex and the other a
// complex or a number (an int or bool converted to float as Python does); ok is false
// otherwise.
func complexOperands(a, b Value) (x, y complexNum, ok bool) {
	if a.kind() != KindObject && b.kind() != KindObject {
		return x, y, false
	}
	as := func(v Value) (complexNum, bool) {
		switch {
		case v.kind() == KindObject:
			c, ok := v.object().(*complexNum)
			if ok {
				return *c, true
			}
		case v.isNumber():
			return complexNum{toFloat(v), 0}, true
		}
		return complexNum{}, false
	}
	x, okx := as(a)
	y, oky := as(b)
	return x, y, okx && oky
}

// abs returns |c|, as C's hypot(re, im) rounds it (correctly: sqrt of the exact sum of
// the squares, rounded once).
func (c *complexNum) abs() float64 {
	if math.IsInf(c.re, 0) || math.IsInf(c.im, 0) {
		return math.Inf(1)
	}
	if math.IsNaN(c.re) || math.IsNaN(c.im) {
		return math.NaN()
	}
	re := new(big.Float).SetFloat64(c.re)
	im := new(big.Float).SetFloat64(c.im)
	sum := new(big.Float).SetPrec(2200).Mul(re, re) // squares of float64s are exact in 2200 bits
	sum.Add(sum, new(big.Float).SetPrec(2200).Mul(im, im))
	f, _ := sum.Sqrt(sum).Float64()
	return f
}

// complexIntPow is x ** y for complexes as Python computes an integer power of at most
// 100 (c_powi: binary powering by _Py_c_prod, and 1 / x**-n for a negative one). Other
// powers are refused.
func complexIntPow(a, b Value, x, y complexNum) Value {
	if y.im != 0 || y.re != math.Trunc(y.re) || math.Abs(y.re) > 100 {
		throw(TypeError, "%s ** %s is not supported: of the powers of complexes, tmplgen computes only integer ones up to 100", a.Repr(), b.Repr())
	}
	n := int64(math.Abs(y.re))
	r, p := complexNum{1, 0}, x
	for mask := int64(1); mask > 0 && n >= mask; mask <<= 1 {
		if n&mask != 0 {
			r = complexProd(r, p)
		}
		p = complexProd(p, p)
	}
	if y.re < 0 {
		if r.re == 0 && r.im == 0 {
			throw(ZeroDivision, "0.0 to a negative or complex power")
		}
		return complexQuo(complexNum{1, 0}, r)
	}
	if math.IsInf(r.re, 0) || math.IsInf(r.im, 0) {
		throw(OverflowError, "complex exponentiation")
	}
	return complexValue(r.re, r.im)
}

// complexProd is x * y as Python multiplies complexes (_Py_c_prod), each product rounded
// on its own as C computes it: float64() keeps Go from fusing a multiply and an add.
func complexProd(x, y complexNum) complexNum {
	return complexNum{float64(x.re*y.re) - float64(x.im*y.im), float64(x.re*y.im) + float64(x.im*y.re)}
}

// complexQuo is x / y as Python divides complexes (_Py_c_quot, Smith's method).
func complexQuo(x, y complexNum) Value {
	absRe, absIm := math.Abs(y.re), math.Abs(y.im)
	switch {
	case absRe >= absIm:
		if absRe == 0 {
			throw(ZeroDivision, "complex division by zero")
		}
		ratio := y.im / y.re
		denom := y.re + float64(y.im*ratio) // float64(): a product rounded as in C, not fused
		return complexValue((x.re+float64(x.im*ratio))/denom, (x.im-float64(x.re*ratio))/denom)
	case absIm >= absRe:
		ratio := y.re / y.im
		denom := float64(y.re*ratio) + y.im
		return complexValue((float64(x.re*ratio)+x.im)/denom, (float64(x.im*ratio)-x.re)/denom)
	}
	return complexValue(math.NaN(), math.NaN()) // a part of y is NaN
}

// repr is Python's repr of a complex: "(re+imj)", or "imj" when the real part is +0;
// each part as repr writes a float, without ".0".
func (c *complexNum) repr() string {
	part := func(b []byte, f float64) []byte {
		b = appendFloatRepr(b, f)
		if n := len(b); n >= 2 && b[n-2] == '.' && b[n-1] == '0' {
			b = b[:n-2]
		}
		return b
	}
	if c.re == 0 && !math.Signbit(c.re) {
		return string(append(part(nil, c.im), 'j'))
	}
	b := part([]byte{'('}, c.re)
	if !math.Signbit(c.im) || math.IsNaN(c.im) {
		b = append(b, '+')
	}
	return string(append(part(b, c.im), 'j', ')'))
}

// attr returns the parts: real and imag.
func (c *complexNum) attr(name string) (Value, bool) {
	switch name {
	case "real":
		return Float(c.re), true
	case "imag":
		return Float(c.im), true
	}
	return Value{}, false
}

// callMethod is conjugate().
func (c *complexNum) callMethod(name string, args []Value, kwargs []Kwarg) (Value, bool) {
	if name != "conjugate" {
		return Value{}, false
	}
	noArgs("conjugate", args, kwargs)
	return complexValue(c.re, -c.im), true
}

// sinCos returns sin(a) and cos(a) rounded to the nearest float64, as glibc computes
// them (Go's math.Sin and math.Cos are off by an ULP for many arguments): a is reduced
// by the multiple k of π/2 nearest to it, with π to enough bits for any float64, and
// the sine and cosine of the rest come from their series to powPrec bits.
func sinCos(a float64) (sin, cos float64) {
	if math.IsInf(a, 0) || math.IsNaN(a) {
		return math.NaN(), math.NaN()
	}
	if a == 0 {
		return a, 1
	}
	halfPi := bigHalfPi()
	x := new(big.Float).SetPrec(halfPi.Prec()).SetFloat64(a)
	q := new(big.Float).SetPrec(halfPi.Prec()).Quo(x, halfPi)
	k, _ := q.Int(nil) // toward zero: then the nearest integer
	switch frac, _ := new(big.Float).Sub(q, new(big.Float).SetInt(k)).Float64(); {
	case frac > 0.5:
		k.Add(k, big.NewInt(1))
	case frac < -0.5:
		k.Sub(k, big.NewInt(1))
	}
	r := new(big.Float).SetPrec(halfPi.Prec()).Mul(halfPi, new(big.Float).SetInt(k))
	r.Sub(x, r).SetPrec(workPrec)
	s, c := sinCosSeries(r)
	quadrant := new(big.Int).And(k, big.NewInt(3)).Int64()
	switch quadrant {
	case 1:
		s, c = c, s.Neg(s)
	case 2:
		s, c = s.Neg(s), c.Neg(c)
	case 3:
		s, c = c.Neg(c), s
	}
	sin, _ = s.Float64()
	cos, _ = c.Float64()
	return sin, cos
}

// sinCosSeries returns sin r and cos r for |r| ≤ π/4, to workPrec bits, by their Taylor
// series.
func sinCosSeries(r *big.Float) (*big.Float, *big.Float) {
	inv := powConstants().inverse
	r2 := new(big.Float).SetPrec(workPrec).Mul(r, r)
	sin := new(big.Float).SetPrec(workPrec).Set(r)
	cos := new(big.Float).SetPrec(workPrec).SetInt64(1)
	term := new(big.Float).SetPrec(workPrec).Set(r) // r^n/n!, signed
	for n := 1; n+2 < len(inv); n += 2 {
		term.Mul(term, r2)
		term.Mul(term, inv[n+1])
		term.Mul(term, inv[n+2])
		term.Neg(term)
		if term.Sign() == 0 || term.MantExp(nil)-sin.MantExp(nil) < -workPrec {
			break
		}
		sin.Add(sin, term)
	}
	term.SetInt64(1)
	for n := 0; n+2 < len(inv); n += 2 {
		term.Mul(term, r2)
		term.Mul(term, inv[n+1])
		term.Mul(term, inv[n+2])
		term.Neg(term)
		if term.Sign() == 0 || term.MantExp(nil) < -workPrec {
			break
		}
		cos.Add(cos, term)
	}
	return sin, cos
}

// halfPiPrec is the precision of bigHalfPi: a float64 up to 2^1024 reduced by multiples
// of π/2 keeps workPrec bits.
const halfPiPrec = 1024 + 64 + workPrec

// bigHalfPi returns π/2 to halfPiPrec bits, by Machin's formula
// π/4 = 4 atan(1/5) - atan(1/239).
var bigHalfPi = sync.OnceValue(func() *big.Float {
	atanInv := func(n int64) *big.Float {
		// atan(1/n) = 1/n - 1/(3n^3) + 1/(5n^5) - ...
		x := new(big.Float).SetPrec(halfPiPrec).Quo(big.NewFloat(1), new(big.Float).SetInt64(n))
		x2 := new(big.Float).SetPrec(halfPiPrec).Mul(x, x)
		sum := new(big.Float).SetPrec(halfPiPrec).Set(x)
		power := new(big.Float).SetPrec(halfPiPrec).Set(x)
		term := new(big.Float).SetPrec(halfPiPrec)
		for k := int64(3); ; k += 2 {
			power.Mul(power, x2)
			power.Neg(power)
			term.Quo(power, new(big.Float).SetInt64(k))
			if term.Sign() == 0 || term.MantExp(nil) < -halfPiPrec {
				break
			}
			sum.Add(sum, term)
		}
		return sum
	}
	quarter := new(big.Float).SetPrec(halfPiPrec).Mul(atanInv(5), big.NewFloat(4))
	quarter.Sub(quarter, atanInv(239))
	return quarter.SetMantExp(quarter, 1)
})
