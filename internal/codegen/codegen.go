// Package codegen turns the IR of a chat template into Go source: a render function per
// template that calls package jinja2, and a second one with llama.cpp's semantics (the
// runtime's Llama functions where they differ from Jinja2's), built with jennifer and
// formatted once, with comments that cite the template line each block comes from and a
// position table that maps the generated lines back to the template's statements.
//
// The files: codegen.go writes a template's file and the registry; gen.go holds the
// generator and the analyses it starts from; stmts.go and exprs.go generate statements
// and expressions (macros.go, namespaces.go, reads.go and direct.go their
// specialisations); names.go names things; cites.go and spans.go cite the template and
// build the position table; package.go writes a package's files.
package codegen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"slices"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/internal/version"
)

// Jinja2Path is the import path of the runtime package generated code calls.
const Jinja2Path = "github.com/tmplgen/tmplgen/jinja2"

// LlamacppPath is the import path of the package a template's llama.cpp render function
// calls where llama.cpp's semantics differ from Jinja2's.
const LlamacppPath = "github.com/tmplgen/tmplgen/llamacpp"

// TmplgenPath is the import path of the package that defines what a service touches:
// the Template a generated file declares, the Registry of a generated package.
const TmplgenPath = "github.com/tmplgen/tmplgen"

// Unit is one template to generate: its IR and what the registry says about it.
type Unit struct {
	// Ident is the Go name of the template's variable (exported); its render function
	// is Ident prefixed with "render" (a unit with a SameText has none).
	Ident string
	// Name is the template's name in the registry.
	Name string
	// Origin says where the text came from (a catalog path, a model file).
	Origin string
	// SHA256 is the hex sha256 of the template text.
	SHA256 string
	// Aliases are other sha256 values that select this template (the same text with or
	// without its trailing newline, which renders identically).
	Aliases []string
	// IR is the lowered template.
	IR *ir.Template
	// LlamaIR is the template as llama.cpp's engine reads it (ir.Llama), which the
	// llama.cpp render function is generated from: IR itself where nothing differs.
	// Nil is IR.
	LlamaIR *ir.Template
	// Caps are the template's llama.cpp capabilities (see llamaprobe.Capabilities), which
	// package compiler computes.
	Caps llamacpp.Capabilities
	// VLLM is what vLLM decides about the template (see vllmprobe.Facts), which package
	// compiler computes.
	VLLM tmplgen.VLLMFacts
	// Tokens, AddBOS and AddEOS are the model's special tokens and tokenizer settings
	// (see compiler.Source).
	Tokens         map[string]string
	AddBOS, AddEOS bool
	// JinjaRefusal is the syntax error Jinja2 gives for a text llama.cpp loads (generation
	// tags that do not pair up, which llama.cpp ignores): IR is then the text as llama.cpp
	// reads it, Func fails every render with this error, and LlamaFunc renders. Empty for
	// a text Jinja2 loads.
	JinjaRefusal string
	// SameText is the unit of the package compiled from the same text, when this one's
	// text is another's (two models with one template): this unit's template renders
	// with that unit's functions and position table, and has none of its own. Nil for
	// a unit with functions of its own.
	SameText *Unit
}

// Generator names what generated files say made them.
const Generator = "tmplgen"

// versionGuard writes the assertion that the runtime the file builds with runs code of
// the version this generator writes, its runtime's MaxVersion (see
// jinja2.EnforceVersion).
func versionGuard(f *jen.File) {
	n := jen.Lit(jinja2.MaxVersion)
	f.Commentf("This is generated code of version %d, which the runtime must run (see jinja2.EnforceVersion).", jinja2.MaxVersion)
	f.Const().Defs(
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(n.Clone().Op("-").Add(rt("MinVersion"))).Comment("the runtime is too new for this file: generate it again"),
		jen.Id("_").Op("=").Add(rt("EnforceVersion")).Call(rt("MaxVersion").Op("-").Add(n)).Comment("the runtime is too old for this file: update the tmplgen module"),
	)
	f.Line()
}

// File returns the Go source of one template's file in package pkg: the template's
// variable, its render functions and their position table; for a unit of the same text
// as another (SameText), the variable alone, rendering with the other's.
func File(pkg string, u *Unit) ([]byte, error) {
	f := jen.NewFile(pkg)
	f.ImportName(TmplgenPath, "tmplgen")
	f.ImportName(Jinja2Path, "jinja2")
	f.ImportName(LlamacppPath, "llamacpp")
	f.HeaderComment(fmt.Sprintf("Code generated by %s %s from %s (sha256 %s). DO NOT EDIT.", Generator, version.Version, sanitizeComment(u.Origin), u.SHA256))
	fields := templateFields(u)
	// declare writes the template's variable, with its doc comment, and the version guard
	declare := func(doc ...string) {
		for _, line := range doc {
			f.Comment(line)
		}
		f.Var().Id(u.Ident).Op("=").Op("&").Qual(TmplgenPath, "Template").Values(fields)
		f.Line()
		versionGuard(f)
	}
	if same := u.SameText; same != nil {
		for _, field := range []string{"Func", "LlamaFunc", "Spans"} {
			fields[jen.Id(field)] = jen.Id(same.Ident).Dot(field)
		}
		declare(fmt.Sprintf("%s is the chat template %s.", u.Ident, sanitizeComment(u.Origin)),
			fmt.Sprintf("Its text is %s's, whose functions render it.", same.Ident))
		return render(f, nil, nil)
	}
	g := newGen(u.IR, false)
	fn := "render" + u.Ident
	body := g.root()
	// the same template with llama.cpp's semantics, when they make a difference
	lg := newGen(u.llamaIR(), true)
	llamaFn := fn + "Llama"
	llamaBody := lg.root()
	fields[jen.Id("Func")] = jen.Id(fn)
	if u.JinjaRefusal != "" {
		// Jinja2 refuses the text: llama.cpp alone renders it
		body = []jen.Code{rt("Fail").Call(rt("SyntaxError"), jen.Lit(u.JinjaRefusal))}
		lg.variants++
	}
	if u.llamaIR() != u.IR {
		lg.variants++ // llama.cpp reads the text otherwise (ir.Llama)
	}
	if lg.variants > 0 {
		fields[jen.Id("LlamaFunc")] = jen.Id(llamaFn)
	}
	table := "spans" + u.Ident
	if len(g.sites) > 0 {
		fields[jen.Id("Spans")] = jen.Id(table)
	}
	declare(fmt.Sprintf("%s is the chat template %s.", u.Ident, sanitizeComment(u.Origin)))
	if u.JinjaRefusal != "" {
		f.Commentf("%s fails every render, as Jinja2 refuses %s when it loads it; llama.cpp, which", fn, sanitizeComment(u.IR.File))
		f.Comment("takes a generation tag for a statement that does nothing, loads it.")
	} else {
		f.Commentf("%s renders %s.", fn, sanitizeComment(u.IR.File))
	}
	f.Func().Id(fn).Params(
		jen.Id("w").Op("*").Qual(Jinja2Path, "Writer"),
	).Block(body...)
	// the macros' functions: renderX_show beside renderX, renderX_showLlama beside
	// renderXLlama
	targets := []liftTarget{g.liftTarget(fn, fn, "")}
	if lg.variants > 0 {
		targets = append(targets, lg.liftTarget(llamaFn, fn, "Llama"))
		f.Line()
		if u.JinjaRefusal != "" {
			f.Commentf("%s renders %s as llama.cpp's Jinja engine does, for llama-server.", llamaFn, sanitizeComment(u.IR.File))
		} else {
			f.Commentf("%s renders %s as llama.cpp's Jinja engine does, for llama-server:", llamaFn, sanitizeComment(u.IR.File))
			f.Commentf("it is %s with package llamacpp's functions, of the same names, where", fn)
			f.Comment("llama.cpp's semantics differ from Jinja2's.")
		}
		f.Func().Id(llamaFn).Params(
			jen.Id("w").Op("*").Qual(Jinja2Path, "Writer"),
		).Block(llamaBody...)
		for name, base := range lg.numbered {
			g.numbered[name] = base
		}
		for text, s := range lg.sites {
			g.sites[text] = s
		}
	}
	src, err := render(f, g.numbered, targets)
	if err != nil || len(g.sites) == 0 {
		return src, err
	}
	return appendSpanTable(src, table, g.t.File, g.sites)
}

// llamaIR is the IR the llama.cpp render function is generated from.
func (u *Unit) llamaIR() *ir.Template {
	if u.LlamaIR != nil {
		return u.LlamaIR
	}
	return u.IR
}

// specialTokenVars are the variables transformers gives a template from its tokenizer's
// special tokens (special_tokens_map), as vLLM does: a Template's ReadsTokens are those
// its template reads.
var specialTokenVars = []string{"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}

// templateFields returns the fields of a unit's tmplgen.Template that say what the
// template is: all but its functions and position table.
func templateFields(u *Unit) jen.Dict {
	fields := jen.Dict{
		jen.Id("Name"):   jen.Lit(u.Name),
		jen.Id("Origin"): jen.Lit(u.Origin),
		jen.Id("SHA256"): jen.Lit(u.SHA256),
		jen.Id("File"):   jen.Lit(u.IR.File),
		jen.Id("Caps"):   capsLiteral(&u.Caps),
		jen.Id("VLLM"):   vllmLiteral(&u.VLLM),
	}
	if len(u.Aliases) > 0 {
		var aliases []jen.Code
		for _, a := range u.Aliases {
			aliases = append(aliases, jen.Lit(a))
		}
		fields[jen.Id("Aliases")] = jen.Index().String().Values(aliases...)
	}
	if len(u.Tokens) > 0 {
		names := make([]string, 0, len(u.Tokens))
		for name := range u.Tokens {
			names = append(names, name)
		}
		sort.Strings(names)
		tokens := jen.Dict{}
		for _, name := range names {
			tokens[jen.Lit(name)] = jen.Lit(u.Tokens[name])
		}
		fields[jen.Id("Tokens")] = jen.Map(jen.String()).String().Values(tokens)
	}
	var reads []jen.Code
	for _, name := range u.VLLM.Undeclared {
		if slices.Contains(specialTokenVars, name) {
			reads = append(reads, jen.Lit(name))
		}
	}
	if len(reads) > 0 {
		fields[jen.Id("ReadsTokens")] = jen.Index().String().Values(reads...)
	}
	if u.AddBOS {
		fields[jen.Id("AddBOS")] = jen.True()
	}
	if u.AddEOS {
		fields[jen.Id("AddEOS")] = jen.True()
	}
	return fields
}

// Registry returns the Go source of a package's registry file: the Registry of its
// templates and the Lookup, LookupText and ByName functions.
func Registry(pkg string, units []*Unit) ([]byte, error) {
	f := jen.NewFile(pkg)
	f.ImportName(TmplgenPath, "tmplgen")
	f.ImportName(Jinja2Path, "jinja2")
	f.HeaderComment(fmt.Sprintf("Code generated by %s %s. DO NOT EDIT.", Generator, version.Version))
	sorted := append([]*Unit(nil), units...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var ids []jen.Code
	for _, u := range sorted {
		ids = append(ids, jen.Line().Id(u.Ident))
	}
	versionGuard(f)
	f.Comment("Registry holds the chat templates compiled into this package.")
	f.Var().Id("Registry").Op("=").Qual(TmplgenPath, "NewRegistry").Call(append(ids, jen.Line())...)
	f.Line()
	f.Comment("Lookup returns the template whose text has the given sha256 (hex); an unknown")
	f.Comment("template is a *tmplgen.UnknownTemplateError, a text of several models with")
	f.Comment("different special tokens a *tmplgen.AmbiguousTemplateError.")
	f.Func().Id("Lookup").Params(jen.Id("sha256").String()).Params(jen.Op("*").Qual(TmplgenPath, "Template"), jen.Error()).Block(
		jen.Return(jen.Id("Registry").Dot("Lookup").Call(jen.Id("sha256"))))
	f.Line()
	f.Comment("LookupText returns the template compiled from this text, as Lookup does.")
	f.Func().Id("LookupText").Params(jen.Id("text").String()).Params(jen.Op("*").Qual(TmplgenPath, "Template"), jen.Error()).Block(
		jen.Return(jen.Id("Registry").Dot("Lookup").Call(jen.Qual(TmplgenPath, "SHA256").Call(jen.Id("text")))))
	f.Line()
	f.Comment("ByName returns the template with the given name; an unknown name is a")
	f.Comment("*tmplgen.UnknownTemplateError.")
	f.Func().Id("ByName").Params(jen.Id("name").String()).Params(jen.Op("*").Qual(TmplgenPath, "Template"), jen.Error()).Block(
		jen.Return(jen.Id("Registry").Dot("ByName").Call(jen.Id("name"))))
	return render(f, nil, nil)
}

// render formats a jennifer file, whose imports jennifer writes itself. Only gofmt's
// formatting runs on it, after renameNumbered: both leave out go/parser's object resolution, which gives up on
// the deep nesting of a long elif chain. jennifer's own formatting is off: it would
// format the comments unindented (see indentComments).
func render(f *jen.File, numbered map[string]string, lift []liftTarget) ([]byte, error) {
	f.NoFormat = true
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	src, err := liftMacros(buf.Bytes(), lift)
	if err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	src, err = renameNumbered(src, numbered)
	if err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	return format.Source(indentComments(src))
}

// indentComments indents by a tab the comments of jennifer's (unindented) output that
// are inside braces, where gofmt indents them anyway. go/printer takes an unindented
// comment directly above a token for a top-level doc comment and reformats it as one
// (turning two apostrophes into a closing quotation mark, for one): a comment that cites
// the template must keep the template's text.
func indentComments(src []byte) []byte {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	var out []byte
	copied, depth := 0, 0
	for {
		pos, tok, _ := s.Scan()
		switch tok {
		case token.EOF:
			return append(out, src[copied:]...)
		case token.LBRACE:
			depth++
		case token.RBRACE:
			depth--
		case token.COMMENT:
			if off := file.Offset(pos); depth > 0 && file.Position(pos).Column == 1 {
				out = append(append(out, src[copied:off]...), '\t')
				copied = off
			}
		}
	}
}
