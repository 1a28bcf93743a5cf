// Package golden is the generated code of the codegen goldens: the templates of
// testdata/codegen compiled by tmplgen. codegen's tests check that generating them again
// gives these very files, and that they render what Python Jinja2 renders
// (testdata/codegen/expected.json, recorded by testdata/codegen/record.py).
package golden

//go:generate go run ../../../../cmd/tmplgen gen -pkg golden -o . -catalog ../../../../testdata/codegen/catalog.tsv
