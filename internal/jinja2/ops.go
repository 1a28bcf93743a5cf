package jinja2

import (
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// MaxValueSize bounds the length of a str, list or int (in decimal digits) that an
// operator may build, so that "x" * 10**9 or 10**10**9 fail fast instead of exhausting
// memory.
const MaxValueSize = 64 << 20

// MaxListItems bounds the items of a list or tuple that an operator, a method or a loop
// over a str may build: as many as fill MaxValueSize bytes (a Value is 16 bytes), so
// that [x] * 10**7, a list doubled in a loop or the chars of a long str fail before
// they take gigabytes.
const MaxListItems = MaxValueSize / 16

// checkUndefined raises the UndefinedError of an undefined operand.
func checkUndefined(a, b Value) {
	if a.kind() == KindUndefined {
		a.undefinedError()
	}
	if b.kind() == KindUndefined {
		b.undefinedError()
	}
}

func unsupported(op string, a, b Value) {
	throw(TypeError, "unsupported operand type(s) for %s: '%s' and '%s'", op, a.TypeName(), b.TypeName())
}

// Add is Python's a + b.
func Add(a, b Value) Value {
	if a.kind() == KindInt && b.kind() == KindInt {
		return addInt(a, b) // the commonest sum, before the general checks
	}
	checkUndefined(a, b)
	switch {
	case a.isNumber() && b.isNumber():
		if a.kind() != KindFloat && b.kind() != KindFloat {
			return addInt(a, b)
		}
		return Float(toFloat(a) + toFloat(b))
	case a.kind() == KindString:
		if b.kind() != KindString {
			if a.IsMarkup() {
				unsupported("+", a, b) // Markup.__add__ gives NotImplemented
			}
			throw(TypeError, "can only concatenate str (not \"%s\") to str", b.TypeName())
		}
		if a.IsMarkup() || b.IsMarkup() {
			return markupSum(a, b)
		}
		return concatStrs(a, []Value{b}, len(b.str()))
	case isSequence(a):
		if b.kind() != a.kind() || !isSequence(b) {
			throw(TypeError, "can only concatenate %s (not \"%s\") to %s", a.TypeName(), b.TypeName(), a.TypeName())
		}
		x, y := a.list().items(), b.list().items()
		checkItems(len(x) + len(y))
		items := make([]Value, 0, len(x)+len(y))
		items = append(append(items, x...), y...)
		return listValue(a.kind(), newListStorage(items))
	}
	if x, y, ok := complexOperands(a, b); ok {
		return complexValue(x.re+y.re, x.im+y.im)
	}
	unsupported("+", a, b)
	return Value{}
}

// Sum is xs[0] + xs[1] + ... as Python evaluates it, left to right; a run of plain strs
// is joined at once rather than copied again at each +.
func Sum(xs ...Value) Value {
	acc := xs[0]
	for i := 1; i < len(xs); {
		if !plainStr(acc) || !plainStr(xs[i]) {
			acc = Add(acc, xs[i])
			i++
			continue
		}
		j, more := i, 0
		for ; j < len(xs) && plainStr(xs[j]); j++ {
			more += len(xs[j].str())
		}
		acc, i = concatStrs(acc, xs[i:j], more), j
	}
	return acc
}

// plainStr reports whether v is a str that is not Markup.
func plainStr(v Value) bool { return v.kind() == KindString && v.strFlags()&flagMarkup == 0 }

func checkSize(n int) {
	if n > MaxValueSize {
		throw(LimitError, "value of %d items or bytes exceeds the limit of %d", n, MaxValueSize)
	}
}

// checkItems raises a LimitError for a list of more than MaxListItems items.
func checkItems(n int) {
	if n > MaxListItems {
		throw(LimitError, "a list of %d items exceeds the limit of %d", n, MaxListItems)
	}
}

func addInt(a, b Value) Value {
	if a.ptr == nil && b.ptr == nil {
		if s, overflow := addOverflows(a.num(), b.num()); !overflow {
			return Int(s)
		}
	}
	return BigInt(new(big.Int).Add(a.bigInt(), b.bigInt()))
}

func addOverflows(x, y int64) (int64, bool) {
	s := x + y
	return s, (x >= 0) == (y >= 0) && (s >= 0) != (x >= 0)
}

// Sub is Python's a - b.
func Sub(a, b Value) Value {
	if a.kind() == KindInt && b.kind() == KindInt {
		return subInt(a, b) // the commonest difference, before the general checks
	}
	checkUndefined(a, b)
	if !a.isNumber() || !b.isNumber() {
		if x, y, ok := complexOperands(a, b); ok {
			return complexValue(x.re-y.re, x.im-y.im)
		}
		unsupported("-", a, b)
	}
	if a.kind() != KindFloat && b.kind() != KindFloat {
		return subInt(a, b)
	}
	return Float(toFloat(a) - toFloat(b))
}

func subInt(a, b Value) Value {
	if a.ptr == nil && b.ptr == nil {
		if d, overflow := subOverflows(a.num(), b.num()); !overflow {
			return Int(d)
		}
	}
	return BigInt(new(big.Int).Sub(a.bigInt(), b.bigInt()))
}

func subOverflows(x, y int64) (int64, bool) {
	d := x - y
	return d, (x >= 0) != (y >= 0) && (d >= 0) != (x >= 0)
}

// Mul is Python's a * b, including str and list repetition.
func Mul(a, b Value) Value {
	checkUndefined(a, b)
	switch {
	case a.isNumber() && b.isNumber():
		if a.kind() != KindFloat && b.kind() != KindFloat {
			if a.ptr == nil && b.ptr == nil {
				hi, lo := bits.Mul64(uint64(abs64(a.num())), uint64(abs64(b.num())))
				if hi == 0 && lo <= math.MaxInt64 && a.num() != math.MinInt64 && b.num() != math.MinInt64 {
					p := int64(lo)
					if (a.num() < 0) != (b.num() < 0) {
						p = -p
					}
					return Int(p)
				}
			}
			return BigInt(new(big.Int).Mul(a.bigInt(), b.bigInt()))
		}
		return Float(toFloat(a) * toFloat(b))
	case isSequence(a) && b.isNumber():
		return repeat(a, b)
	case isSequence(b) && a.isNumber():
		return repeat(b, a)
	case isSequence(a) || isSequence(b):
		other := b
		if !isSequence(a) {
			other = a
		}
		throw(TypeError, "can't multiply sequence by non-int of type '%s'", other.TypeName())
	}
	if x, y, ok := complexOperands(a, b); ok {
		p := complexProd(x, y)
		return complexValue(p.re, p.im)
	}
	unsupported("*", a, b)
	return Value{}
}

// isSequence reports whether v is a str, list or tuple: what + concatenates and *
// repeats (a range or a dict view is neither).
func isSequence(v Value) bool {
	return v.kind() == KindString || (v.kind() == KindList && v.list().name == "") || v.kind() == KindTuple
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// repeat is seq * n.
func repeat(seq, n Value) Value {
	if n.kind() == KindFloat {
		throw(TypeError, "can't multiply sequence by non-int of type 'float'")
	}
	count, ok := n.AsInt()
	if !ok && n.bigInt().Sign() > 0 {
		throw(OverflowError, "cannot fit 'int' into an index-sized integer")
	}
	count = max(count, 0)
	if seq.kind() == KindString {
		if count > 0 && int64(len(seq.str())) > MaxValueSize/count {
			checkSize(MaxValueSize + 1)
		}
		s := strings.Repeat(seq.str(), int(count))
		if seq.IsMarkup() {
			return Markup(s)
		}
		return Str(s)
	}
	items := seq.list().items()
	if count > 0 && int64(len(items)) > MaxListItems/count {
		checkItems(MaxListItems + 1)
	}
	out := make([]Value, 0, len(items)*int(count))
	for i := int64(0); i < count; i++ {
		out = append(out, items...)
	}
	return listValue(seq.kind(), newListStorage(out))
}

// toFloat converts a number to float, raising OverflowError for huge ints.
func toFloat(v Value) float64 {
	switch v.kind() {
	case KindFloat:
		return v.float()
	case KindInt:
		if b := v.big(); b != nil {
			f, _ := new(big.Float).SetInt(b).Float64()
			if math.IsInf(f, 0) {
				throw(OverflowError, "int too large to convert to float")
			}
			return f
		}
	}
	return float64(v.num())
}

// Div is Python's true division a / b.
func Div(a, b Value) Value {
	checkUndefined(a, b)
	if !a.isNumber() || !b.isNumber() {
		if x, y, ok := complexOperands(a, b); ok {
			return complexQuo(x, y)
		}
		unsupported("/", a, b)
	}
	if a.kind() != KindFloat && b.kind() != KindFloat {
		if b.bigInt().Sign() == 0 {
			throw(ZeroDivision, "division by zero")
		}
		if a.isBig() || b.isBig() || abs64(a.num()) > 1<<53 || abs64(b.num()) > 1<<53 {
			q, _ := new(big.Rat).SetFrac(a.bigInt(), b.bigInt()).Float64()
			if math.IsInf(q, 0) {
				throw(OverflowError, "integer division result too large for a float")
			}
			if q == 0 && (a.bigInt().Sign() < 0) != (b.bigInt().Sign() < 0) {
				// Python's zero quotient is negative when one operand is, a zero a
				// counting as positive (0 / -2**63 is -0.0)
				q = math.Copysign(0, -1)
			}
			return Float(q)
		}
	}
	y := toFloat(b)
	if y == 0 {
		throw(ZeroDivision, "float division by zero")
	}
	return Float(toFloat(a) / y)
}

// FloorDiv is Python's a // b.
func FloorDiv(a, b Value) Value {
	checkUndefined(a, b)
	if !a.isNumber() || !b.isNumber() {
		unsupported("//", a, b)
	}
	if a.kind() != KindFloat && b.kind() != KindFloat {
		if b.bigInt().Sign() == 0 {
			throw(ZeroDivision, "integer division or modulo by zero")
		}
		q, _ := floorDivMod(a.bigInt(), b.bigInt())
		return BigInt(q)
	}
	x, y := toFloat(a), toFloat(b)
	if y == 0 {
		throw(ZeroDivision, "float floor division by zero")
	}
	q, _ := floatDivMod(x, y)
	return Float(q)
}

// Mod is Python's a % b: the remainder with the sign of b, or printf-style formatting
// when a is a str.
func Mod(a, b Value) Value {
	if a.kind() == KindString {
		// str.__mod__ takes any operand, an undefined one too (it prints as "")
		return percentOrigin(formatPercent(a, b), a, b)
	}
	checkUndefined(a, b)
	if !a.isNumber() || !b.isNumber() {
		unsupported("%", a, b)
	}
	if a.kind() != KindFloat && b.kind() != KindFloat {
		if b.bigInt().Sign() == 0 {
			throw(ZeroDivision, "integer modulo by zero")
		}
		if a.ptr == nil && b.ptr == nil && b.num() != -1 {
			m := a.num() % b.num()
			if m != 0 && (m < 0) != (b.num() < 0) {
				m += b.num()
			}
			return Int(m)
		}
		_, m := floorDivMod(a.bigInt(), b.bigInt())
		return BigInt(m)
	}
	x, y := toFloat(a), toFloat(b)
	if y == 0 {
		throw(ZeroDivision, "float modulo")
	}
	_, m := floatDivMod(x, y)
	return Float(m)
}

// floorDivMod is Python's divmod on ints: the quotient rounds toward negative infinity.
func floorDivMod(x, y *big.Int) (*big.Int, *big.Int) {
	q, m := new(big.Int).QuoRem(x, y, new(big.Int))
	if m.Sign() != 0 && (m.Sign() < 0) != (y.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
		m.Add(m, y)
	}
	return q, m
}

// floatDivMod is Python's float divmod (Objects/floatobject.c float_divmod).
func floatDivMod(vx, wx float64) (float64, float64) {
	mod := math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1.0
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1.0
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return floordiv, mod
}

// Pow is Python's a ** b.
func Pow(a, b Value) Value {
	checkUndefined(a, b)
	if !a.isNumber() || !b.isNumber() {
		if x, y, ok := complexOperands(a, b); ok {
			return complexIntPow(a, b, x, y)
		}
		unsupported("** or pow()", a, b)
	}
	if a.kind() != KindFloat && b.kind() != KindFloat {
		exp := b.bigInt()
		base := a.bigInt()
		if exp.Sign() >= 0 {
			// The result has about exp * log2(|base|) bits; refuse what cannot be built.
			if base.BitLen() > 1 && (!exp.IsInt64() || exp.Int64()*int64(base.BitLen()) > MaxValueSize*3) {
				checkSize(MaxValueSize + 1)
			}
			return BigInt(new(big.Int).Exp(base, exp, nil))
		}
		if base.Sign() == 0 {
			throw(ZeroDivision, "0.0 cannot be raised to a negative power")
		}
	}
	x, y := toFloat(a), toFloat(b)
	if x == 0 && y < 0 {
		throw(ZeroDivision, "0.0 cannot be raised to a negative power")
	}
	if x < 0 && y != math.Trunc(y) && !math.IsNaN(y) {
		// a negative number to a fractional power: Python makes it complex
		return complexPow(x, y)
	}
	r := floatPow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		throw(OverflowError, "(34, 'Numerical result out of range')")
	}
	return Float(r)
}

// Neg is Python's -a.
func Neg(a Value) Value {
	switch a.kind() {
	case KindUndefined:
		a.undefinedError()
	case KindInt, KindBool:
		if a.ptr == nil && a.num() != math.MinInt64 {
			return Int(-a.num())
		}
		return BigInt(new(big.Int).Neg(a.bigInt()))
	case KindFloat:
		return Float(-a.float())
	case KindObject:
		if c, ok := a.object().(*complexNum); ok {
			return complexValue(-c.re, -c.im)
		}
	}
	throw(TypeError, "bad operand type for unary -: '%s'", a.TypeName())
	return Value{}
}

// Pos is Python's +a.
func Pos(a Value) Value {
	switch a.kind() {
	case KindUndefined:
		a.undefinedError()
	case KindInt, KindFloat:
		return a
	case KindBool:
		return Int(a.num())
	}
	throw(TypeError, "bad operand type for unary +: '%s'", a.TypeName())
	return Value{}
}

// Concat is Jinja2's a ~ b ~ ...: the str() of each operand joined (undefined is empty).
func Concat(items ...Value) Value {
	if len(items) == 0 {
		return Str("")
	}
	n, strs := 0, items[0].kind() == KindString
	for _, it := range items[1:] {
		if it.kind() == KindString {
			n += len(it.str())
		} else {
			strs = false
		}
	}
	if strs {
		return concatStrs(items[0], items[1:], n)
	}
	if tracking.Load() > 0 {
		// a tracked render may need the origins: the other operands are data
		parts := make([]Value, len(items))
		for i, it := range items {
			parts[i] = textValue(it)
		}
		return ConcatStrs(parts...)
	}
	c := startConcat(items[0], n, false)
	for _, it := range items[1:] {
		c.b = appendStr(c.b, it)
	}
	return c.end()
}

// Eq is Python's a == b (Jinja2's Undefined equals only Undefined).
func Eq(a, b Value) bool {
	if a.kind() == b.kind() {
		switch a.kind() {
		case KindString:
			return a.str() == b.str()
		case KindInt:
			if a.ptr == nil && b.ptr == nil {
				return a.num() == b.num()
			}
			return a.bigInt().Cmp(b.bigInt()) == 0
		case KindBool:
			return a.num() == b.num()
		case KindNone, KindUndefined:
			return true
		case KindFloat:
			return a.float() == b.float()
		case KindList, KindTuple:
			x, y := a.list().items(), b.list().items()
			if a.kind() == KindList && (a.list().name != "" || b.list().name != "") {
				return eqSpecialList(a, b)
			}
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if !Eq(x[i], y[i]) {
					return false
				}
			}
			return true
		case KindDict:
			x, y := a.dict(), b.dict()
			if x.Len() != y.Len() {
				return false
			}
			for i, k := range x.keys() {
				v, ok := y.Get(k)
				if !ok || !Eq(x.at(i), v) {
					return false
				}
			}
			return true
		}
		if x, y, ok := complexOperands(a, b); ok {
			return x == y
		}
		if x, ok := asBytes(a); ok {
			y, ok := asBytes(b)
			return ok && x == y
		}
		return a.ptr == b.ptr
	}
	if a.isNumber() && b.isNumber() {
		return compareNumbers(a, b) == 0
	}
	if x, y, ok := complexOperands(a, b); ok {
		return x == y
	}
	return false
}

// eqSpecialList is == where a list value is a range or a dict view: ranges equal ranges
// of the same items, keys and items views compare as sets, a values view only equals
// itself, and none of them equals a list.
func eqSpecialList(a, b Value) bool {
	switch {
	case isRange(a) && isRange(b):
		return Eq(ListOf(a.list().items()), ListOf(b.list().items()))
	case isDictView(a) && isDictView(b) && a.list().name == b.list().name && a.list().name != "dict_values":
		x, y := a.list().items(), b.list().items()
		if len(x) != len(y) {
			return false
		}
		for _, it := range x {
			found := false
			for _, jt := range y {
				if Eq(it, jt) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return a.ptr == b.ptr
}

// EqStr is a == s for a str literal s.
//
// Its body is one test of a's kind, flags and length, and a comparison of bytes, so
// that Go inlines it at each comparison of generated code with a constant at little
// cost to compile.
func EqStr(a Value, s string) bool {
	const str, boxed = uint64(KindString) << kindShift, flagBoxed << flagsShift
	if a.w&(kindMaskW|boxed|lenMask) == str|uint64(len(s)) {
		return a.text() == s
	}
	return a.w&(kindMaskW|boxed) == str|boxed && a.boxed().s == s
}

// InStrs is item in [s1, s2, ...] for a list (or tuple) of str constants.
func InStrs(item Value, strs ...string) bool {
	if item.kind() == KindString {
		for _, s := range strs {
			if item.str() == s {
				return true
			}
		}
	}
	return false
}

// Ne is Python's a != b.
func Ne(a, b Value) bool { return !Eq(a, b) }

// compareNumbers orders two numbers exactly (an int and a float compare by value, not
// by converting the int). NaN compares as unordered: it returns 2.
func compareNumbers(a, b Value) int {
	if a.kind() != KindFloat && b.kind() != KindFloat {
		if a.ptr == nil && b.ptr == nil {
			return cmp64(a.num(), b.num())
		}
		return a.bigInt().Cmp(b.bigInt())
	}
	if a.kind() == KindFloat && b.kind() == KindFloat {
		x, y := a.float(), b.float()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		case x == y:
			return 0
		}
		return 2
	}
	if (a.kind() == KindFloat && math.IsNaN(a.float())) || (b.kind() == KindFloat && math.IsNaN(b.float())) {
		return 2
	}
	return exactNumber(a).Cmp(exactNumber(b))
}

func exactNumber(v Value) *big.Float {
	if v.kind() == KindFloat {
		return big.NewFloat(v.float())
	}
	return new(big.Float).SetInt(v.bigInt())
}

func cmp64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// order compares a and b for <, <=, > and >=; op names the operator for the TypeError
// Python raises when the types cannot be ordered. It returns -1, 0, 1, or 2 (unordered).
func order(op string, a, b Value) int {
	checkUndefined(a, b)
	switch {
	case a.isNumber() && b.isNumber():
		return compareNumbers(a, b)
	case a.kind() == KindString && b.kind() == KindString:
		return strings.Compare(a.str(), b.str())
	case (a.kind() == KindList || a.kind() == KindTuple) && a.kind() == b.kind():
		x, y := a.list().items(), b.list().items()
		for i := 0; i < len(x) && i < len(y); i++ {
			if !Eq(x[i], y[i]) {
				return order(op, x[i], y[i])
			}
		}
		return cmp64(int64(len(x)), int64(len(y)))
	}
	throw(TypeError, "'%s' not supported between instances of '%s' and '%s'", op, a.TypeName(), b.TypeName())
	return 0
}

// unboxedInts returns the ints in a and b, and whether both are ints the Values hold
// themselves (see UnboxedInt): the comparisons' commonest operands, compared at once.
func unboxedInts(a, b Value) (x, y int64, ok bool) {
	x, okx := a.UnboxedInt()
	y, oky := b.UnboxedInt()
	return x, y, okx && oky
}

// Lt is Python's a < b.
func Lt(a, b Value) bool {
	if x, y, ok := unboxedInts(a, b); ok {
		return x < y
	}
	return order("<", a, b) == -1
}

// Le is Python's a <= b.
func Le(a, b Value) bool {
	if x, y, ok := unboxedInts(a, b); ok {
		return x <= y
	}
	return order("<=", a, b) <= 0 // -1 or 0, not 1 or 2 (unordered)
}

// Gt is Python's a > b.
func Gt(a, b Value) bool {
	if x, y, ok := unboxedInts(a, b); ok {
		return x > y
	}
	return order(">", a, b) == 1
}

// Ge is Python's a >= b.
func Ge(a, b Value) bool {
	if x, y, ok := unboxedInts(a, b); ok {
		return x >= y
	}
	return uint(order(">=", a, b)) <= 1 // 0 or 1, not -1 or 2 (unordered)
}

// In is Python's item in container.
func In(item, container Value) bool {
	switch container.kind() {
	case KindString:
		if item.kind() != KindString {
			// an undefined item too: str.__contains__ refuses it before using it
			throw(TypeError, "'in <string>' requires string as left operand, not %s", item.TypeName())
		}
		return strings.Contains(container.str(), item.str())
	case KindList, KindTuple:
		for _, it := range container.list().items() {
			if Eq(it, item) {
				return true
			}
		}
		return false
	case KindDict:
		checkHashable(item)
		return container.dict().Has(item)
	case KindUndefined:
		return false
	case KindIterator, KindLoop:
		for _, it := range iterate(container) {
			if Eq(it, item) {
				return true
			}
		}
		return false
	}
	throw(TypeError, "argument of type '%s' is not iterable", container.TypeName())
	return false
}

// NotIn is Python's item not in container.
func NotIn(item, container Value) bool { return !In(item, container) }

// checkHashable raises Python's TypeError for a dict key that cannot be hashed.
func checkHashable(k Value) {
	switch {
	case isRange(k):
	case k.kind() == KindList || k.kind() == KindDict:
		throw(TypeError, "unhashable type: '%s'", k.TypeName())
	case k.kind() == KindTuple:
		for _, it := range k.list().items() {
			checkHashable(it)
		}
	}
}

// Or is Python's a or b: a when it is true, otherwise b, which is only evaluated then.
func Or(a Value, b func() Value) Value {
	if a.Truthy() {
		return a
	}
	return b()
}

// And is Python's a and b: a when it is false, otherwise b, which is only evaluated then.
func And(a Value, b func() Value) Value {
	if !a.Truthy() {
		return a
	}
	return b()
}

// IfElse is the inline if: then() when test holds, otherwise els().
func IfElse(test bool, then, els func() Value) Value {
	if test {
		return then()
	}
	return els()
}

// NoElse is the value of an inline if without else whose test is false.
func NoElse(line int) Value {
	return undefinedMessage("the inline if-expression on line " + itoa(line) + " evaluated to false and no else section was defined.")
}

func itoa(i int) string { return Int(int64(i)).String() }

// Unpack assigns a sequence to n targets, as Python's a, b = v.
func Unpack(v Value, n int) []Value {
	if !IsIterable(v) {
		throw(TypeError, "cannot unpack non-iterable %s object", v.TypeName())
	}
	items := iterate(v)
	switch {
	case len(items) < n:
		throw(ValueError, "not enough values to unpack (expected %d, got %d)", n, len(items))
	case len(items) > n:
		throw(ValueError, "too many values to unpack (expected %d)", n)
	}
	return items
}

// Spread appends the items of v to positional arguments, as f(*v) does.
func Spread(args []Value, v Value) []Value {
	return append(append([]Value(nil), args...), iterate(v)...)
}

// SpreadKwargs appends the entries of a dict to keyword arguments, as f(**v) does.
func SpreadKwargs(kwargs []Kwarg, v Value) []Kwarg {
	d := v.AsDict()
	if d == nil {
		throw(TypeError, "argument after ** must be a mapping, not %s", v.TypeName())
	}
	out := append([]Kwarg(nil), kwargs...)
	for i, k := range d.keys() {
		if k.kind() != KindString {
			throw(TypeError, "keywords must be strings")
		}
		out = append(out, Kwarg{Name: k.str(), Value: d.at(i)})
	}
	return out
}
