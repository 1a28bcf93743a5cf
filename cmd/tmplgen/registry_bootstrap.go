//go:build tmplgen_bootstrap

package main

import "github.com/tmplgen/tmplgen/jinja2"

// compiled is empty when tmplgen is built to regenerate package generated.
var compiled = jinja2.NewRegistry()
