package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// Runs of writes: consecutive writes of text and values keep the output in a local
// variable, as hand-written Go appends to a slice, instead of loading the Writer's
// buffer and storing it back at each write:
//
//	out := w.Buffer()
//	out = w.AppendString(out, "<|im_start|>")
//	out = jinja2.AppendStr(w, out, messageRole)
//	out = w.AppendString(out, "\n")
//	w.SetBuffer(out)
//
// A run holds writes only (and the comments citing their statements): nothing else may
// write to the Writer while the run holds its output. A value whose evaluation makes a
// call may run a macro (a dict's item can be one, called as a method), and a macro
// called in an expression captures what it writes (Writer.Capture: it writes after the
// output and cuts it off again), so the run hands the output back to the Writer
// (SetBuffer) before such a value: the capture then writes after it, and leaves it as
// it was.

// outName is the Go name of a run's output (out2... where a block has several).
const outName = "out"

// minRun is the fewest writes a run holds: two writes cost as much through the Writer
// as a run's taking and handing back of the buffer does.
const minRun = 2

// A runWrite is a write that a run can hold: its text, or the runtime function that
// writes its value (AppendStr, Append) with the value's code, and whether the value
// makes a call.
type runWrite struct {
	text  string
	fn    string // "" for text
	value jen.Code
	calls bool
}

// textWrite returns the write of the template text s.
func (g *gen) textWrite(s string) jen.Code {
	code := jen.Id("w").Dot("WriteString").Call(jen.Lit(s))
	g.runWrites[code] = runWrite{text: s}
	return code
}

// valueWrite returns the write of x with the runtime's write (Write or WriteStr).
func (g *gen) valueWrite(write string, x ir.Expr) jen.Code {
	value := g.value(x)
	code := g.direct(write).Call(jen.Id("w"), value)
	if fn, ok := runAppends[write]; ok {
		g.runWrites[code] = runWrite{fn: fn, value: value, calls: makesCall(x)}
	}
	return code
}

// runAppends are the runtime's writes of a value in a run, by the writes they stand for.
var runAppends = map[string]string{"Write": "Append", "WriteStr": "AppendStr"}

// makesCall reports whether x calls anything, which may be a macro: a call of a macro,
// caller(), loop(), or a method (an item of a dict may be a macro).
func makesCall(x ir.Expr) bool {
	calls := false
	ir.InspectExpr(x, func(n any) bool {
		if _, ok := n.(*ir.Call); ok {
			calls = true
		}
		return !calls
	})
	return calls
}

// joinWrites returns the statements code with adjacent writes of text as one, and each
// run of at least minRun writes (textWrite's and valueWrite's, with the cites between
// them) holding the output in a local variable.
func (g *gen) joinWrites(code []jen.Code) []jen.Code {
	code = g.joinTexts(code)
	var out []jen.Code
	name := "" // the Go variable of the runs of this list, once its first declares it
	for i := 0; i < len(code); {
		// the run that starts at i: its writes, and where it ends (after its last write)
		n, end := 0, i
		for j := i; j < len(code); j++ {
			if _, ok := g.runWrites[code[j]]; ok {
				n, end = n+1, j+1
			} else if !g.cites[code[j]] {
				break
			}
		}
		if n < minRun {
			out = append(out, code[i])
			i++
			continue
		}
		for g.cites[code[i]] {
			out = append(out, code[i]) // the run starts in the span of its first write
			i++
		}
		if name == "" {
			// a name of its own: a set block's statements join the Go block around it
			name = g.alloc(outName)
			out = append(out, jen.Id(name).Op(":=").Id("w").Dot("Buffer").Call())
		} else {
			out = append(out, jen.Id(name).Op("=").Id("w").Dot("Buffer").Call())
		}
		held := false // whether the run has written since the Writer had the output
		for _, c := range code[i:end] {
			rw, ok := g.runWrites[c]
			switch {
			case !ok:
				out = append(out, c) // a cite
			case rw.fn == "":
				out = append(out, jen.Id(name).Op("=").Id("w").Dot("AppendString").Call(jen.Id(name), jen.Lit(rw.text)))
				held = true
			default:
				if rw.calls && held {
					out = append(out, jen.Id("w").Dot("SetBuffer").Call(jen.Id(name)).Comment("the Writer's again: a macro the value may call writes after it"))
				}
				out = append(out, jen.Id(name).Op("=").Add(g.qual(rw.fn)).Call(jen.Id("w"), jen.Id(name), rw.value))
				held = true
			}
		}
		out = append(out, jen.Id("w").Dot("SetBuffer").Call(jen.Id(name)))
		i = end
	}
	return out
}

// qual is the function name of the render function's package (jinja2's, or
// llamacpp's in the llama.cpp function) without counting it as a variant: direct has
// counted the write it stands for.
func (g *gen) qual(name string) *jen.Statement {
	if g.llama {
		return llama(name)
	}
	return rt(name)
}

// joinTexts returns code with adjacent writes of text as one write: texts with no cite
// between them are in the span of one statement.
func (g *gen) joinTexts(code []jen.Code) []jen.Code {
	var out []jen.Code
	for _, c := range code {
		if rw, ok := g.runWrites[c]; ok && rw.fn == "" && len(out) > 0 {
			if prev, ok := g.runWrites[out[len(out)-1]]; ok && prev.fn == "" {
				out[len(out)-1] = g.textWrite(prev.text + rw.text)
				continue
			}
		}
		out = append(out, c)
	}
	return out
}
