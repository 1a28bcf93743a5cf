package main

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"

	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/modelfile"
)

// readInput reads the chat templates of an input: a .jinja file, or a model (a GGUF
// file, a tokenizer_config.json or a model directory) whose templates are named after
// the model (named variants as MODEL:VARIANT). A name other than "" replaces the
// file's or model's. The model's information is returned for a model input, nil for a
// template file.
func readInput(path, name string) ([]source, *modelfile.ModelInfo, error) {
	if harness.IsTemplateFile(path) {
		s, err := readTemplateFile(path)
		if name != "" {
			s.Name = name
		}
		return []source{s}, nil, err
	}
	info, err := modelfile.ReadModel(path)
	if err != nil {
		return nil, nil, err
	}
	names := info.TemplateNames()
	if len(names) == 0 {
		_, err := info.Template("")
		return nil, nil, err
	}
	model := cmp.Or(name, info.Name, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	tokens := info.Tokens()
	addBOS := info.AddBOS != nil && *info.AddBOS
	addEOS := info.AddEOS != nil && *info.AddEOS
	var srcs []source
	for _, name := range names {
		text, err := info.Template(name)
		if err != nil {
			return nil, nil, err
		}
		s := source{Name: model, Origin: path, File: filepath.Base(path), Text: text, Tokens: tokens, AddBOS: addBOS, AddEOS: addEOS}
		if name != "default" {
			s.Name += ":" + name
			s.Origin += "#" + name
		}
		srcs = append(srcs, s)
	}
	return srcs, info, nil
}

// eachInput reads the templates of each input of args (at least one), in order, and
// hands them to fn.
func eachInput(args []string, fn func(srcs []source) error) error {
	if len(args) == 0 {
		return usageError{"want template files or models"}
	}
	for _, path := range args {
		srcs, _, err := readInput(path, "")
		if err != nil {
			return err
		}
		if err := fn(srcs); err != nil {
			return err
		}
	}
	return nil
}

// readTemplateFile reads a .jinja file as a source named after the file.
func readTemplateFile(path string) (source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return source{}, err
	}
	base := filepath.Base(path)
	name := strings.TrimSuffix(strings.TrimSuffix(base, filepath.Ext(base)), ".jinja")
	return source{Name: name, Origin: path, File: base, Text: string(b)}, nil
}
