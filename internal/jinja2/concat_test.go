package jinja2

import (
	"strings"
	"sync"
	"testing"
)

// TestConcatBuildsInPlace: a text built by concatenating onto itself, as
// {% set ns.out = ns.out ~ part %} in a loop does, grows its buffer by doubling instead
// of being copied at every step.
func TestConcatBuildsInPlace(t *testing.T) {
	const steps = 2000
	build := map[string]func(x, part Value) Value{
		"~":     func(x, part Value) Value { return Concat(x, part, Str("|")) },
		"+":     func(x, part Value) Value { return Add(Add(x, part), Str("|")) },
		"+ run": func(x, part Value) Value { return Sum(x, part, Str("|")) },
	}
	for name, step := range build {
		var got Value
		allocs := testing.AllocsPerRun(1, func() {
			got = Str("start:")
			for range steps {
				got = step(got, Str("ab"))
			}
		})
		if want := "start:" + strings.Repeat("ab|", steps); got.str() != want {
			t.Errorf("%s: got %d bytes, want %d: %.40q...", name, len(got.str()), len(want), got.str())
		}
		if allocs > 40 {
			t.Errorf("%s: %v allocations for %d steps, want a few dozen (the buffer doubling)", name, allocs, steps)
		}
	}
}

// TestConcatSharedBuffer: strs made from the same str stay what they were made as,
// whichever concatenation appends in the buffer they share.
func TestConcatSharedBuffer(t *testing.T) {
	a := Concat(Concat(Str("x"), Str("")), Str("y")) // made from a concatenation: with room
	b := Concat(a, Str("1"))
	c := Concat(a, Str("2"))
	d := Add(b, Str("3"))
	e := Sum(a, Str("4"), Str("5"))
	f := Concat(a, Int(6), None())
	g := Concat(b, Str(""))
	h := Add(d, Markup("<"))
	for _, tc := range []struct {
		v    Value
		want string
	}{{a, "xy"}, {b, "xy1"}, {c, "xy2"}, {d, "xy13"}, {e, "xy45"}, {f, "xy6None"}, {g, "xy1"}, {h, "xy13<"}} {
		if tc.v.str() != tc.want {
			t.Errorf("got %q, want %q", tc.v.str(), tc.want)
		}
	}
	if !h.IsMarkup() {
		t.Errorf("str + Markup is %s, want Markup", h.TypeName())
	}
	if got := Concat(Str(""), Str("")); got.str() != "" {
		t.Errorf("empty concatenation: got %q", got.str())
	}
}

// TestConcatConcurrent: goroutines concatenating onto one str each get their own text;
// run with -race, this also checks that the buffer is claimed without a data race.
func TestConcatConcurrent(t *testing.T) {
	base := Concat(Str("base"), Str(":"))
	var wg sync.WaitGroup
	results := make([][]Value, 8)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				x := base
				for range i % 5 {
					x = Concat(x, Str(string(rune('a'+g))))
				}
				results[g] = append(results[g], x)
			}
		}()
	}
	wg.Wait()
	for g, rs := range results {
		for i, x := range rs {
			if want := "base:" + strings.Repeat(string(rune('a'+g)), i%5); x.str() != want {
				t.Fatalf("goroutine %d, step %d: got %q, want %q", g, i, x.str(), want)
			}
		}
	}
	if base.str() != "base:" {
		t.Errorf("the shared str became %q", base.str())
	}
}
