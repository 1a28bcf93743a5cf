// Command mkmodels writes the small model files of testdata/models: metadata-only GGUF
// files carrying the project's own chat templates (never third-party ones), for the
// README's first command and the command-line tests.
//
//	go run ./internal/ggufwrite/mkmodels -o testdata/models
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/tmplgen/tmplgen/internal/ggufwrite"
)

func main() {
	out := flag.String("o", "testdata/models", "output directory")
	flag.Parse()
	roka, err := os.ReadFile("templates/roka.jinja")
	if err != nil {
		log.Fatal(err)
	}
	chatml, err := os.ReadFile("templates/builtin/chatml.jinja")
	if err != nil {
		log.Fatal(err)
	}
	tokens := []string{"<unk>", "<|begin_of_text|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>", "hello", "world"}
	models := map[string]*ggufwrite.Model{
		"roka-tiny.gguf": {
			Name: "Roka Tiny", Architecture: "llama", ChatTemplate: string(roka),
			NamedTemplates: map[string]string{"tool_use": string(roka), "chatml": string(chatml)},
			Tokens:         tokens, BOS: 1, EOS: 2, AddBOS: true,
		},
		"no-template.gguf": {
			Name: "No Template", Architecture: "llama", Tokens: tokens, BOS: 1, EOS: 2,
		},
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	for name, m := range models {
		if err := m.WriteFile(filepath.Join(*out, name)); err != nil {
			log.Fatal(err)
		}
	}
}
