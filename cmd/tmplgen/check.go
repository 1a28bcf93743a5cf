package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// result is one rendering: a prompt or an error.
type result = harness.Result

// checkPair is a request to render with a template, and what it must give.
type checkPair = harness.Pair

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
llama.cpp's engine semantics), llama-legacy and vllm (vLLM's OpenAI-compatible server,
rendered under the vllm profile). Each is also
accepted with an underscore (llama_server), as the expected files spell them.`,
	flags: checkFlags,
}

// engines are the reference engines as the expected files name them, by the names
// -engine takes.
var engines = map[string]string{
	"transformers": harness.EngineTransformers,
	"llama-server": harness.EngineLlamaServer, "llama_server": harness.EngineLlamaServer,
	"llama-legacy": harness.EngineLlamaLegacy, "llama_legacy": harness.EngineLlamaLegacy,
	"vllm": harness.EngineVLLM,
}

func checkFlags(fset *flag.FlagSet) func(stdio, []string) error {
	templates := fset.String("templates", "", "the templates to check: a `DIR` of template files")
	expected := fset.String("expected", "", "the expected renderings: a `DIR` with PATH.json for each template PATH")
	casesFile := fset.String("cases", "../shared/oracle/cases.json", "the cases: a JSON `FILE` listing requests, each with an id")
	engineName := fset.String("engine", "transformers", "the reference `ENGINE`: transformers, llama-server, llama-legacy or vllm")
	nowFlag := fset.String("now", harness.OracleNow.Format(time.RFC3339), "the clock strftime_now reads (an RFC 3339 `TIME`)")
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
			return usageError{fmt.Sprintf("unknown engine %q (transformers, llama-server, llama-legacy, vllm)", *engineName)}
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
		suite := harness.Suite{Templates: *templates, Expected: *expected, Cases: *casesFile, Engine: engine, Filter: filter, Lines: *linesFile}
		dir, err := os.MkdirTemp("", "tmplgen-check-")
		if err != nil {
			return err
		}
		if *keep {
			fmt.Fprintf(stderr, "tmplgen check: building in %s\n", dir)
		} else {
			defer os.RemoveAll(dir)
		}
		export := *exportFile != "" && engine == harness.EngineLlamaServer
		outcomes, err := harness.RunSuites(dir, []harness.Suite{suite}, harness.RenderOptions{Now: now, Export: export, Stderr: stderr})
		if err != nil {
			return err
		}
		if *exportFile != "" {
			if err := exportFailures(*exportFile, outcomes[0]); err != nil {
				return err
			}
		}
		passed, failed := 0, 0
		for _, o := range outcomes[0] {
			if o.Failure != "" {
				failed++
				fmt.Fprintf(stdout, "FAIL %s %s: %s\n", o.Template, o.Case, o.Failure)
				continue
			}
			passed++
			if *showErrors && o.Want.Error != nil {
				fmt.Fprintf(stdout, "ERR  %s %s: want %s; got %s\n", o.Template, o.Case, harness.Clip(*o.Want.Error, 200), harness.Clip(*o.Got.Error, 200))
			}
		}
		fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
		if failed > 0 {
			return fmt.Errorf("%d of %d pairs differ from %s", failed, passed+failed, *engineName)
		}
		return nil
	}
}

// renderPairs builds the units in a temporary directory and renders every pair with the
// clock now (harness.RenderPairs). It fails when the generated Go of a template does not
// build.
func renderPairs(units []*codegen.Unit, pairs []checkPair, compileErrs map[string]error, cases map[string]json.RawMessage, now time.Time, stderr io.Writer) ([]result, error) {
	results, failures, err := renderEach(units, pairs, compileErrs, cases, now, stderr)
	if err == nil && len(failures) > 0 {
		err = fmt.Errorf("building the compiled templates: %s: %w", failures[0].Unit.Name, failures[0].Err)
	}
	return results, err
}

// renderEach renders as renderPairs does, except that the templates whose generated Go
// does not build are left out of the build: their pairs are not rendered, and it returns
// those templates with their build errors.
func renderEach(units []*codegen.Unit, pairs []checkPair, compileErrs map[string]error, cases map[string]json.RawMessage, now time.Time, stderr io.Writer) ([]result, []harness.Failure, error) {
	dir, err := os.MkdirTemp("", "tmplgen-check-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	return harness.RenderPairs(dir, units, compileErrs, pairs, cases, harness.RenderOptions{Now: now, Stderr: stderr})
}

// exportFailures writes the pairs that fail as JSON lines: template, case, the
// expectation, our result (with the exported variables).
func exportFailures(path string, outcomes []harness.Outcome) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, o := range outcomes {
		if o.Failure == "" {
			continue
		}
		line := struct {
			Template string `json:"template"`
			Case     string `json:"case"`
			Want     result `json:"want"`
			Got      result `json:"got"`
		}{o.Template, o.Case, o.Want, o.Got}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
