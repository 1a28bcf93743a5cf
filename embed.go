// Package tmplgen compiles Jinja chat templates into Go functions. The compiler lives in
// the packages syntax, ir and codegen; the command is cmd/tmplgen; generated code calls
// package runtime. This package holds the runtime's source, which the command writes
// into the temporary modules it builds (tmplgen check, tmplgen render).
package tmplgen

import "embed"

// RuntimeSource is the source of package runtime.
//
//go:embed runtime/*.go
var RuntimeSource embed.FS

//go:generate go run ./internal/ggufwrite/mkmodels -o testdata/models
