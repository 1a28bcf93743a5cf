// Command tmplgen compiles Jinja chat templates into Go renderers.
//
//	tmplgen gen [-pkg NAME] [-o DIR] [-catalog FILE] [-shared DIR] [FILE...]
//
// FILE is a .jinja template or a model: a GGUF file, a tokenizer_config.json or a
// model directory, whose templates are named after the model.
//
//	tmplgen ir FILE
//	tmplgen check -templates DIR -expected DIR [-cases FILE] [-engine NAME]
//	tmplgen render -model FILE|DIR [-variant NAME] | -template NAME|FILE  [-request FILE]
//	tmplgen hash FILE...
//	tmplgen audit [-diff OTHER] FILE
//
// gen is what //go:generate runs: it writes one Go file per template and a registry
// (Lookup by sha256, LookupText, ByName) into a package. ir prints a template's IR.
// check compiles every template under a directory with the same generator, builds the
// result, renders every case and compares with recorded reference renderings. render
// renders a request through a compiled template.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  tmplgen gen [-pkg NAME] [-o DIR] [-catalog FILE] [-shared DIR] [FILE...]
        compile templates into a Go package with a registry
  tmplgen ir FILE
        print the IR of a template
  tmplgen check -templates DIR -expected DIR [-cases FILE] [-engine transformers|llama_server|llama_legacy]
        compile, build and render every template and case; compare with the expected renderings
`

// run runs the command with its arguments and returns the exit code: 0 on success, 1
// when the work failed, 2 for bad usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "gen":
		err = cmdGen(args[1:], stdout, stderr)
	case "ir":
		err = cmdIR(args[1:], stdout)
	case "check":
		err = cmdCheck(args[1:], stdout, stderr)
	case "render":
		err = cmdRender(args[1:], stdin, stdout, stderr)
	case "hash":
		err = cmdHash(args[1:], stdout)
	case "audit":
		err = cmdAudit(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "tmplgen: unknown command %q\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		if ue, ok := err.(usageError); ok {
			fmt.Fprintf(stderr, "tmplgen %s: %s\n", args[0], ue.msg)
			return 2
		}
		fmt.Fprintf(stderr, "tmplgen %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// usageError is an error in how the command was called.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }
