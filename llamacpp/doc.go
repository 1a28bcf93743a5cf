// Package llamacpp is what the llama.cpp twin of a template compiled by tmplgen (its
// second render function, Template.LlamaFunc, which package llamaserver renders with)
// calls, and nothing else: llama.cpp's Jinja engine where it differs from Jinja2, each
// function under the name of the package jinja2 function the Jinja2 render function
// calls at the same place, so that a diff of the two functions shows the package and
// llama.cpp's differences of semantics only; and the Capabilities llama-server finds
// in a template when it loads it, which each generated file declares.
//
// Its declarations stand for those of the implementation, package internal/llamacpp
// (whose doc lists the differences): a type is an alias, a function calls the
// implementation's of the same name and doc. llamacpp.go is generated
// (internal/genfacade) from the names the code generator writes into generated code.
package llamacpp

//go:generate go run ../internal/genfacade -impl ../internal/llamacpp -import github.com/tmplgen/tmplgen/internal/llamacpp -codegen ../internal/codegen -o llamacpp.go
