package ir

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// This file holds analyses of what a template does with its input, for people auditing a
// prompt format: the input fields it reads, the errors it raises and the special tokens
// it writes.

// maxPathDepth bounds the paths Reads follows (a loop that walks x = x.next would
// otherwise give ever longer ones).
const maxPathDepth = 8

// Reads returns the input fields and variables the template reads, as paths:
// "messages", "messages[].role" (a field of each message), "tools[].function.name",
// "enable_thinking". The analysis follows values through variables, loops, macro
// arguments and the common filters; it reports what the template may read, whatever the
// input.
func Reads(t *Template) []string {
	// A variable that starts as an input value but is assigned on every path before it
	// is read (DeadInits) only looks like an input because of Jinja2's scoping: its
	// input value is never used. One assigned on some paths only, as Llama 3.1's
	// {% if custom_tools is defined %}{% set tools = custom_tools %}{% endif %}, does
	// read it.
	a := &readAnalysis{vars: map[*Var]pathSet{}, reads: pathSet{}, macros: map[*Var]*Macro{}, assigned: DeadInits(t)}
	Inspect(t.Body.Stmts, func(n any) bool {
		if n, ok := n.(*MacroDef); ok {
			a.macros[n.Var] = n.Macro
		}
		return true
	})
	for a.changed = true; a.changed; {
		a.changed = false
		a.block(t.Body)
	}
	out := make([]string, 0, len(a.reads))
	for p := range a.reads {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// pathSet is a set of input paths a value may come from.
type pathSet map[string]bool

type readAnalysis struct {
	vars     map[*Var]pathSet
	reads    pathSet
	macros   map[*Var]*Macro
	assigned map[*Var]bool // assigned on every path before they are read (DeadInits)
	changed  bool
}

func (a *readAnalysis) read(p string) {
	if !a.reads[p] {
		a.reads[p] = true
		a.changed = true
	}
}

// flow adds paths to what a variable may hold.
func (a *readAnalysis) flow(v *Var, ps pathSet) {
	if v == nil {
		return
	}
	set := a.vars[v]
	if set == nil {
		set = pathSet{}
		a.vars[v] = set
	}
	for p := range ps {
		if !set[p] {
			set[p] = true
			a.changed = true
		}
	}
}

func (a *readAnalysis) block(b *Block) {
	if b == nil {
		return
	}
	a.scope(b.Scope)
	for _, s := range b.Stmts {
		a.stmt(s)
	}
}

func (a *readAnalysis) scope(s *Scope) {
	if s == nil {
		return
	}
	for _, v := range s.Vars {
		if _, input := v.Init.(*Input); v.Init != nil && !(input && a.assigned[v]) {
			a.flow(v, a.expr(v.Init))
		}
	}
}

func (a *readAnalysis) stmts(ss []Stmt) {
	for _, s := range ss {
		a.stmt(s)
	}
}

func (a *readAnalysis) stmt(s Stmt) {
	switch s := s.(type) {
	case *Print:
		a.use(a.expr(s.X))
	case *If:
		a.expr(s.Cond)
		a.stmts(s.Then)
		a.stmts(s.Else)
	case *For:
		elems := extend(a.expr(s.Iter), "[]")
		if s.Filter != nil {
			a.scope(s.FilterScope)
			a.target(s.FilterTarget, elems)
			a.expr(s.Filter)
		}
		a.target(s.Target, elems)
		a.block(s.Body)
		a.block(s.Else)
	case *Assign:
		a.target(s.Target, a.expr(s.Value))
	case *Capture:
		a.block(s.Body)
		for _, f := range s.Filters {
			a.args(f.Args)
		}
	case *MacroDef:
		a.macro(s.Macro)
	case *CallBlock:
		a.expr(s.Call)
		a.macro(s.Caller)
	case *FilterBlock:
		a.block(s.Body)
		for _, f := range s.Filters {
			a.args(f.Args)
		}
	case *With:
		for i, t := range s.Targets {
			a.scope(s.Body.Scope)
			a.target(t, a.expr(s.Values[i]))
		}
		a.block(s.Body)
	}
}

func (a *readAnalysis) macro(m *Macro) {
	for i, d := range m.Defaults {
		if d != nil {
			a.flow(m.Params[i], a.expr(d))
		}
	}
	a.block(m.Body)
}

func (a *readAnalysis) target(t Target, ps pathSet) {
	switch t := t.(type) {
	case *VarTarget:
		a.flow(t.Var, ps)
	case *AttrTarget:
		a.flow(t.NS, nsAttr(ps, t.Attr))
	case *TupleTarget:
		// unpacking a dict's items gives its values second; other sequences any item
		values, items := pathSet{}, pathSet{}
		for p := range ps {
			if base, ok := strings.CutSuffix(p, itemsMark+"[]"); ok {
				values[base+"[]"] = true
			} else {
				items[p] = true
			}
		}
		for i, it := range t.Items {
			elems := extend(items, "[]")
			if i == 1 {
				elems = union(elems, values)
			}
			a.target(it, elems)
		}
	}
}

// use records that a value is used as a whole (printed, compared, serialized); a
// namespace is used with the values of its attributes.
func (a *readAnalysis) use(ps pathSet) {
	for p := range ps {
		base, _, _ := strings.Cut(p, nsMark)
		a.read(base)
	}
}

func (a *readAnalysis) args(args Args) []pathSet {
	var out []pathSet
	for _, x := range args.Args {
		out = append(out, a.expr(x))
	}
	for _, kw := range args.Kwargs {
		a.use(a.expr(kw.Value))
	}
	if args.DynArgs != nil {
		a.use(a.expr(args.DynArgs))
	}
	if args.DynKwargs != nil {
		a.use(a.expr(args.DynKwargs))
	}
	return out
}

// itemsMark ends the path of a dict's items(): iterating it gives (key, value) pairs.
const itemsMark = "\x00items"

// nsMark ends the path of a value held in a namespace's attribute: P + nsMark + "t" is
// the value of P kept as attribute t, which ns.t gives back as P.
const nsMark = "\x00ns."

// nsAttr returns the paths ps as the values of a namespace's attribute attr.
func nsAttr(ps pathSet, attr string) pathSet {
	out := pathSet{}
	for p := range ps {
		out[p+nsMark+attr] = true
	}
	return out
}

// extend appends a step to every path, within the depth bound. A step that repeats the
// path's last one (x = x.next in a loop) leaves the path as it is.
func extend(ps pathSet, step string) pathSet {
	out := pathSet{}
	for p := range ps {
		if base, attr, ok := strings.Cut(p, nsMark); ok {
			if step == "."+attr {
				out[base] = true // ns.attr gives back what was kept
			}
			continue
		}
		switch {
		case strings.HasSuffix(p, step) && step != "[]":
			out[p] = true
		case strings.Count(p, ".")+strings.Count(p, "[]") < maxPathDepth:
			out[p+step] = true
		}
	}
	return out
}

func union(sets ...pathSet) pathSet {
	out := pathSet{}
	for _, s := range sets {
		for p := range s {
			out[p] = true
		}
	}
	return out
}

// expr returns the input paths the value of x may be, recording the reads it makes.
func (a *readAnalysis) expr(x Expr) pathSet {
	switch x := x.(type) {
	case nil:
		return nil
	case *Input:
		a.read(x.Name)
		return pathSet{x.Name: true}
	case *Load:
		return a.vars[x.Var]
	case *Attr:
		ps := extend(a.expr(x.X), "."+x.Name)
		a.use(ps)
		return ps
	case *Item:
		base := a.expr(x.X)
		key := a.expr(x.Key)
		a.use(key)
		var ps pathSet
		if c, ok := x.Key.(*Const); ok {
			if s, ok := c.Value.(string); ok {
				ps = extend(base, "."+s)
			}
		}
		if ps == nil {
			ps = extend(base, "[]")
		}
		a.use(ps)
		return ps
	case *Slice:
		a.use(union(a.expr(x.Start), a.expr(x.Stop), a.expr(x.Step)))
		return a.expr(x.X)
	case *Unspelled:
		return a.expr(x.X)
	case *Invalid:
		return a.expr(x.X)
	case *Cond:
		a.use(a.expr(x.Test))
		return union(a.expr(x.Then), a.expr(x.Else))
	case *Binary:
		l, r := a.expr(x.L), a.expr(x.R)
		if x.Op == "and" || x.Op == "or" {
			return union(l, r)
		}
		a.use(l)
		a.use(r)
		return nil
	case *Call:
		return a.call(x)
	case *Filter:
		return a.filter(x)
	case *Test:
		a.use(a.expr(x.X))
		for _, ps := range a.args(x.Args) {
			a.use(ps)
		}
		return nil
	}
	// other expressions compute new values from their operands, which they use
	InspectExpr(x, func(n any) bool {
		if n == x {
			return true
		}
		if e, ok := n.(Expr); ok {
			a.use(a.expr(e))
		}
		return false
	})
	return nil
}

// passThrough are filters whose result is (some of) the items of their input.
var passThrough = map[string]bool{
	"first": true, "last": true, "list": true, "reverse": true, "sort": true, "unique": true,
	"select": true, "reject": true, "selectattr": true, "rejectattr": true, "default": true,
	"d": true, "batch": true, "slice": true, "dictsort": true, "items": true, "min": true, "max": true,
}

func (a *readAnalysis) filter(f *Filter) pathSet {
	in := a.expr(f.X)
	args := a.args(f.Args)
	// the attribute the filter reads from each item, where it takes one
	attr := ""
	pos := map[string]int{"selectattr": 0, "rejectattr": 0, "groupby": 0, "sum": 0, "join": 1, "map": -1}
	if i, ok := pos[f.Name]; ok && i >= 0 && i < len(f.Args.Args) {
		if c, ok := f.Args.Args[i].(*Const); ok {
			attr, _ = c.Value.(string)
		}
	}
	for _, kw := range f.Args.Kwargs {
		if c, ok := kw.Value.(*Const); ok && kw.Name == "attribute" {
			attr, _ = c.Value.(string)
		}
	}
	switch {
	case attr != "":
		a.use(extend(in, "[]."+attr))
		if f.Name == "selectattr" || f.Name == "rejectattr" {
			return in
		}
		return nil
	case passThrough[f.Name]:
		out := in
		if f.Name == "default" || f.Name == "d" {
			for _, ps := range args {
				out = union(out, ps)
			}
		}
		if f.Name == "first" || f.Name == "last" || f.Name == "min" || f.Name == "max" {
			out = extend(in, "[]")
		}
		return out
	}
	a.use(in)
	for _, ps := range args {
		a.use(ps)
	}
	return nil
}

func (a *readAnalysis) call(c *Call) pathSet {
	if g, ok := c.Fn.(*Global); ok && g.Name == "namespace" {
		// namespace(t=x) keeps x as its attribute t
		out := pathSet{}
		for _, kw := range c.Args.Kwargs {
			out = union(out, nsAttr(a.expr(kw.Value), kw.Name))
		}
		for _, x := range append(c.Args.Args, c.Args.DynArgs, c.Args.DynKwargs) {
			a.use(a.expr(x))
		}
		return out
	}
	args := a.args(c.Args)
	switch fn := c.Fn.(type) {
	case *Attr:
		recv := a.expr(fn.X)
		switch fn.Name {
		case "get":
			if len(c.Args.Args) > 0 {
				if k, ok := c.Args.Args[0].(*Const); ok {
					if s, ok := k.Value.(string); ok {
						ps := extend(recv, "."+s)
						a.use(ps)
						out := ps
						if len(args) > 1 {
							out = union(out, args[1])
						}
						return out
					}
				}
			}
		case "items":
			return extend(recv, itemsMark)
		case "values":
			return recv
		case "keys", "copy":
			return recv
		}
		a.use(recv)
		for _, ps := range args {
			a.use(ps)
		}
		return nil
	case *Load:
		if m, ok := a.macros[fn.Var]; ok {
			for i, ps := range args {
				if i < len(m.Params) {
					a.flow(m.Params[i], ps)
				}
			}
			for _, kw := range c.Args.Kwargs {
				for _, p := range m.Params {
					if p.Name == kw.Name {
						a.flow(p, a.expr(kw.Value))
					}
				}
			}
			return nil
		}
	}
	a.expr(c.Fn)
	for _, ps := range args {
		a.use(ps)
	}
	return nil
}

// Raise is a raise_exception call of a template.
type Raise struct {
	Pos Pos
	// Message is the message when it is a literal, otherwise the expression that
	// computes it.
	Message string
}

// Raises returns the errors a template raises on purpose (raise_exception calls), in
// source order.
func Raises(t *Template) []Raise {
	var out []Raise
	Inspect(t.Body.Stmts, func(n any) bool {
		c, ok := n.(*Call)
		if !ok {
			return true
		}
		if g, ok := c.Fn.(*Global); !ok || g.Name != "raise_exception" {
			return true
		}
		msg := "?"
		if len(c.Args.Args) > 0 {
			msg = ExprString(c.Args.Args[0])
			if k, ok := c.Args.Args[0].(*Const); ok {
				if s, ok := k.Value.(string); ok {
					msg = s
				}
			}
		}
		out = append(out, Raise{Pos: c.P, Message: msg})
		return true
	})
	return out
}

// specialToken matches text that looks like a tokenizer's special token: <|...|>,
// <｜...｜>, <s>, </s>, <start_of_turn>, [INST], [/INST] and the like.
var specialToken = regexp.MustCompile(`<\|[^<>|\s]{1,64}\|>|<｜[^<>｜]{1,64}｜>|</?[A-Za-z][A-Za-z0-9_]{0,40}>|\[/?[A-Z][A-Z_]{1,30}\]`)

// SpecialTokens returns the special tokens a template writes literally, sorted.
func SpecialTokens(t *Template) []string {
	seen := map[string]bool{}
	add := func(s string) {
		for _, m := range specialToken.FindAllString(s, -1) {
			seen[m] = true
		}
	}
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Text:
			add(n.Text)
		case *Const:
			if s, ok := n.Value.(string); ok {
				add(s)
			}
		}
		return true
	})
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Refusal is a construct the sandbox refuses when it runs.
type Refusal struct {
	Pos  Pos
	What string
}

// mutatingMethods are the list and dict methods Jinja2's immutable sandbox refuses.
var mutatingMethods = map[string]bool{
	"append": true, "extend": true, "insert": true, "pop": true, "remove": true, "reverse": true,
	"sort": true, "clear": true, "update": true, "setdefault": true, "popitem": true,
}

// SandboxRefusals returns what the template does that the sandbox refuses at render
// time (as Jinja2's ImmutableSandboxedEnvironment does): special attributes such as
// x.__class__, and calls of the methods that mutate lists and dicts. Rendering refuses
// them only when they run (with a SecurityError), as Jinja2 does; reporting them when
// the template is compiled lets people see them before.
func SandboxRefusals(t *Template) []Refusal {
	var out []Refusal
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Attr:
			if len(n.Name) > 4 && strings.HasPrefix(n.Name, "__") && strings.HasSuffix(n.Name, "__") {
				out = append(out, Refusal{n.P, fmt.Sprintf(".%s is a special attribute", n.Name)})
			}
		case *Call:
			if a, ok := n.Fn.(*Attr); ok && mutatingMethods[a.Name] {
				out = append(out, Refusal{a.P, fmt.Sprintf(".%s() mutates a list or dict", a.Name)})
			}
		}
		return true
	})
	return out
}
