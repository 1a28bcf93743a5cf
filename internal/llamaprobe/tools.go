package llamaprobe

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
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

// reJSONName and reJSONArgument are in_json_haystack for the first function's name and
// its first argument's.
var reJSONName, reJSONArgument = inJSONHaystack("FFF_FIRST_FUN_F"), inJSONHaystack("AA_ARG_FST_AA")

// inJSONHaystack matches needle as in_json_haystack finds it: "{" or ":", spaces (C's
// isspace), needle quoted.
func inJSONHaystack(needle string) *regexp.Regexp {
	return regexp.MustCompile(`[{:][` + cSpace + `]*"` + regexp.QuoteMeta(needle) + `"`)
}

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

// toolFormat is what analyze_tools finds of the tool calls of section (see
// llamacpp.Capabilities' ToolArguments and ToolTrigger) for a template of text src whose
// reasoning analysis found r: their mode by whether the function's and the first
// argument's names are JSON strings, and the markers that start them
// (section_start, per_call_start), then llama.cpp's patches of the analysis for
// templates it knows.
func toolFormat(src, section string, r reasoning) (args string, trigger bool) {
	if section == "" {
		return "", false
	}
	clean := removeReasoningMarkers(section, r)
	switch {
	case reJSONName.MatchString(section):
		args, trigger = "json", jsonSectionStart(clean) != ""
	case reJSONArgument.MatchString(section):
		args, trigger = "json", taggedCallStart(clean)
	default:
		args, trigger = "tagged", taggedCallStart(clean)
	}
	has := func(s string) bool { return strings.Contains(src, s) }
	switch {
	case has(`set has_code_interpreter = tools | selectattr("type", "equalto", "code_interpreter") | list | length > 0`):
		trigger = true // Functionary 3.1: per_call_start "<function="
	case has("{{'<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>' + tool['type'] + '<｜tool▁sep｜>'"):
		trigger = true // DeepSeek-R1-Distill-Qwen
	case has("<SPECIAL_10>") && has("<SPECIAL_11>") && has("<SPECIAL_12>") && has("<TOOL_RESPONSE>"):
		args, trigger = "json", true // Nemotron Nano v2: per_call_start "<TOOLCALL>"
	}
	return args, trigger
}

// removeReasoningMarkers removes the first occurrence of each of r's markers from text.
func removeReasoningMarkers(text string, r reasoning) string {
	if r.start != "" {
		text = strings.Replace(text, r.start, "", 1)
	}
	if r.end != "" {
		text = strings.Replace(text, r.end, "", 1)
	}
	return text
}

// jsonSectionStart is analyze_tool_call_format_json_native's section_start: what comes
// before the call's JSON object, or before the "[" of an array around it, without its
// leading whitespace.
func jsonSectionStart(clean string) string {
	start, end := strings.IndexByte(clean, '{'), strings.LastIndexByte(clean, '}')
	if start < 0 || end < start {
		return ""
	}
	before := strings.TrimRight(clean[:start], cSpace)
	after := strings.TrimLeft(clean[end+1:], cSpace)
	if strings.HasSuffix(before, "[") && strings.HasPrefix(after, "]") {
		start = len(before) - 1 // tools_array_wrapped
	}
	return strings.TrimLeft(clean[:start], cSpace)
}

// taggedCallStart reports whether analyze_tool_call_format_non_json finds a marker (a
// <...> or [...]) starting the calls: two markers before the function (section_start,
// per_call_start), or one right before it, where the function is its name or the
// marker around it.
func taggedCallStart(clean string) bool {
	fun := functionMarker(clean)
	for i := range clean {
		// sec_start, call_start, anything, the function
		if j, ok := markerAt(clean, i); ok {
			if k, ok := markerAt(clean, j); ok && strings.Contains(clean[k:], fun) {
				return true
			}
		}
	}
	for i := range clean {
		// sec_start, the function
		if j, ok := markerAt(clean, i); ok && strings.HasPrefix(clean[j:], fun) {
			return true
		}
	}
	return false
}

// functionMarker is the fun_marker of analyze_tool_call_format_non_json: the <...> or
// [... tag the function's name is in, with the whitespace after it, or the name.
func functionMarker(s string) string {
	const name = "FFF_FIRST_FUN_F"
	for i := range s {
		switch s[i] {
		case '<':
			// "<", no ">" before the name, the name, no "<" after it (past spaces), up
			// to ">", spaces
			n := strings.Index(s[i:], name)
			if n < 0 || strings.Contains(s[i:i+n], ">") {
				continue
			}
			rest := i + n + len(name)
			if strings.HasPrefix(strings.TrimLeft(s[rest:], cSpace), "<") {
				continue
			}
			gt := strings.IndexByte(s[rest:], '>')
			if gt < 0 {
				continue
			}
			end := rest + gt + 1
			return s[i:end] + spaceAt(s, end)
		case '[':
			// "[", no "]" before the name, the name, not followed by a [...] (past spaces),
			// spaces
			n := strings.Index(s[i:], name)
			if n < 0 || strings.Contains(s[i:i+n], "]") {
				continue
			}
			rest := i + n + len(name)
			if after := strings.TrimLeft(s[rest:], cSpace); strings.HasPrefix(after, "[") && strings.Contains(after, "]") {
				continue
			}
			return s[i:rest] + spaceAt(s, rest)
		}
	}
	return name
}

// spaceAt returns the whitespace of s at i.
func spaceAt(s string, i int) string {
	return s[i : len(s)-len(strings.TrimLeft(s[i:], cSpace))]
}

// markerAt reports whether a marker (<...> or [...]) starts at s[i], and where it ends
// with the whitespace after it.
func markerAt(s string, i int) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	var closer byte
	switch s[i] {
	case '<':
		closer = '>'
	case '[':
		closer = ']'
	default:
		return 0, false
	}
	j := strings.IndexByte(s[i+1:], closer)
	if j < 0 {
		return 0, false
	}
	end := i + 1 + j + 1
	return end + len(spaceAt(s, end)), true
}

// toolCallAnalysisError returns what analyze_tools throws for a template whose
// reasoning analysis found r and whose tool-call section is section, or "".
func toolCallAnalysisError(section string, r reasoning) string {
	if section == "" || !reJSONName.MatchString(section) {
		return "" // not JSON_NATIVE: the other formats are analyzed without parsing JSON
	}
	// the reasoning markers are removed (their first occurrence each)
	clean := removeReasoningMarkers(section, r)
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
	return llamacpp.NlohmannParse(cut)
}
