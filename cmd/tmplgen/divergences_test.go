package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// requireOracles says whether the oracle tests must run (CI sets it): they fail rather
// than skip when what they need is missing.
var requireOracles = os.Getenv("TMPLGEN_REQUIRE_ORACLES") != ""

// skipOrFail skips the test with its reason, or fails it when the oracles are required.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if requireOracles {
		t.Fatalf("TMPLGEN_REQUIRE_ORACLES is set, but "+format, args...)
	}
	t.Skipf("SKIPPED: "+format, args...)
}

// TestDivergenceListFormat: the list check reads is well formed, and every pair it
// names exists in the oracle's recordings.
func TestDivergenceListFormat(t *testing.T) {
	l, err := readDivergences(filepath.Join("..", "..", defaultDivergences))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.rows) == 0 {
		t.Fatal("the list is empty")
	}
	for _, d := range l.rows {
		exp, err := readExpected(filepath.Join("..", "..", "..", "shared", "oracle", "expected", d.template+".json"))
		if err != nil {
			t.Errorf("%s %s: %v", d.template, d.caseID, err)
			continue
		}
		rec, ok := exp.Cases[d.caseID]["llama_server"]
		switch {
		case !ok:
			t.Errorf("%s %s: llama-server's answer is not recorded", d.template, d.caseID)
		case d.category == "refused" && (rec["error"] == nil || !strings.Contains(*rec["error"], "template rejected at load")):
			// llama-server would not start with the template: every answer is that error
			t.Errorf("%s %s: listed as refused, but llama-server answered %v", d.template, d.caseID, rec)
		}
	}
	if _, err := readDivergences(writeTemp(t, "template\tcase\tcategory\treason\na.jinja\tuser\tbug\twhy\n")); err == nil || !strings.Contains(err.Error(), "neither refused nor engine") {
		t.Errorf("a category other than refused or engine: got %v", err)
	}
	if _, err := readDivergences(writeTemp(t, "template\tcase\tcategory\treason\na.jinja\tuser\tengine\twhy\na.jinja\tuser\trefused\twhy\n")); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("a pair listed twice: got %v", err)
	}
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "list.tsv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLlamaServerEngineDivergences proves each "engine" row of the divergence lists (the
// shared corpus's and testdata/fields' for the request fields): the template variables
// the llama_server profile defines for that pair, rendered by Python Jinja2 as
// transformers runs it (testdata/llama_server/render_vars.py, which uses
// ../shared/oracle/tools/hf_render.py), give exactly the bytes (or the failure) of our
// compiled template on them, while llama-server recorded something else: the difference
// is llama.cpp's own Jinja engine, not the profile.
func TestLlamaServerEngineDivergences(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "oracle", "tools", "hf_render.py")); err != nil {
		skipOrFail(t, "../shared/oracle is missing (%v)", err)
	}
	if err := exec.Command("python3", "-c", "import jinja2").Run(); err != nil {
		skipOrFail(t, "python3 with jinja2 is not available (%v)", err)
	}
	t.Run("corpus", func(t *testing.T) {
		proveEngineDivergences(t, shared, filepath.Join("..", "..", defaultDivergences), filepath.Join(shared, "oracle", "cases.json"),
			filepath.Join(shared, "templates"), filepath.Join(shared, "oracle", "expected"))
	})
	t.Run("fields", func(t *testing.T) {
		fields := filepath.Join("..", "..", "testdata", "fields")
		proveEngineDivergences(t, shared, filepath.Join(fields, "llama-server-divergences.tsv"), filepath.Join(fields, "cases.json"),
			filepath.Join(shared, "templates", "llama.cpp"), filepath.Join(fields, "expected"))
	})
}

// proveEngineDivergences proves the engine rows of the list at listPath, whose pairs are
// the templates under templatesDir and the cases of casesFile recorded in expectedDir.
func proveEngineDivergences(t *testing.T, shared, listPath, casesFile, templatesDir, expectedDir string) {
	list, err := readDivergences(listPath)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := readCases(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	var srcs []source
	texts := map[string]string{}
	var pairs []checkPair
	for _, d := range list.rows {
		if d.category != "engine" {
			continue
		}
		if _, ok := texts[d.template]; !ok {
			b, err := os.ReadFile(filepath.Join(templatesDir, d.template))
			if err != nil {
				t.Fatal(err)
			}
			texts[d.template] = string(b)
			srcs = append(srcs, source{Name: d.template, Origin: d.template, File: filepath.Base(d.template), Text: string(b)})
		}
		exp, err := readExpected(filepath.Join(expectedDir, d.template+".json"))
		if err != nil {
			t.Fatal(err)
		}
		rec := exp.Cases[d.caseID]["llama_server"]
		pairs = append(pairs, checkPair{template: d.template, caseID: d.caseID, want: result{Prompt: rec["prompt"], Error: rec["error"]}})
	}
	units, failed := compile(srcs)
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	var stderr bytes.Buffer
	got, err := renderPairs(units, pairs, nil, cases, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), "llama_server", true, false, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}

	// Python Jinja2 on the variables of every pair, in one process
	var input bytes.Buffer
	enc := json.NewEncoder(&input)
	enc.SetEscapeHTML(false)
	for i, p := range pairs {
		if got[i].Vars == nil {
			t.Errorf("%s %s: the profile refused the request (%s): not an engine deviation", p.template, p.caseID, got[i])
			continue
		}
		if err := enc.Encode(map[string]any{"id": i, "template": texts[p.template], "vars": json.RawMessage(*got[i].Vars)}); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("python3", filepath.Join("..", "..", "testdata", "llama_server", "render_vars.py"))
	cmd.Env = append(os.Environ(), "TMPLGEN_SHARED="+shared)
	cmd.Stdin = &input
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("render_vars.py: %v\n%s", err, stderr.String())
	}
	python := map[int]result{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var r struct {
			ID int `json:"id"`
			result
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		python[r.ID] = r.result
	}
	proved := 0
	for i, p := range pairs {
		if got[i].Vars == nil {
			continue
		}
		py, ok := python[i]
		ours := result{Prompt: got[i].Raw, Error: got[i].RawError}
		switch {
		case !ok:
			t.Errorf("%s %s: no answer from Python", p.template, p.caseID)
			continue
		case py.Error != nil && ours.Error == nil:
			t.Errorf("%s %s: Python Jinja2 fails (%s) where we render", p.template, p.caseID, *py.Error)
			continue
		case py.Error == nil && ours.Error != nil:
			t.Errorf("%s %s: we fail (%s) where Python Jinja2 renders", p.template, p.caseID, *ours.Error)
			continue
		case py.Prompt != nil && *py.Prompt != *ours.Prompt:
			t.Errorf("%s %s: Python Jinja2 renders other bytes than ours: %s", p.template, p.caseID, describeMismatch(py, ours))
			continue
		}
		final := result{Prompt: got[i].Prompt, Error: got[i].Error}
		if same(p.want, final) {
			t.Errorf("%s %s: listed as an engine deviation, but we give llama-server's answer", p.template, p.caseID)
			continue
		}
		proved++
	}
	t.Logf("%d engine deviations proved: Python Jinja2 gives our bytes, llama-server recorded others", proved)
}

// TestCheckDivergences: check -engine llama_server skips and counts the listed pairs,
// prints the count before its last line, and fails on a listed pair that passes or does
// not exist.
func TestCheckDivergences(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "oracle", "expected")); err != nil {
		skipOrFail(t, "../shared/oracle is missing (%v)", err)
	}
	// a template with pairs llama.cpp renders otherwise (those of the committed list),
	// which the check skips when they are listed and fails on when they are not
	const tmpl = "ik_llama.cpp/MiroThinker.jinja"
	args := []string{"check", "-templates", filepath.Join(shared, "templates"), "-expected", filepath.Join(shared, "oracle", "expected"),
		"-cases", filepath.Join(shared, "oracle", "cases.json"), "-engine", "llama_server", "-run", "^" + regexp.QuoteMeta(tmpl) + "$"}
	header := "template\tcase\tcategory\treason\n"
	cases := []string{"parallel_tool_calls", "tool_flow", "tool_flow_object_args", "tools_defined", "tools_no_system"}
	var listed string
	for _, c := range cases {
		listed += tmpl + "\t" + c + "\tengine\tllama.cpp's engine renders it otherwise\n"
	}
	n := len(cases)

	code, stdout, stderr := runCLI(t, "", append(args, "-divergences", writeTemp(t, header+listed))...)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	if want := fmt.Sprintf("%d listed divergences skipped (0 refused, %d engine) from ", n, n); !strings.Contains(stdout, want) || !strings.HasSuffix(stdout, fmt.Sprintf("%d passed, 0 failed\n", 30-n)) {
		t.Errorf("output:\n%s\nwant %q and then %d passed, 0 failed", stdout, want, 30-n)
	}

	code, stdout, _ = runCLI(t, "", append(args, "-divergences", writeTemp(t, header+listed+tmpl+"\tuser\tengine\tnot true\n"+tmpl+"\tno_such_case\tengine\tnot true\n"))...)
	for _, want := range []string{
		"FAIL " + tmpl + " user: listed in ", "as engine, but it passes: remove it from the list",
		"FAIL " + tmpl + " no_such_case: listed in ", "but there is no such pair",
		fmt.Sprintf("%d passed, 2 failed\n", 30-n-1),
	} {
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, output:\n%s\nwant %q", code, stdout, want)
		}
	}
}
