package jinja2

import (
	"math"
	"math/big"
	"testing"
)

// intEdges are the ints around the ends of the ints a Value keeps in its word (intBits)
// and of int64, where the small-int paths hand over to boxed ints, with a big int and a
// bool.
func intEdges() []Value {
	const top = 1 << (intBits - 1)
	edges := []int64{math.MinInt64, math.MinInt64 + 1, -top - 1, -top, -top + 1, -2, -1, 0, 1, 2,
		top - 1, top, top + 1, math.MaxInt64 - 1, math.MaxInt64}
	values := []Value{Bool(true), BigInt(new(big.Int).Lsh(big.NewInt(1), 70))}
	for _, n := range edges {
		values = append(values, Int(n), BigInt(big.NewInt(n)))
	}
	return values
}

// TestIntArith checks + - * // % and unary - of ints against math/big at intEdges.
func TestIntArith(t *testing.T) {
	values := intEdges()
	text := func(v Value) string { return string(appendStr(nil, v)) }
	for _, a := range values {
		x := a.bigInt()
		if got, want := text(Neg(a)), new(big.Int).Neg(x).String(); got != want {
			t.Errorf("-%s = %s, want %s", text(a), got, want)
		}
		for _, b := range values {
			y := b.bigInt()
			if got, want := text(Add(a, b)), new(big.Int).Add(x, y).String(); got != want {
				t.Errorf("%s + %s = %s, want %s", text(a), text(b), got, want)
			}
			if got, want := text(Sub(a, b)), new(big.Int).Sub(x, y).String(); got != want {
				t.Errorf("%s - %s = %s, want %s", text(a), text(b), got, want)
			}
			if got, want := text(Mul(a, b)), new(big.Int).Mul(x, y).String(); got != want {
				t.Errorf("%s * %s = %s, want %s", text(a), text(b), got, want)
			}
			if y.Sign() == 0 {
				continue
			}
			// Python's // and % round towards minus infinity: math/big's Div and Mod
			// (Euclidean) agree with them for a positive divisor only.
			q, m := new(big.Int).DivMod(x, y, new(big.Int))
			if y.Sign() < 0 && m.Sign() != 0 {
				q.Sub(q, big.NewInt(1))
				m.Add(m, y)
			}
			if got, want := text(FloorDiv(a, b)), q.String(); got != want {
				t.Errorf("%s // %s = %s, want %s", text(a), text(b), got, want)
			}
			if got, want := text(Mod(a, b)), m.String(); got != want {
				t.Errorf("%s %% %s = %s, want %s", text(a), text(b), got, want)
			}
		}
	}
}

// TestIntCompare checks == and < of ints against math/big at intEdges, and that AsInt
// gives every int that fits in 64 bits, however it is kept.
func TestIntCompare(t *testing.T) {
	values := intEdges()
	text := func(v Value) string { return string(appendStr(nil, v)) }
	for _, a := range values {
		x := a.bigInt()
		n, ok := a.AsInt()
		if want := x.IsInt64(); ok != want || ok && n != x.Int64() {
			t.Errorf("AsInt(%s) = %d, %v; want %v", text(a), n, ok, want)
		}
		for _, b := range values {
			c := x.Cmp(b.bigInt())
			if got := Eq(a, b); got != (c == 0) {
				t.Errorf("%s == %s is %v", text(a), text(b), got)
			}
			if got := Lt(a, b); got != (c < 0) {
				t.Errorf("%s < %s is %v", text(a), text(b), got)
			}
		}
	}
}
