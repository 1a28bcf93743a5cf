package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/version"
)

// runCLI runs the command with arguments and standard input, returning its exit code,
// standard output and standard error.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

var (
	binaryOnce sync.Once
	binaryDir  string
	binaryErr  error
)

// binary returns the path of the tmplgen command built from this package, for the
// tests that run it as a process of its own (under go generate, say).
func binary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		if binaryDir, binaryErr = os.MkdirTemp("", "tmplgen-bin-"); binaryErr != nil {
			return
		}
		if out, err := exec.Command("go", "build", "-o", binaryDir, ".").CombinedOutput(); err != nil {
			binaryErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatalf("building tmplgen: %v", binaryErr)
	}
	return filepath.Join(binaryDir, "tmplgen")
}

func TestMain(m *testing.M) {
	// the programs render and list build (the catalog's once) go into a cache of the
	// test run's own
	cache, err := os.MkdirTemp("", "tmplgen-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPLGEN_CACHE", cache)
	code := m.Run()
	os.RemoveAll(cache)
	if binaryDir != "" {
		os.RemoveAll(binaryDir)
	}
	os.Exit(code)
}

// catalog returns the program that renders with the catalog's templates and those
// templates, building the program into the test run's cache the first time.
func catalog(t *testing.T) (string, []harness.Entry) {
	t.Helper()
	bin, templates, err := openCatalog(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return bin, templates
}

// TestCommandDeps: the command does not import package generated, directly or not, so
// that it builds in seconds; list and render build the catalog into a program of its
// own.
func TestCommandDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/tmplgen/tmplgen/internal/harness") {
		t.Fatalf("go list -deps does not list the packages the command imports:\n%s", out)
	}
	if slices.Contains(deps, "github.com/tmplgen/tmplgen/generated") {
		t.Errorf("the command imports package generated:\n%s", out)
	}
}

// writeFile writes a file for a test, making its directory.
func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHelp: tmplgen, tmplgen help and tmplgen -h list every command; help COMMAND and
// COMMAND -h print the command's synopsis, its positional arguments and every flag,
// on standard output with exit 0.
func TestHelp(t *testing.T) {
	code, stdout, stderr := runCLI(t, "")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "usage: tmplgen COMMAND") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	overview := stderr
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 || stdout != overview || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout:\n%s", args, code, stderr, stdout)
		}
	}
	for _, name := range []string{"gen", "render", "list", "hash", "audit", "ir", "check", "version", "help"} {
		if !strings.Contains(overview, "\n  "+name+" ") {
			t.Errorf("the overview does not list %s:\n%s", name, overview)
		}
	}
	for _, c := range commands {
		code, help, stderr := runCLI(t, "", "help", c.name)
		if code != 0 || stderr != "" || !strings.HasPrefix(help, "usage: tmplgen "+c.name) {
			t.Errorf("help %s: exit %d, stderr %q, stdout:\n%s", c.name, code, stderr, help)
		}
		if c.args != "" && !strings.Contains(strings.SplitN(help, "\n", 2)[0], c.args) {
			t.Errorf("help %s: the synopsis lacks %s:\n%s", c.name, c.args, help)
		}
		fs := newFlagSet(c)
		c.flags(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(help, "\n  -"+f.Name) {
				t.Errorf("help %s does not describe -%s:\n%s", c.name, f.Name, help)
			}
		})
		if code, stdout, stderr := runCLI(t, "", c.name, "-h"); code != 0 || stdout != help || stderr != "" {
			t.Errorf("%s -h: exit %d, stderr %q, stdout:\n%s", c.name, code, stderr, stdout)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"gen", "-frobnicate"}, "flag provided but not defined: -frobnicate (tmplgen help gen)"},
	} {
		if code, _, stderr := runCLI(t, "", tt.args...); code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestHelpBinary: the built command exits 0 on -h, and 2 on a bad flag.
func TestHelpBinary(t *testing.T) {
	bin := binary(t)
	for _, args := range [][]string{{"-h"}, {"gen", "-h"}, {"hash", "-h"}, {"ir", "-h"}, {"help", "render"}} {
		out, err := exec.Command(bin, args...).Output()
		if err != nil || !strings.Contains(string(out), "usage: tmplgen") {
			t.Errorf("tmplgen %v: %v, stdout %q", args, err, out)
		}
	}
	err := exec.Command(bin, "gen", "-frobnicate").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("tmplgen gen -frobnicate: %v, want exit 2", err)
	}
}

// TestVersion: version and -version print the release version that generated
// headers carry.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "tmplgen "+version.Version+" (") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if code, _, _ := runCLI(t, "", "version", "x"); code != 2 {
		t.Errorf("version x: exit %d", code)
	}
}

// TestList lists the catalog's templates, those of templates/catalog.tsv: their names
// are what render -template takes.
func TestList(t *testing.T) {
	want := catalogSums(t)
	catalog(t) // built, so that list says nothing on stderr
	code, stdout, stderr := runCLI(t, "", "list")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if got := strings.Fields(lines[0]); strings.Join(got, " ") != "NAME SHA256 ORIGIN CAPABILITIES" {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != len(want)+1 {
		t.Errorf("%d lines for %d templates", len(lines), len(want))
	}
	for _, l := range lines[1:] {
		if f := strings.Fields(l); want[f[0]] != f[1] {
			t.Errorf("%s: sha256 %s, the catalog's %s", f[0], f[1], want[f[0]])
		}
	}
	qwen := []string{"Qwen-Qwen3-0.6B", want["Qwen-Qwen3-0.6B"], "llama.cpp/Qwen-Qwen3-0.6B.jinja", "system_role,string_content,tools,tool_calls,parallel_tool_calls,object_arguments,thinking,handler=generic"}
	if !containsFields(lines, qwen) {
		t.Errorf("no line %q in:\n%s", qwen, stdout)
	}
	code, stdout, _ = runCLI(t, "", "list", "-json")
	var list []struct {
		Name, SHA256, Origin string
		Capabilities         struct{ Handler string }
	}
	if err := json.Unmarshal([]byte(stdout), &list); code != 0 || err != nil || len(list) != len(lines)-1 {
		t.Fatalf("list -json: exit %d, %v, %d entries", code, err, len(list))
	}
	for i, e := range list {
		if fields := strings.Fields(lines[i+1]); e.Name != fields[0] || e.SHA256 != fields[1] || e.Origin != fields[2] || !strings.HasSuffix(fields[3], "handler="+e.Capabilities.Handler) {
			t.Errorf("entry %d: %+v, want the fields of %q", i, e, lines[i+1])
		}
		if code, _, stderr := runCLI(t, `{"messages": [{"role": "user", "content": "hi"}]}`, "render", "-template", e.Name); code == 2 || strings.Contains(stderr, "neither a file") {
			t.Errorf("render -template %s: %s", e.Name, stderr)
		}
	}
}

// catalogSums returns the sha256 of each template of templates/catalog.tsv, by name.
func catalogSums(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../templates/catalog.tsv")
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.Split(line, "\t"); !strings.HasPrefix(line, "#") && len(f) >= 3 {
			sums[f[0]] = f[2]
		}
	}
	return sums
}

// containsFields reports whether a line has exactly these whitespace-separated fields.
func containsFields(lines, fields []string) bool {
	for _, l := range lines {
		if strings.Join(strings.Fields(l), " ") == strings.Join(fields, " ") {
			return true
		}
	}
	return false
}

// TestHash prints the sha256 of each template of a template file or a model.
func TestHash(t *testing.T) {
	roka, err := os.ReadFile("../../templates/roka.jinja")
	if err != nil {
		t.Fatal(err)
	}
	chatml, err := os.ReadFile("../../templates/builtin/chatml.jinja")
	if err != nil {
		t.Fatal(err)
	}
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	code, stdout, stderr := runCLI(t, "", "hash", "../../testdata/models/roka-tiny.gguf", "../../templates/roka.jinja")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := sum(roka) + "  Roka Tiny\n" + sum(chatml) + "  Roka Tiny:chatml\n" + sum(roka) + "  Roka Tiny:tool_use\n" + sum(roka) + "  roka\n"
	if stdout != want {
		t.Errorf("got\n%s\nwant\n%s", stdout, want)
	}
	if code, _, stderr := runCLI(t, "", "hash"); code != 2 || !strings.Contains(stderr, "want template files or models") {
		t.Errorf("hash without a file: exit %d, %s", code, stderr)
	}
}

// TestIR prints the IR of a template file, and of each template of a model (what hash
// and audit accept).
func TestIR(t *testing.T) {
	tmpl := writeFile(t, filepath.Join(t.TempDir(), "t.jinja"), "{% set x = 1 %}{{ x + 1 }}")
	code, stdout, stderr := runCLI(t, "", "ir", tmpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"template t.jinja", "scope x#1 = undefined(x)", "set x#1 = 1", "print x#1 + 1"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("ir output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runCLI(t, "", "ir", "../../testdata/models/roka-tiny.gguf")
	if code != 0 {
		t.Fatalf("ir of a model: exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "# Roka Tiny\n") || !strings.Contains(stdout, "template roka-tiny.gguf\n") {
		t.Errorf("ir of a model:\n%s", stdout)
	}
	for _, want := range []string{"\n# Roka Tiny:chatml\n", "\n# Roka Tiny:tool_use\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("ir of a model lacks %q", want)
		}
	}
	if code, _, _ := runCLI(t, "", "ir"); code != 2 {
		t.Errorf("ir without a file: exit %d", code)
	}
}

// TestCheckUsage: check needs its directories and a known engine, spelled either way.
func TestCheckUsage(t *testing.T) {
	if code, _, stderr := runCLI(t, "", "check"); code != 2 || !strings.Contains(stderr, "-templates and -expected are required") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "check", "-templates", ".", "-expected", ".", "-engine", "nope"); code != 2 || !strings.Contains(stderr, "unknown engine") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	for _, engine := range []string{"llama-server", "llama_server", "llama-legacy", "llama_legacy", "transformers"} {
		code, _, stderr := runCLI(t, "", "check", "-templates", ".", "-expected", ".", "-engine", engine, "-cases", filepath.Join(t.TempDir(), "none.json"))
		if code != 1 || !strings.Contains(stderr, "none.json") {
			t.Errorf("-engine %s: exit %d, stderr %q; want the missing cases file reported", engine, code, stderr)
		}
	}
	bad := writeFile(t, filepath.Join(t.TempDir(), "cases.json"), "[\n  {\"id\": \"a\",}\n]")
	if code, _, stderr := runCLI(t, "", "check", "-templates", ".", "-expected", ".", "-cases", bad); code != 1 || !strings.Contains(stderr, bad+": ") || !strings.Contains(stderr, "line 2, column") {
		t.Errorf("malformed cases file: exit %d, stderr %q; want its name, line and column", code, stderr)
	}
}

// TestBuildKey: a tmplgen whose build information does not pin its source (a test
// binary records no VCS revision) keys its cache by its executable's content too.
func TestBuildKey(t *testing.T) {
	if b := version.Build(); b != "" && !strings.HasSuffix(b, ", modified") && !strings.Contains(b, " => ") {
		t.Fatalf("the test binary's build information %q pins its source", b)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if want := " executable " + hex.EncodeToString(sum[:]); !strings.HasSuffix(buildKey(), want) {
		t.Errorf("buildKey() = %q, want it to end with %q", buildKey(), want)
	}
}

// buildErrors returns the build errors of the templates whose generated Go does not
// build, by template name.
func buildErrors(failures []harness.Failure) map[string]error {
	errs := map[string]error{}
	for _, f := range failures {
		errs[f.Unit.Name] = f.Err
	}
	return errs
}
