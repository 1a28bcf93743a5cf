package llamaprobe

import (
	"fmt"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// Probe mode: the interpreter renders a template the way llama.cpp's Jinja engine
// (common/jinja, b10587) does when it probes a template for capabilities
// (jinja::caps_get), with "stats" switched on. Every value of the probe input remembers
// whether it was used and which operations were applied to it, and the engine's
// differences from Jinja2 that decide whether a probe render fails are reproduced:
//
//   - a value is used when a variable holding it is read, when it is the object, key or
//     result of an attribute or subscript, when a for loop iterates it, and when it is
//     given to a filter or a method; |tojson and |string (of a list or dict) use it and
//     everything in it. The result of a call (such as dict.get) is not used until it is
//     read again from a variable or given to a filter, attribute or subscript;
//   - its operations are "array_access" (a for loop, an int subscript), "object_access"
//     (a str subscript or attribute that is not a builtin) and the name of every
//     filter, method or attribute tried on it;
//   - a filter or method the value's type lacks in llama.cpp is an error (and so are the
//     builtins llama.cpp declares but does not implement), a for loop over a str is an
//     error, dict, lipsum, cycler and joiner do not exist, tests llama.cpp lacks are
//     errors, `in` with an undefined or none operand is an error, and arithmetic,
//     concatenation and comparisons are package llamacpp's, the twin's (llamacpp.Add,
//     Concat, Sub, Eq...);
//   - undefined is lenient: its attributes and items are undefined, it iterates as
//     empty, and its builtins return empty values;
//   - lists can be mutated (append, pop), an attribute of a dict can be set like a
//     namespace's, map/select/reject return lists, and select/reject/selectattr/
//     rejectattr read their arguments as llama.cpp does.

// valueStats is what llama.cpp's engine records about a probe input value.
type valueStats struct {
	used bool
	ops  map[string]bool
}

// probe is the state of a probe render.
type probe struct {
	containers map[any]*valueStats // the stats of tracked lists and dicts, by storage
	caller     *env                // where the macro call being made is
}

func newProbe() *probe { return &probe{containers: map[any]*valueStats{}} }

// track returns a copy of a JSON-like value whose strs, lists and dicts record their
// stats.
func (p *probe) track(v jinja2.Value) jinja2.Value {
	switch v.Kind() {
	case jinja2.KindString:
		s, _ := v.AsString()
		return jinja2.TaggedStr(s, &valueStats{ops: map[string]bool{}})
	case jinja2.KindList:
		items := make([]jinja2.Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = p.track(it)
		}
		out := jinja2.ListOf(items)
		p.containers[out.Tag()] = &valueStats{ops: map[string]bool{}}
		return out
	case jinja2.KindDict:
		d := v.AsDict()
		out := jinja2.NewDict(d.Len())
		for i, k := range d.Keys() {
			out.Set(k, p.track(d.Values()[i]))
		}
		p.containers[out] = &valueStats{ops: map[string]bool{}}
		return jinja2.DictValue(out)
	}
	return v
}

// stats returns the stats of a value: those of a tracked str, or of any list, dict or
// namespace (llama.cpp keeps stats for every value; those of a container the template
// made itself start when it is first used). Nil for other values.
func (p *probe) stats(v jinja2.Value) *valueStats {
	tag := v.Tag()
	if tag == nil {
		return nil
	}
	if st, ok := tag.(*valueStats); ok {
		return st
	}
	st := p.containers[tag]
	if st == nil && v.Kind() != jinja2.KindString {
		st = &valueStats{ops: map[string]bool{}}
		p.containers[tag] = st
	}
	return st
}

// used reports whether a tracked value was used.
func (p *probe) used(v jinja2.Value) bool {
	st := p.stats(v)
	return st != nil && st.used
}

// hasOp reports whether an operation was applied to a tracked value.
func (p *probe) hasOp(v jinja2.Value, op string) bool {
	st := p.stats(v)
	return st != nil && st.ops[op]
}

func (p *probe) mark(v jinja2.Value) {
	if st := p.stats(v); st != nil {
		st.used = true
	}
}

func (p *probe) op(v jinja2.Value, name string) {
	if st := p.stats(v); st != nil {
		st.used = true
		st.ops[name] = true
	}
}

// markDeep marks v and everything in it used.
func (p *probe) markDeep(v jinja2.Value) {
	p.mark(v)
	switch v.Kind() {
	case jinja2.KindList, jinja2.KindTuple:
		for _, it := range v.Items() {
			p.markDeep(it)
		}
	case jinja2.KindDict:
		for _, it := range v.AsDict().Values() {
			p.markDeep(it)
		}
	}
}

// llamaFail raises the error llama.cpp's engine raises where Jinja2 would go on.
func llamaFail(format string, args ...any) {
	jinja2.Fail(llamacpp.EngineError, fmt.Sprintf(format, args...))
}

// probeExpr evaluates the expressions whose meaning or statistics differ in probe mode;
// ok is false for the others.
func (m *machine) probeExpr(e *env, x ir.Expr) (jinja2.Value, bool) {
	p := m.probe
	switch x := x.(type) {
	case *ir.Load:
		v := e.load(x.Var)
		p.mark(v)
		return v, true
	case *ir.Global:
		switch x.Name {
		case "dict", "lipsum", "cycler", "joiner":
			return jinja2.Undefined(x.Name), true
		}
	case *ir.Attr:
		if l, ok := x.X.(*ir.Load); ok {
			if _, ok := e.loop(l.Var); ok {
				return jinja2.Value{}, false
			}
		}
		return m.probeAttr(m.expr(e, x.X), x.Name), true
	case *ir.Item:
		obj := m.expr(e, x.X)
		return m.probeItem(obj, m.expr(e, x.Key)), true
	case *ir.Slice:
		obj := m.expr(e, x.X)
		part := func(q ir.Expr) jinja2.Value {
			if q == nil {
				return jinja2.Missing()
			}
			return m.expr(e, q)
		}
		start, stop, step := part(x.Start), part(x.Stop), part(x.Step)
		p.op(obj, "slice")
		if !llamacpp.HasBuiltin(obj, "slice") {
			llamaFail("Unknown (built-in) filter 'slice' for type %s", obj.TypeName())
		}
		return llamacpp.Slice(obj, start, stop, step), true
	case *ir.Binary:
		if c, ok := ir.LlamaConcat(x); ok {
			return m.expr(e, c), true
		}
		if op, ok := llamaArith[x.Op]; ok {
			return op(m.expr(e, x.L), m.expr(e, x.R)), true
		}
	case *ir.Concat:
		return llamacpp.Concat(m.exprs(e, x.Items)...), true
	}
	return jinja2.Value{}, false
}

// llamaArith are llama.cpp's arithmetic operators, the twin's.
var llamaArith = map[string]func(a, b jinja2.Value) jinja2.Value{
	"+": llamacpp.Add, "-": llamacpp.Sub, "*": llamacpp.Mul, "/": llamacpp.Div, "%": llamacpp.Mod,
	"//": llamacpp.FloorDiv, "**": llamacpp.Pow,
}

// probeAttr is obj.name in llama.cpp's engine: a builtin of obj's type if it has one
// (the object is marked and the name recorded either way), otherwise the item.
func (m *machine) probeAttr(obj jinja2.Value, name string) jinja2.Value {
	p := m.probe
	p.op(obj, name)
	if obj.Kind() == jinja2.KindUndefined {
		return jinja2.Undefined(name)
	}
	if llamacpp.HasBuiltin(obj, name) {
		if llamacpp.Kind(obj) == "dict" && (obj.Kind() == jinja2.KindNamespace || !dictMethods[name]) {
			// the builtin function, even where the object has an item of that name
			return jinja2.NewMacro(m.w, &jinja2.MacroSpec{Name: name}, func([]jinja2.Value) {})
		}
		return obj.Attr(name)
	}
	v := obj.Attr(name)
	p.mark(v)
	p.op(obj, "object_access")
	return v
}

// dictMethods are the builtins of a dict in llama.cpp that are Python dict methods too.
var dictMethods = map[string]bool{"get": true, "keys": true, "values": true, "items": true}

// probeItem is obj[key] in llama.cpp's engine.
func (m *machine) probeItem(obj, key jinja2.Value) jinja2.Value {
	p := m.probe
	if key.Kind() == jinja2.KindUndefined || obj.Kind() == jinja2.KindUndefined {
		return jinja2.Undefined("")
	}
	var v jinja2.Value
	switch llamacpp.Kind(obj) {
	case "dict":
		v = obj.Item(key)
		if v.Kind() == jinja2.KindUndefined {
			if s, ok := key.AsString(); ok {
				p.op(obj, s)
			}
		}
	case "list", "str":
		switch key.Kind() {
		case jinja2.KindInt:
			v = llamacpp.Item(obj, key) // a str by bytes: undefined below 0 and past its end
		case jinja2.KindString:
			s, _ := key.AsString()
			p.op(obj, s)
			v = jinja2.Undefined(s)
		default:
			llamaFail("Cannot access property with non-string/non-number: got %s", key.TypeName())
		}
	default:
		s, ok := key.AsString()
		if !ok {
			llamaFail("Cannot access property with non-string: got %s", key.TypeName())
		}
		p.op(obj, s)
		v = jinja2.Undefined(s)
	}
	p.mark(v)
	p.mark(obj)
	p.mark(key)
	switch key.Kind() {
	case jinja2.KindInt:
		p.op(obj, "array_access")
	case jinja2.KindString:
		p.op(obj, "object_access")
	}
	return v
}

// probeFor is what llama.cpp's for loop does with its iterable before iterating.
func (m *machine) probeFor(iter jinja2.Value) jinja2.Value {
	p := m.probe
	p.op(iter, "array_access")
	switch llamacpp.Kind(iter) {
	case "undefined":
		return jinja2.NewList()
	case "list":
	case "dict":
		p.op(iter, "object_access")
	default:
		if iter.Kind() != jinja2.KindLoop {
			llamaFail("Expected iterable or object type in for loop: got %s", iter.TypeName())
		}
	}
	return iter
}

// probeFilter is v|name(args) in llama.cpp's engine (llamacpp.CallFilter), with
// the value it applies the builtin to marked: |tojson and |string of a list or dict use
// everything in it.
func (m *machine) probeFilter(name string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	id, input := llamacpp.FilterTarget(name, v, len(args)+len(kwargs))
	m.probe.op(input, id)
	m.markBuiltin(id, input)
	return llamacpp.CallFilter(name, v, args, kwargs)
}

// probeMethod is recv.name(args) in llama.cpp's engine (llamacpp.CallMethod).
func (m *machine) probeMethod(recv jinja2.Value, name string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	m.probe.op(recv, name)
	if llamacpp.HasBuiltin(recv, name) {
		m.markBuiltin(name, recv)
	}
	return llamacpp.CallMethod(recv, name, args, kwargs)
}

// markBuiltin marks what builtin id uses of v.
func (m *machine) markBuiltin(id string, v jinja2.Value) {
	switch k := llamacpp.Kind(v); {
	case id == "tojson", id == "string" && (k == "list" || k == "dict"):
		m.probe.markDeep(v)
	}
}

// llamaComparisons are llama.cpp's comparison operators.
var llamaComparisons = map[string]func(a, b jinja2.Value) bool{
	"==": llamacpp.Eq, "!=": llamacpp.Ne, "<": llamacpp.Lt, "<=": llamacpp.Le, ">": llamacpp.Gt, ">=": llamacpp.Ge,
	"in": llamacpp.In, "notin": llamacpp.NotIn,
}

// probeSetAttr is {% set obj.name = v %}: llama.cpp sets a dict's item as it sets a
// namespace's attribute.
func probeSetAttr(obj jinja2.Value, name string, v jinja2.Value) {
	if d := obj.AsDict(); d != nil {
		d.SetStr(name, v)
		return
	}
	jinja2.SetAttr(obj, name, v)
}

// byName is how llama.cpp looks a name up in a macro: in the context it was called from,
// where the innermost assigned variable of that name is.
func (e *env) byName(name string) (jinja2.Value, bool) {
	for s := e; s != nil; s = s.parent {
		for v, l := range s.loops {
			if v.Name == name {
				return l.Value(), true
			}
		}
		var found *ir.Var // the latest of that name, should a scope hold several
		for v, p := range s.vars {
			if v.Name == name && !p.IsUndefined() && (found == nil || v.ID > found.ID) {
				found = v
			}
		}
		if found != nil {
			return *s.vars[found], true
		}
		if s.caller != nil {
			return s.caller.byName(name)
		}
	}
	return jinja2.Value{}, false
}
