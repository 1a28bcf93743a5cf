package jinja2

import (
	"reflect"
	"strings"
	"testing"
)

// TestVersionNames: the type and method generated files assert are named after
// Version (a release changes all three together).
func TestVersionNames(t *testing.T) {
	v := strings.NewReplacer(".", "_", "-", "_").Replace(Version)
	typ := reflect.TypeOf(ThisVersion)
	if typ.Name() != "Version_"+v {
		t.Errorf("ThisVersion is a %s, want Version_%s (Version is %s)", typ.Name(), v, Version)
	}
	if _, ok := typ.MethodByName("IsVersion_" + v); !ok {
		t.Errorf("%s has no method IsVersion_%s", typ.Name(), v)
	}
}
