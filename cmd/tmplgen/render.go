package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/modelfile"
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
or -template's: a template file, or the name of a template of the catalog (tmplgen
list shows them). A model's special tokens (bos_token, eos_token) and whether its
tokenizer adds BOS/EOS are used for what the request does not give.

The template is compiled, never interpreted, into a program in tmplgen's cache,
built the first time with the Go toolchain (go must be on PATH) and reused after:
a model's or a file's template on its own, in seconds; the catalog's templates
together, once, in a minute or so (tmplgen carries their generated Go, not a build
of it). The cache is $TMPLGEN_CACHE, by default tmplgen in the user's cache
directory, with a folder per tmplgen version and build and, in it, one per template
sha256 and one for the catalog; a failed build leaves nothing there.

-segments shows which bytes of the prompt come from the request: each data segment
(message contents, roles, names, tools, documents, kwargs, and what the template
computes from them) is shown between ⟦ and ⟧, or highlighted when the output is a
terminal; the rest is markup, the template's own text and the model's special
tokens, whose special tokens a tokenizer should parse (see Template.RenderSegments).`,
	flags: renderFlags,
}

func renderFlags(flags *flag.FlagSet) func(stdio, []string) error {
	model := flags.String("model", "", "the `MODEL` whose chat template to use: a GGUF file, tokenizer_config.json or model directory")
	variant := flags.String("variant", "", "with -model, the `NAME` of the model's chat template to use (such as tool_use; default: its main one)")
	tmpl := flags.String("template", "", "a template file, or the `NAME` of a catalog template (see tmplgen list)")
	reqFile := flags.String("request", "", "the request JSON `FILE`, - for standard input (default: the REQUEST argument, else standard input)")
	profileName := flags.String("profile", "transformers", "the request handling around the template, `PROFILE`: transformers (apply_chat_template), llama-server (its /apply-template) or vllm (its /v1/chat/completions)")
	segments := flags.Bool("segments", false, "show the data segments of the prompt, what the request controls (between ⟦ and ⟧, or highlighted on a terminal)")
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

		// the template: a model's or a file's text, or the name of a catalog template
		var text, catalogName string
		file := "template.jinja" // a model's template, as errors cite it
		var info *modelfile.ModelInfo
		switch {
		case *model != "":
			if info, err = modelfile.ReadModel(*model); err != nil {
				return err
			}
			if text, err = info.Template(*variant); err != nil {
				return err
			}
		case isFileArg(*tmpl):
			b, err := os.ReadFile(*tmpl)
			if err != nil {
				return err
			}
			text, file = string(b), *tmpl
		default:
			catalogName = *tmpl
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
		}
		bin, name, err := renderProgram(text, file, catalogName, s.err)
		if err != nil && info != nil {
			return fmt.Errorf("%s: %w", *model, err) // the model's template, cited as template.jinja
		}
		if err != nil {
			return err
		}
		res, err := renderWith(bin, harness.Request{Template: name, Request: data, Profile: profile.String(), Segments: *segments, ModelTokens: info != nil}, s.err)
		if err != nil {
			return err
		}
		if *segments {
			_, err = io.WriteString(s.out, showSegments(*res.Prompt, res.Data, isTerminal(s.out)))
			return err
		}
		_, err = io.WriteString(s.out, *res.Prompt)
		return err
	}
}

// showSegments returns the prompt with its data segments (byte ranges) marked: between
// ⟦ and ⟧, or in reverse video for a terminal.
func showSegments(prompt string, data [][2]int, terminal bool) string {
	open, end := "⟦", "⟧"
	if terminal {
		open, end = "\x1b[7m", "\x1b[27m"
	}
	var b strings.Builder
	at := 0
	for _, d := range data {
		b.WriteString(prompt[at:d[0]])
		b.WriteString(open)
		b.WriteString(prompt[d[0]:d[1]])
		b.WriteString(end)
		at = d[1]
	}
	b.WriteString(prompt[at:])
	return b.String()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// isFileArg reports whether render's -template argument is a file rather than the name
// of a catalog template: there is a file of that name, or it has a directory or a
// template file's extension.
func isFileArg(arg string) bool {
	if _, err := os.Stat(arg); err == nil {
		return true
	}
	return strings.ContainsAny(arg, `/`+string(filepath.Separator)) || harness.IsTemplateFile(arg)
}

// renderProgram returns the program in tmplgen's cache that renders the template, and
// the template's name in it: the catalog's for a catalog name other than "", which
// must be there, else a program compiling the text on its own, whose errors cite it as
// file.
func renderProgram(text, file, catalogName string, stderr io.Writer) (string, string, error) {
	if catalogName == "" {
		bin, err := templateProgram(text, file, stderr)
		return bin, "template", err
	}
	bin, templates, err := openCatalog(stderr)
	if err != nil {
		return "", "", err
	}
	if !slices.ContainsFunc(templates, func(t harness.Entry) bool { return t.Name == catalogName }) {
		return "", "", fmt.Errorf("%q is neither a file nor the name of a catalog template (tmplgen list shows them)", catalogName)
	}
	return bin, catalogName, nil
}

// readRequest reads the request in the file at path ("" or "-" for standard input)
// and parses it; an error names the file.
func readRequest(path string, stdin io.Reader) ([]byte, *tmplgen.Request, error) {
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
	req, err := tmplgen.ParseRequest(data)
	var syntax *tmplgen.JSONError
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
func withModelTokens(data []byte, req *tmplgen.Request, info *modelfile.ModelInfo) ([]byte, error) {
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

// renderWith renders a request with a program harness built.
func renderWith(bin string, req harness.Request, stderr io.Writer) (*harness.Result, error) {
	res, err := harness.Run(bin, []harness.Request{req}, time.Now(), stderr)
	if err != nil {
		return nil, err
	}
	if res[0].Error != nil {
		return nil, errors.New(*res[0].Error)
	}
	return &res[0], nil
}
