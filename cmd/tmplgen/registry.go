//go:build !tmplgen_bootstrap

package main

import "github.com/tmplgen/tmplgen/generated"

// compiled is the registry of the renderers compiled into tmplgen itself (package
// generated), which render finds templates in. Building with the tag tmplgen_bootstrap
// leaves it empty, so that the generator can rebuild package generated even when its
// current code no longer compiles (after a change of the runtime's API); the
// go:generate lines of this repository do so.
var compiled = generated.Registry
