package runtime

import (
	"math"
	"math/big"
	"testing"
)

// TestIntAddSub checks + and - of ints against math/big around the ends of int64, where
// the small-int path must hand over to big ints, and with a big int or a bool operand.
func TestIntAddSub(t *testing.T) {
	edges := []int64{math.MinInt64, math.MinInt64 + 1, -2, -1, 0, 1, 2, math.MaxInt64 - 1, math.MaxInt64}
	values := []Value{Bool(true), BigInt(new(big.Int).Lsh(big.NewInt(1), 70))}
	for _, n := range edges {
		values = append(values, Int(n))
	}
	text := func(v Value) string { return string(appendStr(nil, v)) }
	for _, a := range values {
		for _, b := range values {
			x, y := a.bigInt(), b.bigInt()
			if got, want := text(Add(a, b)), new(big.Int).Add(x, y).String(); got != want {
				t.Errorf("%s + %s = %s, want %s", text(a), text(b), got, want)
			}
			if got, want := text(Sub(a, b)), new(big.Int).Sub(x, y).String(); got != want {
				t.Errorf("%s - %s = %s, want %s", text(a), text(b), got, want)
			}
		}
	}
}
