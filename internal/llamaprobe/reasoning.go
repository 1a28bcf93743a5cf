package llamaprobe

import (
	"regexp"
	"strings"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// The reasoning analysis of llama.cpp's generic handler (chat-diff-analyzer.cpp
// analyze_reasoning): the template is rendered on probe conversations with and without
// reasoning, and with thinking off and on, and the differences are searched for the
// markers around reasoning. It decides whether the template supports thinking, which is
// what enable_thinking defaults to.

const (
	userMsg      = "U_USER_MSG Hello END_U"
	assistantMsg = "A_ASST_MSG I can help END_A"
	thinkingMsg  = "REASON_PART I am thinking END_R"
)

// reasoning is what the analysis found.
type reasoning struct {
	mode       string // "none", "tag_based" or "tools_only"
	start, end string
}

// A marker is <...> or [...]; reasoning markers are searched around the probe's
// reasoning text.
const markerRE = `(?:<[^>]*>|\[[^\]]*\])`

// ws is Python's \s on ASCII text.
const ws = `[ \t\n\v\f\r]`

var (
	reBoth = regexp.MustCompile(`(` + markerRE + ws + `*)` + regexp.QuoteMeta(thinkingMsg) + `(` + ws + `*` + markerRE + ws + `*)`)
	reEnd  = regexp.MustCompile(regexp.QuoteMeta(thinkingMsg) + ws + `*(` + markerRE + ws + `*)?`)
	// R3's first pattern allows whitespace only between the text and the end marker
	reTools = regexp.MustCompile(`(` + markerRE + ws + `*)` + regexp.QuoteMeta(thinkingMsg) + ws + `*(` + markerRE + ws + `*)`)
)

// probeTokens are the bos and eos tokens the autoparser's probes render with: the
// model's (llama.cpp renders them with the template's own tokens).
type probeTokens struct{ bos, eos string }

// applyProbe renders raw probe messages as the autoparser does (no request handling):
// messages, the bos and eos tokens, enable_thinking, tools when given, and
// add_generation_prompt only when true, rendered as llama.cpp's engine renders (probe
// mode, whose statistics are not read here). ok is false when the render fails.
func applyProbe(t *ir.Template, tok probeTokens, messages, tools string, agp, thinking bool) (string, bool) {
	vars := jinja2.NewDict(6)
	vars.SetStr("messages", mustJSON(messages))
	vars.SetStr("bos_token", jinja2.Str(tok.bos))
	vars.SetStr("eos_token", jinja2.Str(tok.eos))
	vars.SetStr("enable_thinking", jinja2.Bool(thinking))
	if tools != "" {
		vars.SetStr("tools", mustJSON(tools))
	}
	if agp {
		vars.SetStr("add_generation_prompt", jinja2.Bool(true))
	}
	out, err := render(t, vars, newProbe())
	return out, err == nil
}

// autoTools are the two tools of the autoparser's probes.
const autoTools = `[
	{"type": "function", "function": {"name": "FFF_FIRST_FUN_F", "description": "Test function foo", "parameters": {"type": "object",
		"properties": {"AA_ARG_FST_AA": {"type": "string", "description": "First argument"}, "BB_ARG_SND_BB": {"type": "string", "description": "Second argument"}}, "required": []}}},
	{"type": "function", "function": {"name": "SSS_SECOND_FUN_S", "description": "Test function bar", "parameters": {"type": "object",
		"properties": {"AA_ARG_FST_AA": {"type": "string", "description": "First argument"}, "BB_ARG_SND_BB": {"type": "string", "description": "Second argument"}}, "required": []}}}]`

// analyzeReasoning is analyze_reasoning (see reasoningWorkarounds for what follows).
func analyzeReasoning(t *ir.Template, tok probeTokens, toolCalls bool) reasoning {
	r := reasoning{mode: "none"}
	user := `{"role": "user", "content": "` + userMsg + `"}`

	// R1: reasoning_content on a past assistant turn, absent vs present
	a, okA := applyProbe(t, tok, `[`+user+`, {"role": "assistant", "content": "`+assistantMsg+`"}]`, "", false, true)
	b, okB := applyProbe(t, tok, `[`+user+`, {"role": "assistant", "content": "`+assistantMsg+`", "reasoning_content": "`+thinkingMsg+`"}]`, "", false, true)
	if okA && okB {
		d := diffSplit(a, b)
		if d.right != "" && strings.Contains(d.right, thinkingMsg) {
			if m := reBoth.FindStringSubmatch(b); m != nil {
				r = reasoning{mode: "tag_based", start: m[1], end: m[2]}
			} else if m := reEnd.FindStringSubmatch(b); m != nil && m[1] != "" {
				r.mode, r.end = "tag_based", m[1]
			}
		}
	}

	// R2: the generation prompt with thinking off vs on
	off, okA := applyProbe(t, tok, `[`+user+`]`, "", true, false)
	on, okB := applyProbe(t, tok, `[`+user+`]`, "", true, true)
	if okA && okB {
		d := diffSplit(off, on)
		lt, rt := trimSpace(d.left), trimSpace(d.right)
		switch {
		case lt == "" && d.right != "":
			if rt != "" && strings.HasSuffix(on, rt) && r.start == "" {
				r.start, r.mode = d.right, "tag_based"
			}
		case rt == "" && d.left != "":
			if lt != "" && strings.HasSuffix(off, lt) && r.end == "" {
				var segs []segment
				for _, s := range segmentize(off) {
					if trimSpace(s.text) != "" {
						segs = append(segs, s)
					}
				}
				if n := len(segs); n >= 2 && segs[n-1].text == lt && segs[n-2].marker {
					r.start = segs[n-2].text
				}
				r.end, r.mode = d.left, "tag_based"
			}
		case lt != "" && rt != "":
			for _, pair := range [][2]string{{on, off}, {off, on}} {
				base, ext := pair[0], pair[1]
				n := min(len(base), 64)
				anchor := base[len(base)-n:]
				pos := strings.LastIndex(ext, anchor)
				if pos < 0 || pos+n >= len(ext) {
					continue
				}
				extra := trimSpace(ext[pos+n:])
				if extra == "" {
					continue
				}
				var segs []segment
				for _, s := range segmentize(extra) {
					if trimSpace(s.text) != "" {
						segs = append(segs, s)
					}
				}
				if len(segs) == 2 && segs[0].marker && segs[1].marker {
					if r.start == "" {
						r.start = segs[0].text
					}
					if r.end == "" {
						r.end = segs[1].text
					}
					r.mode = "tag_based"
					break
				}
			}
		}
		if r.mode == "none" && r.start == "" && r.end != "" {
			r.mode = "tag_based"
		}
	}

	// R3: reasoning shown only next to tool calls
	if toolCalls {
		call := `{"id": "call00001", "type": "function", "function": {"name": "FFF_FIRST_FUN_F", "arguments": {"AA_ARG_FST_AA": "VVVV", "BB_ARG_SND_BB": "XXXX"}}}`
		a, okA := applyProbe(t, tok, `[`+user+`, {"role": "assistant", "content": "`+assistantMsg+`", "reasoning_content": "`+thinkingMsg+`"}]`, autoTools, false, true)
		b, okB := applyProbe(t, tok, `[`+user+`, {"role": "assistant", "content": null, "reasoning_content": "`+thinkingMsg+`", "tool_calls": [`+call+`]}]`, autoTools, false, true)
		if okA && okB && !strings.Contains(a, thinkingMsg) && strings.Contains(b, thinkingMsg) {
			r.mode = "tools_only"
			if m := reTools.FindStringSubmatch(b); m != nil {
				r.start, r.end = m[1], m[2]
			} else if m := reEnd.FindStringSubmatch(b); m != nil {
				r.end = m[1]
			} else {
				r.mode = "none"
			}
		}
	}

	return r
}

// reasoningWorkarounds are the autoparser's workarounds that touch reasoning, which run
// after the whole analysis (the tool-call analysis sees the reasoning before them).
func reasoningWorkarounds(src string, r reasoning) reasoning {
	has := func(s string) bool { return strings.Contains(src, s) }
	if has("content.split('</think>')") && !has("reasoning_content") && !has("<SPECIAL_12>") && r.mode == "none" {
		r = reasoning{mode: "tag_based", start: "<think>", end: "</think>"}
	}
	if has("Write your thoughts between <think></think> and write your response between <response></response>") {
		r = reasoning{mode: "tag_based", start: "<think>", end: "</think>"}
	}
	if has("<SPECIAL_10>") && has("<SPECIAL_11>") && has("<SPECIAL_12>") && has("<TOOL_RESPONSE>") {
		r = reasoning{mode: "tag_based", start: "<think>\n", end: "</think>"}
	}
	if has("laguna_glm_thinking") {
		r.start, r.end = trimSpace(r.start), trimSpace(r.end)
	}
	return r
}

// segment is a piece of text: a marker (<...> or [...]) or the text between markers.
type segment struct {
	marker bool
	text   string
}

// segmentize is chat-auto-parser-helpers.cpp segmentize_markers.
func segmentize(text string) []segment {
	var out []segment
	inMarker, opener, last := false, byte(0), 0
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case !inMarker && (ch == '<' || ch == '['):
			if last < i {
				out = append(out, segment{false, text[last:i]})
			}
			last, inMarker, opener = i, true, ch
		case inMarker && (opener == '<' && ch == '>' || opener == '[' && ch == ']'):
			out = append(out, segment{true, text[last : i+1]})
			last, inMarker, opener = i+1, false, 0
		}
	}
	if last < len(text) {
		out = append(out, segment{false, text[last:]})
	}
	return out
}

// diff is what calculate_diff_split returns.
type diff struct {
	prefix, suffix, left, right string
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// diffSplit is chat-auto-parser-helpers.cpp calculate_diff_split: both texts are cut
// into segments, equal segments are consumed from both ends, then the common prefix and
// suffix of the remaining text is removed.
func diffSplit(left, right string) diff {
	L, R := segmentize(left), segmentize(right)
	if len(L) == 0 {
		return diff{right: right}
	}
	if len(R) == 0 {
		return diff{left: left}
	}
	ls, le, rs, re := 0, len(L)-1, 0, len(R)-1
	var prefix, suffix string
	lfc, rfc := false, false
	for ls != le && rs != re {
		advanced := false
		if L[ls] == R[rs] {
			prefix += L[ls].text
			ls++
			rs++
			advanced = true
		}
		if L[le] == R[re] {
			suffix = L[le].text + suffix
			if ls != le {
				le--
			} else {
				lfc = true
			}
			if rs != re {
				re--
			} else {
				rfc = true
			}
			advanced = true
		}
		if !advanced {
			break
		}
	}
	switch {
	case ls == le && rs != re:
		if L[ls] == R[re] {
			suffix = R[re].text + suffix
			re--
			lfc = true
		} else if L[ls] == R[rs] {
			prefix += R[rs].text
			rs++
			lfc = true
		}
	case rs == re && ls != le:
		if L[le] == R[rs] {
			suffix = L[le].text + suffix
			le--
			rfc = true
		} else if L[ls] == R[rs] {
			prefix += L[ls].text
			ls++
			rfc = true
		}
	case ls == le && rs == re && L[ls] == R[rs] && L[ls].marker:
		prefix += R[rs].text
		lfc, rfc = true, true
	}
	textSuffix := !L[le].marker && !R[re].marker
	textPrefix := !R[rs].marker && !L[ls].marker
	join := func(segs []segment, from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			b.WriteString(segs[i].text)
		}
		return b.String()
	}
	lEnd, rEnd := le+1, re+1
	if lfc {
		lEnd = le
	}
	if rfc {
		rEnd = re
	}
	remL, remR := join(L, ls, lEnd), join(R, rs, rEnd)
	sl := 0
	if textSuffix {
		sl = commonSuffix(remL, remR)
	}
	pl := 0
	if textPrefix {
		pl = commonPrefix(remL[:len(remL)-sl], remR[:len(remR)-sl])
	}
	prefix += remL[:pl]
	suffix = remL[len(remL)-sl:] + suffix
	d := diff{prefix: prefix, suffix: suffix, left: remL[pl : len(remL)-sl], right: remR[pl : len(remR)-sl]}
	if d.left == "" && d.right == "" {
		d.prefix, d.suffix = left, ""
	}
	if d.left == "" && d.right != "" && len(left) <= len(right) && strings.HasPrefix(right, left) {
		d.prefix, d.suffix, d.right = left, "", right[len(left):]
	}
	return d
}
