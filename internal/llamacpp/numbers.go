package llamacpp

import (
	"math/big"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// JSONNumbers returns v, a template variable of JSON values, with its ints as
// llama.cpp's engine reads them from JSON: nlohmann::json holds an integer beyond
// int64 that fits in uint64 as an unsigned number, which the engine's value of it
// (value.cpp: j.get<int64_t>()) wraps into int64, and any other integer beyond int64 as
// a double (NlohmannNumbers). A list or dict with no such int is v's own, not a copy.
func JSONNumbers(v jinja2.Value) jinja2.Value { return numbers(v, true) }

// NlohmannNumbers returns the JSON value v with its ints as nlohmann::json parses them,
// for what llama-server dumps back into JSON text: an integer within int64 or uint64
// as it is, any other as the double strtod makes of it. A list or dict with no such int
// is v's own, not a copy.
func NlohmannNumbers(v jinja2.Value) jinja2.Value { return numbers(v, false) }

// numbers returns v with its ints beyond int64 as nlohmann::json holds them, wrapped
// into int64 (wrap) or not when they fit in uint64.
func numbers(v jinja2.Value, wrap bool) jinja2.Value {
	switch v.Kind() {
	case jinja2.KindInt:
		if _, ok := v.AsInt(); ok {
			return v
		}
		b, _ := v.AsBigInt()
		switch {
		case b.Sign() > 0 && b.IsUint64() && wrap:
			return jinja2.Int(int64(b.Uint64())) // static_cast<int64_t> of the unsigned number
		case b.Sign() > 0 && b.IsUint64():
			return v
		}
		f, _ := new(big.Float).SetInt(b).Float64() // strtod's nearest double
		return jinja2.Float(f)
	case jinja2.KindList:
		items := v.Items()
		for i, it := range items {
			if n := numbers(it, wrap); n != it {
				out := append([]jinja2.Value(nil), items...)
				out[i] = n
				for j := i + 1; j < len(out); j++ {
					out[j] = numbers(out[j], wrap)
				}
				return jinja2.NewList(out...)
			}
		}
	case jinja2.KindDict:
		d := v.AsDict()
		keys, vals := d.Keys(), d.Values()
		for i, it := range vals {
			if n := numbers(it, wrap); n != it {
				out := d.Copy()
				out.Set(keys[i], n)
				for j := i + 1; j < len(keys); j++ {
					out.Set(keys[j], numbers(vals[j], wrap))
				}
				return jinja2.DictValue(out)
			}
		}
	}
	return v
}
