// Package jinja2 is what the Jinja2 render function of a template compiled by tmplgen
// calls, and nothing else: the Value type and its operators, the filters, tests and
// methods Jinja2 templates use, loops, macros, the Writer a render function writes into
// and reads its variables from, and the version guard each generated file asserts
// (EnforceVersion).
//
// Its declarations stand for those of the implementation, package internal/jinja2
// (Python's and Jinja2's semantics, and what packages tmplgen, llamacpp and llamaserver
// build on): a type is an alias, a function calls the implementation's of the same
// name and doc. jinja2.go is generated (internal/genfacade) from the names the code
// generator writes into generated code, so that this package offers exactly what
// generated code may call.
//
// Programs import package tmplgen (the module's root), which defines what a service
// uses (Template, Registry, Input, Request, the errors); import jinja2 only from
// generated code. It imports the standard library only, so a program that imports
// compiled renderers takes on no other dependency.
package jinja2

//go:generate go run ../internal/genfacade -impl ../internal/jinja2 -import github.com/tmplgen/tmplgen/internal/jinja2 -codegen ../internal/codegen -o jinja2.go
