package jinja2

import (
	"math"
	"math/big"
	"sync"
)

// Python's float ** is C's pow(), which glibc rounds correctly (to within 0.52 ULP in the
// worst case it documents), while Go's math.Pow is off by an ULP or more for most
// arguments. floatPow computes x**y with big.Float arithmetic, exactly for small integer
// powers and to powPrec bits otherwise, and rounds the result once.

// powPrec is the precision, in bits, of the logarithm and exponential floatPow takes:
// more than twice a float64's 53, so that the one rounding at the end is the correct one
// but where the exact result is within about 2^-120 of halfway between two floats (glibc
// documents its own worst case as 0.52 ULP).
const powPrec = 160

// maxExactPow is the largest integer exponent floatPow raises to by multiplication,
// without rounding (a 53-bit mantissa to that power has at most 53*64 bits).
const maxExactPow = 64

// floatPow returns x**y rounded to the nearest float64, for finite x and y with a real
// result: x > 0, or x < 0 and y an integer. Other arguments (zeros, infinities, NaNs,
// x = 1 or y = 0) are math.Pow's, whose special cases are C99's, as Python's.
func floatPow(x, y float64) float64 {
	if x == 0 || y == 0 || x == 1 || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return math.Pow(x, y)
	}
	negative := false
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN() // the caller makes it complex
		}
		// an odd integer power keeps the sign
		negative = math.Mod(y, 2) != 0
		x = -x
	}
	var r *big.Float
	if y == math.Trunc(y) && math.Abs(y) <= maxExactPow {
		r = exactPow(x, int(math.Abs(y)))
		if y < 0 {
			r = new(big.Float).SetPrec(powPrec).Quo(big.NewFloat(1), r)
		}
	} else {
		// x**y = exp(y ln x); beyond these bounds the result is 0 or infinite whatever
		// the rounding
		t := bigLog(x)
		t.Mul(t, new(big.Float).SetFloat64(y))
		switch tf, _ := t.Float64(); {
		case tf > 1000:
			r = new(big.Float).SetInf(false)
		case tf < -1100:
			r = new(big.Float)
		default:
			r = bigExp(t)
		}
	}
	f, _ := r.Float64()
	if negative {
		f = -f
	}
	return f
}

// exactPow returns x**n, n ≥ 1, without rounding.
func exactPow(x float64, n int) *big.Float {
	base := new(big.Float).SetFloat64(x)
	r := new(big.Float).SetPrec(uint(53 * n)).SetInt64(1)
	for i := 0; i < n; i++ {
		r.Mul(r, base)
	}
	return r
}

// logTableSize is how many points logTable holds between 1 and 2.
const logTableSize = 64

// powConsts are the constants of bigLog and bigExp, to powPrec+32 bits: ln 2; ln c for
// each c = 1 + i/logTableSize of [1, 2) (logTable); and 1/k for the series' k.
type powConsts struct {
	ln2      *big.Float
	logTable [logTableSize]*big.Float
	inverse  [64]*big.Float
}

// workPrec is the precision of bigLog's and bigExp's intermediate values.
const workPrec = powPrec + 32

var powConstants = sync.OnceValue(func() *powConsts {
	c := &powConsts{}
	for k := range c.inverse {
		if k > 0 {
			c.inverse[k] = new(big.Float).SetPrec(workPrec).Quo(big.NewFloat(1), big.NewFloat(float64(k)))
		}
	}
	// ln 2 = 2 atanh(1/3); ln c = 2 atanh((c-1)/(c+1))
	c.ln2 = c.atanh2(new(big.Float).SetPrec(workPrec).Quo(big.NewFloat(1), big.NewFloat(3)))
	for i := range c.logTable {
		m := 1 + float64(i)/logTableSize
		z := new(big.Float).SetPrec(workPrec).Quo(big.NewFloat(m-1), big.NewFloat(m+1))
		c.logTable[i] = c.atanh2(z)
	}
	return c
})

// atanh2 returns 2 atanh(z) = 2 (z + z^3/3 + z^5/5 + ...) to workPrec bits, for
// |z| ≤ 1/3.
func (c *powConsts) atanh2(z *big.Float) *big.Float {
	z2 := new(big.Float).SetPrec(workPrec).Mul(z, z)
	power := new(big.Float).SetPrec(workPrec).Set(z) // z^k
	sum := new(big.Float).SetPrec(workPrec).Set(z)
	term := new(big.Float).SetPrec(workPrec)
	for k := 3; ; k += 2 {
		power.Mul(power, z2)
		if k < len(c.inverse) {
			term.Mul(power, c.inverse[k])
		} else {
			term.Quo(power, big.NewFloat(float64(k)))
		}
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -workPrec {
			break
		}
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, 1)
}

// bigLog returns ln x for x > 0 to about powPrec bits: x = 2^e c (1+u) with c the point
// of logTable at or below x's mantissa, so ln x = e ln 2 + ln c + 2 atanh(u/(2+u)).
func bigLog(x float64) *big.Float {
	c := powConstants()
	m, e := math.Frexp(x) // m in [1/2, 1)
	m, e = m*2, e-1       // m in [1, 2)
	i := int((m - 1) * logTableSize)
	point := 1 + float64(i)/logTableSize
	// z = (m - point) / (m + point), exactly m and point as floats
	num := new(big.Float).SetPrec(workPrec).Sub(new(big.Float).SetFloat64(m), new(big.Float).SetFloat64(point))
	den := new(big.Float).SetPrec(workPrec).Add(new(big.Float).SetFloat64(m), new(big.Float).SetFloat64(point))
	r := c.atanh2(num.Quo(num, den))
	r.Add(r, c.logTable[i])
	return r.Add(r, new(big.Float).SetPrec(workPrec).Mul(c.ln2, new(big.Float).SetInt64(int64(e))))
}

// expSquarings is how many times bigExp halves its reduced argument before the series,
// and squares the sum after it.
const expSquarings = 8

// bigExp returns e^t to about powPrec bits, for |t| ≤ 1100: t = k ln 2 + r with
// |r| ≤ ln 2 / 2, and e^t = 2^k (e^(r/2^8))^(2^8), the inner power by its Taylor series.
func bigExp(t *big.Float) *big.Float {
	c := powConstants()
	q := new(big.Float).SetPrec(workPrec).Quo(t, c.ln2)
	qf, _ := q.Float64()
	k := math.Round(qf)
	r := new(big.Float).SetPrec(workPrec).Mul(c.ln2, new(big.Float).SetFloat64(k))
	r.Sub(t, r)
	r.SetMantExp(r, -expSquarings)
	sum := new(big.Float).SetPrec(workPrec).SetInt64(1)
	term := new(big.Float).SetPrec(workPrec).SetInt64(1)
	for n := 1; ; n++ {
		term.Mul(term, r)
		term.Mul(term, c.inverse[n])
		if term.Sign() == 0 || term.MantExp(nil) < -workPrec {
			break
		}
		sum.Add(sum, term)
	}
	for range expSquarings {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}
