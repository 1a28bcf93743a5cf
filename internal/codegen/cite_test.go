package codegen

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/templatehash"
)

// catalogTexts reads a catalog (name, source, sha256 per line) and returns the text of
// each template by its sha256. A source "shared:PATH" is PATH under shared, any other
// is relative to the catalog's directory.
func catalogTexts(t *testing.T, catalog, shared string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(catalog)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		path := filepath.Join(filepath.Dir(catalog), f[1])
		if rest, ok := strings.CutPrefix(f[1], "shared:"); ok {
			path = filepath.Join(shared, rest)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if sum := templatehash.SHA256(string(text)); sum != f[2] {
			t.Fatalf("%s: sha256 %s, the catalog says %s", path, sum, f[2])
		}
		texts[f[2]] = string(text)
	}
	return texts
}

var (
	fileField   = regexp.MustCompile(`(?m)^\tFile: +("[^"\n]*")`)
	sha256Field = regexp.MustCompile(`(?m)^\tSHA256: +"([0-9a-f]{64})"`)
	citeLine    = regexp.MustCompile(`^\t*// (.*?):([0-9]+):([0-9]+)(?: (.*))?$`)
)

// citeSuffixes are the notes some cites end with, after the template's text.
var citeSuffixes = []string{" (never called)", " (assigns a variable to itself)", " (the namespace check)"}

// TestCitesQuoteTemplates checks every comment citing a template in the generated
// catalog and in the codegen goldens against the template's line: the text it quotes
// is the template's, byte for byte (as sanitizeComment makes it safe in a comment),
// cut short with an ellipsis where long, and never reformatted.
func TestCitesQuoteTemplates(t *testing.T) {
	if _, err := os.Stat("../../../shared/templates"); err != nil {
		t.Fatalf("the shared template corpus is missing (%v): this test needs ../shared beside the repository", err)
	}
	dirs := map[string]map[string]string{
		"../../generated": catalogTexts(t, "../../templates/catalog.tsv", "../../../shared/templates"),
		"internal/golden": catalogTexts(t, "../../testdata/codegen/catalog.tsv", ""),
	}
	for dir, texts := range dirs {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files, cites := 0, 0
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(b)
			sum, name := sha256Field.FindStringSubmatch(src), fileField.FindStringSubmatch(src)
			if sum == nil || name == nil {
				continue
			}
			text, ok := texts[sum[1]]
			if !ok {
				t.Errorf("%s: sha256 %s is not in the catalog", path, sum[1])
				continue
			}
			file, err := strconv.Unquote(name[1])
			if err != nil {
				t.Fatal(err)
			}
			files++
			cites += checkCites(t, path, src, sanitizeComment(file), strings.Split(text, "\n"))
		}
		if files == 0 || cites == 0 {
			t.Errorf("%s: found %d template files with %d cites", dir, files, cites)
		}
		t.Logf("%s: %d cites in %d files", dir, cites, files)
	}
}

// checkCites checks the cites of file (the template's name as comments write it) in
// the Go source src against the template's lines, and returns how many there are.
func checkCites(t *testing.T, path, src, file string, lines []string) int {
	t.Helper()
	n := 0
	for i, goLine := range strings.Split(src, "\n") {
		m := citeLine.FindStringSubmatch(goLine)
		if m == nil || m[1] != file {
			continue
		}
		n++
		at := path + ":" + strconv.Itoa(i+1)
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		if line < 1 || line > len(lines) {
			t.Errorf("%s: cites line %d of a template of %d lines", at, line, len(lines))
			continue
		}
		if col < 1 || col > len([]rune(lines[line-1]))+1 {
			t.Errorf("%s: cites column %d of line %d, which has %d characters", at, col, line, len([]rune(lines[line-1])))
		}
		if !quotes(sanitizeComment(lines[line-1]), m[4]) {
			t.Errorf("%s: the cite does not quote line %d of the template\n cite:     %s\n template: %s", at, line, m[4], lines[line-1])
		}
	}
	return n
}

// quotes reports whether quote, the text of a cite, is part of line: as it is or cut
// short with an ellipsis, with its note (see citeSuffixes) left off.
func quotes(line, quote string) bool {
	for _, suffix := range citeSuffixes {
		if q, ok := strings.CutSuffix(quote, suffix); ok {
			quote = q
			break
		}
	}
	if strings.Contains(line, quote) {
		return true
	}
	q, ok := strings.CutSuffix(quote, "…")
	return ok && strings.Contains(line, q)
}
