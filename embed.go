package tmplgen

import "embed"

// RuntimeSource is the source of packages tmplgen (this one), jinja2 and llamacpp
// (and their implementations under internal/), internal/pystr, templatehash,
// llamaserver and vllm (what a program that renders compiled
// templates builds on), for the command (cmd/tmplgen), which writes it into the
// temporary modules it builds (tmplgen check, render and list).
//
//go:embed *.go jinja2/*.go llamacpp/*.go internal/jinja2/*.go internal/llamacpp/*.go internal/pystr/*.go templatehash/*.go llamaserver/*.go vllm/*.go
var RuntimeSource embed.FS

// CatalogSource is the source of package generated, the catalog's compiled templates,
// for the command (cmd/tmplgen), which does not import the package (so that it builds
// in seconds) but builds it, with RuntimeSource, into a program in its cache the first
// time tmplgen list or tmplgen render -template NAME needs it.
//
//go:embed generated/*.go
var CatalogSource embed.FS

//go:generate go run ./internal/ggufwrite/mkmodels -o testdata/models
