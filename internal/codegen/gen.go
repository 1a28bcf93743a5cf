package codegen

import (
	"maps"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/syntax"
)

// The generator of one template's render function: its state, and the IR analyses it
// starts from (which variables are needed, which macros are called directly, which
// namespaces are local, whether Markup can occur).

// gen generates the render function of one template.
type gen struct {
	t     *ir.Template
	lines []string
	names map[string]bool
	// the byte offset of the column cite found last, from which the next cite on its
	// line counts (cites come in the template's order: a long line costs its length once)
	citeLine, citeCol, citeOff int

	// llama is set for the llama.cpp render function, which calls the runtime's
	// variants with llama.cpp's semantics (see gen.op); variants counts those calls,
	// and mutates says that the function changes values it may be given (so that it
	// renders a copy of its input); namespaceAttrs are the attribute assignments and
	// listMethods the list methods that change no such value (ir.NamespaceAttrs,
	// ir.ListMethods)
	llama          bool
	variants       int
	mutates        bool
	namespaceAttrs map[*ir.AttrTarget]bool
	listMethods    map[*ir.Call]bool
	// generationPrompt is the statement where the template's generation prompt starts,
	// which the function marks (ir.GenerationPrompt); atEnd, that it starts at the end
	generationPrompt *ir.If
	promptAtEnd      bool

	// the marks of the set and filter blocks being generated, outermost first, and how
	// many of them are outside the innermost loop (see dropCaptures)
	captures     []string
	loopCaptures int

	// the names alloc numbered, with their bases (see rename.go)
	numbered map[string]string
	// the number the next name made from each base starts looking from
	nextNumber map[string]int
	goName     map[*ir.Var]string
	needed     map[*ir.Var]bool
	// variables whose initial value no code sees (see ir.DeadInits)
	deadInit map[*ir.Var]bool
	loops    map[*ir.Var]bool // loop variables held as *runtime.Loop
	markup   bool             // the template can make Markup values (|safe, |escape...)

	// loop variables only asked for their position, compiled to an index into a slice
	positions map[*ir.Var]position

	// macro calls resolved to Go functions (see macros.go), and those functions' names
	macros     *ir.MacroCalls
	macroFuncs map[*ir.Var]string

	// the Go types of the locals that are not jinja2.Values (see allocLocal)
	localTypes map[string]string

	inputs map[string]string // input variables looked up once, by name (see inputDecls)

	// llama.cpp's macro scope (see ir/llamascope.go), in the function of a macro with
	// free names: the Go parameter of each free name, and the variables around the
	// macro that its parameters stand for
	free  map[string]string
	subst map[*ir.Var]string
	// freeRead are the Go names of free names that generated code has read: a macro
	// value declares only those (a name the macro only assigns would be a Go variable
	// declared and not used)
	freeRead map[string]bool
	// passed are the variables calls pass to the free names of the macros they call
	// (passedVars): a loop passed so is a value, not positions
	passed map[*ir.Var]bool

	// the statements whose cites start a span of the position table, by position (see
	// spans.go)
	sites    map[string]site // by the text of their cites
	lastSite ir.Pos          // the site recorded last

	namespaces map[*ir.Var]*localNamespace // namespaces held as Go variables (see namespaces.go)

	// read chains held in Go variables (see reads.go)
	settable map[string]bool // attribute names the template assigns
	reads    readCache       // the chains held at the point being generated
	counts   map[string]int  // how often the rest of the current block reads each chain

	// keepsWriter says that the functions keep a reference to their Writer (in a macro
	// value, a loop object or a global function), so that it cannot live on the stack
	// of the render (see appendFunc)
	keepsWriter bool

	// the writes a run can hold and the cites of statements, by their code (see
	// writes.go)
	runWrites map[jen.Code]runWrite
	cites     map[jen.Code]bool
}

// newGen starts the generator of a template's render function, with llama.cpp's
// semantics when llama is set.
func newGen(t *ir.Template, llama bool) *gen {
	macros := ir.ResolveMacroCalls(t)
	dead := ir.DeadInits(t)
	var passed map[*ir.Var]bool
	if llama {
		// the variables a call passes to a macro's free names are read at the call
		passed = passedVars(macros)
		for v := range passed {
			delete(dead, v)
		}
	}
	needed := ir.NeededVars(t, macros, dead, llama)
	g := &gen{
		t:          t,
		llama:      llama,
		lines:      strings.Split(t.Source, "\n"),
		names:      map[string]bool{},
		numbered:   map[string]string{},
		nextNumber: map[string]int{},
		goName:     map[*ir.Var]string{},
		needed:     needed,
		deadInit:   dead,
		loops:      map[*ir.Var]bool{},
		markup:     ir.MakesMarkup(t),

		positions: map[*ir.Var]position{},

		macros:     macros,
		macroFuncs: map[*ir.Var]string{},
		localTypes: map[string]string{},
		inputs:     map[string]string{},
		sites:      map[string]site{},
		namespaces: findLocalNamespaces(t, llama, func(d *ir.MacroDef) bool { return needed[d.Var] || macros.Called[d.Var] }),
		subst:      map[*ir.Var]string{},
		free:       map[string]string{},

		runWrites: map[jen.Code]runWrite{},
		cites:     map[jen.Code]bool{},

		settable: settableNames(t),
		reads:    readCache{},
		passed:   passed,
	}
	for v := range passed {
		// a namespace passed to a macro is a value
		delete(g.namespaces, v)
	}
	if llama {
		g.namespaceAttrs, g.listMethods = ir.NamespaceAttrs(t), ir.ListMethods(t)
	}
	if start, ok := ir.GenerationPrompt(t); ok {
		g.generationPrompt, g.promptAtEnd = start, start == nil
	}
	for _, n := range []string{"w", "jinja2", "args", "item", "mark", "math"} {
		g.names[n] = true
	}
	// the functions of macros take the macros' names
	ir.Inspect(t.Body.Stmts, func(n any) bool {
		if d, ok := n.(*ir.MacroDef); ok && macros.Called[d.Var] {
			g.macroFuncs[d.Var] = g.alloc(Identifier(d.Var.Name, false))
		}
		return true
	})
	return g
}

func rt(name string) *jen.Statement { return jen.Qual(Jinja2Path, name) }

// generationPromptMark is the code that marks where the template's generation prompt
// starts (jinja2.Writer.MarkGenerationPrompt), with why as its comment: llama-server
// renders the prompt and the generation prompt of a continued message at once.
func generationPromptMark(why string) []jen.Code {
	return []jen.Code{jen.Comment("llama-server's generation prompt starts here: " + why), jen.Id("w").Dot("MarkGenerationPrompt").Call()}
}

// direct is the function name of the render function's package: jinja2's, or
// llamacpp's in the llama.cpp render function, which has a function of the same name
// for each of jinja2's that a template's test, filter, method or loop calls directly
// (internal/llamacpp/direct.go).
func (g *gen) direct(name string) *jen.Statement {
	if g.llama {
		g.variants++
		return llama(name)
	}
	return rt(name)
}

// llama is the function name of package llamacpp, llama.cpp's variant of jinja2's
// function of the same name.
func llama(name string) *jen.Statement { return jen.Qual(LlamacppPath, name) }

// valueType is jinja2.Value.
func valueType() *jen.Statement { return rt("Value") }

func (g *gen) root() []jen.Code {
	code := g.inputDecls()
	code = append(code, g.scopeDecls(g.t.Body.Scope)...)
	code = append(code, g.stmts(g.t.Body.Stmts)...)
	if g.promptAtEnd {
		code = append(code, generationPromptMark("nothing reads add_generation_prompt")...)
	}
	if g.mutates {
		own := llama("OwnVariables").Call(jen.Id("w"))
		code = append([]jen.Code{jen.Comment("the render changes lists and dicts of its input: it works on a copy"), own}, code...)
	}
	return code
}

// inputDecls looks up, once at the start, the input variables that inner scopes start
// their variables from (a variable a loop body assigns starts as the input's value in
// each iteration): the input does not change during a render.
func (g *gen) inputDecls() []jen.Code {
	var code []jen.Code
	var fromCaller map[string]bool // the free names of the macros around
	declare := func(s *ir.Scope) {
		for _, v := range s.Vars {
			in, ok := v.Init.(*ir.Input)
			if !ok || !g.needed[v] || g.deadInit[v] || g.namespaces[v] != nil || fromCaller[in.Name] {
				continue
			}
			if _, done := g.inputs[in.Name]; !done {
				name := g.alloc(joinWords(Identifier(in.Name, false), "Input"))
				g.inputs[in.Name] = name
				code = append(code, jen.Id(name).Op(":=").Id("w").Dot("Lookup").Call(jen.Lit(in.Name)))
			}
		}
	}
	var visit func(n any) bool
	visit = func(n any) bool {
		switch n := n.(type) {
		case *ir.Block:
			declare(n.Scope)
		case *ir.For:
			if n.FilterScope != nil {
				declare(n.FilterScope)
			}
		case *ir.MacroDef:
			if names := g.llamaFree(n); len(names) > 0 {
				outer := fromCaller
				fromCaller = maps.Clone(outer)
				if fromCaller == nil {
					fromCaller = map[string]bool{}
				}
				for _, name := range names {
					fromCaller[name] = true
				}
				ir.Inspect([]ir.Stmt{n}, func(m any) bool { return m == n || visit(m) })
				fromCaller = outer
				return false
			}
		}
		return true
	}
	ir.Inspect(g.t.Body.Stmts, visit)
	return code
}

// scopeDecls declares the needed variables of a scope with their initial values; those
// whose initial value is never read come first, declared together (varDecls).
func (g *gen) scopeDecls(s *ir.Scope) []jen.Code {
	var code []jen.Code
	var zero []string
	for _, v := range s.Vars {
		if v.Init == nil || !g.needed[v] || g.namespaces[v] != nil {
			continue
		}
		if _, param := g.subst[v]; param {
			continue // a parameter of the macro's function
		}
		if g.deadInit[v] {
			zero = append(zero, g.varName(v))
			continue
		}
		init := g.value(v.Init)
		if in, ok := v.Init.(*ir.Input); ok && s != g.t.Body.Scope && g.free[in.Name] == "" {
			init = jen.Id(g.inputs[in.Name])
		}
		if p := g.free[startName(v)]; p != "" {
			// llama.cpp: the value the macro's caller gives the name
			init = g.readFree(p)
		}
		code = append(code, jen.Id(g.varName(v)).Op(":=").Add(init))
	}
	return append(varDecls(zero), code...)
}

// varDecls declares the named variables of type Value, as many to a line as fit in
// about a hundred columns: var a, b, c jinja2.Value.
func varDecls(names []string) []jen.Code {
	const width = 100
	var code []jen.Code
	for len(names) > 0 {
		n, cols := 1, len(names[0])
		for n < len(names) && cols+2+len(names[n]) <= width {
			cols += 2 + len(names[n])
			n++
		}
		ids := make([]jen.Code, n)
		for i, name := range names[:n] {
			ids[i] = jen.Id(name)
		}
		code = append(code, jen.Var().List(ids...).Add(valueType()))
		names = names[n:]
	}
	return code
}

// llamaLostText is the text a template starts with that llama.cpp's lexer loses, as
// Jinja2 renders it, or "": its lstrip_blocks, looking back from a {% or {# for the
// start of the line, takes reaching the template's second byte through whitespace for
// the start of the text (lexer.cpp: current == 1), so one character and whitespace
// other than newlines at the start of a template before a block tag are dropped
// ("{ {% if x %}" loses "{ ", "x{% if y %}" loses "x").
//
// Both lexers read a template with its \r\n and \r as \n. After a newline, Jinja2's
// lstrip_blocks strips the whitespace before the tag too, so that what it renders of
// "\n  {% if x %}" is the newline alone.
func llamaLostText(src string) string {
	src = syntax.NormalizeNewlines(src)
	if len(src) < 2 || src[0] == '{' && strings.IndexByte("{%#", src[1]) >= 0 {
		return "" // the template starts with a tag
	}
	i := 1
	for i < len(src) && strings.IndexByte(" \t\r\v\f", src[i]) >= 0 { // a newline stops it
		i++
	}
	if i+1 >= len(src) || src[i] != '{' || src[i+1] != '%' && src[i+1] != '#' {
		return ""
	}
	lost := src[:i]
	switch {
	case i+2 < len(src) && src[i+2] == '-':
		lost = strings.TrimRight(lost, " \t\n\r") // Jinja2 strips it too
	case src[0] == '\n':
		lost = "\n"
	}
	return lost
}

// startName is the name a variable starts from in the render's context (an input or
// undefined), or "" when it starts from another variable, a global or is a parameter.
func startName(v *ir.Var) string {
	switch x := v.Init.(type) {
	case *ir.Input:
		return x.Name
	case *ir.Undef:
		return x.Name
	}
	return ""
}

// assignedVars returns the variables a statement assigns, in the statements it contains
// too (not in macro bodies, which assign their own).
func assignedVars(s ir.Stmt) map[*ir.Var]bool {
	vars := map[*ir.Var]bool{}
	ir.Inspect([]ir.Stmt{s}, func(n any) bool {
		switch n := n.(type) {
		case *ir.Macro:
			return false
		case *ir.VarTarget:
			vars[n.Var] = true
		case *ir.MacroDef:
			vars[n.Var] = true
		}
		return true
	})
	return vars
}

// freshReads starts generating with no read chains held, and returns the function that
// brings them back: for code in a Go function of its own (a macro, a loop's filter, a
// recursive loop), which may run when the variables hold other values.
func (g *gen) freshReads() (restore func()) {
	held := g.reads
	g.reads = readCache{}
	return func() { g.reads = held }
}

// liftTarget returns what liftMacros needs to move the macro closures of the render
// function fn, which g generated, out to functions of their own, named
// prefix_macroSuffix.
func (g *gen) liftTarget(fn, prefix, suffix string) liftTarget {
	macros := map[string]string{}
	for v, name := range g.macroFuncs {
		macros[name] = v.Name
	}
	return liftTarget{fn: fn, prefix: prefix, suffix: suffix, macros: macros, types: g.localTypes}
}
