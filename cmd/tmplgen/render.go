package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tmplgen/tmplgen/codegen"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/runtime"
)

func cmdRender(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "a model: GGUF file, tokenizer_config.json or model directory")
	variant := fs.String("variant", "", "with -model, the named chat template to use (such as tool_use)")
	tmpl := fs.String("template", "", "a compiled template's name, or a template file")
	reqFile := fs.String("request", "", "the request JSON file (default: standard input)")
	profileName := fs.String("profile", "transformers", "the request handling around the template: transformers (apply_chat_template) or llama-server (/apply-template)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	profile, err := runtime.ParseProfile(*profileName)
	if err != nil {
		return usageError{err.Error()}
	}
	if (*model == "") == (*tmpl == "") {
		return usageError{"give one of -model and -template"}
	}

	// the template: compiled into the registry, or only its text
	var t *runtime.Template
	var text string
	var info *runtime.ModelInfo
	switch {
	case *model != "":
		if info, err = runtime.ReadModel(*model); err != nil {
			return err
		}
		if text, err = info.Template(*variant); err != nil {
			return err
		}
	default:
		var ok bool
		if t, ok = compiled.ByName(*tmpl); !ok {
			b, err := os.ReadFile(*tmpl)
			if os.IsNotExist(err) {
				return fmt.Errorf("%q is neither a compiled template's name nor a file", *tmpl)
			}
			if err != nil {
				return err
			}
			text = string(b)
		}
	}
	if t == nil {
		t, err = compiled.LookupText(text)
		var unknown *runtime.UnknownTemplateError
		if err != nil && !errors.As(err, &unknown) {
			return err
		}
	}

	// the request, with the model's special tokens unless it gives its own
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
		if data, err = withModelTokens(data, req, info); err != nil {
			return err
		}
		if req, err = runtime.ParseRequest(data); err != nil {
			return err
		}
	}

	req.Profile = profile

	var prompt string
	if t != nil {
		prompt, err = t.Render(&req.Input)
	} else {
		prompt, err = renderUncompiled(text, req, data, stderr)
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, prompt)
	return err
}

// withModelTokens adds the model's bos_token and eos_token, and whether its tokenizer
// adds them itself (add_bos, add_eos: the llama-server profile then removes a rendered
// one), to a request that does not give them.
func withModelTokens(data []byte, req *runtime.Request, info *runtime.ModelInfo) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	for name, tok := range map[string]struct {
		has  bool
		text string
	}{"bos_token": {info.HasBOS, info.BOSToken}, "eos_token": {info.HasEOS, info.EOSToken}} {
		if _, given := req.SpecialTokens[name]; !given && tok.has {
			fields[name], _ = json.Marshal(tok.text)
		}
	}
	for name, adds := range map[string]*bool{"add_bos": info.AddBOS, "add_eos": info.AddEOS} {
		if _, given := fields[name]; !given && adds != nil {
			fields[name], _ = json.Marshal(*adds)
		}
	}
	return json.Marshal(fields)
}

// renderUncompiled renders a template that is not in the compiled registry: it is
// compiled (never interpreted) into a cache directory named by its sha256, built once,
// and run there on the request data under req's profile.
func renderUncompiled(text string, req *runtime.Request, request []byte, stderr io.Writer) (string, error) {
	sum := runtime.SHA256(text)
	cache := os.Getenv("TMPLGEN_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		cache = filepath.Join(dir, "tmplgen")
	}
	dir := filepath.Join(cache, sum)
	bin := filepath.Join(dir, harness.Binary)
	if _, err := os.Stat(bin); err != nil {
		fmt.Fprintf(stderr, "tmplgen render: template sha256 %s is not in the compiled registry; compiling it into %s\n", sum, dir)
		units, failed := codegen.Compile([]codegen.Source{{Name: "template", Origin: "sha256 " + sum, File: "template.jinja", Text: text}})
		if len(failed) > 0 {
			return "", failed[0]
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		if _, err := harness.Build(dir, units); err != nil {
			return "", err
		}
	}
	res, err := harness.Run(bin, []harness.Request{{Template: "template", Request: request, Profile: req.Profile.String()}}, time.Now(), stderr)
	if err != nil {
		return "", err
	}
	if res[0].Error != nil {
		return "", errors.New(*res[0].Error)
	}
	return *res[0].Prompt, nil
}
