package main

import (
	"fmt"

	"github.com/tmplgen/tmplgen/templatehash"
)

var hashCommand = &command{
	name:    "hash",
	args:    "INPUT...",
	summary: "print the sha256 each template of the inputs is keyed by, and its name",
	doc: `hash prints one "SHA256  NAME" line for each template of the inputs: the sha256 of
its text, which registries (Lookup, LookupText) key compiled templates by, and the
name gen gives it (ByName).

` + inputsDoc,
	flags: noFlags(func(s stdio, args []string) error {
		return eachInput(args, func(srcs []source) error {
			for _, src := range srcs {
				fmt.Fprintf(s.out, "%s  %s\n", templatehash.SHA256(src.Text), src.Name)
			}
			return nil
		})
	}),
}
