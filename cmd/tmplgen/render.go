package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/runtime"
)

func cmdRender(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tmpl := fs.String("template", "", "a compiled template's name, or a template file (found in the registry by its sha256)")
	reqFile := fs.String("request", "", "the request JSON file (default: standard input)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *tmpl == "" {
		return usageError{"-template is required"}
	}
	t, err := findTemplate(*tmpl)
	if err != nil {
		return err
	}
	var data []byte
	if *reqFile != "" {
		data, err = os.ReadFile(*reqFile)
	} else {
		data, err = io.ReadAll(stdin)
	}
	if err != nil {
		return err
	}
	req, err := runtime.ParseRequest(data)
	if err != nil {
		return err
	}
	prompt, err := t.Render(&req.Input)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, prompt)
	return err
}

// findTemplate returns the compiled template with that name, or the one compiled from
// the text of that file.
func findTemplate(nameOrFile string) (*runtime.Template, error) {
	if t, ok := generated.ByName(nameOrFile); ok {
		return t, nil
	}
	b, err := os.ReadFile(nameOrFile)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%q is neither a compiled template's name nor a file", nameOrFile)
		}
		return nil, err
	}
	return generated.LookupText(string(b))
}
