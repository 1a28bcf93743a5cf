package llamacpp

import (
	"math"
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestIntFastPaths: Add and Sub of ints, which skip llama.cpp's double arithmetic
// where it is exact, give what it gives, at the edges of where they skip it too.
func TestIntFastPaths(t *testing.T) {
	ints := []int64{0, 1, -1, 7, 1<<52 - 1, -(1<<52 - 1), 1 << 52, 1<<53 + 1, -(1<<53 + 1), math.MaxInt64, math.MinInt64}
	for _, x := range ints {
		for _, y := range ints {
			a, b := jinja2.Int(x), jinja2.Int(y)
			for _, op := range []struct {
				name string
				fast func(a, b jinja2.Value) jinja2.Value
			}{{"+", Add}, {"-", Sub}} {
				got, want := op.fast(a, b), llamaBinary(op.name, a, b)
				if got.Kind() != want.Kind() || got.String() != want.String() {
					t.Errorf("%d %s %d = %v, llama.cpp's arithmetic gives %v", x, op.name, y, got, want)
				}
			}
		}
	}
}

// TestWriteJSONFastPath: WriteJSON of a list or dict, which it writes straight into the
// output, writes what the tojson builtin gives.
func TestWriteJSONFastPath(t *testing.T) {
	for _, text := range []string{
		`[]`, `{}`, `[1, 2.5, "a\"b\\c\n\u0001é", null, true, {"k": [{}]}]`,
		`{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}}}}`,
	} {
		v, err := jinja2.ParseJSON([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		w := jinja2.NewWriter(nil, jinja2.Limits{})
		WriteJSON(w, v, nil, nil)
		if got, want := string(w.Bytes()), FilterTojson(v, nil, nil).Text(); got != want {
			t.Errorf("%s: WriteJSON wrote %q, the builtin gives %q", text, got, want)
		}
	}
}

// TestIsDictBuiltin: IsDictBuiltin names the builtins of a dict, llamaBuiltins["dict"].
func TestIsDictBuiltin(t *testing.T) {
	for name := range llamaBuiltins["dict"] {
		if !IsDictBuiltin(name) {
			t.Errorf("IsDictBuiltin(%q) = false, a dict's builtin", name)
		}
	}
	for kind, names := range llamaBuiltins {
		for name := range names {
			if IsDictBuiltin(name) != llamaBuiltins["dict"][name] {
				t.Errorf("IsDictBuiltin(%q) = %v (a builtin of %s)", name, IsDictBuiltin(name), kind)
			}
		}
	}
}

// TestSameTests: the tests of SameTests, which the llama.cpp render function runs as
// Jinja2's, are what CallTest gives, on a value of each kind.
func TestSameTests(t *testing.T) {
	values := []jinja2.Value{jinja2.Undefined("x"), jinja2.None(), jinja2.Bool(true), jinja2.Bool(false),
		jinja2.Int(0), jinja2.Int(1), jinja2.Float(1.5), jinja2.Str(""), jinja2.Str("a"),
		jinja2.NewList(), jinja2.DictValue(jinja2.NewDict(0))}
	for name := range SameTests {
		if !llamaTests[name] {
			t.Errorf("%s is no test of llama.cpp's", name)
		}
		for _, v := range values {
			if got, want := jinja2.CallTest(name, v, nil, nil), CallTest(name, v, nil, nil); got != want {
				t.Errorf("%v is %s: Jinja2's test gives %v, llama.cpp's %v", v, name, got, want)
			}
		}
	}
}

// TestArgumentsOnStack: the direct functions that say their arguments stay on the
// stack (StackFilters, StrMethods, PythonDictMethods), and CallMethod, take no
// allocation for them (a str's format one, for the str it makes).
func TestArgumentsOnStack(t *testing.T) {
	dict := jinja2.NewDict(1)
	dict.SetStr("k", jinja2.Str("v"))
	x, empty := jinja2.Str("x"), jinja2.Str("")
	for _, tt := range []struct {
		name   string
		call   func() jinja2.Value
		want   string
		allocs float64
	}{
		{"default", func() jinja2.Value { return FilterDefault(empty, []jinja2.Value{x, jinja2.Bool(true)}, nil) }, "x", 0},
		{"default of undefined", func() jinja2.Value { return FilterDefault(jinja2.Undefined("u"), []jinja2.Value{x}, nil) }, "x", 0},
		{"str.replace", func() jinja2.Value { return MethodReplace(jinja2.Str("axa"), jinja2.Str("q"), empty) }, "axa", 0},
		{"dict.get", func() jinja2.Value { return MethodGetDefault(jinja2.DictValue(dict), jinja2.Str("z"), x) }, "x", 0},
		{"str.format", func() jinja2.Value { return CallMethod(jinja2.Lit("<{}|{}>"), "format", []jinja2.Value{x, empty}, nil) }, "<x|>", 1},
	} {
		var got jinja2.Value
		if n := testing.AllocsPerRun(100, func() { got = tt.call() }); n != tt.allocs {
			t.Errorf("%s: %v allocations, want %v", tt.name, n, tt.allocs)
		}
		if got.Text() != tt.want {
			t.Errorf("%s = %v, want %q", tt.name, got, tt.want)
		}
	}
}

// TestDictListsOneAllocation: a dict's items (the filter and the method), keys and
// values are llama.cpp's lists, each made in one allocation.
func TestDictListsOneAllocation(t *testing.T) {
	dict := jinja2.NewDict(2)
	dict.SetStr("a", jinja2.Int(1))
	dict.SetStr("b", jinja2.Int(2))
	d := jinja2.DictValue(dict)
	for _, tt := range []struct {
		name string
		call func() jinja2.Value
		want string
	}{
		{"|items", func() jinja2.Value { return FilterItems(d) }, `[["a", 1], ["b", 2]]`},
		{".items()", func() jinja2.Value { return CallMethod(d, "items", nil, nil) }, `[["a", 1], ["b", 2]]`},
		{".keys()", func() jinja2.Value { return CallMethod(d, "keys", nil, nil) }, `["a", "b"]`},
		{".values()", func() jinja2.Value { return CallMethod(d, "values", nil, nil) }, `[1, 2]`},
	} {
		var got jinja2.Value
		if n := testing.AllocsPerRun(100, func() { got = tt.call() }); n != 1 {
			t.Errorf("%s: %v allocations, want 1", tt.name, n)
		}
		if got.Kind() != jinja2.KindList || string(jinja2.AppendJSON(nil, got)) != tt.want {
			t.Errorf("%s = %s %s, want the list %s", tt.name, got.TypeName(), jinja2.AppendJSON(nil, got), tt.want)
		}
	}
}

// TestCalleeNotAFunction checks the errors of calling a method a value lacks, in the
// words llama_chat_driver (b10587) recorded for {{ nope.get('a') }}, {{ d.zz() }} with d
// {'zz': 3} and {'zz': 'x'}, and {{ (1).zz() }}: a member of an undefined value is
// undefined as 'object_property', a dict's item of that name is called.
func TestCalleeNotAFunction(t *testing.T) {
	dict := func(v jinja2.Value) jinja2.Value {
		d := jinja2.NewDict(1)
		d.SetStr("zz", v)
		return jinja2.DictValue(d)
	}
	for _, tt := range []struct {
		recv       jinja2.Value
		name, want string
	}{
		{jinja2.Undefined("nope"), "get", "Callee is not a function: got Undefined (hint: 'object_property')"},
		{dict(jinja2.Int(3)), "zz", "Callee is not a function: got Integer"},
		{dict(jinja2.Str("x")), "zz", "Callee is not a function: got String"},
		{jinja2.Int(1), "zz", "Callee is not a function: got Undefined (hint: 'zz')"},
	} {
		err := raised(func() { CallMethod(tt.recv, tt.name, []jinja2.Value{jinja2.Str("a")}, nil) })
		if err == nil || err.Msg != tt.want {
			t.Errorf("%s.%s('a'): %v, want %s", tt.recv.Repr(), tt.name, err, tt.want)
		}
	}
}

// TestExpectedType checks the errors of builtins given a value of another type than the
// str or int they take, in the words llama_chat_driver (b10587) recorded for the
// template in each case: the C++ type's mangled name, a test's function without a name.
func TestExpectedType(t *testing.T) {
	list := jinja2.NewList(jinja2.Int(1), jinja2.Int(2))
	for _, tt := range []struct {
		template string
		call     func()
		want     string
	}{
		{"{{ 'a' is odd }}", func() { CallTest("odd", jinja2.Str("a"), nil, nil) },
			"Function '' expected value of type St10shared_ptrIN5jinja11value_int_tEE, got String"},
		{"{{ 1 is lower }}", func() { CallTest("lower", jinja2.Int(1), nil, nil) },
			"Function '' expected value of type St10shared_ptrIN5jinja14value_string_tEE, got Integer"},
		{"{{ [1] is test }}", func() { CallTest("test", jinja2.NewList(jinja2.Int(1)), nil, nil) },
			"Function '' expected value of type St10shared_ptrIN5jinja14value_string_tEE, got Array"},
		{"{{ nope is odd }}", func() { CallTest("odd", jinja2.Undefined("nope"), nil, nil) },
			"Function '' expected value of type St10shared_ptrIN5jinja11value_int_tEE, got Undefined (hint: 'nope')"},
		{"{{ 4 is divisibleby('x') }}", func() { CallTest("divisibleby", jinja2.Int(4), []jinja2.Value{jinja2.Str("x")}, nil) },
			"Function '' expected value of type St10shared_ptrIN5jinja11value_int_tEE, got String"},
		{"{{ 'ab'.startswith(1) }}", func() { CallMethod(jinja2.Str("ab"), "startswith", []jinja2.Value{jinja2.Int(1)}, nil) },
			"Function 'startswith' expected value of type St10shared_ptrIN5jinja14value_string_tEE, got Integer"},
		{"{{ 'ab'.endswith(nope) }}", func() { CallMethod(jinja2.Str("ab"), "endswith", []jinja2.Value{jinja2.Undefined("nope")}, nil) },
			"Function 'endswith' expected value of type St10shared_ptrIN5jinja14value_string_tEE, got Undefined (hint: 'nope')"},
		{"{{ [1,2]|slice('a') }}", func() { CallFilter("slice", list, []jinja2.Value{jinja2.Str("a")}, nil) },
			"Function 'slice' expected value of type St10shared_ptrIN5jinja11value_int_tEE, got String"},
	} {
		if err := raised(tt.call); err == nil || err.Msg != tt.want {
			t.Errorf("%s: %v, want %s", tt.template, err, tt.want)
		}
	}
}

// raised returns the *jinja2.Error f panics with, nil when it returns.
func raised(f func()) (err *jinja2.Error) {
	defer func() {
		if p := recover(); p != nil {
			err, _ = p.(*jinja2.Error)
		}
	}()
	f()
	return nil
}

// TestEngineErrorWords checks more of llama.cpp's errors in its words, as
// llama_chat_driver (b10587) recorded them for the template of each case: for loops,
// unpacking in a set statement and in a loop, the select family's arguments, the
// builtins it declares but does not implement, and object keys.
func TestEngineErrorWords(t *testing.T) {
	list := func(items ...jinja2.Value) jinja2.Value { return jinja2.NewList(items...) }
	dict := jinja2.NewDict(1)
	dict.SetStr("a", jinja2.Int(1))
	for _, tt := range []struct {
		template string
		call     func()
		want     string
	}{
		{"{% for x in 5 %}{% endfor %}", func() { Iterable(jinja2.Int(5)) },
			"Expected iterable or object type in for loop: got Integer"},
		{"{% for x in 'ab' %}{% endfor %}", func() { Iterable(jinja2.Str("ab")) },
			"Expected iterable or object type in for loop: got String"},
		{"{% set a, b = 'ab' %}", func() { UnpackSet(jinja2.Str("ab"), 2) },
			"Cannot unpack non-iterable type in set: String"},
		{"{% set a, b = [1] %}", func() { UnpackSet(list(jinja2.Int(1)), 2) }, "Too few items to unpack in set"},
		{"{% set a, b = [1,2,3] %}", func() { UnpackSet(list(jinja2.Int(1), jinja2.Int(2), jinja2.Int(3)), 2) },
			"Too many items to unpack in set"},
		{"{% for a, b in ['ab'] %}{% endfor %}", func() { Unpack(jinja2.Str("ab"), 2) },
			"Cannot unpack non-iterable type: String"},
		{"{% for a, b in [[1]] %}{% endfor %}", func() { Unpack(list(jinja2.Int(1)), 2) }, "Too few items to unpack"},
		{"{{ [1]|select() }}", func() { CallFilter("select", list(jinja2.Int(1)), nil, nil) },
			"Function 'select' expected between 2 and 4 arguments, got 1"},
		{"{{ [1]|select('odd', 1, 2, 3) }}", func() {
			CallFilter("select", list(jinja2.Int(1)), []jinja2.Value{jinja2.Str("odd"), jinja2.Int(1), jinja2.Int(2), jinja2.Int(3)}, nil)
		}, "Function 'select' expected between 2 and 4 arguments, got 5"},
		{"{{ [1]|select(1) }}", func() { CallFilter("select", list(jinja2.Int(1)), []jinja2.Value{jinja2.Int(1)}, nil) },
			"Function 'select' expected value of type St10shared_ptrIN5jinja14value_string_tEE, got Integer"},
		{"{{ [1]|select('sameas', 1)|list }}", func() {
			CallFilter("select", list(jinja2.Int(1)), []jinja2.Value{jinja2.Str("sameas"), jinja2.Int(1)}, nil)
		}, "NotImplemented: sameas test not implemented"},
		{"{{ 'ab'|join(',') }}", func() { CallFilter("join", jinja2.Str("ab"), []jinja2.Value{jinja2.Str(",")}, nil) },
			"NotImplemented: String join builtin not implemented"},
		{"{{ [1]|tojson(sort_keys=true) }}", func() {
			CallFilter("tojson", list(jinja2.Int(1)), nil, []jinja2.Kwarg{{Name: "sort_keys", Value: jinja2.Bool(true)}})
		}, "NotImplemented: tojson sort_keys=true not implemented"},
		{"{{ [1] in {'a': 1} }}", func() { In(list(jinja2.Int(1)), jinja2.DictValue(dict)) },
			"Object key of unhashable type: Array"},
		{"{% set m = {'a': 1} %}{{ m[['a', 'b']] }}", func() { Item(jinja2.DictValue(dict), list(jinja2.Str("a"), jinja2.Str("b"))) },
			"Object key of unhashable type: Array"},
		{"{{ m() }}{% macro m() %}x{% endmacro %}", func() { Call(jinja2.Undefined("m"), nil, nil) },
			"Callee is not a function: got Undefined (hint: 'm')"},
		{"{% for x in [1] %}{{ loop(x) }}{% endfor %}", func() {
			Call(jinja2.NewLoop(nil, list(jinja2.Int(1)), nil).Value(), []jinja2.Value{jinja2.Int(1)}, nil)
		}, "Callee is not a function: got Object"},
		{"{% for x in [1,2] %}{{ loop.changed(x) }}{% endfor %}", func() {
			CallMethod(jinja2.NewLoop(nil, list(jinja2.Int(1)), nil).Value(), "changed", []jinja2.Value{jinja2.Int(1)}, nil)
		}, "Callee is not a function: got Undefined (hint: 'changed')"},
	} {
		if err := raised(tt.call); err == nil || err.Msg != tt.want {
			t.Errorf("%s: %v, want %s", tt.template, err, tt.want)
		}
	}
	// the select family raises for a declared test only when it runs it
	if err := raised(func() { CallFilter("select", list(), []jinja2.Value{jinja2.Str("sameas"), jinja2.Int(1)}, nil) }); err != nil {
		t.Errorf("{{ []|select('sameas', 1)|list }}: %v, want [] (llama_chat_driver renders it)", err)
	}
}
