//go:build !race

// The race detector makes sync.Pool drop what it is given, so allocations are not
// counted under it.

package generated_test

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
)

// TestWriterOnStack: a template's Append (its render function run with a Writer on
// the stack, jinja2.Run.Start) allocates no more than the same render with a pooled
// Writer, on every oracle case. A render function that keeps a reference to its Writer
// makes the Go compiler move the Writer to the heap, one allocation per render; the
// generator writes no Append for those it knows keep one (macro values, loop objects,
// global functions), and this finds any it does not know.
func TestWriterOnStack(t *testing.T) {
	requireShared(t)
	b, err := os.ReadFile("../../shared/oracle/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []json.RawMessage
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	var inputs []*tmplgen.Input
	for _, c := range cases {
		req, err := tmplgen.ParseRequest(c)
		if err != nil {
			t.Fatal(err)
		}
		req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		inputs = append(inputs, &req.Input)
	}
	withAppend, renders := 0, 0
	for _, tmpl := range generated.Registry.All() {
		if tmpl.Append == nil {
			continue
		}
		withAppend++
		for _, in := range inputs {
			buf := make([]byte, 0, 1<<16)
			if _, err := tmpl.AppendRender(buf, in); err != nil {
				continue // a refused request: its error allocates
			}
			// the same render through the Writer pool: a llama.cpp function that is the
			// Jinja2 one (a template without a twin renders with Func)
			pooledTmpl := *tmpl
			pooledTmpl.Append, pooledTmpl.LlamaFunc = nil, nil
			onStack := testing.AllocsPerRun(20, func() { _, _ = tmpl.AppendRender(buf[:0], in) })
			pooled := testing.AllocsPerRun(20, func() { _, _ = pooledTmpl.AppendRender(buf[:0], in) })
			renders++
			if onStack > pooled {
				t.Errorf("%s: its Append allocates %v times a render, the render with a pooled Writer %v: the Writer does not stay on the stack (go build -gcflags=-m ./generated says why)", tmpl.Name, onStack, pooled)
				break
			}
		}
	}
	if withAppend == 0 || renders == 0 {
		t.Errorf("%d templates have an Append, %d renders compared", withAppend, renders)
	}
}
