// Package harness builds compiled templates, together with the runtime's own source,
// into a program that renders requests, and runs it: what tmplgen check, tmplgen render
// (for a template that is not in the compiled registry) and the tests use to run
// generated code. The module it writes has the module path of tmplgen and needs no
// download to build.
package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/codegen"
)

// Request is a request to render: a template's name in the built package and an
// OpenAI-style request (see jinja2.ParseRequest), rendered with a profile
// ("transformers", the default, or "llama_server"). Export asks, under the llama_server
// profile, for the template variables the profile defines and the template's output on
// them before post-processing (Result.Vars and Result.Raw).
type Request struct {
	Template string          `json:"template"`
	Request  json.RawMessage `json:"request"`
	Profile  string          `json:"profile,omitempty"`
	Export   bool            `json:"export,omitempty"`
}

// Result is one rendering: a prompt or an error; with Request.Export, also the template
// variables as JSON (Vars) and the template's output on them (Raw, or RawError).
type Result struct {
	Prompt   *string `json:"prompt,omitempty"`
	Error    *string `json:"error,omitempty"`
	Vars     *string `json:"vars,omitempty"`
	Raw      *string `json:"raw,omitempty"`
	RawError *string `json:"raw_error,omitempty"`
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
	if _, err := exec.LookPath("go"); err != nil {
		return "", nil, fmt.Errorf("building compiled templates needs the Go toolchain, and there is no go command on PATH (install Go from https://go.dev/dl/): %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(harnessMain), 0o644); err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, Binary)
	var failures []Failure
	for {
		if err := writeModule(dir, units); err != nil {
			return "", nil, err
		}
		// -trimpath keeps the temporary directory out of the build cache's keys: the
		// runtime's packages, and units built before, come from the cache
		build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
		build.Dir = dir
		build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := build.CombinedOutput()
		if err == nil {
			return bin, failures, nil
		}
		failed := failingUnits(out, units)
		if len(failed) == 0 {
			return "", nil, fmt.Errorf("building the compiled templates: %v\n%s", err, out)
		}
		failures = append(failures, failed...)
		units = slices.DeleteFunc(slices.Clone(units), func(u *codegen.Unit) bool {
			return slices.ContainsFunc(failed, func(f Failure) bool { return f.Unit == u })
		})
	}
}

// buildError is a line of the compiler's output that places an error in a file of
// package checkpkg.
var buildError = regexp.MustCompile(`(?m)^(?:\./)?checkpkg/(unit\d+\.go):\d+:\d+: .*$`)

// failingUnits returns the units whose files the errors of a build's output are in, with
// those errors, in the order of the units.
func failingUnits(out []byte, units []*codegen.Unit) []Failure {
	errs := map[string][]string{}
	for _, m := range buildError.FindAllSubmatch(out, -1) {
		errs[string(m[1])] = append(errs[string(m[1])], string(m[0]))
	}
	var failed []Failure
	for i, u := range units {
		if lines := errs[unitFile(i)]; lines != nil {
			failed = append(failed, Failure{Unit: u, Err: errors.New(strings.Join(lines, "\n"))})
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

// harnessMain is the program Build builds: it renders JSON-lines requests
// {"template", "request"} from stdin with the compiled package and writes a
// {"prompt"} or {"error"} line for each.
const harnessMain = `package main

import (
	"bufio"
	"encoding/json"
	"os"
	"time"

	"github.com/tmplgen/tmplgen/checkpkg"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/jinja2"
)

func main() {
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
		}
		res := map[string]string{}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			res["error"] = err.Error()
		} else if t, ok := checkpkg.ByName(req.Template); !ok {
			res["error"] = "no template " + req.Template
		} else if r, err := jinja2.ParseRequest(req.Request); err != nil {
			res["error"] = err.Error()
		} else if req.Profile != "" && req.Profile != "transformers" && req.Profile != "llama_server" {
			res["error"] = "unknown profile " + req.Profile
		} else {
			r.Now = now
			render := t.Render
			if req.Profile == "llama_server" {
				render = func(in *jinja2.Input) (string, error) { return llamaserver.Render(t, in) }
			}
			if prompt, err := render(&r.Input); err != nil {
				res["error"] = err.Error()
			} else {
				res["prompt"] = prompt
			}
			if req.Export {
				export(t, &r.Input, res)
			}
		}
		enc.Encode(res)
	}
}

// export adds the variables the llama_server profile gives the template, and the
// template's output on them before post-processing.
func export(t *jinja2.Template, in *jinja2.Input, res map[string]string) {
	vars, err := llamaserver.Vars(t, in)
	if err != nil {
		return
	}
	res["vars"] = string(jinja2.AppendJSON(nil, jinja2.DictValue(vars)))
	if raw, err := t.Render(&jinja2.Input{Vars: vars, Now: in.Now}); err != nil {
		res["raw_error"] = err.Error()
	} else {
		res["raw"] = raw
	}
}
`

// writeModule writes a module with the module path of tmplgen holding the source of
// packages runtime, templatehash and llamaserver and the units as package checkpkg (the i'th in
// unitFile(i)), so that it builds without any download.
func writeModule(dir string, units []*codegen.Unit) error {
	gomod := "module github.com/tmplgen/tmplgen\n\ngo 1.26\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	for _, pkg := range []string{"jinja2", "templatehash", "llamaserver"} {
		if err := writePackageSource(filepath.Join(dir, pkg), pkg); err != nil {
			return err
		}
	}
	pkgDir := filepath.Join(dir, "checkpkg")
	// a unit left out of the last build leaves no file behind
	if err := os.RemoveAll(pkgDir); err != nil {
		return err
	}
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return err
	}
	for i, u := range units {
		src, err := codegen.File("checkpkg", u)
		if err != nil {
			return fmt.Errorf("%s: %w", u.Origin, err)
		}
		if err := os.WriteFile(filepath.Join(pkgDir, unitFile(i)), src, 0o644); err != nil {
			return err
		}
	}
	src, err := codegen.Registry("checkpkg", units)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(pkgDir, "registry.go"), src, 0o644)
}

// writePackageSource writes the source of package pkg of tmplgen.RuntimeSource, without
// its tests, into dir.
func writePackageSource(dir, pkg string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := fs.ReadDir(tmplgen.RuntimeSource, pkg)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := fs.ReadFile(tmplgen.RuntimeSource, pkg+"/"+e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
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
