// Package compiler is the driver of tmplgen's compiler: it lowers template sources to IR
// (package ir), probes what llama.cpp sees in them (package llamaprobe) and names them, which
// gives the units package codegen turns into Go.
package compiler

import (
	"fmt"
	"strings"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamaprobe"
	"github.com/tmplgen/tmplgen/internal/vllmprobe"
	"github.com/tmplgen/tmplgen/templatehash"
)

// Source is a template to compile: its text and what to call it.
type Source struct {
	Name   string // the registry name
	Origin string // where the text came from
	File   string // the file name comments and error messages cite
	Text   string
	// Tokens are the special tokens of the model the text came from, by variable name
	// (bos_token, eos_token...), and AddBOS/AddEOS whether its tokenizer adds BOS/EOS
	// itself: generated into the Template, which renders with them.
	Tokens         map[string]string
	AddBOS, AddEOS bool
}

// CompileError is a template that could not be compiled, and why.
type CompileError struct {
	Source Source
	Err    error
}

func (e *CompileError) Error() string { return fmt.Sprintf("%s: %v", e.Source.Origin, e.Err) }

func (e *CompileError) Unwrap() error { return e.Err }

// Compile lowers each source to IR, probes its llama.cpp capabilities and gives it a Go
// identifier unique in the package: the units codegen generates; the sources that fail
// are returned as errors, with the line and column of the fault. A text is lowered
// once: a source whose text an earlier one has is a unit of the same IR (under its own
// file name) whose SameText is the earlier one's unit, which renders both.
func Compile(srcs []Source) ([]*codegen.Unit, []*CompileError) {
	var units []*codegen.Unit
	var failed []*CompileError
	idents := map[string]bool{"Registry": true, "Lookup": true, "LookupText": true, "ByName": true}
	first := map[string]*codegen.Unit{} // the first unit of each text, by sha256
	for _, s := range srcs {
		sum := templatehash.SHA256(s.Text)
		same := first[sum]
		var t, lt *ir.Template // Jinja2's IR, and llama.cpp's
		refusal := ""          // Jinja2's syntax error, for a text only llama.cpp loads
		var llamaErr error     // llama.cpp's parser's error, for a text only Jinja2 loads
		if same != nil {
			t = renamed(same.IR, s.File)
			lt = t
			if same.LlamaIR != same.IR {
				lt = renamed(same.LlamaIR, s.File)
			}
		} else {
			var err error
			if t, refusal, err = ir.CompileLenient(s.File, s.Text); err != nil {
				failed = append(failed, &CompileError{s, err})
				continue
			}
			if lt, llamaErr = ir.Llama(t); llamaErr != nil {
				// llama.cpp refuses the text when it loads it: its function never runs
				lt = t
			}
		}
		base := codegen.Identifier(s.Name, true)
		ident := base
		for i := 2; idents[ident]; i++ {
			ident = codegen.Numbered(base, i)
		}
		idents[ident] = true
		u := &codegen.Unit{
			Ident:    ident,
			Name:     s.Name,
			Origin:   s.Origin,
			SHA256:   sum,
			Aliases:  aliases(s.Text),
			IR:       t,
			LlamaIR:  lt,
			Caps:     llamaprobe.CapabilitiesWithTokens(lt, s.Tokens),
			VLLM:     vllmprobe.Facts(s.Text, t),
			Tokens:   s.Tokens,
			AddBOS:   s.AddBOS,
			AddEOS:   s.AddEOS,
			SameText: same,
		}
		if same != nil {
			refusal = same.JinjaRefusal
		}
		if llamaErr != nil && u.Caps.LoadError == "" {
			u.Caps.LoadError = "parser: " + llamaErr.Error()
		}
		u.JinjaRefusal = refusal
		if same == nil {
			first[sum] = u
		}
		units = append(units, u)
	}
	return units, failed
}

// renamed returns a copy of t under the file name file.
func renamed(t *ir.Template, file string) *ir.Template {
	named := *t
	named.File = file
	return &named
}

// aliases returns the sha256 of the texts that render exactly as text: with one trailing
// newline added, and without the one it has (Jinja2 drops a single trailing newline).
func aliases(text string) []string {
	out := []string{templatehash.SHA256(text + "\n")}
	if strings.HasSuffix(text, "\n") {
		out = append(out, templatehash.SHA256(strings.TrimSuffix(text, "\n")))
	}
	return out
}
