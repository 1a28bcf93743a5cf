package generated_test

import (
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
)

// TestConcurrentRender renders every compiled template from many goroutines at once,
// sharing the same inputs, and checks each gets the same prompt (or error) as a render
// on its own. Run with -race (as .ci/run does) to catch shared state.
func TestConcurrentRender(t *testing.T) {
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
	type job struct {
		tmpl *tmplgen.Template
		in   *tmplgen.Input
		want string
	}
	var jobs []job
	for _, tmpl := range generated.Registry.All() {
		for _, in := range inputs {
			prompt, err := tmpl.Render(in)
			if err != nil {
				prompt = "error: " + err.Error()
			}
			jobs = append(jobs, job{tmpl, in, prompt})
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(jobs); i += 8 {
				j := jobs[i]
				got, err := j.tmpl.Render(j.in)
				if err != nil {
					got = "error: " + err.Error()
				}
				if got != j.want {
					t.Errorf("%s: concurrent render differs", j.tmpl.Name)
				}
			}
		}(g)
	}
	wg.Wait()
}
