package jinja2

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// MacroSpec describes a macro's signature: its parameters and which of the implicit
// caller, varargs and kwargs variables its body reads.
type MacroSpec struct {
	Name    string
	Params  []string
	Caller  bool // the body reads caller
	Varargs bool // the body reads varargs
	Kwargs  bool // the body reads kwargs
	// Anonymous marks the caller of a call block: Jinja2 gives it no name, so it
	// prints as <Macro anonymous> and its name attribute is None.
	Anonymous bool
	// Bind, when set, binds the arguments of a call instead of Jinja2's rules: a macro
	// of a llama.cpp render function binds them as llama.cpp's engine does
	// (llamacpp.BindMacro).
	Bind func(spec *MacroSpec, args []Value, kwargs []Kwarg) []Value
}

// Callable is a value that can be called: a macro, a builtin function or a bound method.
type Callable struct {
	name    string
	spec    *MacroSpec
	body    func(args []Value)
	w       *Writer
	recv    Value
	method  method
	builtin func(args []Value, kwargs []Kwarg) Value
}

// NewMacro returns a macro that renders body into w and returns what it wrote. body
// receives one argument per parameter (Missing where the caller gave none and the
// parameter has a default; undefined where it has none), then caller, kwargs and
// varargs when the spec says the body reads them.
func NewMacro(w *Writer, spec *MacroSpec, body func(args []Value)) Value {
	return callableValue(&Callable{name: spec.Name, spec: spec, body: body, w: w})
}

// builtinFunc wraps a Go function as a callable value.
// BuiltinFunc returns a builtin function named name that calls fn: for an engine's
// builtins, which a template can read without calling them.
func BuiltinFunc(name string, fn func(args []Value, kwargs []Kwarg) Value) Value {
	return builtinFunc(name, fn)
}

func builtinFunc(name string, fn func(args []Value, kwargs []Kwarg) Value) Value {
	return callableValue(&Callable{name: name, builtin: fn})
}

func (c *Callable) typeName() string {
	switch {
	case c.spec != nil:
		return "Macro"
	case c.method != nil:
		return "builtin_function_or_method"
	}
	return "function"
}

func (c *Callable) repr() string {
	switch {
	case c.spec != nil && c.spec.Anonymous:
		return "<Macro anonymous>"
	case c.spec != nil:
		return fmt.Sprintf("<Macro %s>", Str(c.name).Repr())
	case c.method != nil:
		return fmt.Sprintf("<built-in method %s of %s object>", c.name, c.recv.TypeName())
	}
	return fmt.Sprintf("<function %s>", c.name)
}

// attr returns a macro's attributes: name, arguments, catch_kwargs, catch_varargs and
// caller, as Jinja2's Macro has them.
func (c *Callable) attr(name string) (Value, bool) {
	if c.spec == nil {
		return Value{}, false
	}
	switch name {
	case "name":
		if c.spec.Anonymous {
			return None(), true
		}
		return Str(c.spec.Name), true
	case "arguments":
		args := make([]Value, len(c.spec.Params))
		for i, p := range c.spec.Params {
			args[i] = Str(p)
		}
		return NewTuple(args...), true
	case "catch_kwargs":
		return Bool(c.spec.Kwargs), true
	case "catch_varargs":
		return Bool(c.spec.Varargs), true
	case "caller":
		return Bool(c.spec.Caller), true
	}
	return Value{}, false
}

func (c *Callable) call(args []Value, kwargs []Kwarg) Value {
	switch {
	case c.spec != nil:
		return c.callMacro(args, kwargs)
	case c.method != nil:
		return c.method(c.recv, args, kwargs)
	}
	return c.builtin(args, kwargs)
}

// CallWithScope is Call of a macro whose spec has a Bind (a llama.cpp render
// function's): its body receives scope after the arguments Bind binds. Any other value
// is called as Call calls it, without scope.
func CallWithScope(fn Value, scope, args []Value, kwargs []Kwarg) Value {
	if fn.kind() == KindCallable {
		if c := fn.callable(); c.spec != nil && c.spec.Bind != nil {
			return c.callBound(args, kwargs, scope)
		}
	}
	return Call(fn, args, kwargs)
}

// callBound renders the body of a macro whose spec has a Bind with the arguments Bind
// binds, then scope.
func (c *Callable) callBound(args []Value, kwargs []Kwarg, scope []Value) Value {
	return c.w.capture(func() { c.body(append(c.spec.Bind(c.spec, args, kwargs), scope...)) })
}

// callMacro binds arguments as Jinja2's Macro.__call__ does and renders the body.
func (c *Callable) callMacro(args []Value, kwargs []Kwarg) Value {
	spec := c.spec
	if spec.Bind != nil {
		return c.callBound(args, kwargs, nil)
	}
	n := len(spec.Params)
	bound := make([]Value, 0, n+3)
	foundCaller := false
	if len(args) >= n {
		bound = append(bound, args[:n]...)
	} else {
		bound = append(bound, args...)
		for _, name := range spec.Params[len(args):] {
			v := Missing()
			if i := kwargIndex(kwargs, name); i >= 0 {
				v = kwargs[i].Value
				kwargs = removeKwarg(kwargs, i)
			}
			if name == "caller" {
				foundCaller = true
			}
			bound = append(bound, v)
		}
	}
	if len(args) >= n {
		foundCaller = false
		for _, p := range spec.Params {
			if p == "caller" {
				foundCaller = true
			}
		}
	}
	if spec.Caller && !foundCaller {
		caller := undefinedMessage("No caller defined")
		if i := kwargIndex(kwargs, "caller"); i >= 0 {
			caller = kwargs[i].Value
			kwargs = removeKwarg(kwargs, i)
		}
		bound = append(bound, caller)
	}
	if spec.Kwargs {
		d := NewDict(len(kwargs))
		for _, kw := range kwargs {
			d.SetStr(kw.Name, kw.Value)
		}
		bound = append(bound, DictValue(d))
	} else if len(kwargs) > 0 {
		if kwargIndex(kwargs, "caller") >= 0 {
			throw(TypeError, "macro %s was invoked with two values for the special caller argument. This is most likely a bug.", Str(spec.Name).Repr())
		}
		throw(TypeError, "macro %s takes no keyword argument %s", Str(spec.Name).Repr(), Str(kwargs[0].Name).Repr())
	}
	if spec.Varargs {
		var extra []Value
		if len(args) > n {
			extra = append(extra, args[n:]...)
		}
		bound = append(bound, NewTuple(extra...))
	} else if len(args) > n {
		throw(TypeError, "macro %s takes not more than %d argument(s)", Str(spec.Name).Repr(), n)
	}
	return c.w.capture(func() { c.body(bound) })
}

// Param returns a macro argument: a given value as it is; for a required parameter the
// caller left out, an undefined value that names it.
func Param(v Value, name string) Value {
	if v.IsMissing() {
		return undefinedMessage(fmt.Sprintf("parameter %s was not provided", Str(name).Repr()))
	}
	return v
}

func kwargIndex(kwargs []Kwarg, name string) int {
	for i, kw := range kwargs {
		if kw.Name == name {
			return i
		}
	}
	return -1
}

func removeKwarg(kwargs []Kwarg, i int) []Kwarg {
	out := make([]Kwarg, 0, len(kwargs)-1)
	out = append(out, kwargs[:i]...)
	return append(out, kwargs[i+1:]...)
}

// object is a value with Python attributes and methods of its own (cycler, joiner).
type object interface {
	typeName() string
	attr(name string) (Value, bool)
	callMethod(name string, args []Value, kwargs []Kwarg) (Value, bool)
}

// Opaque returns a value of the type named name that has no attribute, method or
// operation of its own, and carries data (OpaqueData): for an engine's value Jinja2 has
// no counterpart of (llama.cpp's KwArg).
func Opaque(name string, data any) Value { return objectValue(&opaque{name, data}) }

// OpaqueData returns the data of a value Opaque made, nil for another value.
func (v Value) OpaqueData() any {
	if v.kind() != KindObject {
		return nil
	}
	if o, ok := v.object().(*opaque); ok {
		return o.data
	}
	return nil
}

// opaque is the object of Opaque.
type opaque struct {
	name string
	data any
}

func (o *opaque) typeName() string                                  { return o.name }
func (o *opaque) attr(string) (Value, bool)                         { return Value{}, false }
func (o *opaque) callMethod(string, []Value, []Kwarg) (Value, bool) { return Value{}, false }

// cycler is Jinja2's cycler(*items).
type cycler struct {
	items []Value
	pos   int
}

func (c *cycler) typeName() string { return "Cycler" }

func (c *cycler) attr(name string) (Value, bool) {
	if name == "current" {
		return c.items[c.pos], true
	}
	return Value{}, false
}

func (c *cycler) callMethod(name string, args []Value, kwargs []Kwarg) (Value, bool) {
	switch name {
	case "next":
		v := c.items[c.pos]
		c.pos = (c.pos + 1) % len(c.items)
		return v, true
	case "reset":
		c.pos = 0
		return None(), true
	}
	return Value{}, false
}

// joiner is Jinja2's joiner(sep): calling it returns "" the first time, sep after.
type joiner struct {
	sep  string
	used bool
}

func (j *joiner) typeName() string                                  { return "Joiner" }
func (j *joiner) attr(string) (Value, bool)                         { return Value{}, false }
func (j *joiner) callMethod(string, []Value, []Kwarg) (Value, bool) { return Value{}, false }

func (j *joiner) call(args []Value, kwargs []Kwarg) Value {
	if !j.used {
		j.used = true
		return Str("")
	}
	return Str(j.sep)
}

// templateRef is Jinja2's self: the TemplateReference of a template made from a
// string, whose blocks tmplgen does not expose as attributes.
type templateRef struct{}

func (templateRef) typeName() string                                  { return "TemplateReference" }
func (templateRef) repr() string                                      { return "<TemplateReference None>" }
func (templateRef) attr(string) (Value, bool)                         { return Value{}, false }
func (templateRef) callMethod(string, []Value, []Kwarg) (Value, bool) { return Value{}, false }

// Globals returns the value of a Jinja2 global function by name (range, dict,
// namespace, cycler, joiner, lipsum, raise_exception, strftime_now) for a template
// that uses one as a value rather than calling it.
func Globals(w *Writer, name string) Value {
	if v, ok := w.hides(name); ok {
		return v
	}
	switch name {
	case "range":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value { noKwargs(name, k); return Range(w, a...) })
	case "dict":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value { return NewDictCall(w, a, k) })
	case "namespace":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value { return NewNamespace(w, a, k) })
	case "cycler":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value { return Cycler(w, a...) })
	case "joiner":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value { return Joiner(w, a, k) })
	case "raise_exception":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value { return raiseException(w, a, k) })
	case "strftime_now":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value { return StrftimeNow(w, a, k) })
	case "self":
		return objectValue(templateRef{})
	case "lipsum":
		return builtinFunc(name, func(a []Value, k []Kwarg) Value {
			throw(NotImplemented_, "lipsum() is not supported")
			return Value{}
		})
	}
	return Undefined(name)
}

func noKwargs(name string, kwargs []Kwarg) {
	if len(kwargs) > 0 {
		throw(TypeError, "%s() takes no keyword arguments", name)
	}
}

// Cycler is Jinja2's cycler(*items).
func Cycler(w *Writer, items ...Value) Value {
	if v, ok := w.hides("cycler"); ok {
		return Call(v, items, nil)
	}
	if len(items) == 0 {
		throw(BuiltinRuntimeError, "at least one item has to be provided")
	}
	return objectValue(&cycler{items: items})
}

// Joiner is Jinja2's joiner(sep=", ").
func Joiner(w *Writer, args []Value, kwargs []Kwarg) Value {
	if v, ok := w.hides("joiner"); ok {
		return Call(v, args, kwargs)
	}
	a := bindArgs("joiner", args, kwargs, "sep")
	sep := ", "
	if given(a[0]) {
		sep = a[0].String()
	}
	return objectValue(&joiner{sep: sep})
}

// RaiseException is transformers' raise_exception(message): it fails the render with a
// *RaiseError carrying the message.
func RaiseException(w *Writer, args ...Value) Value { return raiseException(w, args, nil) }

// raiseException is RaiseException with keyword arguments (raise_exception(message=...)).
func raiseException(w *Writer, args []Value, kwargs []Kwarg) Value {
	if v, ok := w.hides("raise_exception"); ok {
		return Call(v, args, kwargs)
	}
	a := raiseExceptionFunc.bind(args, kwargs)
	panic(&RaiseError{Message: a[0].String()})
}

// raiseExceptionFunc is the signature of transformers' raise_exception(message).
var raiseExceptionFunc = &pyFunc{name: "raise_exception", required: 1, params: []string{"message"}}

// strftimeNowFunc is the signature of transformers' strftime_now(format).
var strftimeNowFunc = &pyFunc{name: "strftime_now", required: 1, params: []string{"format"}}

// NewNamespace is Jinja2's namespace(dict?, **attrs).
func NewNamespace(w *Writer, args []Value, kwargs []Kwarg) Value {
	if v, ok := w.hides("namespace"); ok {
		return Call(v, args, kwargs)
	}
	ns := &Namespace{}
	ns.attrs.setSlots(ns.inline[:])
	dictFromArgs("namespace", args, kwargs, &ns.attrs)
	return NamespaceValue(ns)
}

// NewDictCall is Python's dict(mapping_or_pairs?, **kwargs) as the dict global.
func NewDictCall(w *Writer, args []Value, kwargs []Kwarg) Value {
	if v, ok := w.hides("dict"); ok {
		return Call(v, args, kwargs)
	}
	d := &Dict{}
	dictFromArgs("dict", args, kwargs, d)
	return DictValue(d)
}

// DictFrom is Python's dict(v), outside a render: the dict of a mapping, or of an
// iterable of pairs; a failure is the *Error Python raises (a ValueError for an item
// that is not a pair, a TypeError for a value that is not iterable or a key that is not
// hashable).
func DictFrom(v Value) (d *Dict, err error) {
	defer func() {
		if p := recover(); p != nil {
			e, ok := p.(*Error)
			if !ok {
				panic(p)
			}
			d, err = nil, e
		}
	}()
	d = &Dict{}
	dictFromArgs("dict", []Value{v}, nil, d)
	return d, nil
}

func dictFromArgs(name string, args []Value, kwargs []Kwarg, d *Dict) {
	if len(args) > 1 {
		throw(TypeError, "%s expected at most 1 argument, got %d", name, len(args))
	}
	if int(d.half) < len(kwargs) {
		d.init(len(kwargs))
	}
	if len(args) == 1 {
		switch a := args[0]; a.kind() {
		case KindDict:
			src := a.dict()
			for i, k := range src.keys() {
				d.Set(k, src.at(i))
			}
		case KindNamespace:
			throw(TypeError, "'Namespace' object is not iterable")
		default:
			for i, it := range iterate(a) {
				pair := iterate(it)
				if len(pair) != 2 {
					throw(ValueError, "dictionary update sequence element #%d has length %d; 2 is required", i, len(pair))
				}
				checkHashable(pair[0])
				d.Set(pair[0], pair[1])
			}
		}
	}
	for _, kw := range kwargs {
		d.SetStr(kw.Name, kw.Value)
	}
}

// SetAttr is {% set ns.name = value %}: it assigns an attribute of a namespace.
func SetAttr(ns Value, name string, v Value) {
	CheckNamespace(ns)
	ns.namespace().attrs.SetStr(name, v)
}

// CheckNamespace fails as Jinja2 does when a set statement assigns an attribute of ns
// and ns is not a namespace.
func CheckNamespace(ns Value) {
	if ns.kind() != KindNamespace {
		throw(RuntimeError, "cannot assign attribute on non-namespace object")
	}
}

// Range is Python's range(stop) or range(start, stop[, step]), as a list, refused
// (as Jinja2's sandbox does) when it would have more than the render's Limits.MaxRange items.
func Range(w *Writer, args ...Value) Value {
	if v, ok := w.hides("range"); ok {
		return Call(v, args, nil)
	}
	switch {
	case len(args) < 1:
		throw(TypeError, "range expected at least 1 argument, got %d", len(args))
	case len(args) > 3:
		throw(TypeError, "range expected at most 3 arguments, got %d", len(args))
	}
	var ints [3]int64
	wide := false // a bound beyond what 64-bit arithmetic on the bounds can take
	for i, a := range args {
		if !a.isIntegral() {
			if a.kind() == KindUndefined {
				a.undefinedError()
			}
			throw(TypeError, "'%s' object cannot be interpreted as an integer", a.TypeName())
		}
		n, ok := a.AsInt()
		wide = wide || !ok || n <= -1<<62 || n >= 1<<62
		ints[i] = n
	}
	if wide {
		return bigRange(w, args)
	}
	start, stop, step := int64(0), ints[0], int64(1)
	if len(args) >= 2 {
		start, stop = ints[0], ints[1]
	}
	if len(args) == 3 {
		step = ints[2]
	}
	if step == 0 {
		throw(ValueError, "range() arg 3 must not be zero")
	}
	var n int64
	if step > 0 && start < stop {
		n = (stop - start + step - 1) / step
	} else if step < 0 && start > stop {
		n = (start - stop - step - 1) / -step
	}
	checkRangeLen(w, n)
	items := make([]Value, n)
	for i := range items {
		items[i] = Int(start + int64(i)*step)
	}
	return listValue(KindList, newListNamed(items, rangeRepr(start, stop, step, step == 1)))
}

// checkRangeLen refuses a range of n items as Jinja2's sandbox does (safe_range), past
// the render's Limits.MaxRange.
func checkRangeLen(w *Writer, n int64) {
	if limit := w.limits.MaxRange; n > int64(limit) {
		throw(OverflowError, "Range too big. The sandbox blocks ranges larger than MAX_RANGE (%d).", limit)
	}
}

// bigRange is Range of ints of args (all ints) of which one is at least 2**62 away
// from 0, in Python's arbitrary precision.
func bigRange(w *Writer, args []Value) Value {
	start, stop, step := big.NewInt(0), args[0].bigInt(), big.NewInt(1)
	if len(args) >= 2 {
		start, stop = args[0].bigInt(), args[1].bigInt()
	}
	if len(args) == 3 {
		step = args[2].bigInt()
	}
	if step.Sign() == 0 {
		throw(ValueError, "range() arg 3 must not be zero")
	}
	// the number of items, as Python's len(range(...)), which the sandbox checks
	n := new(big.Int)
	switch span := new(big.Int).Sub(stop, start); {
	case step.Sign() > 0 && span.Sign() > 0:
		n.Quo(span.Add(span, step).Sub(span, big.NewInt(1)), step)
	case step.Sign() < 0 && span.Sign() < 0:
		n.Quo(span.Add(span, step).Add(span, big.NewInt(1)), step)
	}
	if !n.IsInt64() {
		throw(OverflowError, "Python int too large to convert to C ssize_t")
	}
	checkRangeLen(w, n.Int64())
	items := make([]Value, n.Int64())
	item := new(big.Int).Set(start)
	for i := range items {
		items[i] = BigInt(item)
		item.Add(item, step)
	}
	return listValue(KindList, newListNamed(items, rangeRepr(start, stop, step, step.Cmp(big.NewInt(1)) == 0)))
}

// rangeRepr is repr(range(start, stop, step)); unit says step is 1, which it leaves out.
func rangeRepr[N int64 | *big.Int](start, stop, step N, unit bool) string {
	if unit {
		return fmt.Sprintf("range(%d, %d)", start, stop)
	}
	return fmt.Sprintf("range(%d, %d, %d)", start, stop, step)
}

// isRange reports whether a list value is the result of range() (it prints as one).
func isRange(v Value) bool { return v.kind() == KindList && strings.HasPrefix(v.list().name, "range(") }

// rangeParams returns the start, stop and step of a range value.
func rangeParams(v Value) (start, stop, step int64) {
	var nums []int64
	for _, f := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(v.list().name, "range("), ")"), ", ") {
		n, _ := strconv.ParseInt(f, 10, 64)
		nums = append(nums, n)
	}
	step = 1
	if len(nums) == 3 {
		step = nums[2]
	}
	return nums[0], nums[1], step
}

// isDictView reports whether a list value is a dict view (d.keys(), d.values(),
// d.items()): iterable and sized, but neither subscriptable nor a sequence.
func isDictView(v Value) bool {
	return v.kind() == KindList && strings.HasPrefix(v.list().name, "dict_")
}

// StrftimeNow is transformers' strftime_now(format): the input's clock formatted as
// Python's datetime.now().strftime does on glibc (a naive time: %z and %Z are empty).
func StrftimeNow(w *Writer, args []Value, kwargs []Kwarg) Value {
	if v, ok := w.hides("strftime_now"); ok {
		return Call(v, args, kwargs)
	}
	a := strftimeNowFunc.bind(args, kwargs)
	if a[0].kind() != KindString {
		throw(TypeError, "strftime() argument 1 must be str, not %s", a[0].TypeName())
	}
	return Str(pystr.Strftime(w.Clock(), a[0].str()))
}
