package jinja2

import "testing"

// TestDictAttributeNames keeps MayBeDictAttribute in step with the dict method table.
func TestDictAttributeNames(t *testing.T) {
	for name := range dictMethods {
		if !MayBeDictAttribute(name) {
			t.Errorf("dict method %s is missing from MayBeDictAttribute", name)
		}
	}
}

// TestMissingAttributeOwner checks how the error of a missing attribute names the
// object it was looked up on, as Jinja2 3.1.6 names it (recorded through the oracle's
// hf_render.py: {{ cycler(1).zz.y }} and the like).
func TestMissingAttributeOwner(t *testing.T) {
	for _, tt := range []struct {
		v    Value
		want string
	}{
		{objectValue(&cycler{items: []Value{Int(1)}}), "'jinja2.utils.Cycler object' has no attribute 'zz'"},
		{objectValue(&joiner{sep: ", "}), "'jinja2.utils.Joiner object' has no attribute 'zz'"},
		{objectValue(templateRef{}), "'jinja2.runtime.TemplateReference object' has no attribute 'zz'"},
		{Int(1), "'int object' has no attribute 'zz'"},
	} {
		_, e := raised(func() string { return Attr(Attr(tt.v, "zz"), "y").Repr() })
		if e == nil || e.Kind != UndefinedError || e.Msg != tt.want {
			t.Errorf("%s.zz.y: %v, want UndefinedError: %s", tt.v.Repr(), e, tt.want)
		}
	}
}
