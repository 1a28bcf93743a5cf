package harness

import "testing"

func TestParseProfile(t *testing.T) {
	for _, p := range []Profile{Transformers, LlamaServer, VLLM} {
		if got, err := ParseProfile(p.String()); err != nil || got != p {
			t.Errorf("ParseProfile(%q) = %v, %v", p.String(), got, err)
		}
	}
	if got, err := ParseProfile("llama-server"); err != nil || got != LlamaServer {
		t.Errorf("ParseProfile(llama-server) = %v, %v", got, err)
	}
	if _, err := ParseProfile("sglang"); err == nil {
		t.Error("ParseProfile(sglang) succeeded")
	}
}
