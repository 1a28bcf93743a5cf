package llamaprobe

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// The tool-call analysis of llama.cpp's generic handler (chat-diff-analyzer.cpp
// analyze_tools), as far as it decides whether llama-server starts with the template: a
// past assistant turn with a tool call is rendered against one with text, and when the
// difference names the function as a JSON string (after "{" or ":"), the handler cuts
// the difference from its first "{" to its last "}" and parses that as JSON. A template
// that writes the call as something else than JSON there (llama.cpp writes nothing for
// a dict in {{ }}, so "arguments": {{ call.function.arguments }} gives
// "arguments": }) makes the parse throw, and llama-server refuses the template.

// firstToolCall is the autoparser's first_tool_call.
const firstToolCall = `{"id": "call00001", "type": "function", "function": {"name": "FFF_FIRST_FUN_F", "arguments": {"AA_ARG_FST_AA": "XXXX", "BB_ARG_SND_BB": "YYYY"}}}`

// reJSONName is in_json_haystack for the first function's name: "{" or ":", spaces
// (C's isspace), the name quoted.
var reJSONName = regexp.MustCompile(`[{:][ \t\n\v\f\r]*"FFF_FIRST_FUN_F"`)

// reJSONArgument is the first argument's name as a JSON key.
var reJSONArgument = regexp.MustCompile(`"AA_ARG_FST_AA"[ \t\n\v\f\r]*:`)

// toolCallSection returns what a past assistant turn with a tool call renders where one
// with text renders the text (the autoparser's first comparison of analyze_tools), and
// whether both renders succeeded.
func toolCallSection(t *ir.Template, tok probeTokens) (string, bool) {
	user := `{"role": "user", "content": "` + userMsg + `"}`
	text, okA := applyProbe(t, tok, `[`+user+`, {"role": "assistant", "content": "`+assistantMsg+`"}]`, autoTools, false, true)
	call, okB := applyProbe(t, tok, `[`+user+`, {"role": "assistant", "content": "", "tool_calls": [`+firstToolCall+`]}]`, autoTools, false, true)
	if !okA || !okB {
		return "", false
	}
	return diffSplit(text, call).right, true
}

// toolArguments is how the tool calls of the section toolCallSection found write their
// arguments (see llamacpp.Capabilities' ToolArguments), and whether text starts them
// (ToolTrigger). It classifies what analyze_tools finds by its outcome rather than
// following it: "json" when the first argument's name is a JSON key, "tagged" when it
// is written otherwise; a trigger when something else than whitespace comes before the
// function's name and the arguments' JSON (a call that is bare JSON, as Llama 3.1's,
// has none).
func toolArguments(section string) (args string, trigger bool) {
	name := strings.Index(section, "FFF_FIRST_FUN_F")
	switch {
	case name < 0:
		return "", false
	case reJSONArgument.MatchString(section):
		args = "json"
	case strings.Contains(section, "AA_ARG_FST_AA"):
		args = "tagged"
	default:
		return "", false
	}
	start := name
	if i := strings.IndexByte(section, '{'); i >= 0 && i < start {
		start = i
	}
	return args, trimSpace(section[:start]) != ""
}

// toolCallAnalysisError returns what analyze_tools throws for a template whose
// reasoning analysis found r and whose tool-call section is section, or "".
func toolCallAnalysisError(section string, r reasoning) string {
	if section == "" || !reJSONName.MatchString(section) {
		return "" // not JSON_NATIVE: the other formats are analyzed without parsing JSON
	}
	// the reasoning markers are removed (their first occurrence each)
	clean := section
	if r.start != "" {
		clean = strings.Replace(clean, r.start, "", 1)
	}
	if r.end != "" {
		clean = strings.Replace(clean, r.end, "", 1)
	}
	start, end := strings.IndexByte(clean, '{'), strings.LastIndexByte(clean, '}')
	if start < 0 {
		// std::string::substr(npos, ...)
		return fmt.Sprintf("basic_string::substr: __pos (which is 18446744073709551615) > this->size() (which is %d)", len(clean))
	}
	// substr(start, end - start + 1): a negative length is the rest of the text
	cut := clean[start:]
	if n := end - start + 1; n >= 0 {
		cut = clean[start : start+n]
	}
	return nlohmannParse(cut)
}
