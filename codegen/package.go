package codegen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tmplgen/tmplgen/interp"
	"github.com/tmplgen/tmplgen/ir"
	"github.com/tmplgen/tmplgen/runtime"
)

// Source is a template to compile: its text and what to call it.
type Source struct {
	Name   string // the registry name
	Origin string // where the text came from
	File   string // the file name comments and error messages cite
	Text   string
	// Tokens are the special tokens of the model the text came from, by variable name
	// (bos_token, eos_token...), and AddBOS/AddEOS whether its tokenizer adds BOS/EOS
	// itself: generated into the Template, which renders with them.
	Tokens         map[string]string
	AddBOS, AddEOS bool
}

// CompileError is a template that could not be compiled, and why.
type CompileError struct {
	Source Source
	Err    error
}

func (e *CompileError) Error() string { return fmt.Sprintf("%s: %v", e.Source.Origin, e.Err) }

func (e *CompileError) Unwrap() error { return e.Err }

// Compile lowers each source to IR and gives it a Go identifier unique in the package;
// the sources that fail are returned as errors, with the line and column of the fault.
func Compile(srcs []Source) ([]*Unit, []*CompileError) {
	var units []*Unit
	var failed []*CompileError
	idents := map[string]bool{"Registry": true, "Lookup": true, "LookupText": true, "ByName": true}
	for _, s := range srcs {
		t, err := ir.Compile(s.File, s.Text)
		if err != nil {
			failed = append(failed, &CompileError{s, err})
			continue
		}
		base := Identifier(s.Name, true)
		ident := base
		for i := 2; idents[ident]; i++ {
			ident = fmt.Sprintf("%s%d", base, i)
		}
		idents[ident] = true
		units = append(units, &Unit{
			Ident:   ident,
			Name:    s.Name,
			Origin:  s.Origin,
			SHA256:  runtime.SHA256(s.Text),
			Aliases: aliases(s.Text),
			IR:      t,
			Caps:    interp.Capabilities(t),
			Tokens:  s.Tokens,
			AddBOS:  s.AddBOS,
			AddEOS:  s.AddEOS,
		})
	}
	return units, failed
}

// aliases returns the sha256 of the texts that render exactly as text: with one trailing
// newline added, and without the one it has (Jinja2 drops a single trailing newline).
func aliases(text string) []string {
	out := []string{runtime.SHA256(text + "\n")}
	if strings.HasSuffix(text, "\n") {
		out = append(out, runtime.SHA256(strings.TrimSuffix(text, "\n")))
	}
	return out
}

// Package returns the files of a Go package holding the units: one file per template
// (named by FileName) and registry.go.
func Package(pkg string, units []*Unit) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, u := range units {
		src, err := File(pkg, u)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Origin, err)
		}
		// templates with the same name (from different directories) get distinct files
		name := FileName(u.Name)
		for i := 2; files[name] != nil; i++ {
			name = FileName(fmt.Sprintf("%s_%d", u.Name, i))
		}
		files[name] = src
	}
	src, err := Registry(pkg, units)
	if err != nil {
		return nil, err
	}
	files["registry.go"] = src
	return files, nil
}

var nonIdent = regexp.MustCompile(`[^a-z0-9]+`)

// FileName names a template's Go file: its name in lower case with underscores, and a
// _tmpl suffix where the name would otherwise end like a build constraint (_test,
// _linux, _amd64...) or be the registry's file.
func FileName(name string) string {
	base := strings.Trim(nonIdent.ReplaceAllString(strings.ToLower(name), "_"), "_")
	if base == "" {
		base = "template"
	}
	parts := strings.Split(base, "_")
	if last := parts[len(parts)-1]; len(parts) > 1 && buildSuffixes[last] || base == "registry" {
		base += "_tmpl"
	}
	return base + ".go"
}

// buildSuffixes are file name endings the go command treats as build constraints.
var buildSuffixes = map[string]bool{
	"test": true, "aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
	"386": true, "amd64": true, "arm": true, "arm64": true, "loong64": true, "mips": true,
	"mips64": true, "mips64le": true, "mipsle": true, "ppc64": true, "ppc64le": true,
	"riscv64": true, "s390x": true, "wasm": true, "sparc64": true,
}

// WritePackage writes Package's files into dir, after removing the Go files a previous
// run generated there (any file starting with the generated-code header of tmplgen).
func WritePackage(dir, pkg string, units []*Unit) error {
	files, err := Package(pkg, units)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := removeGenerated(dir); err != nil {
		return err
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generatedHeader starts every file tmplgen writes.
var generatedHeader = []byte("// Code generated by " + Generator)

// removeGenerated deletes the Go files in dir that tmplgen generated.
func removeGenerated(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.HasPrefix(b, generatedHeader) {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	return nil
}
