package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/randtmpl"
	"github.com/tmplgen/tmplgen/internal/testenv"
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
//
// With TMPLGEN_DIFF_TEMPLATES=DIR the programs are real templates instead, the .jinja
// files under DIR (TMPLGEN_DIFF_N of them, picked by the seed; all of them when N is at
// least their number), each with the same random requests, which reach fields and
// shapes the oracle's fixed cases do not:
//
//	TMPLGEN_DIFF_TEMPLATES=../../../shared/templates TMPLGEN_DIFF_N=600 TMPLGEN_DIFF_SEED=$RANDOM go test ./cmd/tmplgen -run 'TestDifferential(Llama|VLLM)?$'
func TestDifferential(t *testing.T) {
	differential(t, pythonOracle(t, "hf_render.py"), harness.Transformers, "Python Jinja2")
}

// pythonOracle returns the command that runs the oracle's Python renderer script, at
// the oracle's clock.
func pythonOracle(t *testing.T, script string) *exec.Cmd {
	oracle := "../../../shared/oracle/tools/" + script
	if _, err := os.Stat(oracle); err != nil {
		t.Fatalf("the oracle's %s is missing (%v): this test needs ../shared beside the repository", script, err)
	}
	cmd := exec.Command("python3", oracle)
	cmd.Env = append(os.Environ(), "ORACLE_NOW=2026-11-30T12:00:00")
	return cmd
}

// TestDifferentialLlama is TestDifferential against llama-server: programs of what
// llama.cpp's parser reads (randtmpl.LlamaTemplate) and the same requests, rendered by
// llama_chat_driver (llama.cpp b10587's own chat code,
// testenv.LlamaDriver) and by the llama-server profile.
func TestDifferentialLlama(t *testing.T) {
	driver := testenv.LlamaDriver(t)
	differential(t, exec.Command(driver), harness.LlamaServer, "llama-server")
}

// TestDifferentialVLLM is TestDifferential against vLLM's OpenAI-compatible server as
// the oracle's vllm_render.py reconstructs it (its request validation and rewriting
// around transformers' Jinja2 environment), rendered by the vllm profile.
func TestDifferentialVLLM(t *testing.T) {
	differential(t, pythonOracle(t, "vllm_render.py"), harness.VLLM, "vLLM")
}

// differential renders TMPLGEN_DIFF_N random programs from seed TMPLGEN_DIFF_SEED,
// three requests each, through the reference cmd (which reads the requests as JSON
// lines with their id and template, and answers a JSON line each) and through tmplgen
// under profile, and fails on each pair where they differ.
func differential(t *testing.T, cmd *exec.Cmd, profile harness.Profile, reference string) {
	n, seed := envInt(t, "TMPLGEN_DIFF_N", 40), envInt(t, "TMPLGEN_DIFF_SEED", 1)
	const perTemplate = 3

	var corpus []source
	if dir := os.Getenv("TMPLGEN_DIFF_TEMPLATES"); dir != "" {
		corpus = corpusSample(t, dir, n, uint64(seed))
		n = len(corpus)
	}
	var srcs []source
	var pairs []checkPair
	var oracleIn bytes.Buffer
	texts := map[string]string{} // each program's text, quoted, or a real template's path
	for i := range n {
		s := uint64(seed)*1_000_003 + uint64(i)
		name := fmt.Sprintf("random_%d_%d", seed, i)
		text := randtmpl.Template(s)
		if profile == harness.LlamaServer {
			text = randtmpl.LlamaTemplate(s) // what llama.cpp's parser reads: its render is compared
		}
		src := source{Name: name, Origin: name, File: name + ".jinja", Text: text}
		texts[name] = strconv.Quote(text)
		if corpus != nil {
			src = corpus[i]
			name, text = src.Name, src.Text
			texts[name] = filepath.Join(os.Getenv("TMPLGEN_DIFF_TEMPLATES"), src.Origin)
		}
		srcs = append(srcs, src)
		for j := range perTemplate {
			req := randtmpl.Request(s*perTemplate + uint64(j))
			id := fmt.Sprintf("%s/%d", name, j)
			pairs = append(pairs, checkPair{Template: name, Case: id, Request: req, Profile: profile})
			// the request's own bytes, its keys in their order, after the id and template
			head, err := json.Marshal(struct {
				ID       string `json:"id"`
				Template string `json:"template"`
			}{id, text})
			if err != nil || len(req) < 3 || req[0] != '{' {
				t.Fatalf("request %s: %v", req, err)
			}
			oracleIn.Write(append(append(append(head[:len(head)-1], ','), req[1:]...), '\n'))
		}
	}

	// the reference's answers
	cmd.Stdin = &oracleIn
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd.Path, err, stderr.String())
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
		want, ok := answers[pairs[i].Case]
		if !ok {
			t.Fatalf("%s gave no answer for %s", reference, pairs[i].Case)
		}
		pairs[i].Want = want
	}

	// tmplgen's
	units, failed := compile(srcs)
	compileErrs := map[string]error{}
	for _, f := range failed {
		compileErrs[f.Source.Name] = f.Err
	}
	var buildLog bytes.Buffer
	got, failures, err := renderEach(units, pairs, compileErrs, nil, harness.OracleNow, &buildLog)
	if err != nil {
		t.Fatalf("rendering: %v\n%s", err, buildLog.String())
	}
	buildErrs := buildErrors(failures)
	mismatches, errs := 0, 0
	for i, p := range pairs {
		if p.Want.Error != nil {
			errs++
		}
		if err, ok := buildErrs[p.Template]; ok {
			mismatches++
			t.Errorf("%s: the generated Go does not build: %v\n\ttemplate: %s", p.Template, err, texts[p.Template])
			continue
		}
		if harness.Same(p.Want, got[i]) {
			continue
		}
		mismatches++
		t.Errorf("%s differs from %s\n\ttemplate: %s\n\trequest:  %s\n\twant:     %s\n\tgot:      %s\n\t%s",
			p.Case, reference, texts[p.Template], p.Request, showResult(p.Want), showResult(got[i]), harness.DescribeMismatch(p.Want, got[i]))
	}
	t.Logf("%d programs x %d requests (seed %d): %d differ; %s fails on %d", n, perTemplate, seed, mismatches, reference, errs)
}

// corpusSample returns n of the .jinja files under dir, picked by seed (all of them, in
// the order of their paths, when n is at least their number), as sources named
// corpus_I (their file names are not Go names).
func corpusSample(t *testing.T, dir string, n int, seed uint64) []source {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jinja") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil || len(paths) == 0 {
		t.Fatalf("TMPLGEN_DIFF_TEMPLATES=%s: no .jinja files (%v)", dir, err)
	}
	if n < len(paths) {
		r := rand.New(rand.NewPCG(seed, 0x636f72707573))
		r.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
		paths = paths[:n]
	}
	var out []source
	for i, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, source{Name: fmt.Sprintf("corpus_%d", i), Origin: rel, File: filepath.Base(path), Text: string(b)})
	}
	return out
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
