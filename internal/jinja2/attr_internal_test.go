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
