// Package conformance runs the conformance checks of .ci/run, tmplgen check's suites
// (harness.RunSuites), from go test: each in the package whose semantics it checks.
package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/testenv"
)

// maxReports is how many failing pairs a suite reports one by one.
const maxReports = 40

// Suites returns the suites that compare with engine (harness.EngineTransformers,
// EngineLlamaServer or EngineLlamaLegacy), with the paths of the repository whose root
// is at root, as .ci/run's checks name them:
//
//   - ENGINE (transformers, llama_server): the templates of the shared corpus on the
//     oracle's cases: all-ENGINE with testenv.FullConformance, else only the llama.cpp/
//     folder (llama.cpp-ENGINE); transformers' errors must name the line
//     Jinja2 names (testdata/errlines). Then the request fields on the llama.cpp/
//     templates (fields-ENGINE, testdata/fields), whole in both modes, and for
//     transformers the cases on llama.cpp's Jinja engine (engine-transformers,
//     EngineCases), which package llamacpp's tests check under llama_server; and the
//     requests on what changed in llama-server b10587 (b10587-ENGINE). llama_server
//     compares with llama-server b10587 (expected-b10587).
//   - vllm: the templates of the shared corpus on the oracle's cases (all-vllm, or
//     llama.cpp-vllm), against expected-vllm, and the request fields (fields-vllm).
//   - llama_legacy: the project's own templates of llama.cpp's built-in formats
//     (builtin-llama_legacy, templates/builtin).
//
// It skips or fails the test as testenv.Shared does when the shared corpus is missing.
func Suites(t testing.TB, root, engine string) []harness.Suite {
	t.Helper()
	shared := testenv.Shared(t, root)
	oracle := filepath.Join(shared, "oracle")
	templates := filepath.Join(shared, "templates")
	if engine == harness.EngineLlamaLegacy {
		return []harness.Suite{{Name: "builtin-llama_legacy", Templates: filepath.Join(root, "templates", "builtin"),
			Expected: filepath.Join(oracle, "legacy"), Cases: filepath.Join(oracle, "cases.json"), Engine: engine}}
	}
	expected := "expected"
	switch engine {
	case harness.EngineLlamaServer:
		expected = "expected-b10587" // llama-server b10587, the reference
	case harness.EngineVLLM:
		expected = "expected-vllm"
	}
	corpus := harness.Suite{Name: "all-" + engine, Templates: templates, Expected: filepath.Join(oracle, expected),
		Cases: filepath.Join(oracle, "cases.json"), Engine: engine}
	if !testenv.FullConformance(t) {
		corpus.Name, corpus.Filter = "llama.cpp-"+engine, regexp.MustCompile(`^llama\.cpp/`)
	}
	if engine == harness.EngineTransformers {
		corpus.Lines = filepath.Join(root, "testdata", "errlines", "transformers.tsv")
	}
	fields := filepath.Join(root, "testdata", "fields")
	suites := []harness.Suite{
		corpus,
		{Name: "fields-" + engine, Templates: filepath.Join(templates, "llama.cpp"), Expected: filepath.Join(fields, "expected"),
			Cases: filepath.Join(fields, "cases.json"), Engine: engine},
	}
	if engine == harness.EngineVLLM {
		return suites // the b10587 requests are not recorded for vLLM
	}
	suites = append(suites, b10587Cases(t, oracle, templates, engine))
	if engine == harness.EngineTransformers {
		suites = append(suites, EngineCases(root, engine))
	}
	return suites
}

// b10587Cases is the suite of the oracle's requests on what changed in llama-server
// b10587 (reasoning_effort, continuing a final message: cases-b10587.json) for the
// templates it records them for (cases-b10587-templates.txt), both engines.
func b10587Cases(t testing.TB, oracle, templates, engine string) harness.Suite {
	t.Helper()
	list, err := os.ReadFile(filepath.Join(oracle, "cases-b10587-templates.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range strings.Fields(string(list)) {
		paths = append(paths, regexp.QuoteMeta(p))
	}
	return harness.Suite{Name: "b10587-" + engine, Templates: templates, Expected: filepath.Join(oracle, "expected-b10587-extra"),
		Cases: filepath.Join(oracle, "cases-b10587.json"), Engine: engine, Filter: regexp.MustCompile(`^(` + strings.Join(paths, "|") + `)$`)}
}

// EngineCases is the suite of the cases on llama.cpp's Jinja engine (engine-ENGINE,
// testdata/llama_engine: a template for each way llama.cpp's engine differs from
// Jinja2, with what both references rendered), compared under engine.
func EngineCases(root, engine string) harness.Suite {
	dir := filepath.Join(root, "testdata", "llama_engine")
	return harness.Suite{Name: "engine-" + engine, Templates: filepath.Join(dir, "templates"), Expected: filepath.Join(dir, "expected"),
		Cases: filepath.Join(dir, "cases.json"), Engine: engine}
}

// Run runs the suites (built into one program, harness.RunSuites, with the oracle's
// clock), each in a subtest of its name: every pair must pass, and each that fails is
// an error naming its template, its case and where it differs (the first differing
// bytes of the prompts, or what each side gave).
func Run(t *testing.T, suites []harness.Suite) {
	t.Helper()
	var stderr bytes.Buffer
	outcomes, err := harness.RunSuites(t.TempDir(), suites, harness.RenderOptions{Now: harness.OracleNow, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	for k, s := range suites {
		t.Run(s.Name, func(t *testing.T) {
			if len(outcomes[k]) == 0 {
				t.Fatalf("no pairs: %s records nothing for %s", s.Expected, s.Engine)
			}
			failed := 0
			for _, o := range outcomes[k] {
				if o.Failure == "" {
					continue
				}
				if failed++; failed <= maxReports {
					t.Errorf("%s %s: %s", o.Template, o.Case, o.Failure)
				}
			}
			if failed > maxReports {
				t.Errorf("and %d more pairs fail (tmplgen check lists them all)", failed-maxReports)
			}
			t.Logf("%d of %d pairs pass (%s under %s, expected %s)", len(outcomes[k])-failed, len(outcomes[k]), s.Engine, s.Templates, s.Expected)
		})
	}
}
