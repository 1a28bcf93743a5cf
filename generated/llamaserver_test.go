package generated_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
)

// oracleCases reads the shared cases as parsed requests, with the oracle's clock.
func oracleCases(t *testing.T) (ids []string, reqs []*tmplgen.Request) {
	t.Helper()
	b, err := os.ReadFile("../../shared/oracle/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []json.RawMessage
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		var id struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(c, &id); err != nil {
			t.Fatal(err)
		}
		req, err := tmplgen.ParseRequest(c)
		if err != nil {
			t.Fatal(err)
		}
		// the oracle's defaults for what a case leaves out
		for k, v := range map[string]string{"bos_token": "<s>", "eos_token": "</s>"} {
			if _, ok := req.SpecialTokens[k]; !ok {
				req.SpecialTokens[k] = v
			}
		}
		req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		ids = append(ids, id.ID)
		reqs = append(reqs, req)
	}
	return ids, reqs
}

// TestLlamaServerOracle renders every case through every compiled catalog template of
// the shared corpus with llamaserver.Render, as a Go service would, and compares
// with what llama-server b10587 answered (../shared/oracle/expected-b10587): every pair.
func TestLlamaServerOracle(t *testing.T) {
	requireShared(t)
	ids, reqs := oracleCases(t)
	catalog, err := os.ReadFile("../templates/catalog.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var passed, skipped int
	for _, line := range strings.Split(string(catalog), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) < 3 || strings.HasPrefix(line, "#") {
			continue
		}
		path, ok := strings.CutPrefix(cols[1], "shared:")
		if !ok {
			continue
		}
		tmpl, err := generated.ByName(cols[0])
		if err != nil {
			t.Fatalf("%s is not in the registry", cols[0])
		}
		b, err := os.ReadFile(filepath.Join("../../shared/oracle/expected-b10587", path+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var exp struct {
			Cases map[string]map[string]struct {
				Prompt *string `json:"prompt"`
				Error  *string `json:"error"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(b, &exp); err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			want, ok := exp.Cases[id]["llama_server"]
			if !ok {
				skipped++
				continue
			}
			got, err := llamaserver.Render(tmpl, &reqs[i].Input)
			switch {
			case want.Error != nil && err == nil:
				t.Errorf("%s %s: got a prompt, llama-server answered %s", path, id, *want.Error)
			case want.Prompt != nil && err != nil:
				t.Errorf("%s %s: %v", path, id, err)
			case want.Prompt != nil && got != *want.Prompt:
				t.Errorf("%s %s:\ngot  %q\nwant %q", path, id, got, *want.Prompt)
			default:
				passed++
			}
		}
	}
	t.Logf("%d pairs as llama-server answered, %d not recorded", passed, skipped)
	if passed < 2000 {
		t.Errorf("only %d pairs compared", passed)
	}
}

// TestConcurrentRenderServers renders every compiled template with the server profiles
// (llamaserver.Render, vllm.Server.Render) from many goroutines sharing the same inputs
// (run with -race: a profile hands the template the request's own messages where its
// server would build the same ones), and checks the renders get the same answers as
// renders on their own and leave the inputs as they were.
func TestConcurrentRenderServers(t *testing.T) {
	requireShared(t)
	_, reqs := oracleCases(t)
	var before []string
	for _, r := range reqs {
		before = append(before, string(jinja2.AppendJSON(nil, r.Messages))+string(jinja2.AppendJSON(nil, r.Tools)))
	}
	vllmServer := &vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "hermes"}
	type job struct {
		render func(*tmplgen.Template, *tmplgen.Input) (string, error)
		tmpl   *tmplgen.Template
		in     *tmplgen.Input
		want   string
	}
	var jobs []job
	for _, render := range []func(*tmplgen.Template, *tmplgen.Input) (string, error){llamaserver.Render, vllmServer.Render} {
		for _, tmpl := range generated.Registry.All() {
			for _, r := range reqs {
				prompt, err := render(tmpl, &r.Input)
				if err != nil {
					prompt = "error: " + err.Error()
				}
				jobs = append(jobs, job{render, tmpl, &r.Input, prompt})
			}
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(jobs); i += 8 {
				j := jobs[i]
				got, err := j.render(j.tmpl, j.in)
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
	for i, r := range reqs {
		if after := string(jinja2.AppendJSON(nil, r.Messages)) + string(jinja2.AppendJSON(nil, r.Tools)); after != before[i] {
			t.Errorf("case %d: rendering changed the input", i)
		}
	}
}
