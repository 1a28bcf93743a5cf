//go:build tmplgen_bootstrap

package main

import "github.com/tmplgen/tmplgen/runtime"

// compiled is empty when tmplgen is built to regenerate package generated.
var compiled = runtime.NewRegistry()
