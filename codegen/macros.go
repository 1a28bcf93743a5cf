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

// callMacroFunc is the Go call of a macro's function for a resolved call.
func (g *gen) callMacroFunc(c ir.DirectCall) *jen.Statement {
	args := make([]jen.Code, len(c.Args))
	for i, a := range c.Args {
		if a == nil {
			args[i] = rt("Missing").Call()
		} else {
			args[i] = g.value(a)
		}
	}
	return jen.Id(g.macroFuncs[c.Macro.Var]).Call(args...)
}
