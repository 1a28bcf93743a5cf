package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// OracleNow is the clock the oracle's renderings were recorded with (strftime_now,
// date_string): a render compared with them reads it.
var OracleNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// The reference engines, as the expected files name them.
const (
	// EngineTransformers is Python Jinja2 as transformers' apply_chat_template runs it.
	EngineTransformers = "transformers"
	// EngineLlamaServer is llama.cpp's llama-server, compared under the LlamaServer profile.
	EngineLlamaServer = "llama_server"
	// EngineLlamaLegacy is llama.cpp's built-in chat formats (llama_chat_apply_template),
	// which the project's own templates of the same name reproduce under the Transformers
	// profile.
	EngineLlamaLegacy = "llama_legacy"
	// EngineVLLM is vLLM's OpenAI-compatible server (vllm_render.py's reconstruction of
	// it), compared under the VLLM profile.
	EngineVLLM = "vllm"
)

// Pair is a request to render with a template, and what it must give.
type Pair struct {
	Template string // the template's name: the Name of its unit
	Case     string // the case's id
	// Request is the request to render; when nil, the case Case names.
	Request json.RawMessage
	Profile Profile
	Want    Result
}

// RenderOptions are how RenderPairs renders.
type RenderOptions struct {
	Now time.Time // the clock strftime_now reads
	// Export asks for the variables of the llama_server profile (see Request.Export).
	Export bool
	// Segments asks for the data segments of each prompt (see Request.Segments).
	Segments bool
	Stderr   io.Writer // the rendering program's standard error
}

// RenderPairs builds the units into a program in dir (BuildEach) and renders every
// pair: its own request if it has one, else the case of cases it names. A template of
// compileErrs (by name) gives its compile error for each of its pairs. The templates
// whose generated Go does not build are left out of the build: their pairs are not
// rendered (their results are zero), and it returns them with their build errors.
func RenderPairs(dir string, units []*codegen.Unit, compileErrs map[string]error, pairs []Pair, cases map[string]json.RawMessage, opts RenderOptions) ([]Result, []Failure, error) {
	bin, failures, err := BuildEach(dir, units)
	if err != nil {
		return nil, nil, err
	}
	results := make([]Result, len(pairs))
	var reqs []Request
	var sent []int
	for i, p := range pairs {
		if err, ok := compileErrs[p.Template]; ok {
			msg := "compile error: " + err.Error()
			results[i] = Result{Error: &msg}
			continue
		}
		if slices.ContainsFunc(failures, func(f Failure) bool { return f.Unit.Name == p.Template }) {
			continue
		}
		req := p.Request
		if req == nil {
			req = cases[p.Case]
		}
		reqs = append(reqs, Request{Template: p.Template, Request: req, Profile: p.Profile.String(), Export: opts.Export, AllowMissingTokens: true, Segments: opts.Segments})
		sent = append(sent, i)
	}
	got, err := Run(bin, reqs, opts.Now, opts.Stderr)
	if err != nil {
		return nil, nil, err
	}
	for k, i := range sent {
		results[i] = got[k]
	}
	return results, failures, nil
}

// Suite is a conformance check as tmplgen check runs it: every template under
// Templates, rendered on each case of Cases its expected file (Expected/PATH.json, PATH
// relative to Templates) records for Engine, and compared with the recording byte for
// byte; an expected error is matched by an error.
type Suite struct {
	Name      string // what reports call the suite
	Templates string // a directory of template files (IsTemplateFile)
	Expected  string // a directory of expected files
	Cases     string // a JSON file listing requests, each with an id
	Engine    string // the reference engine: EngineTransformers, EngineLlamaServer or EngineLlamaLegacy
	// Filter, when set, keeps only the templates whose path relative to Templates
	// (slash-separated) it matches.
	Filter *regexp.Regexp
	// Lines, when set, is a TSV file of the template line Jinja2's traceback names for
	// each pair it raised an error on (template path, case, line;
	// testdata/errlines/record.py records it): a pair whose error names another line
	// fails.
	Lines string
}

// Outcome is a pair of a suite, rendered and compared.
type Outcome struct {
	Template string // the template's path relative to the suite's Templates
	Case     string
	Want     Result
	Got      Result // zero when the template's generated Go does not build
	// Failure says why the pair fails, "" when it passes: the generated Go does not
	// build, the error is at another line than Jinja2's, or the rendering differs
	// (DescribeMismatch).
	Failure string
}

// RunSuites reads the suites, compiles their templates (a file that several suites
// check, once), builds them into one program in dir, renders every pair under the
// profile of its suite's engine with the clock opts.Now and compares. It returns each
// suite's outcomes, by template path and then case id.
func RunSuites(dir string, suites []Suite, opts RenderOptions) ([][]Outcome, error) {
	type suitePair struct {
		pair     Pair
		template string // the path relative to the suite's Templates
		file     string // the file name its errors cite
		line     int    // the line its error must name, or 0
	}
	var srcs []compiler.Source
	compiled := map[string]bool{}
	var pairs []Pair
	bySuite := make([][]suitePair, len(suites))
	for k, s := range suites {
		profile := Transformers
		switch s.Engine {
		case EngineLlamaServer:
			profile = LlamaServer
		case EngineVLLM:
			profile = VLLM
		}
		cases, err := ReadCases(s.Cases)
		if err != nil {
			return nil, err
		}
		var lines map[[2]string]int
		if s.Lines != "" {
			if lines, err = readErrorLines(s.Lines); err != nil {
				return nil, err
			}
		}
		tmpls, err := ReadTemplateDir(s.Templates, s.Filter)
		if err != nil {
			return nil, err
		}
		for _, src := range tmpls {
			rel := src.Name
			// a template is compiled under its path, which tells apart the templates of
			// two suites that have the same relative path
			src.Name = path.Join(filepath.ToSlash(s.Templates), rel)
			if !compiled[src.Name] {
				compiled[src.Name] = true
				srcs = append(srcs, src)
			}
			exp, err := readExpected(filepath.Join(s.Expected, rel+".json"))
			if err != nil {
				return nil, err
			}
			for _, id := range slices.Sorted(maps.Keys(exp.Cases)) {
				rec, ok := exp.Cases[id][s.Engine]
				if !ok {
					continue
				}
				req, ok := cases[id]
				if !ok {
					return nil, fmt.Errorf("%s: case %q is not in %s", rel, id, s.Cases)
				}
				// the suites' cases files can have ids in common: each pair carries its request
				bySuite[k] = append(bySuite[k], suitePair{
					pair:     Pair{Template: src.Name, Case: id, Request: req, Profile: profile, Want: Result{Prompt: rec["prompt"], Error: rec["error"]}},
					template: rel, file: src.File, line: lines[[2]string{rel, id}],
				})
			}
		}
		for _, p := range bySuite[k] {
			pairs = append(pairs, p.pair)
		}
	}
	units, failed := compiler.Compile(srcs)
	compileErrs := map[string]error{}
	for _, f := range failed {
		compileErrs[f.Source.Name] = f.Err
	}
	got, failures, err := RenderPairs(dir, units, compileErrs, pairs, nil, opts)
	if err != nil {
		return nil, err
	}
	buildErrs := map[string]error{}
	for _, f := range failures {
		buildErrs[f.Unit.Name] = f.Err
	}
	outcomes := make([][]Outcome, len(suites))
	i := 0
	for k, sps := range bySuite {
		for _, sp := range sps {
			o := Outcome{Template: sp.template, Case: sp.pair.Case, Want: sp.pair.Want, Got: got[i]}
			i++
			if err, ok := buildErrs[sp.pair.Template]; ok {
				o.Failure = "the generated Go does not build: " + Clip(strings.ReplaceAll(err.Error(), "\n", "; "), 300)
			} else if o.Got.Error != nil && sp.line > 0 && ErrorLine(*o.Got.Error, sp.file) != sp.line {
				o.Failure = fmt.Sprintf("Jinja2 reports the error at line %d; got %s", sp.line, Clip(*o.Got.Error, 200))
			} else if !Same(o.Want, o.Got) {
				o.Failure = DescribeMismatch(o.Want, o.Got)
			}
			outcomes[k] = append(outcomes[k], o)
		}
	}
	return outcomes, nil
}

// ReadCases reads a cases file: a JSON list of requests, each with an "id". A request
// takes the oracle's defaults for what it leaves out: bos "<s>", eos "</s>" and
// add_generation_prompt true.
func ReadCases(path string) (map[string]json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, jsonFileError(path, b, err)
	}
	out := map[string]json.RawMessage{}
	for i, raw := range list {
		var c map[string]json.RawMessage
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("%s: case %d: %w", path, i, err)
		}
		var id string
		if err := json.Unmarshal(c["id"], &id); err != nil || id == "" {
			return nil, fmt.Errorf("%s: case %d has no id", path, i)
		}
		for k, v := range map[string]string{"bos": `"<s>"`, "eos": `"</s>"`, "add_generation_prompt": "true"} {
			if _, ok := c[k]; !ok {
				c[k] = json.RawMessage(v)
			}
		}
		if out[id], err = json.Marshal(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// expectedFile is the oracle's record for one template: by case id and engine, the
// "prompt" or the "error" the engine gave.
type expectedFile struct {
	Template string                                   `json:"template"`
	SHA256   string                                   `json:"sha256"`
	Cases    map[string]map[string]map[string]*string `json:"cases"`
}

func readExpected(path string) (*expectedFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var e expectedFile
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, jsonFileError(path, b, err)
	}
	return &e, nil
}

// jsonFileError is the error of decoding data, the JSON file at path: a syntax error
// with its line, column and JSON path (as jinja2's decoder finds them), else err.
func jsonFileError(path string, data []byte, err error) error {
	var syntax *jinja2.JSONError
	if _, perr := jinja2.ParseJSON(data); errors.As(perr, &syntax) {
		syntax.File = path
		return syntax
	}
	return fmt.Errorf("%s: %w", path, err)
}

// ReadTemplateDir reads every template file under dir whose path relative to dir
// (slash-separated, its Name and Origin) filter matches, if given.
func ReadTemplateDir(dir string, filter *regexp.Regexp) ([]compiler.Source, error) {
	var srcs []compiler.Source
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !IsTemplateFile(d.Name()) {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if filter != nil && !filter.MatchString(rel) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		srcs = append(srcs, compiler.Source{Name: rel, Origin: rel, File: filepath.Base(path), Text: string(b)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(srcs) == 0 {
		return nil, fmt.Errorf("no templates under %s", dir)
	}
	return srcs, nil
}

// IsTemplateFile reports whether a file name is a template's: .jinja, .jinja2 or .j2.
func IsTemplateFile(name string) bool {
	for _, ext := range []string{".jinja", ".jinja2", ".j2"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// readErrorLines reads a TSV of template, case and the template line of the pair's
// error (lines starting with # are comments).
func readErrorLines(path string) (map[[2]string]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := map[[2]string]int{}
	for i, row := range strings.Split(string(b), "\n") {
		if row == "" || strings.HasPrefix(row, "#") {
			continue
		}
		f := strings.Split(row, "\t")
		line := 0
		if len(f) == 3 {
			line, err = strconv.Atoi(f[2])
		}
		if len(f) != 3 || err != nil || line < 1 {
			return nil, fmt.Errorf("%s:%d: want template, case and a line number, tab-separated: %q", path, i+1, row)
		}
		lines[[2]string{f[0], f[1]}] = line
	}
	return lines, nil
}

// ErrorLine returns the template line an error message of a render of file names
// ("file:line:col ..."), or 0.
func ErrorLine(msg, file string) int {
	at := strings.Index(msg, file+":")
	if at < 0 {
		return 0
	}
	rest := msg[at+len(file)+1:]
	digits := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if digits <= 0 || rest[digits] != ':' {
		return 0
	}
	line, _ := strconv.Atoi(rest[:digits])
	return line
}

// Same reports whether a rendering matches the expectation: the same prompt, or an
// error where an error is expected.
func Same(want, got Result) bool {
	if want.Error != nil {
		return got.Error != nil
	}
	return want.Prompt != nil && got.Prompt != nil && *want.Prompt == *got.Prompt
}

// DescribeMismatch shows where a prompt first differs from the expected one (its byte
// offset, and both from a little before it), or what each side gave.
func DescribeMismatch(want, got Result) string {
	if want.Prompt == nil || got.Prompt == nil {
		return fmt.Sprintf("want %s; got %s", Clip(want.String(), 300), Clip(got.String(), 300))
	}
	w, g := *want.Prompt, *got.Prompt
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-30)
	return fmt.Sprintf("prompts differ at byte %d: want %s; got %s", i,
		strconv.Quote(Clip(w[from:], 90)), strconv.Quote(Clip(g[from:], 90)))
}

// Clip shortens s to its first n bytes and an ellipsis, for a report.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
