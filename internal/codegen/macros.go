package codegen

import (
	"maps"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// Calling macros directly: a macro with calls ir.ResolveMacroCalls resolved is a Go
// function (macroFunc in stmts.go), and a resolved call calls it, with the arguments
// bound to its parameters when the template is compiled.

// macroCall compiles a resolved call x as a value: what the macro writes, captured.
func (g *gen) macroCall(x *ir.Call, c ir.DirectCall) *jen.Statement {
	return jen.Id("w").Dot("Capture").Call(jen.Func().Params().Block(g.callMacroFunc(x, c)))
}

// callMacroFunc is the Go call of a macro's function for a resolved call x. With
// llama.cpp's semantics the arguments are bound as llama.cpp binds them, and the keyword
// arguments it binds to no parameter are evaluated first, for nothing; or, when that
// depends on their values (c.LlamaBindsLate), bound when the call runs.
func (g *gen) callMacroFunc(x *ir.Call, c ir.DirectCall) *jen.Statement {
	if g.llama && c.LlamaBindsLate {
		return g.callMacroLate(x, c)
	}
	bound := c.Args
	if g.llama {
		bound = c.LlamaArgs
		g.variants++
	}
	args := make([]jen.Code, len(bound))
	for i, a := range bound {
		if a == nil {
			args[i] = rt("Missing").Call()
		} else {
			args[i] = g.value(a)
		}
	}
	if g.llama {
		args = append(args, g.values(c.LlamaEnv)...)
	}
	call := jen.Id(g.macroFuncs[c.Macro.Var]).Call(args...)
	if !g.llama || len(c.LlamaLost) == 0 {
		return call
	}
	var body []jen.Code
	for _, x := range c.LlamaLost {
		body = append(body, jen.Id("_").Op("=").Add(g.value(x)))
	}
	return jen.Func().Params().Block(append(body, call)...).Call()
}

// callMacroLate is callMacroFunc of a call whose arguments llama.cpp binds by their
// values: llamacpp.BindMacro binds them when the call runs.
func (g *gen) callMacroLate(x *ir.Call, c ir.DirectCall) *jen.Statement {
	g.variants++
	params := c.Macro.Macro.Params
	args, kwargs := g.args(x.Args)
	bind := jen.Id("bound").Op(":=").Add(llama("BindMacro").Call(g.macroSpec(c.Macro.Macro, false), args, kwargs))
	call := make([]jen.Code, 0, len(params)+len(c.LlamaEnv))
	for i := range params {
		call = append(call, jen.Id("bound").Index(jen.Lit(i)))
	}
	call = append(call, g.values(c.LlamaEnv)...)
	return jen.Func().Params().Block(
		jen.Comment("llama.cpp binds these arguments by their values (a KwArg among them is a keyword argument)"),
		bind,
		jen.Id(g.macroFuncs[c.Macro.Var]).Call(call...),
	).Call()
}

// llamaFree returns the names a macro takes from its caller in the llama.cpp render
// function (see ir/llamascope.go); none in the Jinja2 one.
func (g *gen) llamaFree(d *ir.MacroDef) []string {
	if !g.llama {
		return nil
	}
	return g.macros.LlamaFree[d]
}

// freeParams names the Go parameters of a macro's function for the names it takes from
// its caller, and has the macro's body read them: the macro's own variable of the name
// is the parameter, and so are the variables of the name around its definition. end
// brings back the names of the code around.
func (g *gen) freeParams(d *ir.MacroDef) (params []string, end func()) {
	names := g.llamaFree(d)
	if len(names) == 0 {
		return nil, func() {}
	}
	free, subst := g.free, g.subst
	g.free, g.subst = maps.Clone(free), maps.Clone(subst)
	for _, name := range names {
		var p string
		if own := d.Macro.Body.Scope.Lookup(name); own != nil && own.Init != nil {
			p = g.varName(own)
			g.subst[own] = p
		} else {
			p = g.alloc(Identifier(name, false))
		}
		g.free[name] = p
		params = append(params, p)
	}
	for v := range g.macros.LlamaShadowed(d) {
		g.subst[v] = g.free[v.Name]
	}
	g.variants++
	return params, func() { g.free, g.subst = free, subst }
}

// substituted reports whether v stands for a free name in the function being generated
// (freeParams): a loop around a macro is then the value its caller gives, not the
// loop's own state.
func (g *gen) substituted(v *ir.Var) bool {
	_, ok := g.subst[v]
	return ok
}

// readFree is a read of the Go name p of a free name (see freeParams).
func (g *gen) readFree(p string) *jen.Statement {
	if g.freeRead == nil {
		g.freeRead = map[string]bool{}
	}
	g.freeRead[p] = true
	return jen.Id(p)
}

// passedVars are the variables resolved calls, and calls through values, give macros for
// the names the macros take from their caller, and those macro values give them where
// they are defined (ir.MacroCalls.LlamaDefault).
func passedVars(macros *ir.MacroCalls) map[*ir.Var]bool {
	passed := map[*ir.Var]bool{}
	mark := func(env []ir.Expr) {
		for _, x := range env {
			if l, ok := x.(*ir.Load); ok {
				passed[l.Var] = true
			}
		}
	}
	for _, c := range macros.Direct {
		mark(c.LlamaEnv)
	}
	for _, c := range macros.ValueCalls {
		mark(c.LlamaEnv)
	}
	for _, xs := range macros.LlamaDefault {
		mark(xs)
	}
	return passed
}
