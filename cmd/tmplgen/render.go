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
	model := fs.String("model", "", "a model: GGUF file, tokenizer_config.json or model directory")
	variant := fs.String("variant", "", "with -model, the named chat template to use (such as tool_use)")
	tmpl := fs.String("template", "", "a compiled template's name, or a template file")
	reqFile := fs.String("request", "", "the request JSON file (default: standard input)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if (*model == "") == (*tmpl == "") {
		return usageError{"give one of -model and -template"}
	}
	var t *runtime.Template
	var info *runtime.ModelInfo
	var err error
	if *model != "" {
		t, info, err = modelTemplate(*model, *variant)
	} else {
		t, err = findTemplate(*tmpl)
	}
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
	if info != nil {
		// the model's special tokens, unless the request gives its own
		if _, ok := req.SpecialTokens["bos_token"]; !ok && info.HasBOS {
			req.SpecialTokens["bos_token"] = info.BOSToken
		}
		if _, ok := req.SpecialTokens["eos_token"]; !ok && info.HasEOS {
			req.SpecialTokens["eos_token"] = info.EOSToken
		}
	}
	prompt, err := t.Render(&req.Input)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, prompt)
	return err
}

// modelTemplate returns the compiled renderer of a model's chat template (the main one,
// or the named variant).
func modelTemplate(path, variant string) (*runtime.Template, *runtime.ModelInfo, error) {
	info, err := runtime.ReadModel(path)
	if err != nil {
		return nil, nil, err
	}
	text, err := info.Template(variant)
	if err != nil {
		return nil, nil, err
	}
	t, err := generated.LookupText(text)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, info, nil
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
