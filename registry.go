package tmplgen

import (
	"fmt"
	"sort"
)

// Registry finds compiled templates by the sha256 of their text (SHA256, which a
// generated package's LookupText calls) or by name.
type Registry struct {
	templates []*Template
	bySHA     map[string]*Template
	byName    map[string]*Template
}

// NewRegistry returns a registry of templates. A template is found by its SHA256 and by
// each of its Aliases.
func NewRegistry(templates ...*Template) *Registry {
	r := &Registry{templates: templates, bySHA: map[string]*Template{}, byName: map[string]*Template{}}
	for _, t := range templates {
		r.bySHA[t.SHA256] = t
		for _, a := range t.Aliases {
			if _, taken := r.bySHA[a]; !taken {
				r.bySHA[a] = t
			}
		}
		r.byName[t.Name] = t
	}
	return r
}

// UnknownTemplateError is the error for a template text the registry has no renderer
// for: it is refused, never guessed.
type UnknownTemplateError struct {
	SHA256 string
}

func (e *UnknownTemplateError) Error() string {
	return fmt.Sprintf("unknown chat template (sha256 %s): no compiled renderer has this text; compile it with `tmplgen gen -o DIR TEMPLATE` (TEMPLATE: the .jinja file, GGUF or tokenizer_config.json)", e.SHA256)
}

// Lookup returns the template whose text has the given sha256 (hex).
func (r *Registry) Lookup(sha string) (*Template, error) {
	if t, ok := r.bySHA[sha]; ok {
		return t, nil
	}
	return nil, &UnknownTemplateError{SHA256: sha}
}

// ByName returns the template with the given name.
func (r *Registry) ByName(name string) (*Template, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// All returns the templates sorted by name.
func (r *Registry) All() []*Template {
	out := append([]*Template(nil), r.templates...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
