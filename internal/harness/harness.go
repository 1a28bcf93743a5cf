// Package harness builds compiled templates, together with the runtime's own source,
// into a program that renders requests, and runs it: what tmplgen check, tmplgen render
// and tmplgen list and the tests use to run generated code. The templates are units
// compiled on the fly (Build) or the catalog's, package generated (BuildCatalog). The
// module it writes has the module path of tmplgen and needs no download to build.
package harness

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// Request is a request to render: a template's name in the built package and an
// OpenAI-style request (see tmplgen.ParseRequest), rendered with a profile
// ("transformers", the default, or "llama_server"). Export asks, under the llama_server
// profile, for the template variables the profile defines and the template's output on
// them before post-processing (Result.Vars and Result.Raw).
type Request struct {
	Template string          `json:"template"`
	Request  json.RawMessage `json:"request"`
	Profile  string          `json:"profile,omitempty"`
	Export   bool            `json:"export,omitempty"`
	// AllowMissingTokens renders a special token the request does not give as
	// undefined (tmplgen.Input.AllowMissingTokens), as the references do: their
	// tokenizers have a bos and an eos token only.
	AllowMissingTokens bool `json:"allow_missing_tokens,omitempty"`
	// ModelTokens says that the request's special tokens are the model's (tmplgen render
	// -model puts them there), not the request's own: markup, not data, in segments.
	ModelTokens bool `json:"model_tokens,omitempty"`
	// Segments renders with segments too (Template.AppendRenderSegments, or the
	// profile's): Result.Data are the data segments, and a prompt that differs from
	// the render's without segments is an error.
	Segments bool `json:"segments,omitempty"`
}

// Result is one rendering: a prompt or an error; with Request.Export, also the template
// variables as JSON (Vars) and the template's output on them (Raw, or RawError).
type Result struct {
	Prompt   *string `json:"prompt,omitempty"`
	Error    *string `json:"error,omitempty"`
	Vars     *string `json:"vars,omitempty"`
	Raw      *string `json:"raw,omitempty"`
	RawError *string `json:"raw_error,omitempty"`
	// Data are the byte ranges [start, end) of the prompt that are data (Request.Segments).
	Data [][2]int `json:"data,omitempty"`
}

func (r Result) String() string {
	if r.Error != nil {
		return "error: " + *r.Error
	}
	if r.Prompt != nil {
		return "prompt " + strconv.Quote(*r.Prompt)
	}
	return "nothing"
}

// Package is the import path of the package the units are built into.
const Package = "github.com/tmplgen/tmplgen/checkpkg"

// Binary is the name of the program Build writes into its directory.
const Binary = "harness"

// Build writes a module holding the runtime's source, the units (as package checkpkg)
// and the rendering program into dir, and builds the program with the Go toolchain. It
// returns the program's path.
func Build(dir string, units []*codegen.Unit) (string, error) {
	bin, failures, err := BuildEach(dir, units)
	if err == nil && len(failures) > 0 {
		err = fmt.Errorf("building the compiled templates: %w", failures[0].Err)
	}
	return bin, err
}

// Failure is a unit whose generated Go does not build.
type Failure struct {
	Unit *codegen.Unit
	Err  error // the compiler's errors in the unit's file
}

// BuildEach builds as Build does, except that the units whose generated Go does not
// build are left out: the compiler's errors name their files, and the rest is built
// again without them. It returns the program and the units left out; it fails when a
// build error is not in the file of a unit.
func BuildEach(dir string, units []*codegen.Unit) (string, []Failure, error) {
	if err := lookGo(); err != nil {
		return "", nil, err
	}
	var failures []Failure
	for {
		if err := writeModule(dir, units); err != nil {
			return "", nil, err
		}
		bin, out, err := goBuild(dir)
		if err == nil {
			return bin, failures, nil
		}
		failed := failingUnits(out, units)
		if len(failed) == 0 {
			return "", nil, fmt.Errorf("building the compiled templates: %w\n%s", err, out)
		}
		failures = append(failures, failed...)
		units = slices.DeleteFunc(slices.Clone(units), func(u *codegen.Unit) bool {
			return slices.ContainsFunc(failed, func(f Failure) bool { return f.Unit == u })
		})
	}
}

// BuildCatalog writes a module holding the runtime's source, the catalog's compiled
// templates (package generated, from tmplgen.CatalogSource) and the rendering program
// into dir, and builds the program with the Go toolchain. It returns the program's path.
func BuildCatalog(dir string) (string, error) {
	if err := lookGo(); err != nil {
		return "", err
	}
	files, err := catalogModule()
	if err != nil {
		return "", err
	}
	if err := writeFiles(dir, files); err != nil {
		return "", err
	}
	bin, out, err := goBuild(dir)
	if err != nil {
		return "", fmt.Errorf("building the catalog's compiled templates: %w\n%s", err, out)
	}
	return bin, nil
}

// CatalogSum is the hex sha256 of the module BuildCatalog builds (its files' paths and
// contents): two builds of the same sum are the same program.
func CatalogSum() (string, error) {
	files, err := catalogModule()
	if err != nil {
		return "", err
	}
	return filesSum(files), nil
}

// filesSum is the hex sha256 of a module's files: their paths, lengths and contents.
func filesSum(files map[string][]byte) string {
	h := sha256.New()
	for _, path := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%s %d\n", path, len(files[path]))
		h.Write(files[path])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// lookGo fails, saying so, when there is no go command to build with.
func lookGo() error {
	if _, err := exec.LookPath("go"); err != nil {
		return fmt.Errorf("building compiled templates needs the Go toolchain, and there is no go command on PATH (install Go from https://go.dev/dl/): %w", err)
	}
	return nil
}

// goBuild builds the program of the module in dir into Binary there, and returns its
// path and the go command's output. It builds with -trimpath, so that the go command
// reuses its cached builds of packages of the same source in another directory.
func goBuild(dir string) (string, []byte, error) {
	bin := filepath.Join(dir, Binary)
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./"+harnessMainDir)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := build.CombinedOutput()
	return bin, out, err
}

// buildError is a line of the compiler's output that places an error in a file of
// package checkpkg.
var buildError = regexp.MustCompile(`(?m)^(?:\./)?checkpkg/(unit\d+\.go):\d+:\d+: .*$`)

// failingUnits returns the units whose files the errors of a build's output are in, with
// those errors, in the order of the units; a unit rendering with the functions of
// another (SameText) fails with it.
func failingUnits(out []byte, units []*codegen.Unit) []Failure {
	errs := map[string][]string{}
	for _, m := range buildError.FindAllSubmatch(out, -1) {
		errs[string(m[1])] = append(errs[string(m[1])], string(m[0]))
	}
	byUnit := map[*codegen.Unit]error{}
	for i, u := range units {
		if lines := errs[unitFile(i)]; lines != nil {
			byUnit[u] = errors.New(strings.Join(lines, "\n"))
		}
	}
	var failed []Failure
	for _, u := range units {
		err := byUnit[u]
		if u.SameText != nil && byUnit[u.SameText] != nil {
			err = byUnit[u.SameText]
		}
		if err != nil {
			failed = append(failed, Failure{Unit: u, Err: err})
		}
	}
	return failed
}

// unitFile names the file of the i'th unit in package checkpkg.
func unitFile(i int) string { return fmt.Sprintf("unit%04d.go", i) }

// Run renders the requests with a program Build made, with the given clock for
// strftime_now. The results are in the order of the requests.
func Run(bin string, reqs []Request, now time.Time, stderr io.Writer) ([]Result, error) {
	var input bytes.Buffer
	enc := json.NewEncoder(&input)
	for _, r := range reqs {
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
	}
	run := exec.Command(bin, now.Format(time.RFC3339))
	run.Stdin = &input
	run.Stderr = stderr
	out, err := run.Output()
	if err != nil {
		return nil, fmt.Errorf("running the compiled templates: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	results := make([]Result, len(reqs))
	for i := range reqs {
		if !sc.Scan() {
			return nil, fmt.Errorf("the compiled templates answered %d requests of %d", i, len(reqs))
		}
		if err := json.Unmarshal(sc.Bytes(), &results[i]); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// Entry is a template of a program Build or BuildCatalog made, as List returns it.
type Entry struct {
	Name         string                `json:"name"`
	SHA256       string                `json:"sha256"`
	Origin       string                `json:"origin"`
	Capabilities llamacpp.Capabilities `json:"capabilities"`
}

// List returns the templates of a program Build or BuildCatalog made, sorted by name.
func List(bin string) ([]Entry, error) {
	out, err := exec.Command(bin, listArg).Output()
	if err != nil {
		return nil, fmt.Errorf("listing the compiled templates: %w", err)
	}
	var entries []Entry
	if err := json.Unmarshal(out, &entries); err != nil {
		return nil, fmt.Errorf("listing the compiled templates: %w", err)
	}
	return entries, nil
}

// listArg is the argument that asks the program for its templates (List) instead of
// renderings.
const listArg = "-list"

// harnessMain is the program Build and BuildCatalog build, with the import path of the
// package of compiled templates for PACKAGE: it renders JSON-lines requests
// {"template", "request"} from stdin with that package and writes a {"prompt"} or
// {"error"} line for each; with the argument -list (listArg), it writes the package's
// templates as a JSON list of Entry.
const harnessMain = `package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
	templates "PACKAGE"
)

func main() {
	if os.Args[1] == "-list" {
		list()
		return
	}
	now, err := time.Parse(time.RFC3339, os.Args[1])
	if err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req struct {
			Template string          ` + "`json:\"template\"`" + `
			Request  json.RawMessage ` + "`json:\"request\"`" + `
			Profile  string          ` + "`json:\"profile\"`" + `
			Export   bool            ` + "`json:\"export\"`" + `
			AllowMissingTokens bool  ` + "`json:\"allow_missing_tokens\"`" + `
			Segments bool            ` + "`json:\"segments\"`" + `
			ModelTokens bool         ` + "`json:\"model_tokens\"`" + `
		}
		res := map[string]any{}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			res["error"] = err.Error()
		} else if t, err := templates.ByName(req.Template); err != nil {
			res["error"] = err.Error()
		} else if r, err := tmplgen.ParseRequest(req.Request); err != nil {
			res["error"] = err.Error()
		} else if req.Profile != "" && req.Profile != "transformers" && req.Profile != "llama_server" && req.Profile != "vllm" {
			res["error"] = "unknown profile " + req.Profile
		} else if render, srv, err := oracleRender(t, req.Request, req.Profile, &r.Input); err != nil {
			res["error"] = "oracle request: " + err.Error()
		} else {
			r.Now, r.AllowMissingTokens = now, req.AllowMissingTokens
			r.TokensFromRequest = r.TokensFromRequest && !req.ModelTokens
			if prompt, err := render(&r.Input, nil); err != nil {
				res["error"] = err.Error()
			} else {
				res["prompt"] = prompt
			}
			if req.Segments {
				segments(render, &r.Input, res)
			}
			if req.Export {
				export(t, srv, &r.Input, res)
			}
		}
		enc.Encode(res)
	}
}

// oracleRender returns how the profile renders t for an oracle request, whose fields
// that are not request fields are the references' own settings
// (../shared/oracle/tools/hf_render.py, llama_chat_driver.cpp and vllm_render.py): under
// transformers, enable_thinking is a kwarg unless chat_template_kwargs has one (added to
// in); under llama_server and vllm, the server's options (llamaOptions, vllmOptions).
// srv is the llama-server the variables are exported for.
//
// render renders with segments when segs is not nil.
func oracleRender(t *tmplgen.Template, data []byte, profile string, in *tmplgen.Input) (render renderFunc, srv *llamaserver.Server, err error) {
	switch profile {
	case "llama_server":
		if srv, err = llamaOptions(data); err != nil {
			return nil, nil, err
		}
		return func(in *tmplgen.Input, segs *[]tmplgen.Segment) (string, error) {
			if segs != nil {
				b, s, err := srv.AppendRenderSegments(nil, nil, t, in)
				*segs = s
				return string(b), err
			}
			return srv.Render(t, in)
		}, srv, nil
	case "vllm":
		vsrv, err := vllmOptions(data)
		if err != nil {
			return nil, nil, err
		}
		return func(in *tmplgen.Input, segs *[]tmplgen.Segment) (string, error) {
			if segs != nil {
				b, s, err := vsrv.AppendRenderSegments(nil, nil, t, in)
				*segs = s
				return string(b), err
			}
			return vsrv.Render(t, in)
		}, new(llamaserver.Server), nil
	}
	v, err := jinja2.ParseJSON(data)
	if err != nil {
		return nil, nil, err
	}
	thinking, _ := v.AsDict().GetStr("enable_thinking")
	if _, set := in.Kwargs["enable_thinking"]; !set && !thinking.IsUndefined() && thinking.Kind() != jinja2.KindNone {
		in.Kwargs["enable_thinking"] = thinking
	}
	return func(in *tmplgen.Input, segs *[]tmplgen.Segment) (string, error) {
		if segs != nil {
			b, s, err := t.AppendRenderSegments(nil, nil, in)
			*segs = s
			return string(b), err
		}
		return t.Render(in)
	}, new(llamaserver.Server), nil
}

// renderFunc renders an input under a profile, with its segments when segs is not nil.
type renderFunc func(in *tmplgen.Input, segs *[]tmplgen.Segment) (string, error)

// segments renders in again with segments, and adds the data segments to res, or an
// error when the prompt or the error differs from the render's without them.
func segments(render renderFunc, in *tmplgen.Input, res map[string]any) {
	var segs []tmplgen.Segment
	prompt, err := render(in, &segs)
	switch {
	case err != nil && res["error"] != err.Error():
		res["error"] = fmt.Sprintf("the render with segments fails (%v) where the render does not, or otherwise", err)
		delete(res, "prompt")
		return
	case err == nil && res["prompt"] != prompt:
		res["error"] = "the render with segments gives another prompt"
		delete(res, "prompt")
		return
	}
	data := [][2]int{}
	at := 0
	for _, s := range segs {
		if s.Start != at || s.End <= s.Start {
			res["error"] = fmt.Sprintf("the segments do not cover the prompt: %v at %d", s, at)
			delete(res, "prompt")
			return
		}
		at = s.End
		if s.Origin == tmplgen.Data {
			data = append(data, [2]int{s.Start, s.End})
		}
	}
	if err == nil && at != len(prompt) {
		res["error"] = fmt.Sprintf("the segments end at %d, the prompt at %d", at, len(prompt))
		delete(res, "prompt")
		return
	}
	res["data"] = data
}

// llamaOptions reads the llama-server options of an oracle request for
// llama_chat_driver: enable_thinking false is --reasoning off, prefill_assistant false
// --no-prefill-assistant, and settings the profile does not model are refused.
func llamaOptions(data []byte) (*llamaserver.Server, error) {
	v, err := jinja2.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	field := func(name string) jinja2.Value {
		f, _ := v.AsDict().GetStr(name)
		return f
	}
	srv := &llamaserver.Server{}
	thinking := field("enable_thinking")
	isBool := func(f jinja2.Value, want bool) bool { b, ok := f.AsBool(); return ok && b == want }
	switch {
	case isBool(thinking, true):
		return nil, fmt.Errorf("enable_thinking true turns thinking on for any template, which no llama-server option does")
	case isBool(field("jinja"), false):
		return nil, fmt.Errorf("jinja false (llama-server without --jinja) is not a profile of tmplgen")
	case isBool(field("force_pure_content"), true):
		return nil, fmt.Errorf("force_pure_content true (--skip-chat-parsing) is not modelled by the llama-server profile")
	}
	srv.ReasoningOff = isBool(thinking, false)
	srv.NoPrefillAssistant = isBool(field("prefill_assistant"), false)
	return srv, nil
}

// vllmOptions reads the server flags of an oracle request for vllm_render.py
// (vllm_server), whose defaults are a server started with --enable-auto-tool-choice
// and a --tool-call-parser, as the recordings were.
func vllmOptions(data []byte) (*vllm.Server, error) {
	var req struct {
		Server *struct {
			EnableAutoTools *bool                      ` + "`json:\"enable_auto_tools\"`" + `
			ToolParser      *bool                      ` + "`json:\"tool_parser\"`" + `
			ExcludeTools    bool                       ` + "`json:\"exclude_tools_when_tool_choice_none\"`" + `
			DefaultKwargs   map[string]json.RawMessage ` + "`json:\"default_chat_template_kwargs\"`" + `
			ContentFormat   string                     ` + "`json:\"chat_template_content_format\"`" + `
		} ` + "`json:\"vllm_server\"`" + `
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, err
	}
	srv := &vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "any"}
	if c := req.Server; c != nil {
		if c.EnableAutoTools != nil {
			srv.EnableAutoToolChoice = *c.EnableAutoTools
		}
		if c.ToolParser != nil && !*c.ToolParser {
			srv.ToolCallParser = ""
		}
		srv.ExcludeToolsWhenToolChoiceNone = c.ExcludeTools
		srv.ContentFormat = c.ContentFormat
		for k, raw := range c.DefaultKwargs {
			v, err := jinja2.ParseJSON(raw)
			if err != nil {
				return nil, err
			}
			if srv.DefaultChatTemplateKwargs == nil {
				srv.DefaultChatTemplateKwargs = map[string]tmplgen.Value{}
			}
			srv.DefaultChatTemplateKwargs[k] = v
		}
	}
	return srv, nil
}

// export adds the variables the llama_server profile gives the template, and the
// template's output on them before post-processing.
func export(t *tmplgen.Template, srv *llamaserver.Server, in *tmplgen.Input, res map[string]any) {
	vars, err := srv.Vars(t, in)
	if err != nil {
		return
	}
	res["vars"] = string(jinja2.AppendJSON(nil, jinja2.DictValue(vars)))
	run := &jinja2.Run{Vars: vars, Now: in.Now, File: t.File, Spans: t.Spans}
	if raw, err := run.Append(nil, t.Func); err != nil {
		res["raw_error"] = err.Error()
	} else {
		res["raw"] = string(raw)
	}
}

// list writes the package's templates as a JSON list.
func list() {
	type entry struct {
		Name         string              ` + "`json:\"name\"`" + `
		SHA256       string              ` + "`json:\"sha256\"`" + `
		Origin       string              ` + "`json:\"origin\"`" + `
		Capabilities llamacpp.Capabilities ` + "`json:\"capabilities\"`" + `
	}
	entries := []entry{}
	for _, t := range templates.Registry.All() {
		entries = append(entries, entry{t.Name, t.SHA256, t.Origin, t.Caps})
	}
	if err := json.NewEncoder(os.Stdout).Encode(entries); err != nil {
		panic(err)
	}
}
`

// writeModule writes the module of the program that renders the units: the runtime's
// source (runtimeModule) and the units as package checkpkg (the i'th in unitFile(i)).
func writeModule(dir string, units []*codegen.Unit) error {
	files, err := unitsModule(units)
	if err != nil {
		return err
	}
	// a unit left out of the last build leaves no file behind
	if err := os.RemoveAll(filepath.Join(dir, "checkpkg")); err != nil {
		return err
	}
	return writeFiles(dir, files)
}

// unitsModule returns the files of the module Build builds from units, by
// slash-separated path: the runtime's (runtimeModule) and package checkpkg, the i'th
// unit in unitFile(i) and their registry.
func unitsModule(units []*codegen.Unit) (map[string][]byte, error) {
	files, err := runtimeModule(Package)
	if err != nil {
		return nil, err
	}
	for i, u := range units {
		src, err := codegen.File("checkpkg", u)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Origin, err)
		}
		files["checkpkg/"+unitFile(i)] = src
	}
	src, err := codegen.Registry("checkpkg", units)
	if err != nil {
		return nil, err
	}
	files["checkpkg/registry.go"] = src
	return files, nil
}

// UnitsSum is the hex sha256 of the module Build builds from units (their generated
// code and the runtime's source): a program built from units can be reused as long as
// it is the same.
func UnitsSum(units []*codegen.Unit) (string, error) {
	files, err := unitsModule(units)
	if err != nil {
		return "", err
	}
	return filesSum(files), nil
}

// catalogModule returns the files of the module BuildCatalog builds, by slash-separated
// path: the runtime's (runtimeModule) and package generated's source.
func catalogModule() (map[string][]byte, error) {
	files, err := runtimeModule("github.com/tmplgen/tmplgen/generated")
	if err != nil {
		return nil, err
	}
	return files, addPackageSource(files, tmplgen.CatalogSource, "generated")
}

// runtimeModule returns the files, by slash-separated path, of a module with the module
// path of tmplgen holding the source of packages tmplgen, jinja2, llamacpp (and their
// implementations under internal/), internal/pystr, templatehash, llamaserver and vllm, and the rendering program (harnessMain,
// in harnessMainDir) of the package of compiled templates at the import path pkg, which
// the caller adds: the module builds without any download.
func runtimeModule(pkg string) (map[string][]byte, error) {
	files := map[string][]byte{
		"go.mod":                    []byte("module github.com/tmplgen/tmplgen\n\ngo 1.26\n"),
		harnessMainDir + "/main.go": []byte(strings.Replace(harnessMain, "PACKAGE", pkg, 1)),
	}
	for _, dir := range []string{".", "jinja2", "llamacpp", "internal/jinja2", "internal/llamacpp", "internal/pystr", "templatehash", "llamaserver", "vllm"} {
		if err := addPackageSource(files, tmplgen.RuntimeSource, dir); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// harnessMainDir is the directory of the rendering program in the modules Build builds.
const harnessMainDir = "cmd/render"

// addPackageSource adds the source of the package in directory dir of fsys, without its
// tests, to files.
func addPackageSource(files map[string][]byte, fsys fs.FS, dir string) error {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") || dir == "." && e.Name() == "embed.go" {
			// embed.go embeds the source the module is built from, which is not in it
			continue
		}
		name := path.Join(dir, e.Name())
		if files[name], err = fs.ReadFile(fsys, name); err != nil {
			return err
		}
	}
	return nil
}

// writeFiles writes files, by slash-separated path, into dir.
func writeFiles(dir string, files map[string][]byte) error {
	for path, b := range files {
		name := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ReadGeneratorSources reads every Go file of the module at root that the generator is
// built from (all but testdata, examples, generated and bench). A test that runs the
// generator in a subprocess calls it first: go test's cache does not see what a
// subprocess reads, but it does track the files the test opens itself, so a change to
// the generator then reruns the test instead of reporting its cached result.
func ReadGeneratorSources(root string) error {
	skip := map[string]bool{"testdata": true, "examples": true, "generated": true, "bench": true}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && (skip[d.Name()] || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go"):
			_, err = os.ReadFile(path)
		}
		return err
	})
}
