package main

import (
	"fmt"
	"io"

	"github.com/tmplgen/tmplgen/runtime"
)

// cmdHash prints the sha256 the registry keys each template of the inputs on, one
// "SHA256  NAME" line per template.
func cmdHash(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usageError{"want template files or models"}
	}
	for _, path := range args {
		srcs, _, err := readInput(path)
		if err != nil {
			return err
		}
		for _, s := range srcs {
			fmt.Fprintf(stdout, "%s  %s\n", runtime.SHA256(s.Text), s.Name)
		}
	}
	return nil
}
