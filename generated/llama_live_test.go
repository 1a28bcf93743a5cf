package generated_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/testenv"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// TestLlamaServerLive renders the project's own requests (testdata/llama_server/live/
// requests.jsonl: written by hand and by a seeded random generator) through the compiled
// templates of testdata/llama_server/live/templates.txt twice: live through llama.cpp
// b10587 as llama-server's /apply-template runs it (llama_chat_driver: llama.cpp's own
// chat code with llama-server's request handling, testenv.LlamaDriver), and through
// llamaserver.Render; every prompt must be the same bytes, every error an error.
func TestLlamaServerLive(t *testing.T) {
	driver := testenv.LlamaDriver(t)
	requireShared(t)

	names := liveTemplates(t)
	requests, ids := liveRequests(t)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // the driver's clock

	// llama.cpp, live: one JSON line per template and request
	var input bytes.Buffer
	type pair struct{ tmpl, req int }
	var pairs []pair
	for ti, name := range names {
		text := catalogText(t, name)
		for ri, raw := range requests {
			// the request as written (key order matters), with the template and an id
			// that name the pair added at its end (the last of two keys wins)
			var extra bytes.Buffer
			enc := json.NewEncoder(&extra)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(map[string]string{"id": fmt.Sprintf("%s\t%s", name, ids[ri]), "template": text}); err != nil {
				t.Fatal(err)
			}
			raw := bytes.TrimSpace(raw)
			input.Write(raw[:len(raw)-1])
			input.WriteString(",")
			input.Write(bytes.TrimSpace(extra.Bytes())[1:])
			input.WriteString("\n")
			pairs = append(pairs, pair{ti, ri})
		}
	}
	cmd := exec.Command(driver)
	cmd.Stdin = &input
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("llama_chat_driver: %v\n%s", err, stderr.String())
	}
	var answers []map[string]*string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var a map[string]*string
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, a)
	}
	if len(answers) != len(pairs) {
		t.Fatalf("llama.cpp answered %d requests of %d\n%s", len(answers), len(pairs), stderr.String())
	}

	// llamaserver.Render, on the same requests
	prompts, errs := 0, 0
	for i, p := range pairs {
		name := names[p.tmpl]
		tmpl, _ := generated.ByName(name)
		req, err := tmplgen.ParseRequest(requests[p.req])
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range map[string]string{"bos_token": "<s>", "eos_token": "</s>"} { // llama_chat_driver's defaults
			if _, ok := req.SpecialTokens[k]; !ok {
				req.SpecialTokens[k] = v
			}
		}
		req.Now = now
		got, err := llamaserver.Render(tmpl, &req.Input)
		want := answers[i]
		switch {
		case want["error"] != nil && err == nil:
			t.Errorf("%s %s: llama.cpp fails (%s), we render %q", name, ids[p.req], clip(*want["error"]), clip(got))
		case want["error"] == nil && err != nil:
			t.Errorf("%s %s: we fail (%v), llama.cpp renders %q", name, ids[p.req], err, clip(deref(want["prompt"])))
		case want["error"] == nil && got != deref(want["prompt"]):
			w := deref(want["prompt"])
			n := 0
			for n < len(w) && n < len(got) && w[n] == got[n] {
				n++
			}
			t.Errorf("%s %s: prompts differ at byte %d:\nllama.cpp %q\nours      %q", name, ids[p.req], n, clip(w[max(0, n-40):]), clip(got[max(0, n-40):]))
		case err != nil:
			errs++
		default:
			prompts++
		}
	}
	t.Logf("%d requests x %d templates through llama.cpp live and llamaserver.Render: %d same prompts, %d errors on both sides", len(requests), len(names), prompts, errs)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

// liveTemplates reads the names of testdata/llama_server/live/templates.txt.
func liveTemplates(t *testing.T) []string {
	b, err := os.ReadFile("../testdata/llama_server/live/templates.txt")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, _ := strings.Cut(line, "\t")
		if _, err := generated.ByName(name); err != nil {
			t.Fatalf("%s is not in the compiled catalog", name)
		}
		names = append(names, name)
	}
	return names
}

// liveRequests reads testdata/llama_server/live/requests.jsonl.
func liveRequests(t *testing.T) (reqs []json.RawMessage, ids []string) {
	b, err := os.ReadFile("../testdata/llama_server/live/requests.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		// as Python's json.loads reads it: some requests hold NaN, which
		// encoding/json refuses
		v, err := jinja2.ParseJSON(line)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := v.AsDict().GetStr("id")
		reqs = append(reqs, json.RawMessage(line))
		ids = append(ids, id.String())
	}
	if len(reqs) < 50 {
		t.Fatalf("%d requests: the live comparison needs at least 50", len(reqs))
	}
	return reqs, ids
}

// catalogText returns the text of a catalog template.
func catalogText(t *testing.T, name string) string {
	b, err := os.ReadFile("../templates/catalog.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) < 3 || cols[0] != name {
			continue
		}
		path := filepath.Join("../templates", cols[1])
		if rel, ok := strings.CutPrefix(cols[1], "shared:"); ok {
			path = filepath.Join(sharedTemplates, rel)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(text)
	}
	t.Fatalf("%s is not in the catalog", name)
	return ""
}
