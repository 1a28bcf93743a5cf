package jinja2_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// builtinsDir holds the table of the filters, methods and formatting this package
// implements (filters.go, methods.go, format.go): the expressions (cases.txt) and what
// Python Jinja2 gave for each (expected.json, recorded by record.py, never by hand).
var builtinsDir = filepath.Join("testdata", "builtins")

// builtinCase is a row of expected.json: an expression of cases.txt, the variables it
// reads and Jinja2's output or error.
type builtinCase struct {
	Line int    `json:"line"`
	Expr string `json:"expr"`
	// Vars stays raw JSON, so that dicts reach the template in the order Python's
	// json.loads gives them.
	Vars   json.RawMessage `json:"vars"`
	Prompt *string         `json:"prompt"`
	Error  *string         `json:"error"`
}

// TestBuiltins compiles each expression of testdata/builtins as the template
// "{{ EXPR }}", builds and renders it with its variables (as record.py renders it: no
// generation prompt, the variables as chat_template_kwargs) and compares with Python
// Jinja2: the same output, or an error where Jinja2 raised one. The expressions of
// known_differences.json, where tmplgen knowingly differs, are reported without failing,
// and fail when they start to match.
func TestBuiltins(t *testing.T) {
	var table struct {
		CasesSHA256 string        `json:"cases_sha256"`
		Cases       []builtinCase `json:"cases"`
	}
	readTestJSON(t, filepath.Join(builtinsDir, "expected.json"), &table)
	var known map[string]string // expression: why tmplgen differs
	readTestJSON(t, filepath.Join(builtinsDir, "known_differences.json"), &known)
	cases, err := os.ReadFile(filepath.Join(builtinsDir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(cases); hex.EncodeToString(sum[:]) != table.CasesSHA256 {
		t.Fatalf("cases.txt changed since expected.json was recorded: run python3 %s", filepath.Join("jinja2", builtinsDir, "record.py"))
	}
	if len(table.Cases) == 0 {
		t.Fatal("expected.json records no case")
	}

	srcs := make([]compiler.Source, len(table.Cases))
	pairs := make([]harness.Pair, len(table.Cases))
	exprs := map[string]bool{}
	for i, c := range table.Cases {
		if (c.Prompt == nil) == (c.Error == nil) {
			t.Fatalf("cases.txt:%d: expected.json records no output or error, or both", c.Line)
		}
		exprs[c.Expr] = true
		name := fmt.Sprintf("line%d", c.Line)
		srcs[i] = compiler.Source{Name: name, Origin: name, File: name + ".jinja", Text: "{{ " + c.Expr + " }}"}
		pairs[i] = harness.Pair{Template: name, Case: name, Request: c.request(), Want: harness.Result{Prompt: c.Prompt, Error: c.Error}}
	}
	for expr := range known {
		if !exprs[expr] {
			t.Errorf("known_differences.json names %q, which is not an expression of cases.txt", expr)
		}
	}
	units, failed := compiler.Compile(srcs)
	compileErrs := map[string]error{}
	for _, f := range failed {
		compileErrs[f.Source.Name] = f.Err
	}
	var stderr bytes.Buffer
	got, failures, err := harness.RenderPairs(t.TempDir(), units, compileErrs, pairs, nil, harness.RenderOptions{Now: harness.OracleNow, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	for _, f := range failures {
		t.Errorf("%s: the generated Go does not build: %v", f.Unit.Name, f.Err)
	}
	for i, c := range table.Cases {
		same := harness.Same(pairs[i].Want, got[i])
		reason, isKnown := known[c.Expr]
		switch {
		case same && isKnown:
			t.Errorf("cases.txt:%d: {{ %s }} now matches Jinja2: take it off known_differences.json", c.Line, c.Expr)
		case isKnown:
			t.Logf("known difference, cases.txt:%d: {{ %s }} (%s): %s", c.Line, c.Expr, reason, harness.DescribeMismatch(pairs[i].Want, got[i]))
		case !same:
			var vars bytes.Buffer
			json.Compact(&vars, c.Vars)
			t.Errorf("cases.txt:%d: {{ %s }} with %s: %s", c.Line, c.Expr, vars.Bytes(), harness.DescribeMismatch(pairs[i].Want, got[i]))
		}
	}
}

// request is the request record.py renders the expression from.
func (c builtinCase) request() json.RawMessage {
	return json.RawMessage(`{"messages": [], "add_generation_prompt": false, "bos": "<s>", "eos": "</s>", "chat_template_kwargs": ` + string(c.Vars) + `}`)
}

// readTestJSON reads the JSON file at path into v.
func readTestJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
