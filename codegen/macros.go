package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/ir"
)

// Calling macros directly: a macro with calls ir.ResolveMacroCalls resolved is a Go
// function (macroFunc in stmts.go), and a resolved call calls it, with the arguments
// bound to its parameters when the template is compiled.

// macroCall compiles a resolved call as a value: what the macro writes, captured.
func (g *gen) macroCall(c ir.DirectCall) *jen.Statement {
	return jen.Id("w").Dot("Capture").Call(jen.Func().Params().Block(g.callMacroFunc(c)))
}

// callMacroFunc is the Go call of a macro's function for a resolved call. With llama.cpp's
// semantics the arguments are bound as llama.cpp binds them, and the keyword arguments it
// binds to no parameter are evaluated first, for nothing.
func (g *gen) callMacroFunc(c ir.DirectCall) *jen.Statement {
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
