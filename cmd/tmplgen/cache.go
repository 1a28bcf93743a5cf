package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/version"
	"github.com/tmplgen/tmplgen/templatehash"
)

// templateProgram returns the program in tmplgen's cache that renders the template
// text, whose errors cite it as file, compiling it (never interpreting it) and building
// the program the first time.
// Its folder is named by the template's sha256 and by the sha256 of the Go it is built
// from (harness.UnitsSum), so that a tmplgen that compiles the template differently, or
// whose runtime changed, builds it anew even when its build is not stamped (go run).
func templateProgram(text, file string, stderr io.Writer) (string, error) {
	sum := templatehash.SHA256(text)
	units, failed := compiler.Compile([]compiler.Source{{Name: "template", Origin: "sha256 " + sum, File: file, Text: text}})
	if len(failed) > 0 {
		// cited as the file it was read from (its Origin is its sha256, which keys the cache)
		return "", fmt.Errorf("%s: %w", file, failed[0].Err)
	}
	built, err := harness.UnitsSum(units)
	if err != nil {
		return "", err
	}
	dir, err := cacheDir(sum + "-" + built[:16])
	if err != nil {
		return "", err
	}
	return cachedProgram(dir, "compiling template sha256 "+sum, stderr, func(tmp string) (string, error) {
		return harness.Build(tmp, units)
	})
}

// cacheDir is the folder in tmplgen's cache of a program named name: in $TMPLGEN_CACHE
// (default: tmplgen in the user's cache directory), in a folder of this tmplgen's
// version and build, since another tmplgen compiles templates differently.
func cacheDir(name string) (string, error) {
	root := os.Getenv("TMPLGEN_CACHE")
	if root == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory for compiled templates (set TMPLGEN_CACHE): %w", err)
		}
		root = filepath.Join(dir, "tmplgen")
	}
	build := sha256.Sum256([]byte(buildKey()))
	return filepath.Join(root, version.Version+"-"+hex.EncodeToString(build[:6]), name), nil
}

// buildKey says what this tmplgen was built from, for the cache: its build
// information (version.Build), and the sha256 of its executable when that information
// does not pin the source (a tree with uncommitted changes, a module replaced by a
// directory, a build without VCS information such as go run's or a test's), so that a
// rebuilt tmplgen never reuses programs an older one compiled (the build information
// alone when the executable cannot be read).
var buildKey = sync.OnceValue(func() string {
	build := version.Build()
	if build != "" && !strings.HasSuffix(build, ", modified") && !strings.Contains(build, " => ") {
		return build
	}
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				return build + " executable " + hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	return build
})

// cachedProgram returns the program harness built in the cache folder dir, building it
// the first time with build, which builds it in the folder it is given and returns its
// path; a note on stderr says what it does then (doing, "compiling X").
func cachedProgram(dir, doing string, stderr io.Writer, build func(dir string) (string, error)) (string, error) {
	bin := filepath.Join(dir, harness.Binary)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	fmt.Fprintf(stderr, "tmplgen: %s into %s (once: later runs reuse it)\n", doing, dir)
	if err := buildInto(dir, build); err != nil {
		return "", err
	}
	return bin, nil
}

// buildInto builds in a new folder beside dir, then renames that folder to dir: dir
// holds a complete build or nothing.
func buildInto(dir string, build func(dir string) (string, error)) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "building-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing is left there after the rename
	if _, err := build(tmp); err != nil {
		return err
	}
	// a folder without a program (left by an older tmplgen) is replaced; one that a
	// concurrent run finished meanwhile is kept
	if _, err := os.Stat(filepath.Join(dir, harness.Binary)); err == nil {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

// openCatalog returns the program in tmplgen's cache that renders with the catalog's
// compiled templates (package generated), and those templates sorted by name. tmplgen does not import package generated, so that it builds in seconds: it
// carries the package's source (tmplgen.CatalogSource) and builds it into that program
// the first time list or render -template NAME needs it. The program's folder is named
// after the sha256 of the source it is built from, so that a tmplgen whose catalog
// changed builds it anew.
func openCatalog(stderr io.Writer) (string, []harness.Entry, error) {
	sum, err := harness.CatalogSum()
	if err != nil {
		return "", nil, err
	}
	dir, err := cacheDir("catalog-" + sum[:16])
	if err != nil {
		return "", nil, err
	}
	bin, err := cachedProgram(dir, "building the catalog's compiled templates (package generated)", stderr, harness.BuildCatalog)
	if err != nil {
		return "", nil, err
	}
	entries, err := harness.List(bin)
	return bin, entries, err
}
