package main

import (
	"fmt"
	"strconv"

	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// capsSection is the title of audit's section on what llama.cpp detects.
const capsSection = "llama.cpp capabilities (what the llama-server profile adapts requests to)"

// capFlag is one of a template's yes-or-no capabilities.
type capFlag struct {
	label string
	on    bool
}

// capFlags are a template's yes-or-no capabilities: what llama.cpp's probes find it
// supports, and thinking.
func capFlags(c llamacpp.Capabilities) []capFlag {
	return []capFlag{
		{"system role", c.SystemRole},
		{"string content", c.StringContent},
		{"typed content", c.TypedContent},
		{"tools", c.Tools},
		{"tool calls", c.ToolCalls},
		{"parallel tool calls", c.ParallelToolCalls},
		{"object arguments", c.ObjectArguments},
		{"preserves reasoning", c.PreserveReasoning},
		{"thinking", c.Thinking},
	}
}

// capsLines describes a template's capabilities one per line ("name: value"), so that
// audit -diff shows the ones that changed.
func capsLines(c llamacpp.Capabilities) []string {
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	var lines []string
	for _, f := range capFlags(c) {
		lines = append(lines, f.label+": "+yes(f.on))
	}
	lines = append(lines, "enable_thinking default: "+yes(c.ThinkingStartTag != ""))
	if c.ThinkingStartTag != "" {
		lines = append(lines, "thinking start tag: "+strconv.Quote(c.ThinkingStartTag))
	}
	lines = append(lines, "handler: "+c.Handler)
	if c.ReasoningMode != "" && c.ReasoningMode != "none" {
		lines = append(lines, fmt.Sprintf("reasoning: %s, between %s and %s", c.ReasoningMode, strconv.Quote(c.ReasoningStart), strconv.Quote(c.ReasoningEnd)))
	}
	for _, f := range []capFlag{
		{"keeps the developer role", c.KeepDeveloperRole},
		{"trims message contents", c.TrimContent},
		{"merges tool responses into the assistant message", c.MergeToolResponses},
		{"sorts tool results into call order", c.SortToolResults},
	} {
		if f.on {
			lines = append(lines, "llama-server "+f.label)
		}
	}
	return lines
}
