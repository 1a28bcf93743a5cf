package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/jinja2"
)

// expectedFile is the oracle's record for one template.
type expectedFile struct {
	Template string                                   `json:"template"`
	SHA256   string                                   `json:"sha256"`
	Cases    map[string]map[string]map[string]*string `json:"cases"`
}

// result is one rendering: a prompt or an error.
type result = harness.Result

// checkPair is one template and case to render and compare.
type checkPair struct {
	template string // path relative to the templates directory
	caseID   string
	want     result
	// request, when set, is the request to render instead of the case caseID names.
	request json.RawMessage
}

var checkCommand = &command{
	name:    "check",
	summary: "compile, build and render every template and case; compare with recorded renderings",
	doc: `check compiles every template under -templates with the generator gen uses,
builds the result, renders every case of -cases that the template's expected file
(EXPECTED/PATH.json, PATH relative to -templates) records for -engine, and compares
byte for byte; an expected error is matched by an error. It prints one line per
mismatch and, last, "N passed, M failed", and exits 1 when a pair failed.

The engines are transformers (Python Jinja2 as apply_chat_template runs it),
llama-server (llama.cpp's llama-server, rendered under the llama-server profile with
llama.cpp's engine semantics) and llama-legacy. Each is also
accepted with an underscore (llama_server), as the expected files spell them.`,
	flags: checkFlags,
}

// oracleNow is the clock the oracle's renderings were recorded with.
const oracleNow = "2026-11-30T12:00:00Z"

// engines are the reference engines as the expected files name them, by the names
// -engine takes.
var engines = map[string]string{
	"transformers": "transformers",
	"llama-server": "llama_server", "llama_server": "llama_server",
	"llama-legacy": "llama_legacy", "llama_legacy": "llama_legacy",
}

func checkFlags(fset *flag.FlagSet) func(stdio, []string) error {
	templates := fset.String("templates", "", "the templates to check: a `DIR` of template files")
	expected := fset.String("expected", "", "the expected renderings: a `DIR` with PATH.json for each template PATH")
	casesFile := fset.String("cases", "../shared/oracle/cases.json", "the cases: a JSON `FILE` listing requests, each with an id")
	engineName := fset.String("engine", "transformers", "the reference `ENGINE`: transformers, llama-server or llama-legacy")
	nowFlag := fset.String("now", oracleNow, "the clock strftime_now reads (an RFC 3339 `TIME`)")
	match := fset.String("run", "", "only check templates whose path matches this `REGEXP`")
	keep := fset.Bool("keep", false, "keep the temporary build directory")
	exportFile := fset.String("export", "", "with -engine llama-server, write each pair that fails to `FILE` as a JSON line: the template variables the profile defines and the template's output on them, for comparing with other Jinja engines")
	showErrors := fset.Bool("errors", false, "also list the pairs where both sides failed, with both messages")
	linesFile := fset.String("lines", "", "a TSV `FILE` of the template line Jinja2 reports for each erroring pair (template, case, line), as testdata/errlines/record.py records it: a pair whose error tmplgen reports at another line fails")
	return func(s stdio, args []string) error {
		stdout, stderr := s.out, s.err
		if len(args) > 0 {
			return usageError{"takes no arguments: give -templates and -expected"}
		}
		if *templates == "" || *expected == "" {
			return usageError{"-templates and -expected are required"}
		}
		engine, ok := engines[*engineName]
		if !ok {
			return usageError{fmt.Sprintf("unknown engine %q (transformers, llama-server, llama-legacy)", *engineName)}
		}
		now, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			return usageError{"-now: " + err.Error()}
		}
		var filter *regexp.Regexp
		if *match != "" {
			if filter, err = regexp.Compile(*match); err != nil {
				return usageError{"-run: " + err.Error()}
			}
		}
		cases, err := readCases(*casesFile)
		if err != nil {
			return err
		}
		srcs, err := readTemplateDir(*templates, filter)
		if err != nil {
			return err
		}
		var lines map[[2]string]int
		if *linesFile != "" {
			if lines, err = readErrorLines(*linesFile); err != nil {
				return err
			}
		}
		files := map[string]string{}
		for _, src := range srcs {
			files[src.Name] = src.File
		}
		var pairs []checkPair
		for _, src := range srcs {
			exp, err := readExpected(filepath.Join(*expected, src.Name+".json"))
			if err != nil {
				return err
			}
			ids := make([]string, 0, len(exp.Cases))
			for id := range exp.Cases {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			for _, id := range ids {
				rec, ok := exp.Cases[id][engine]
				if !ok {
					continue
				}
				if _, ok := cases[id]; !ok {
					return fmt.Errorf("%s: case %q is not in %s", src.Name, id, *casesFile)
				}
				pairs = append(pairs, checkPair{template: src.Name, caseID: id, want: result{Prompt: rec["prompt"], Error: rec["error"]}})
			}
		}
		units, failed := compile(srcs)
		compileErrs := map[string]error{}
		for _, f := range failed {
			compileErrs[f.Source.Name] = f.Err
		}
		profile := ""
		if engine == "llama_server" {
			profile = "llama_server"
		}
		got, failures, err := renderEach(units, pairs, compileErrs, cases, now, profile, *exportFile != "" && profile != "", *keep, stderr)
		if err != nil {
			return err
		}
		buildErrs := buildErrors(failures)
		if *exportFile != "" {
			if err := exportFailures(*exportFile, pairs, got); err != nil {
				return err
			}
		}
		passed, failedN := 0, 0
		for i, p := range pairs {
			if err, ok := buildErrs[p.template]; ok {
				failedN++
				fmt.Fprintf(stdout, "FAIL %s %s: the generated Go does not build: %s\n", p.template, p.caseID, clip(strings.ReplaceAll(err.Error(), "\n", "; "), 300))
				continue
			}
			if want, ok := lines[[2]string{p.template, p.caseID}]; ok && got[i].Error != nil {
				if line := errorLine(*got[i].Error, files[p.template]); line != want {
					failedN++
					fmt.Fprintf(stdout, "FAIL %s %s: Jinja2 reports the error at line %d; got %s\n", p.template, p.caseID, want, clip(*got[i].Error, 200))
					continue
				}
			}
			if same(p.want, got[i]) {
				passed++
				if *showErrors && p.want.Error != nil {
					fmt.Fprintf(stdout, "ERR  %s %s: want %s; got %s\n", p.template, p.caseID, clip(*p.want.Error, 200), clip(*got[i].Error, 200))
				}
				continue
			}
			failedN++
			fmt.Fprintf(stdout, "FAIL %s %s: %s\n", p.template, p.caseID, describeMismatch(p.want, got[i]))
		}
		fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failedN)
		if failedN > 0 {
			return fmt.Errorf("%d of %d pairs differ from %s", failedN, passed+failedN, *engineName)
		}
		return nil
	}
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

// errorLine returns the template line an error message of a render of file names
// ("file:line:col ..."), or 0.
func errorLine(msg, file string) int {
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

// same reports whether a rendering matches the expectation: the same prompt, or an
// error where an error is expected.
func same(want, got result) bool {
	if want.Error != nil {
		return got.Error != nil
	}
	return want.Prompt != nil && got.Prompt != nil && *want.Prompt == *got.Prompt
}

// describeMismatch shows where a prompt first differs, or what failed.
func describeMismatch(want, got result) string {
	if want.Prompt == nil || got.Prompt == nil {
		return fmt.Sprintf("want %s; got %s", clip(want.String(), 300), clip(got.String(), 300))
	}
	w, g := *want.Prompt, *got.Prompt
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-30)
	return fmt.Sprintf("prompts differ at byte %d: want %s; got %s", i,
		strconv.Quote(clip(w[from:], 90)), strconv.Quote(clip(g[from:], 90)))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// readCases reads the cases file: a JSON list of requests with an "id".
func readCases(path string) (map[string]json.RawMessage, error) {
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
		// the oracle's defaults for what a case leaves out
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
// with its line, column and JSON path (as runtime's decoder finds them), else err.
func jsonFileError(path string, data []byte, err error) error {
	var syntax *jinja2.JSONError
	if _, perr := jinja2.ParseJSON(data); errors.As(perr, &syntax) {
		syntax.File = path
		return syntax
	}
	return fmt.Errorf("%s: %w", path, err)
}

// readTemplateDir reads every template file under dir, named by its path relative to
// dir (slash-separated).
func readTemplateDir(dir string, filter *regexp.Regexp) ([]source, error) {
	var srcs []source
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !isTemplateFile(d.Name()) {
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
		srcs = append(srcs, source{Name: rel, Origin: rel, File: filepath.Base(path), Text: string(b)})
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

func isTemplateFile(name string) bool {
	for _, ext := range []string{".jinja", ".jinja2", ".j2"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// renderPairs compiles the units into a temporary module with the runtime, builds the
// harness and renders every pair: its own request if it has one, else the case it
// names, under a profile ("" or "transformers", "llama_server"), with the llama_server
// profile's variables exported when export is set (see harness.Request). A template
// that did not compile gives its compile error for each of its pairs. It fails when the
// generated Go of a template does not build.
func renderPairs(units []*codegen.Unit, pairs []checkPair, compileErrs map[string]error, cases map[string]json.RawMessage, now time.Time, profile string, export, keep bool, stderr io.Writer) ([]result, error) {
	results, failures, err := renderEach(units, pairs, compileErrs, cases, now, profile, export, keep, stderr)
	if err == nil && len(failures) > 0 {
		err = fmt.Errorf("building the compiled templates: %s: %w", failures[0].Unit.Name, failures[0].Err)
	}
	return results, err
}

// buildErrors returns the build errors of the templates whose generated Go does not
// build, by template name.
func buildErrors(failures []harness.Failure) map[string]error {
	errs := map[string]error{}
	for _, f := range failures {
		errs[f.Unit.Name] = f.Err
	}
	return errs
}

// renderEach renders as renderPairs does, except that the templates whose generated Go
// does not build are left out of the build: their pairs are not rendered, and it returns
// those templates with their build errors.
func renderEach(units []*codegen.Unit, pairs []checkPair, compileErrs map[string]error, cases map[string]json.RawMessage, now time.Time, profile string, export, keep bool, stderr io.Writer) ([]result, []harness.Failure, error) {
	dir, err := os.MkdirTemp("", "tmplgen-check-")
	if err != nil {
		return nil, nil, err
	}
	if keep {
		fmt.Fprintf(stderr, "tmplgen check: building in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	bin, failures, err := harness.BuildEach(dir, units)
	if err != nil {
		return nil, nil, err
	}
	failed := map[string]bool{}
	for _, f := range failures {
		failed[f.Unit.Name] = true
	}
	results := make([]result, len(pairs))
	var reqs []harness.Request
	var sent []int
	for i, p := range pairs {
		if err, ok := compileErrs[p.template]; ok {
			msg := "compile error: " + err.Error()
			results[i] = result{Error: &msg}
			continue
		}
		if failed[p.template] {
			continue
		}
		req := cases[p.caseID]
		if p.request != nil {
			req = p.request
		}
		reqs = append(reqs, harness.Request{Template: p.template, Request: req, Profile: profile, Export: export})
		sent = append(sent, i)
	}
	got, err := harness.Run(bin, reqs, now, stderr)
	if err != nil {
		return nil, nil, err
	}
	for k, i := range sent {
		results[i] = got[k]
	}
	return results, failures, nil
}

// exportFailures writes the pairs whose rendering differs from the expectation as JSON
// lines: template, case, the expectation, our result, and the exported variables.
func exportFailures(path string, pairs []checkPair, got []result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for i, p := range pairs {
		if same(p.want, got[i]) {
			continue
		}
		line := struct {
			Template string `json:"template"`
			Case     string `json:"case"`
			Want     result `json:"want"`
			Got      result `json:"got"`
		}{p.template, p.caseID, p.want, got[i]}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
