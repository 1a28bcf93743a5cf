package tmplgen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
)

// TestRegistryAmbiguous: two models whose templates have one text are found each by
// name; the text finds the template when they render it alike, and is refused, naming
// both, when their special tokens differ.
func TestRegistryAmbiguous(t *testing.T) {
	sum := tmplgen.SHA256("{{ bos_token }}")
	a := &tmplgen.Template{Name: "a", SHA256: sum, Tokens: map[string]string{"bos_token": "<a>"}}
	b := &tmplgen.Template{Name: "b", SHA256: sum, Tokens: map[string]string{"bos_token": "<b>"}}
	twin := &tmplgen.Template{Name: "a2", SHA256: sum, Tokens: map[string]string{"bos_token": "<a>"}}

	r := tmplgen.NewRegistry(a, twin)
	if got, err := r.Lookup(sum); err != nil || got != a {
		t.Errorf("Lookup of a text two templates render alike: %v, %v; want a", got, err)
	}

	r = tmplgen.NewRegistry(a, b)
	_, err := r.Lookup(sum)
	var amb *tmplgen.AmbiguousTemplateError
	if !errors.As(err, &amb) || !errors.Is(err, tmplgen.ErrAmbiguousTemplate) || strings.Join(amb.Names, ",") != "a,b" {
		t.Errorf("Lookup of a text of two models: %v; want an AmbiguousTemplateError naming a and b", err)
	}
	for _, want := range []*tmplgen.Template{a, b} {
		if got, err := r.ByName(want.Name); err != nil || got != want {
			t.Errorf("ByName(%s): %v, %v", want.Name, got, err)
		}
	}
	if _, err := r.ByName("c"); !errors.Is(err, tmplgen.ErrUnknownTemplate) || !strings.Contains(err.Error(), `"c"`) {
		t.Errorf("ByName(c): %v; want an UnknownTemplateError naming c", err)
	}
	if _, err := r.Lookup(tmplgen.SHA256("other")); !errors.Is(err, tmplgen.ErrUnknownTemplate) {
		t.Errorf("Lookup of an unknown text: %v; want ErrUnknownTemplate", err)
	}
}
