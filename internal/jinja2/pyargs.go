package jinja2

import (
	"slices"
	"strings"
)

// Python's words for calls of its functions with the wrong arguments: CPython's binding
// of a Python function's arguments (pyFunc) and the checks of its builtins'.

// pyFunc is the signature of a function written in Python (a Jinja2 test or filter, a
// function transformers defines), whose arguments CPython binds: its name, the
// parameters its caller fills (added: the environment, the value, self), which CPython
// counts, then those a call passes, of which the first required have no default.
type pyFunc struct {
	name     string
	added    []string
	required int
	params   []string
}

// bind binds a call's arguments to f's parameters (Missing where one is not given and
// has a default), failing as CPython does, in its order: a keyword argument of no
// parameter or of one a positional argument gave, too many positional arguments, then
// missing ones.
func (f *pyFunc) bind(args []Value, kwargs []Kwarg) boundArgs {
	if len(f.params) > len(boundArgs{}) {
		panic("jinja2: pyFunc.bind: too many parameters for " + f.name)
	}
	if len(kwargs) == 0 && len(args) == len(f.params) {
		var out boundArgs
		copy(out[:], args)
		return out
	}
	out := noneGiven
	copy(out[:], args[:min(len(args), len(f.params))])
	for _, kw := range kwargs {
		i := 0
		for i < len(f.params) && f.params[i] != kw.Name {
			i++
		}
		switch {
		case i == len(f.params) && slices.Contains(f.added, kw.Name):
			throw(TypeError, "%s() got multiple values for argument '%s'", f.name, kw.Name)
		case i == len(f.params):
			throw(TypeError, "%s() got an unexpected keyword argument '%s'", f.name, kw.Name)
		case given(out[i]):
			throw(TypeError, "%s() got multiple values for argument '%s'", f.name, kw.Name)
		}
		out[i] = kw.Value
	}
	if n := len(args); n > len(f.params) {
		added := len(f.added)
		least, most, were := added+f.required, added+len(f.params), "were"
		if n+added == 1 {
			were = "was"
		}
		if least == most {
			throw(TypeError, "%s() takes %d positional %s but %d %s given", f.name, most, arguments(most), n+added, were)
		}
		throw(TypeError, "%s() takes from %d to %d positional arguments but %d %s given", f.name, least, most, n+added, were)
	}
	var missing []string
	for i, p := range f.params[:f.required] {
		if !given(out[i]) {
			missing = append(missing, "'"+p+"'")
		}
	}
	if len(missing) > 0 {
		names := missing[0]
		switch n := len(missing); {
		case n == 2:
			names += " and " + missing[1]
		case n > 2:
			names = strings.Join(missing[:n-1], ", ") + ", and " + missing[n-1]
		}
		throw(TypeError, "%s() missing %d required positional %s: %s", f.name, len(missing), arguments(len(missing)), names)
	}
	return out
}

// bindNone binds the arguments of a call of f, which takes none but those its caller
// adds: any is an error.
func (f *pyFunc) bindNone(args []Value, kwargs []Kwarg) {
	if len(args) > 0 || len(kwargs) > 0 {
		f.bind(args, kwargs)
	}
}

// takesArgs fails a call of fname given n positional arguments unless it takes that
// many, from least to most, in the words of CPython's argument parser: "find() takes
// at least 1 argument (0 given)".
func takesArgs(fname string, n, least, most int) { checkArgCount(fname, n, least, most, false) }

// expectsArgs is takesArgs in the words of CPython's check of positional arguments:
// "center expected at least 1 argument, got 0".
func expectsArgs(fname string, n, least, most int) { checkArgCount(fname, n, least, most, true) }

// checkArgCount is takesArgs, or expectsArgs when expected.
func checkArgCount(fname string, n, least, most int, expected bool) {
	if least <= n && n <= most {
		return
	}
	bound, count := "at least ", least
	switch {
	case least == most:
		bound = "exactly "
	case n > most:
		bound, count = "at most ", most
	}
	if !expected {
		throw(TypeError, "%s() takes %s%d %s (%d given)", fname, bound, count, arguments(count), n)
	}
	if least == most {
		bound = ""
	}
	throw(TypeError, "%s expected %s%d %s, got %d", fname, bound, count, arguments(count), n)
}

// takesOne fails a call of the method qualname (str.zfill), which takes one argument
// and no keyword ones, given others.
func takesOne(qualname string, args []Value, kwargs []Kwarg) {
	if len(kwargs) > 0 {
		throw(TypeError, "%s() takes no keyword arguments", qualname)
	}
	if len(args) != 1 {
		throw(TypeError, "%s() takes exactly one argument (%d given)", qualname, len(args))
	}
}

// clinicTypeName is how CPython's generated argument checks name the type of v: None
// by itself ("must be str, not None").
func clinicTypeName(v Value) string {
	if v.kind() == KindNone {
		return "None"
	}
	return v.TypeName()
}

// arguments is "argument" or "arguments", as n says.
func arguments(n int) string {
	if n == 1 {
		return "argument"
	}
	return "arguments"
}
