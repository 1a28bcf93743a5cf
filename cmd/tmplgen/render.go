package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/version"
	"github.com/tmplgen/tmplgen/jinja2"
	"github.com/tmplgen/tmplgen/modelfile"
	"github.com/tmplgen/tmplgen/templatehash"
)

var renderCommand = &command{
	name:    "render",
	args:    "[REQUEST]",
	summary: "render a chat request through a template and print the prompt",
	doc: `render renders a chat request and prints the prompt. The request is OpenAI-style
JSON (messages, tools, documents, add_generation_prompt, chat_template_kwargs...),
read from the REQUEST file, or the -request file, or standard input (-request -, or
neither).

The template is a model's (-model; -variant chooses a named one, such as tool_use)
or -template's: the name of a template compiled into tmplgen (tmplgen list shows
them) or a template file. A model's special tokens (bos_token, eos_token) and
whether its tokenizer adds BOS/EOS are used for what the request does not give.

A template that is not compiled into tmplgen is compiled on the fly, never
interpreted: into a program in tmplgen's cache, built the first time with the Go
toolchain (go must be on PATH) and reused after. The cache is $TMPLGEN_CACHE, by
default tmplgen in the user's cache directory, with a folder per tmplgen version
and build and, in it, one per template sha256; a failed build leaves nothing there.`,
	flags: renderFlags,
}

func renderFlags(flags *flag.FlagSet) func(stdio, []string) error {
	model := flags.String("model", "", "the `MODEL` whose chat template to use: a GGUF file, tokenizer_config.json or model directory")
	variant := flags.String("variant", "", "with -model, the `NAME` of the model's chat template to use (such as tool_use; default: its main one)")
	tmpl := flags.String("template", "", "a compiled template's `NAME` (see tmplgen list), or a template file")
	reqFile := flags.String("request", "", "the request JSON `FILE`, - for standard input (default: the REQUEST argument, else standard input)")
	profileName := flags.String("profile", "transformers", "the request handling around the template, `PROFILE`: transformers (apply_chat_template) or llama-server (its /apply-template)")
	return func(s stdio, args []string) error {
		profile, err := harness.ParseProfile(*profileName)
		switch {
		case err != nil:
			return usageError{err.Error()}
		case (*model == "") == (*tmpl == ""):
			return usageError{"give one of -model and -template"}
		case *variant != "" && *model == "":
			return usageError{"-variant chooses among a -model's templates; -template names the template itself"}
		case *model != "" && harness.IsTemplateFile(*model):
			return usageError{fmt.Sprintf("-model %s is a template file, not a model (a GGUF file, tokenizer_config.json or model directory): give it as -template", *model)}
		case len(args) > 1:
			return usageError{"want at most one REQUEST file"}
		case len(args) == 1 && *reqFile != "":
			return usageError{"give the request once: as the REQUEST argument or as -request"}
		}
		reqPath := *reqFile
		if len(args) == 1 {
			reqPath = args[0]
		}

		// the template: compiled into the registry, or only its text
		var t *jinja2.Template
		var text string
		var info *modelfile.ModelInfo
		switch {
		case *model != "":
			if info, err = modelfile.ReadModel(*model); err != nil {
				return err
			}
			if text, err = info.Template(*variant); err != nil {
				return err
			}
		default:
			var ok bool
			if t, ok = compiled.ByName(*tmpl); !ok {
				b, err := os.ReadFile(*tmpl)
				if errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("%q is neither a compiled template's name (tmplgen list shows them) nor a file", *tmpl)
				}
				if err != nil {
					return err
				}
				text = string(b)
			}
		}
		if t == nil {
			t, err = compiled.Lookup(templatehash.SHA256(text))
			var unknown *jinja2.UnknownTemplateError
			if err != nil && !errors.As(err, &unknown) {
				return err
			}
		}

		// the request, with the model's special tokens unless it gives its own
		data, req, err := readRequest(reqPath, s.in)
		if err != nil {
			return err
		}
		if info != nil {
			if data, err = withModelTokens(data, req, info); err != nil {
				return err
			}
			if req, err = jinja2.ParseRequest(data); err != nil {
				return err
			}
		}
		var prompt string
		if t != nil {
			prompt, err = profile.Render(t, &req.Input)
		} else {
			prompt, err = renderUncompiled(text, profile, data, s.err)
		}
		if err != nil {
			return err
		}
		_, err = io.WriteString(s.out, prompt)
		return err
	}
}

// readRequest reads the request in the file at path ("" or "-" for standard input)
// and parses it; an error names the file.
func readRequest(path string, stdin io.Reader) ([]byte, *jinja2.Request, error) {
	name := path
	var data []byte
	var err error
	if path == "" || path == "-" {
		name = "standard input"
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, nil, err
	}
	req, err := jinja2.ParseRequest(data)
	var syntax *jinja2.JSONError
	switch {
	case errors.As(err, &syntax):
		return nil, nil, fmt.Errorf("%s: %w; want a JSON chat request ({\"messages\": [...], ...})", name, err)
	case err != nil:
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, req, nil
}

// withModelTokens adds the model's special tokens (bos_token and eos_token, the others
// in special_tokens) and whether its tokenizer adds BOS/EOS itself (add_bos, add_eos:
// the llama-server profile then removes a rendered one) to a request that does not
// give them.
func withModelTokens(data []byte, req *jinja2.Request, info *modelfile.ModelInfo) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	others := map[string]string{}
	for name, text := range info.Tokens() {
		if _, given := req.SpecialTokens[name]; given {
			continue
		}
		if name == "bos_token" || name == "eos_token" {
			fields[name], _ = json.Marshal(text)
		} else {
			others[name] = text
		}
	}
	if len(others) > 0 {
		special := map[string]json.RawMessage{}
		if raw, ok := fields["special_tokens"]; ok {
			if err := json.Unmarshal(raw, &special); err != nil {
				return nil, fmt.Errorf("request: special_tokens: %w", err)
			}
		}
		for name, text := range others {
			special[name], _ = json.Marshal(text)
		}
		fields["special_tokens"], _ = json.Marshal(special)
	}
	for name, adds := range map[string]*bool{"add_bos": info.AddBOS, "add_eos": info.AddEOS} {
		if _, given := fields[name]; !given && adds != nil {
			fields[name], _ = json.Marshal(*adds)
		}
	}
	return json.Marshal(fields)
}

// renderUncompiled renders a template that is not in the compiled registry: it is
// compiled (never interpreted) into the cache, built once, and run there on the
// request data under the profile.
func renderUncompiled(text string, profile harness.Profile, request []byte, stderr io.Writer) (string, error) {
	sum := templatehash.SHA256(text)
	dir, err := cacheDir(sum)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, harness.Binary)
	if _, err := os.Stat(bin); err != nil {
		fmt.Fprintf(stderr, "tmplgen render: template sha256 %s is not compiled into tmplgen; compiling it into %s\n", sum, dir)
		if err := buildCached(dir, text, sum); err != nil {
			return "", err
		}
	}
	res, err := harness.Run(bin, []harness.Request{{Template: "template", Request: request, Profile: profile.String()}}, time.Now(), stderr)
	if err != nil {
		return "", err
	}
	if res[0].Error != nil {
		return "", errors.New(*res[0].Error)
	}
	return *res[0].Prompt, nil
}

// cacheDir is where the build of the template with this sha256 is kept: in
// $TMPLGEN_CACHE (default: tmplgen in the user's cache directory), in a folder of this
// tmplgen's version and build, since another tmplgen compiles templates differently.
func cacheDir(sum string) (string, error) {
	root := os.Getenv("TMPLGEN_CACHE")
	if root == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory for compiled templates (set TMPLGEN_CACHE): %w", err)
		}
		root = filepath.Join(dir, "tmplgen")
	}
	build := sha256.Sum256([]byte(version.Build()))
	return filepath.Join(root, version.Version+"-"+hex.EncodeToString(build[:6]), sum), nil
}

// buildCached compiles a template and builds the program that renders it in a new
// folder beside dir, then renames that folder to dir: dir holds a complete build or
// nothing.
func buildCached(dir, text, sum string) error {
	units, failed := compiler.Compile([]compiler.Source{{Name: "template", Origin: "sha256 " + sum, File: "template.jinja", Text: text}})
	if len(failed) > 0 {
		return failed[0]
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "building-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing is left there after the rename
	if _, err := harness.Build(tmp, units); err != nil {
		return err
	}
	// a folder without a program (left by an older tmplgen) is replaced; one that a
	// concurrent render finished meanwhile is kept
	if _, err := os.Stat(filepath.Join(dir, harness.Binary)); err == nil {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}
