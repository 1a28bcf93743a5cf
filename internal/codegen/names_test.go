package codegen_test

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/codegen"
)

// TestIdentifier: names become camel case, keeping an underscore where camel case would
// run two words together (two digits, two capitals).
func TestIdentifier(t *testing.T) {
	for _, tt := range []struct {
		name     string
		exported bool
		want     string
	}{
		{"tool_calls", false, "toolCalls"},
		{"add_generation_prompt", false, "addGenerationPrompt"},
		{"chatml", true, "Chatml"},
		{"Qwen-Qwen3-0.6B", true, "QwenQwen3_0_6B"},
		{"GigaChat3.1-10B-A1.8B", true, "GigaChat3_1_10B_A1_8B"},
		{"meta-llama-Llama-3.1-8B-Instruct", true, "MetaLlamaLlama3_1_8B_Instruct"},
		{"mymodel:chatml", true, "MymodelChatml"},
		{"GLM-4.7-Flash", true, "GLM4_7Flash"},
		{"x_1_2", false, "x1_2"},
		{"3b-model", true, "T3bModel"},
		{"3b", false, "v3b"},
		{"é", false, "v"},
	} {
		if got := codegen.Identifier(tt.name, tt.exported); got != tt.want {
			t.Errorf("Identifier(%q, %v) = %s, want %s", tt.name, tt.exported, got, tt.want)
		}
	}
}

// TestNumbered: a number after a digit is set apart.
func TestNumbered(t *testing.T) {
	for base, want := range map[string]string{"message": "message2", "Llama3": "Llama3_2", "Qwen3_0_6B": "Qwen3_0_6B2"} {
		if got := codegen.Numbered(base, 2); got != want {
			t.Errorf("Numbered(%s, 2) = %s, want %s", base, got, want)
		}
	}
}
