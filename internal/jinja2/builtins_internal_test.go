package jinja2

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBuiltinsCoverTables: every filter of Filters and every method of the method tables
// is called by an expression of testdata/builtins/cases.txt, the table TestBuiltins
// compares with Python Jinja2 (a filter or method added without a case fails here).
func TestBuiltinsCoverTables(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "builtins", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, line := range strings.Split(string(b), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "let ") {
			exprs = append(exprs, line)
		}
	}
	called := func(pattern string) bool {
		re := regexp.MustCompile(pattern)
		for _, e := range exprs {
			if re.MatchString(e) {
				return true
			}
		}
		return false
	}
	for name := range Filters {
		if !called(`\|\s*` + regexp.QuoteMeta(name) + `\b`) {
			t.Errorf("no expression of cases.txt applies the filter %s", name)
		}
	}
	tables := map[string]map[string]method{"str": strMethods, "Markup": markupMethods, "dict": dictMethods,
		"list": listMethods, "tuple": tupleMethods, "int": intMethods, "float": floatMethods}
	for typ, table := range tables {
		for name := range table {
			if !called(`\.` + regexp.QuoteMeta(name) + `\(`) {
				t.Errorf("no expression of cases.txt calls the %s method %s", typ, name)
			}
		}
	}
}
