package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/internal/ggufwrite"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/jinja2"
)

// TestGGUFMatchesCatalog compiles the chat template of a GGUF file carrying a catalog
// template (Qwen3's, written at test time from ../shared) and checks that the renderer
// has the catalog renderer's sha256 key and renders every oracle case to the same bytes.
func TestGGUFMatchesCatalog(t *testing.T) {
	text, err := os.ReadFile("../../../shared/templates/llama.cpp/Qwen-Qwen3-0.6B.jinja")
	if err != nil {
		t.Fatalf("the shared corpus is missing: %v", err)
	}
	gguf := filepath.Join(t.TempDir(), "qwen3.gguf")
	m := &ggufwrite.Model{Name: "Qwen3 0.6B", Architecture: "qwen3", ChatTemplate: string(text),
		Tokens: []string{"<|endoftext|>", "<|im_start|>", "<|im_end|>"}, BOS: 0, EOS: 2}
	if err := m.WriteFile(gguf); err != nil {
		t.Fatal(err)
	}
	srcs, _, err := readInput(gguf, "")
	if err != nil {
		t.Fatal(err)
	}
	units, failed := compile(srcs)
	if len(failed) > 0 || len(units) != 1 {
		t.Fatalf("compile: %v", failed)
	}
	catalog, ok := generated.ByName("Qwen-Qwen3-0.6B")
	if !ok {
		t.Fatal("Qwen-Qwen3-0.6B is not in the registry")
	}
	if units[0].SHA256 != catalog.SHA256 {
		t.Errorf("the GGUF's renderer has sha256 %s, the catalog's %s", units[0].SHA256, catalog.SHA256)
	}
	if found, err := generated.Lookup(units[0].SHA256); err != nil || found != catalog {
		t.Errorf("Lookup(%s) = %v, %v", units[0].SHA256, found, err)
	}

	cases, err := harness.ReadCases("../../../shared/oracle/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var reqs []harness.Request
	var want []string
	for _, raw := range cases {
		reqs = append(reqs, harness.Request{Template: units[0].Name, Request: raw})
		req, err := jinja2.ParseRequest(raw)
		if err != nil {
			t.Fatal(err)
		}
		req.Now = now
		prompt, err := catalog.Render(&req.Input)
		if err != nil {
			prompt = "error"
		}
		want = append(want, prompt)
	}
	bin, err := harness.Build(t.TempDir(), units)
	if err != nil {
		t.Fatal(err)
	}
	got, err := harness.Run(bin, reqs, now, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		g := "error"
		if r.Prompt != nil {
			g = *r.Prompt
		}
		if g != want[i] {
			b, _ := json.Marshal(reqs[i].Request)
			t.Errorf("request %s: the GGUF's renderer gives %q, the catalog's %q", b, g, want[i])
		}
	}
}
