package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/modelfile"
)

// readInput reads the chat templates of an input: a .jinja file, a model (a GGUF
// file, a tokenizer_config.json or a model directory) whose templates are named after
// the model (named variants as MODEL:VARIANT), or a folder of models (see
// readModelFolder). A name other than "" replaces the file's or model's. The model's
// information is returned for a model input, nil for a template file or a folder.
func readInput(path, name string) ([]source, *modelfile.ModelInfo, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() && !modelfile.IsModelDir(path) {
		srcs, err := readModelFolder(path, name)
		return srcs, nil, err
	}
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

// readModelFolder reads the templates of each model in dir, a folder that is not a model
// directory itself: its GGUF files (*.gguf) and its model directories, in name order,
// each named after its model; a name other than "" names the only model.
func readModelFolder(dir, name string) ([]source, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var models []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() && modelfile.IsModelDir(path) || !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".gguf") {
			models = append(models, path)
		}
	}
	switch {
	case len(models) == 0:
		return nil, fmt.Errorf("%s: not a model directory (no tokenizer_config.json, chat_template.jinja or chat_template.json), nor a folder of models (GGUF files, model directories)", dir)
	case name != "" && len(models) > 1:
		return nil, fmt.Errorf("%s: a folder of %d models: a name names one model's templates (name each as NAME=PATH)", dir, len(models))
	}
	var srcs []source
	for _, path := range models {
		more, _, err := readInput(path, name)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, more...)
	}
	return srcs, nil
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
