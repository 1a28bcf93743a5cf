package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen/internal/randtmpl"
)

// TestDifferential renders random chat-template-shaped programs (internal/randtmpl)
// with random requests through Python Jinja2, as transformers runs it (the oracle's
// hf_render.py), and through tmplgen's compiled code, and fails on each pair where they
// differ: other bytes, or an error on one side only. Each failure prints the program
// and the request, ready to become a snippet of testdata/semantics.
//
// It runs TMPLGEN_DIFF_N programs (default 40, a few seconds) from seed TMPLGEN_DIFF_SEED
// (default 1), three requests each; run it longer by hand, with other seeds:
//
//	TMPLGEN_DIFF_N=2000 TMPLGEN_DIFF_SEED=$RANDOM go test ./cmd/tmplgen -run TestDifferential
func TestDifferential(t *testing.T) {
	const oracle = "../../../shared/oracle/tools/hf_render.py"
	if _, err := os.Stat(oracle); err != nil {
		t.Fatalf("the oracle's renderer is missing (%v): this test needs ../shared beside the repository", err)
	}
	n, seed := envInt(t, "TMPLGEN_DIFF_N", 40), envInt(t, "TMPLGEN_DIFF_SEED", 1)
	const perTemplate = 3

	var srcs []source
	var pairs []checkPair
	var oracleIn bytes.Buffer
	texts := map[string]string{}
	for i := range n {
		s := uint64(seed)*1_000_003 + uint64(i)
		name := fmt.Sprintf("random_%d_%d", seed, i)
		text := randtmpl.Template(s)
		texts[name] = text
		srcs = append(srcs, source{Name: name, Origin: name, File: name + ".jinja", Text: text})
		for j := range perTemplate {
			req := randtmpl.Request(s*perTemplate + uint64(j))
			id := fmt.Sprintf("%s/%d", name, j)
			pairs = append(pairs, checkPair{template: name, caseID: id, request: req})
			var fields map[string]any
			if err := json.Unmarshal(req, &fields); err != nil {
				t.Fatal(err)
			}
			fields["id"], fields["template"] = id, text
			line, err := json.Marshal(fields)
			if err != nil {
				t.Fatal(err)
			}
			oracleIn.Write(append(line, '\n'))
		}
	}

	// Python Jinja2's answers
	cmd := exec.Command("python3", oracle)
	cmd.Env = append(os.Environ(), "ORACLE_NOW=2026-11-30T12:00:00")
	cmd.Stdin = &oracleIn
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 %s: %v\n%s", oracle, err, stderr.String())
	}
	answers := map[string]result{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		var a struct {
			ID     string  `json:"id"`
			Prompt *string `json:"prompt"`
			Error  *string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		answers[a.ID] = result{Prompt: a.Prompt, Error: a.Error}
	}
	for i := range pairs {
		want, ok := answers[pairs[i].caseID]
		if !ok {
			t.Fatalf("the oracle gave no answer for %s", pairs[i].caseID)
		}
		pairs[i].want = want
	}

	// tmplgen's
	units, failed := compile(srcs)
	compileErrs := map[string]error{}
	for _, f := range failed {
		compileErrs[f.Source.Name] = f.Err
	}
	var buildLog bytes.Buffer
	got, failures, err := renderEach(units, pairs, compileErrs, nil, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), "", false, false, &buildLog)
	if err != nil {
		t.Fatalf("rendering: %v\n%s", err, buildLog.String())
	}
	buildErrs := buildErrors(failures)
	mismatches, errs := 0, 0
	for i, p := range pairs {
		if p.want.Error != nil {
			errs++
		}
		if err, ok := buildErrs[p.template]; ok {
			mismatches++
			t.Errorf("%s: the generated Go does not build: %v\n\ttemplate: %s", p.template, err, strconv.Quote(texts[p.template]))
			continue
		}
		if same(p.want, got[i]) {
			continue
		}
		mismatches++
		t.Errorf("%s differs from Python Jinja2\n\ttemplate: %s\n\trequest:  %s\n\twant:     %s\n\tgot:      %s",
			p.caseID, strconv.Quote(texts[p.template]), p.request, showResult(p.want), showResult(got[i]))
	}
	t.Logf("%d programs x %d requests (seed %d): %d differ; Jinja2 fails on %d", n, perTemplate, seed, mismatches, errs)
}

// envInt returns the integer in the environment variable name, or def when it is unset.
func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return v
}
