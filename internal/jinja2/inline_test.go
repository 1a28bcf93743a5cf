package jinja2

import (
	"os/exec"
	"regexp"
	"testing"
)

// hotInlined are functions that renders and the decoder call in their inner loops, and
// those generated code calls at every literal, comparison with a constant and write of
// template text: the compiler must inline them (a call costs more than their bodies,
// ~40% of a render for Dict.GetStr). A change of Value, List or Dict that puts one over
// the inlining budget fails here rather than as a slower render.
var hotInlined = []string{
	"Value.kind", "Value.num", "Value.str", "Value.Items", "Value.IsMarkup", "Str", "Int",
	"Bool", "Float", "(*Dict).GetStr", "(*Dict).Get", "(*Dict).keys", "(*Dict).vals",
	"(*List).items", "Lit", "SmallInt", "EqStr", "(*Writer).WriteString", "(*Writer).AppendString",
	"Value.Truthy",
}

// TestHotPathsInline builds the package with the compiler's inlining report and checks
// that each of hotInlined is inlinable.
func TestHotPathsInline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package: not with -short")
	}
	out, err := exec.Command("go", "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, name := range hotInlined {
		if !regexp.MustCompile(`(?m): can inline ` + regexp.QuoteMeta(name) + `$`).Match(out) {
			t.Errorf("%s is not inlinable any more (go build -gcflags=-m=2 ./internal/jinja2 says why)", name)
		}
	}
}
