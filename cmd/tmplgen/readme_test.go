package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/harness"
)

// readmeBlock is a fenced block of the README: its language, its text and, for Go, the
// file the README says to save it as.
type readmeBlock struct {
	lang, text, file string
}

// saveAs ends the line before a Go block, naming its file.
var saveAs = regexp.MustCompile("Save as `([^`]+)`:$")

// readmeBlocks returns the fenced blocks of a part of the README, in order.
func readmeBlocks(t *testing.T, text string) []readmeBlock {
	t.Helper()
	var blocks []readmeBlock
	var cur *readmeBlock
	prev := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{lang: strings.TrimPrefix(line, "```")}
			if cur.lang == "go" {
				m := saveAs.FindStringSubmatch(prev)
				if m == nil {
					t.Fatalf("the Go block after %q does not say which file to save it as", prev)
				}
				cur.file = m[1]
			}
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		case line != "":
			prev = line
		}
	}
	return blocks
}

// TestREADMERecipe follows the README's recipe for compiling templates in your own
// module, in a new module: it runs its shell blocks in order, saves its Go blocks as
// the files it names, and compares the output of the shell block before a text block
// with that text. The module takes tmplgen from this repository, as the recipe does
// with a clone ($TMPLGEN).
func TestREADMERecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	if err := harness.ReadGeneratorSources("../.."); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const heading = "\n## Compiling templates in your own module\n"
	_, section, ok := strings.Cut(string(readme), heading)
	if !ok {
		t.Fatalf("the README has no %q", strings.TrimSpace(heading))
	}
	section, _, _ = strings.Cut(section, "\n## ")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	langs := map[string]int{}
	output := ""
	for _, b := range readmeBlocks(t, section) {
		langs[b.lang]++
		switch b.lang {
		case "sh":
			cmd := exec.Command("bash", "-e", "-c", b.text)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TMPLGEN="+root, "GOWORK=off")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: %v\n%s%s", b.text, err, stdout.String(), stderr.String())
			}
			output = stdout.String()
		case "go":
			writeFile(t, filepath.Join(dir, b.file), b.text)
		case "text":
			if output != b.text {
				t.Errorf("the README says the commands print\n%s\nthey print\n%s", b.text, output)
			}
		default:
			t.Errorf("a %q block in the recipe", b.lang)
		}
	}
	if langs["sh"] == 0 || langs["go"] == 0 || langs["text"] == 0 {
		t.Errorf("the recipe has %v blocks; want shell commands, Go files and their output", langs)
	}
	// the module graph of a module that imports package tmplgen and a generated package
	// holds what the generator needs, and none of the engines the benchmarks compare with
	cmd := exec.Command("go", "list", "-m", "all")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m all: %v\n%s", err, out)
	}
	for _, peer := range []string{"gonja", "ardanlabs", "logrus", "json-iterator"} {
		if strings.Contains(string(out), peer) {
			t.Errorf("the module graph of a user's module holds %s:\n%s", peer, out)
		}
	}
}
