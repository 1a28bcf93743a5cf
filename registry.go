package tmplgen

import (
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
)

// Registry finds compiled templates by the sha256 of their text (SHA256, which a
// generated package's LookupText calls) or by name.
type Registry struct {
	templates []*Template
	bySHA     map[string][]*Template // by SHA256, then (after them) by alias
	byName    map[string]*Template
}

// NewRegistry returns a registry of templates. A template is found by its SHA256 and by
// each of its Aliases, and by its Name (names are unique: a later template of a name
// already taken is found by its text only).
func NewRegistry(templates ...*Template) *Registry {
	r := &Registry{templates: templates, bySHA: map[string][]*Template{}, byName: map[string]*Template{}}
	for _, t := range templates {
		r.bySHA[t.SHA256] = append(r.bySHA[t.SHA256], t)
		if _, taken := r.byName[t.Name]; !taken {
			r.byName[t.Name] = t
		}
	}
	for _, t := range templates {
		for _, a := range t.Aliases {
			if !r.hasText(a) {
				r.bySHA[a] = append(r.bySHA[a], t)
			}
		}
	}
	return r
}

// hasText reports whether a template of the registry has the text of this sha256
// itself (not as an alias).
func (r *Registry) hasText(sha string) bool {
	for _, t := range r.bySHA[sha] {
		if t.SHA256 == sha {
			return true
		}
	}
	return false
}

// ErrUnknownTemplate is the error (errors.Is) of a lookup that finds no template: an
// *UnknownTemplateError.
var ErrUnknownTemplate = errors.New("unknown chat template")

// UnknownTemplateError is the error for a template text (or name) the registry has no
// renderer for: it is refused, never guessed.
type UnknownTemplateError struct {
	// SHA256 is the sha256 of the text looked up; empty for a lookup by name.
	SHA256 string
	// Name is the name looked up; empty for a lookup by text.
	Name string
}

func (e *UnknownTemplateError) Error() string {
	if e.SHA256 == "" {
		return fmt.Sprintf("unknown chat template %q: no compiled renderer has this name", e.Name)
	}
	return fmt.Sprintf("unknown chat template (sha256 %s): no compiled renderer has this text; compile it with `tmplgen gen -o DIR TEMPLATE` (TEMPLATE: the .jinja file, GGUF or tokenizer_config.json)", e.SHA256)
}

// Is reports whether target is ErrUnknownTemplate.
func (e *UnknownTemplateError) Is(target error) bool { return target == ErrUnknownTemplate }

// ErrAmbiguousTemplate is the error (errors.Is) of a lookup by text that several
// templates answer differently: an *AmbiguousTemplateError.
var ErrAmbiguousTemplate = errors.New("ambiguous chat template")

// AmbiguousTemplateError is the error for a template text that several templates of a
// registry were compiled from, with different special tokens or tokenizer settings
// (two models sharing a chat template): the text does not say which model's prompt to
// render, so the lookup refuses to guess; look the template up by name.
type AmbiguousTemplateError struct {
	SHA256 string
	// Names are the candidates' names.
	Names []string
}

func (e *AmbiguousTemplateError) Error() string {
	return fmt.Sprintf("ambiguous chat template (sha256 %s): %s have this text with different special tokens; look the template up by name", e.SHA256, strings.Join(e.Names, ", "))
}

// Is reports whether target is ErrAmbiguousTemplate.
func (e *AmbiguousTemplateError) Is(target error) bool { return target == ErrAmbiguousTemplate }

// Lookup returns the template whose text has the given sha256 (hex): an
// *UnknownTemplateError when none has, an *AmbiguousTemplateError when several have
// and render it with different special tokens or tokenizer settings.
func (r *Registry) Lookup(sha string) (*Template, error) {
	ts := r.bySHA[sha]
	if len(ts) == 0 {
		return nil, &UnknownTemplateError{SHA256: sha}
	}
	for _, t := range ts[1:] {
		if !sameModel(ts[0], t) {
			names := make([]string, len(ts))
			for i, t := range ts {
				names[i] = t.Name
			}
			return nil, &AmbiguousTemplateError{SHA256: sha, Names: names}
		}
	}
	return ts[0], nil
}

// sameModel reports whether a and b give a render the same special tokens and
// tokenizer settings.
func sameModel(a, b *Template) bool {
	return maps.Equal(a.Tokens, b.Tokens) && a.AddBOS == b.AddBOS && a.AddEOS == b.AddEOS
}

// ByName returns the template with the given name, or an *UnknownTemplateError.
func (r *Registry) ByName(name string) (*Template, error) {
	if t, ok := r.byName[name]; ok {
		return t, nil
	}
	return nil, &UnknownTemplateError{Name: name}
}

// All returns the templates sorted by name.
func (r *Registry) All() []*Template {
	out := append([]*Template(nil), r.templates...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
