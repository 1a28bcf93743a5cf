package tmplgen

import "embed"

// RuntimeSource is the source of packages jinja2, llamacpp, templatehash and llamaserver
// (what a program that renders compiled templates builds on), for the command (cmd/tmplgen),
// which writes it into the temporary modules it builds (tmplgen check, tmplgen render).
//
//go:embed jinja2/*.go llamacpp/*.go templatehash/*.go llamaserver/*.go
var RuntimeSource embed.FS

//go:generate go run ./internal/ggufwrite/mkmodels -o testdata/models
