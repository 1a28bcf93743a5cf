package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tmplgen/tmplgen/codegen"
	"github.com/tmplgen/tmplgen/ir"
	"github.com/tmplgen/tmplgen/runtime"
)

// source is a template to compile; compileError one that failed.
type (
	source       = codegen.Source
	compileError = codegen.CompileError
)

// compile lowers the sources; see codegen.Compile.
func compile(srcs []source) ([]*codegen.Unit, []*compileError) { return codegen.Compile(srcs) }

func cmdGen(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pkg := fs.String("pkg", "", "package name (default: the output directory's name)")
	out := fs.String("o", ".", "output directory")
	catalog := fs.String("catalog", "", "a catalog file naming the templates to compile")
	shared := fs.String("shared", "", "the directory of third-party templates a catalog's shared: sources are under")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	var srcs []source
	if *catalog != "" {
		cs, err := readCatalog(*catalog, *shared)
		if err != nil {
			return err
		}
		srcs = append(srcs, cs...)
	}
	for _, path := range fs.Args() {
		s, _, err := readInput(path)
		if err != nil {
			return err
		}
		srcs = append(srcs, s...)
	}
	if len(srcs) == 0 {
		return usageError{"no templates: give template files or -catalog"}
	}
	units, failed := compile(srcs)
	for _, f := range failed {
		fmt.Fprintf(stderr, "tmplgen gen: %v\n", f)
	}
	for _, u := range units {
		for _, r := range ir.SandboxRefusals(u.IR) {
			fmt.Fprintf(stderr, "tmplgen gen: %s:%d:%d: warning: %s: the sandbox refuses it when it runs (SecurityError)\n", u.Origin, r.Pos.Line, r.Pos.Col, r.What)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d templates did not compile", len(failed), len(srcs))
	}
	name := *pkg
	if name == "" {
		abs, err := filepath.Abs(*out)
		if err != nil {
			return err
		}
		name = codegen.Identifier(filepath.Base(abs), false)
		name = strings.ToLower(name)
	}
	if err := codegen.WritePackage(*out, name, units); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tmplgen: wrote %d templates to %s (package %s)\n", len(units), *out, name)
	return nil
}

// A catalog is a tab-separated file: name, source, sha256. A source "shared:PATH" is a
// third-party template under the shared directory; any other source is a path relative
// to the catalog. Lines starting with # are comments.
func readCatalog(path, shared string) ([]source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dir := filepath.Dir(path)
	var srcs []source
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want 3 tab-separated fields (name, source, sha256), got %d", path, n, len(fields))
		}
		name, src, sum := fields[0], fields[1], fields[2]
		file := filepath.Join(dir, src)
		if rel, ok := strings.CutPrefix(src, "shared:"); ok {
			if shared == "" {
				return nil, fmt.Errorf("%s:%d: %s is a shared template: give -shared DIR", path, n, src)
			}
			file = filepath.Join(shared, rel)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if got := runtime.SHA256(string(b)); got != sum {
			return nil, fmt.Errorf("%s:%d: %s has sha256 %s, the catalog says %s", path, n, file, got, sum)
		}
		srcs = append(srcs, source{Name: name, Origin: strings.TrimPrefix(src, "shared:"), File: filepath.Base(file), Text: string(b)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return srcs, nil
}

func cmdIR(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usageError{"want one template file"}
	}
	s, err := readTemplateFile(args[0])
	if err != nil {
		return err
	}
	t, err := ir.Compile(s.File, s.Text)
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	_, err = io.WriteString(stdout, ir.Format(t))
	return err
}

var errNoShared = errors.New("../shared is missing")
