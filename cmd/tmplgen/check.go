package main

import (
	"encoding/json"
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

	"github.com/tmplgen/tmplgen/codegen"
	"github.com/tmplgen/tmplgen/internal/harness"
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

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("check", flag.ContinueOnError)
	fset.SetOutput(stderr)
	templates := fset.String("templates", "", "directory of templates to check")
	expected := fset.String("expected", "", "directory of expected renderings (TEMPLATE.json for each template)")
	casesFile := fset.String("cases", "../shared/oracle/cases.json", "the cases (requests) to render")
	engine := fset.String("engine", "transformers", "the reference engine: transformers, llama_server or llama_legacy")
	nowFlag := fset.String("now", "2026-11-30T12:00:00Z", "the clock strftime_now reads")
	match := fset.String("run", "", "only check templates whose path matches this regular expression")
	keep := fset.Bool("keep", false, "keep the temporary build directory")
	exportFile := fset.String("export", "", "with -engine llama_server, write each pair that fails (listed or not) as a JSON line: the template variables the profile defines and the template's output on them, for comparing with other Jinja engines")
	showErrors := fset.Bool("errors", false, "also list the pairs where both sides failed, with both messages")
	divergencesFile := fset.String("divergences", "", "the pairs known to differ from llama.cpp, skipped (default "+defaultDivergences+" with -engine llama_server, when it exists)")
	if err := fset.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *templates == "" || *expected == "" {
		return usageError{"-templates and -expected are required"}
	}
	switch *engine {
	case "transformers", "llama_legacy", "llama_server":
	default:
		return usageError{fmt.Sprintf("unknown engine %q (transformers, llama_server, llama_legacy)", *engine)}
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
	var divergences *divergenceList
	if *engine == "llama_server" {
		path, explicit := *divergencesFile, *divergencesFile != ""
		if !explicit {
			path = defaultDivergences
		}
		if _, err := os.Stat(path); err == nil || explicit {
			if divergences, err = readDivergences(path); err != nil {
				return err
			}
		}
	}
	srcs, err := readTemplateDir(*templates, filter)
	if err != nil {
		return err
	}
	var pairs []checkPair
	for _, s := range srcs {
		exp, err := readExpected(filepath.Join(*expected, s.Name+".json"))
		if err != nil {
			return err
		}
		ids := make([]string, 0, len(exp.Cases))
		for id := range exp.Cases {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			rec, ok := exp.Cases[id][*engine]
			if !ok {
				continue
			}
			if _, ok := cases[id]; !ok {
				return fmt.Errorf("%s: case %q is not in %s", s.Name, id, *casesFile)
			}
			pairs = append(pairs, checkPair{template: s.Name, caseID: id, want: result{Prompt: rec["prompt"], Error: rec["error"]}})
		}
	}
	units, failed := compile(srcs)
	compileErrs := map[string]error{}
	for _, f := range failed {
		compileErrs[f.Source.Name] = f.Err
	}
	profile := ""
	if *engine == "llama_server" {
		profile = "llama_server"
	}
	got, err := renderPairs(units, pairs, compileErrs, cases, now, profile, *exportFile != "" && profile != "", *keep, stderr)
	if err != nil {
		return err
	}
	if *exportFile != "" {
		if err := exportFailures(*exportFile, pairs, got); err != nil {
			return err
		}
	}
	passed, failedN := 0, 0
	for i, p := range pairs {
		if divergences.skip(stdout, p, same(p.want, got[i])) {
			continue
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
	failedN += divergences.report(stdout, srcs)
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failedN)
	if failedN > 0 {
		return fmt.Errorf("%d of %d pairs differ from %s", failedN, passed+failedN, *engine)
	}
	return nil
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
		return nil, fmt.Errorf("%s: %w", path, err)
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
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &e, nil
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
// that did not compile gives its compile error for each of its pairs.
func renderPairs(units []*codegen.Unit, pairs []checkPair, compileErrs map[string]error, cases map[string]json.RawMessage, now time.Time, profile string, export, keep bool, stderr io.Writer) ([]result, error) {
	dir, err := os.MkdirTemp("", "tmplgen-check-")
	if err != nil {
		return nil, err
	}
	if keep {
		fmt.Fprintf(stderr, "tmplgen check: building in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	bin, err := harness.Build(dir, units)
	if err != nil {
		return nil, err
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
		req := cases[p.caseID]
		if p.request != nil {
			req = p.request
		}
		reqs = append(reqs, harness.Request{Template: p.template, Request: req, Profile: profile, Export: export})
		sent = append(sent, i)
	}
	got, err := harness.Run(bin, reqs, now, stderr)
	if err != nil {
		return nil, err
	}
	for k, i := range sent {
		results[i] = got[k]
	}
	return results, nil
}
