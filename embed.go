package tmplgen

import "embed"

// RuntimeSource is the source of package runtime, for the command (cmd/tmplgen), which
// writes it into the temporary modules it builds (tmplgen check, tmplgen render).
//
//go:embed runtime/*.go
var RuntimeSource embed.FS

//go:generate go run ./internal/ggufwrite/mkmodels -o testdata/models
