package codegen

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/tmplgen/tmplgen/internal/version"
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

// A Plan is what writing a package's files into a directory changes there.
type Plan struct {
	// Dir is the directory.
	Dir string
	// Create holds the files that are missing, Update those that differ.
	Create, Update map[string][]byte
	// Stale are the Go files tmplgen generated in Dir that the package no longer has,
	// sorted.
	Stale []string
	// retired are the stale files already emptied by a run under go generate.
	retired map[string]bool
}

// Changed reports whether applying the plan changes anything.
func (p *Plan) Changed() bool { return len(p.Create)+len(p.Update)+len(p.Stale) > 0 }

// PlanPackage compares files (a package's, as Package returns them) with what dir
// holds. A file tmplgen owns starts with its header ("// Code generated by tmplgen");
// a file to write that exists and does not is an error, since it was written by
// someone else.
func PlanPackage(dir string, files map[string][]byte) (*Plan, error) {
	p := &Plan{Dir: dir, Create: map[string][]byte{}, Update: map[string][]byte{}, retired: map[string]bool{}}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	existing := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		existing[e.Name()] = b
	}
	var foreign []string
	for name, src := range files {
		old, ok := existing[name]
		switch {
		case !ok:
			p.Create[name] = src
		case !Generated(old):
			foreign = append(foreign, filepath.Join(dir, name))
		case !bytes.Equal(old, src):
			p.Update[name] = src
		}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		return nil, fmt.Errorf("%s: not generated by tmplgen (no %q header), so not overwritten: move it away or write the package elsewhere", strings.Join(foreign, ", "), generatedHeader)
	}
	for name, old := range existing {
		if _, ok := files[name]; !ok && Generated(old) {
			p.Stale = append(p.Stale, name)
			p.retired[name] = bytes.Contains(old, []byte("\n"+retiredConstraint+"\n"))
		}
	}
	sort.Strings(p.Stale)
	return p, nil
}

// Apply writes the plan's files and removes its stale ones. It returns the stale files
// it emptied instead: go generate fails when a file of a package it has yet to scan
// disappears, so while it runs (it sets $GOFILE) a stale file is replaced by a stub
// that no build includes (//go:build ignore), which go generate does not scan and the
// next run removes.
func (p *Plan) Apply() (retired []string, err error) {
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return nil, err
	}
	for _, files := range []map[string][]byte{p.Create, p.Update} {
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(p.Dir, name), src, 0o644); err != nil {
				return nil, err
			}
		}
	}
	underGenerate := os.Getenv("GOFILE") != ""
	for _, name := range p.Stale {
		path := filepath.Join(p.Dir, name)
		if !underGenerate || p.retired[name] {
			if err := os.Remove(path); err != nil {
				return nil, err
			}
			continue
		}
		stub := fmt.Sprintf("%s %s. DO NOT EDIT.\n\n%s\n\n// This file is no longer generated. go generate was running, which fails on a\n// file that disappears, so tmplgen emptied it: the next tmplgen gen removes it.\n\npackage ignored\n", generatedHeader, version.Version, retiredConstraint)
		if err := os.WriteFile(path, []byte(stub), 0o644); err != nil {
			return nil, err
		}
		retired = append(retired, name)
	}
	return retired, nil
}

// retiredConstraint excludes a stale file from every build until it is removed.
const retiredConstraint = "//go:build ignore"

// WritePackage writes Package's files into dir, replacing those a previous run
// generated there and removing the ones no longer generated (see PlanPackage and
// Plan.Apply).
func WritePackage(dir, pkg string, units []*Unit) error {
	files, err := Package(pkg, units)
	if err != nil {
		return err
	}
	p, err := PlanPackage(dir, files)
	if err != nil {
		return err
	}
	_, err = p.Apply()
	return err
}

// generatedHeader starts every file tmplgen writes.
var generatedHeader = []byte("// Code generated by " + Generator)

// Generated reports whether tmplgen wrote a Go file of this content: it starts with
// tmplgen's header.
func Generated(src []byte) bool { return bytes.HasPrefix(src, generatedHeader) }
