package main

import (
	"fmt"
	"strconv"

	"github.com/tmplgen/tmplgen/runtime"
)

// capsSection is the title of audit's section on what llama.cpp detects.
const capsSection = "llama.cpp capabilities (what the llama_server profile adapts requests to)"

// capsLines describes a template's capabilities one per line ("name: value"), so that
// audit -diff shows the ones that changed.
func capsLines(c runtime.Capabilities) []string {
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	lines := []string{
		"system role: " + yes(c.SystemRole),
		"string content: " + yes(c.StringContent),
		"typed content: " + yes(c.TypedContent),
		"tools: " + yes(c.Tools),
		"tool calls: " + yes(c.ToolCalls),
		"parallel tool calls: " + yes(c.ParallelToolCalls),
		"object arguments: " + yes(c.ObjectArguments),
		"preserves reasoning: " + yes(c.PreserveReasoning),
		"handler: " + c.Handler,
		"thinking: " + yes(c.Thinking),
		"enable_thinking default: " + yes(c.ThinkingStartTag != ""),
	}
	if c.ThinkingStartTag != "" {
		lines = append(lines, "thinking start tag: "+strconv.Quote(c.ThinkingStartTag))
	}
	if c.ReasoningMode != "" && c.ReasoningMode != "none" {
		lines = append(lines, fmt.Sprintf("reasoning: %s, between %s and %s", c.ReasoningMode, strconv.Quote(c.ReasoningStart), strconv.Quote(c.ReasoningEnd)))
	}
	for _, f := range []struct {
		on   bool
		text string
	}{
		{c.KeepDeveloperRole, "keeps the developer role"},
		{c.TrimContent, "trims message contents"},
		{c.MergeToolResponses, "merges tool responses into the assistant message"},
		{c.SortToolResults, "sorts tool results into call order"},
	} {
		if f.on {
			lines = append(lines, "llama-server "+f.text)
		}
	}
	return lines
}
