package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// capsLiteral is the llamacpp.Capabilities literal of a template's file: the fields
// that are set, one per line, in the order of the struct (a capability not listed is
// false or empty, as Go reads a literal).
func capsLiteral(c *llamacpp.Capabilities) jen.Code {
	fields := []struct {
		name  string
		value any
	}{
		{"SystemRole", c.SystemRole},
		{"StringContent", c.StringContent},
		{"TypedContent", c.TypedContent},
		{"Tools", c.Tools},
		{"ToolCalls", c.ToolCalls},
		{"ParallelToolCalls", c.ParallelToolCalls},
		{"ObjectArguments", c.ObjectArguments},
		{"PreserveReasoning", c.PreserveReasoning},
		{"Handler", c.Handler},
		{"Thinking", c.Thinking},
		{"ThinkingStartTag", c.ThinkingStartTag},
		{"KeepDeveloperRole", c.KeepDeveloperRole},
		{"TrimContent", c.TrimContent},
		{"MergeToolResponses", c.MergeToolResponses},
		{"SortToolResults", c.SortToolResults},
		{"ReasoningMode", c.ReasoningMode},
		{"ReasoningStart", c.ReasoningStart},
		{"ReasoningEnd", c.ReasoningEnd},
		{"ToolArguments", c.ToolArguments},
		{"ToolTrigger", c.ToolTrigger},
		{"LoadError", c.LoadError},
	}
	items := make([]jen.Code, 0, len(fields)+1)
	for _, f := range fields {
		if f.value == false || f.value == "" {
			continue
		}
		items = append(items, jen.Line().Id(f.name).Op(":").Lit(f.value))
	}
	items = append(items, jen.Line())
	return jen.Qual(LlamacppPath, "Capabilities").Values(items...)
}

// vllmLiteral is the tmplgen.VLLMFacts literal of a template's file: the fields that are
// set, one per line, the names the template reads on one line.
func vllmLiteral(f *tmplgen.VLLMFacts) jen.Code {
	var items []jen.Code
	if f.OpenAIContent {
		items = append(items, jen.Line().Id("OpenAIContent").Op(":").True())
	}
	if f.DeveloperRole {
		items = append(items, jen.Line().Id("DeveloperRole").Op(":").True())
	}
	if len(f.Undeclared) > 0 {
		names := make([]jen.Code, len(f.Undeclared))
		for i, n := range f.Undeclared {
			names[i] = jen.Lit(n)
		}
		items = append(items, jen.Line().Id("Undeclared").Op(":").Index().String().Values(names...))
	}
	if len(items) > 0 {
		items = append(items, jen.Line())
	}
	return jen.Qual(TmplgenPath, "VLLMFacts").Values(items...)
}
