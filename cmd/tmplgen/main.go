// Command tmplgen compiles Jinja chat templates into Go renderers.
//
//	tmplgen COMMAND [flags] [arguments]
//
// The commands are gen (what //go:generate runs: compile templates into a Go package
// with a registry), render, list, hash, audit, ir, check, version and help; `tmplgen
// help COMMAND` prints a command's flags and arguments.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"

	"github.com/tmplgen/tmplgen/internal/version"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// stdio are a command's standard input, output and error.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// A command is one of tmplgen's commands.
type command struct {
	name    string
	args    string // the positional arguments, as the synopsis shows them after [flags]
	summary string // one line, for the list of commands
	doc     string // what the command does, for its help
	// flags defines the command's flags on fs and returns what runs the command with
	// its positional arguments, once the flags are parsed.
	flags func(fs *flag.FlagSet) func(s stdio, args []string) error
}

// commands are tmplgen's commands, in the order help lists them (set in init: help
// refers to them).
var commands []*command

func init() {
	commands = []*command{genCommand, renderCommand, listCommand, hashCommand, auditCommand, irCommand, checkCommand, versionCommand, helpCommand}
}

// inputsDoc says what an INPUT is, for the commands that take one.
const inputsDoc = `An INPUT is a .jinja template file or a model: a GGUF file, a tokenizer_config.json
(or another JSON file in its form, such as chat_template.json) or a Hugging Face model
directory; a folder that is not a model directory is each of its GGUF files and model
directories. A model's templates are named after it (the GGUF's general.name, else the
file's or directory's name), its named variants as NAME:VARIANT (NAME:tool_use).`

// run runs the command with its arguments and returns the exit code: 0 on success, 1
// when the work failed, 2 for bad usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := stdio{stdin, stdout, stderr}
	if len(args) == 0 {
		writeOverview(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		args = []string{"help"}
	case "-version", "--version":
		args = []string{"version"}
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "tmplgen: unknown command %q (tmplgen help lists the commands)\n", args[0])
		return 2
	}
	fs := newFlagSet(c)
	runCmd := c.flags(fs)
	err := fs.Parse(args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		writeHelp(stdout, c, fs)
		return 0
	case err != nil:
		err = usageError{err.Error()}
	default:
		err = runCmd(s, fs.Args())
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "tmplgen %s: %s (tmplgen help %s)\n", c.name, ue.msg, c.name)
		return 2
	}
	fmt.Fprintf(stderr, "tmplgen %s: %v\n", c.name, err)
	return 1
}

// newFlagSet returns an empty flag set for a command, which reports its errors to the
// caller instead of printing them.
func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usageError is an error in how the command was called.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// noFlags is the flags of a command that has none.
func noFlags(run func(s stdio, args []string) error) func(*flag.FlagSet) func(stdio, []string) error {
	return func(*flag.FlagSet) func(stdio, []string) error { return run }
}

// writeOverview prints what tmplgen is and its commands.
func writeOverview(w io.Writer) {
	fmt.Fprintf(w, "tmplgen compiles Jinja chat templates into Go renderers.\n\nusage: tmplgen COMMAND [flags] [arguments]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\n%s\n\nRun tmplgen help COMMAND (or tmplgen COMMAND -h) for a command's flags and arguments.\n", inputsDoc)
}

// writeHelp prints a command's synopsis, what it does, and its flags.
func writeHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	synopsis := "tmplgen " + c.name
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		synopsis += " [flags]"
	}
	if c.args != "" {
		synopsis += " " + c.args
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis, strings.TrimSpace(c.doc))
	if hasFlags {
		fmt.Fprintf(w, "\nflags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

var helpCommand = &command{
	name:    "help",
	args:    "[COMMAND]",
	summary: "print the commands, or a command's flags and arguments",
	doc:     "help prints the list of commands, or the synopsis, description and flags of COMMAND.",
	flags: noFlags(func(s stdio, args []string) error {
		switch len(args) {
		case 0:
			writeOverview(s.out)
			return nil
		case 1:
			c := findCommand(args[0])
			if c == nil {
				return usageError{fmt.Sprintf("unknown command %q", args[0])}
			}
			fs := newFlagSet(c)
			c.flags(fs)
			writeHelp(s.out, c, fs)
			return nil
		}
		return usageError{"want at most one COMMAND"}
	}),
}

var versionCommand = &command{
	name:    "version",
	summary: "print tmplgen's version",
	doc: `version prints tmplgen's release version (the one generated files' headers name)
and, when the binary records it, the module version or VCS revision it was built from.
tmplgen -version prints the same.`,
	flags: noFlags(func(s stdio, args []string) error {
		if len(args) > 0 {
			return usageError{"takes no arguments"}
		}
		_, err := fmt.Fprintln(s.out, versionLine())
		return err
	}),
}

// versionLine is "tmplgen VERSION (BUILD, GO)", as the version command prints it.
func versionLine() string {
	build := goruntime.Version()
	if b := version.Build(); b != "" {
		build = b + ", " + build
	}
	return fmt.Sprintf("tmplgen %s (%s)", version.Version, build)
}
