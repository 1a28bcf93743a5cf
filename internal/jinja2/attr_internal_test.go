package jinja2

import "testing"

// TestDictAttributeNames keeps mayBeDictAttribute in step with the dict method table.
func TestDictAttributeNames(t *testing.T) {
	for name := range dictMethods {
		if !mayBeDictAttribute(name) {
			t.Errorf("dict method %s is missing from mayBeDictAttribute", name)
		}
	}
}
