// Package generated holds the compiled renderers of the known chat templates (the
// catalog in ../templates/catalog.tsv) and their registry: Lookup finds a renderer by
// the sha256 of its template text, LookupText by the text, ByName by name. A template
// that is not in the registry is refused with an error naming its sha256.
//
// Every other file in this package is written by tmplgen; regenerate them with
// `go generate ./...` (which needs ../shared/templates beside the repository).
package generated

//go:generate go run ../cmd/tmplgen gen -pkg generated -o . -catalog ../templates/catalog.tsv -shared ../../shared/templates
