package interp

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/ir"
	"github.com/tmplgen/tmplgen/runtime"
)

// capsColumns are the capabilities of testdata/llama_server/llama_caps.tsv, in its order.
var capsColumns = []struct {
	name string
	get  func(*runtime.Capabilities) bool
}{
	{"supports_system_role", func(c *runtime.Capabilities) bool { return c.SystemRole }},
	{"supports_string_content", func(c *runtime.Capabilities) bool { return c.StringContent }},
	{"supports_typed_content", func(c *runtime.Capabilities) bool { return c.TypedContent }},
	{"supports_tools", func(c *runtime.Capabilities) bool { return c.Tools }},
	{"supports_tool_calls", func(c *runtime.Capabilities) bool { return c.ToolCalls }},
	{"supports_parallel_tool_calls", func(c *runtime.Capabilities) bool { return c.ParallelToolCalls }},
	{"supports_object_arguments", func(c *runtime.Capabilities) bool { return c.ObjectArguments }},
	{"supports_preserve_reasoning", func(c *runtime.Capabilities) bool { return c.PreserveReasoning }},
}

// The agreement with llama.cpp's own detection that the capability computation must
// keep (raise them when it gets better): templates whose eight capabilities all equal
// what llama.cpp's engine finds, of those llama.cpp parses; and templates whose
// enable_thinking default equals llama-server's, of those it loads.
const (
	wantCapsAgree     = 513
	wantThinkingAgree = 508
)

// TestCapabilitiesAgreeWithLlamaCpp computes the capabilities of every template of the
// shared corpus and compares them with what llama.cpp b10256 detects itself, recorded in
// testdata/llama_server/llama_caps.tsv by record_caps.py.
func TestCapabilitiesAgreeWithLlamaCpp(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "templates")
	if _, err := os.Stat(shared); err != nil {
		t.Skip("../shared/templates is missing")
	}
	f, err := os.Open(filepath.Join("..", "testdata", "llama_server", "llama_caps.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	var parsed, capsAgree, loaded, thinkingAgree int
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		path, thinking := cols[0], cols[len(cols)-1]
		if thinking == "parse" {
			continue
		}
		text, err := os.ReadFile(filepath.Join(shared, path))
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := ir.Compile(filepath.Base(path), string(text))
		if err != nil {
			t.Logf("%s: %v", path, err)
			continue
		}
		c := Capabilities(tmpl)
		parsed++
		var diffs []string
		for i, col := range capsColumns {
			if got, want := col.get(&c), cols[1+i] == "1"; got != want {
				diffs = append(diffs, col.name)
			}
		}
		if len(diffs) == 0 {
			capsAgree++
		} else {
			t.Logf("%s: capabilities differ from llama.cpp's: %s", path, strings.Join(diffs, ", "))
		}
		if thinking == "refused" {
			continue
		}
		loaded++
		if got := c.ThinkingStartTag != ""; got == (thinking == "1") {
			thinkingAgree++
		} else {
			t.Logf("%s: enable_thinking default %v, llama-server's %s (handler %s, reasoning %s %q %q)", path, got, thinking, c.Handler, c.ReasoningMode, c.ReasoningStart, c.ReasoningEnd)
		}
	}
	t.Logf("capabilities agree on %d of %d templates llama.cpp parses; the enable_thinking default on %d of %d it loads", capsAgree, parsed, thinkingAgree, loaded)
	if capsAgree < wantCapsAgree {
		t.Errorf("capabilities agree with llama.cpp on %d templates, want at least %d", capsAgree, wantCapsAgree)
	}
	if thinkingAgree < wantThinkingAgree {
		t.Errorf("the enable_thinking default agrees with llama-server on %d templates, want at least %d", thinkingAgree, wantThinkingAgree)
	}
}
