package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen/internal/ggufwrite"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestGGUFMatchesCatalog compiles the chat template of a GGUF file carrying a catalog
// template (Qwen3's, written at test time from ../shared) and checks that the renderer
// has the catalog renderer's sha256 key and renders every oracle case to the same bytes
// (the catalog's rendered by the program list and render build).
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
	bin, templates := catalog(t)
	k := slices.IndexFunc(templates, func(e harness.Entry) bool { return e.Name == "Qwen-Qwen3-0.6B" })
	if k < 0 {
		t.Fatal("Qwen-Qwen3-0.6B is not in the catalog")
	}
	qwen := templates[k]
	if units[0].SHA256 != qwen.SHA256 {
		t.Errorf("the GGUF's renderer has sha256 %s, the catalog's %s", units[0].SHA256, qwen.SHA256)
	}

	cases, err := harness.ReadCases("../../../shared/oracle/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var reqs, catalogReqs []harness.Request
	for _, raw := range cases {
		reqs = append(reqs, harness.Request{Template: units[0].Name, Request: raw})
		catalogReqs = append(catalogReqs, harness.Request{Template: qwen.Name, Request: raw})
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	want, err := harness.Run(bin, catalogReqs, now, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	ggufBin, err := harness.Build(t.TempDir(), units)
	if err != nil {
		t.Fatal(err)
	}
	got, err := harness.Run(ggufBin, reqs, now, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cases) {
		t.Fatalf("%d results for %d cases", len(got), len(cases))
	}
	for i, r := range got {
		if promptOrError(r) != promptOrError(want[i]) {
			b, _ := json.Marshal(reqs[i].Request)
			t.Errorf("request %s: the GGUF's renderer gives %s, the catalog's %s", b, r, want[i])
		}
	}
}

// promptOrError is the prompt of a rendering, or "error" (error messages name the
// template's file, which differs).
func promptOrError(r harness.Result) string {
	if r.Prompt == nil {
		return "error"
	}
	return *r.Prompt
}
