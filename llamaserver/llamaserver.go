// Package llamaserver renders the prompt llama.cpp's llama-server (b10587) builds for a
// request, in POST /apply-template and /v1/chat/completions, with a compiled template:
// it rewrites the messages and tools according to the template's capabilities
// (llamacpp.Capabilities, computed when the template was compiled: developer role to
// system, a system message merged into the next one where the template has no system
// role, typed content joined or kept, null content as "", tool-call arguments as
// objects or strings, llama.cpp's key order and fields, empty reasoning_content
// dropped), validates llama-server's own fields (tool_choice, reasoning_format,
// response_format...) with its errors, defines enable_thinking, date_string and
// datetime, continues a final assistant message (or the final message
// ContinueFinalMessage names) as llama.cpp does, and post-processes the prompt (a
// leading bos_token and a trailing eos_token removed when AddBOS and AddEOS say the
// tokenizer adds them). A template llama-server would not start with (llama.cpp's
// parser rejects it, its tool-call analysis throws, or the render of its load-time
// thinking probe fails) gets that error for every request.
//
// A service that renders as transformers does (tmplgen's Template.Render) does not
// compile this package in. Render, like Template.Render, is safe from many goroutines
// at once and never modifies its input.
package llamaserver

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/internal/pystr"
)

// Server is a llama-server's configuration: the options of its command line that change
// the prompts it builds. The zero Server is llama-server started with its defaults
// (--jinja, --reasoning auto, --prefill-assistant); the package's functions Render,
// AppendRender and Vars render as it does. Options that only shape the answer
// (--reasoning-format, --reasoning-budget, sampling) are not here.
type Server struct {
	// ReasoningOff is --reasoning off: enable_thinking starts false for every template,
	// where --reasoning on and auto (the default) start it at whether the template
	// supports thinking (Capabilities.Thinking). A request's
	// chat_template_kwargs.enable_thinking overrides either.
	ReasoningOff bool
	// NoPrefillAssistant is --no-prefill-assistant: a final assistant message is a
	// message the template renders like the others, not one llama-server continues
	// (a request's continue_final_message still continues it).
	NoPrefillAssistant bool
	// ChatTemplateKwargs is --chat-template-kwargs: template variables every request
	// gets, each replaced by a request's chat_template_kwargs of its name.
	ChatTemplateKwargs map[string]tmplgen.Value
}

// Vars returns the template variables the default server (Server{}) defines for in; see
// Server.Vars.
func Vars(t *tmplgen.Template, in *tmplgen.Input) (*jinja2.Dict, error) {
	return new(Server).Vars(t, in)
}

// Render returns the prompt the default server (Server{}) builds for in with template t.
func Render(t *tmplgen.Template, in *tmplgen.Input) (string, error) {
	return new(Server).Render(t, in)
}

// AppendRender appends the prompt the default server (Server{}) builds for in with
// template t to dst; see Server.AppendRender.
func AppendRender(dst []byte, t *tmplgen.Template, in *tmplgen.Input) ([]byte, error) {
	return new(Server).AppendRender(dst, t, in)
}

// RenderSegments returns the prompt the default server (Server{}) builds for in with
// template t, and its segments; see Server.AppendRenderSegments.
func RenderSegments(t *tmplgen.Template, in *tmplgen.Input) (string, []tmplgen.Segment, error) {
	b, segs, err := new(Server).AppendRenderSegments(nil, nil, t, in)
	return string(b), segs, err
}

// Vars returns the template variables s's request handling defines for in, in the order
// llama.cpp defines them; Render renders the template with exactly these
// (Template.AppendRenderLlama), then post-processes the prompt. It is what another Jinja
// engine needs to be given to compare with Render. The variables share the values of in
// that llama.cpp would build the same (its messages and tools when they are already in
// llama.cpp's shape): change a copy of them, not them. An error is a *tmplgen.Error (what
// llama-server answers instead of a prompt).
func (s *Server) Vars(t *tmplgen.Template, in *tmplgen.Input) (*jinja2.Dict, error) {
	tok, err := modelTokens(t, in)
	if err != nil {
		return nil, err
	}
	rw := new(llamaRewrite)
	rw.bos, rw.eos, rw.addBOS, rw.addEOS = tok.bos, tok.eos, tok.addBOS, tok.addEOS
	if err := s.rewrite(rw, t, in); err != nil {
		return nil, err
	}
	return rw.vars.dict(), nil
}

// Render returns the prompt s builds for in with template t.
func (s *Server) Render(t *tmplgen.Template, in *tmplgen.Input) (string, error) {
	b, err := s.AppendRender(nil, t, in)
	return string(b), err
}

// AppendRender renders the prompt s builds for in with template t, appending it to dst;
// in is never modified. An error is a *tmplgen.Error: what llama-server answers instead
// of a prompt, or the template's own failure.
func (s *Server) AppendRender(dst []byte, t *tmplgen.Template, in *tmplgen.Input) ([]byte, error) {
	return s.appendRequest(dst, t, in, nil)
}

// AppendRenderSegments is AppendRender that also appends to segs the segments of the
// prompt (offsets in out), as tmplgen.Template.AppendRenderSegments does. What
// llama-server adds to the rendered prompt keeps its origin: a removed BOS or EOS
// takes its bytes with it, <|end|> replacing gpt-oss's final <|return|> is markup
// when that was, Gemma 4's added generation prompt is markup; of the text appended to
// continue a final message, the markers (the handler's and the template's generation
// prompt) are markup and the continued reasoning and content data.
func (s *Server) AppendRenderSegments(dst []byte, segs []tmplgen.Segment, t *tmplgen.Template, in *tmplgen.Input) ([]byte, []tmplgen.Segment, error) {
	markup := markupPool.Get().(*[]jinja2.ByteRange)
	defer markupPool.Put(markup)
	out, err := s.appendRequest(dst, t, in, markup)
	if err != nil {
		return dst, segs, err
	}
	return out, tmplgen.AppendSegments(segs, len(dst), len(out), *markup), nil
}

// appendRequest is AppendRender; when markup is not nil, it is set to the ranges of the
// prompt that are template text.
func (s *Server) appendRequest(dst []byte, t *tmplgen.Template, in *tmplgen.Input, markup *[]jinja2.ByteRange) ([]byte, error) {
	tok, err := modelTokens(t, in)
	if err != nil {
		return dst, err
	}
	if err := loadError(t, tok.bos, tok.eos, in); err != nil {
		return dst, err
	}
	return s.appendRender(dst, t, in, tok, markup)
}

// modelTokens returns in's bos_token and eos_token, and whether the tokenizer adds
// them, as t.ModelInput(in, "bos_token", "eos_token") gives them (the model's where in
// lacks them), without its copy of in.
func modelTokens(t *tmplgen.Template, in *tmplgen.Input) (tokenizer, error) {
	if t == nil || in == nil {
		_, err := t.LacksTokens(in) // its error
		return tokenizer{}, err
	}
	bos, hasBOS := in.SpecialTokens["bos_token"]
	eos, hasEOS := in.SpecialTokens["eos_token"]
	if !hasBOS || !hasEOS {
		// ModelInput copies all of the model's tokens when it copies in
		copied, err := t.LacksTokens(in, "bos_token", "eos_token")
		if err != nil {
			return tokenizer{}, err
		}
		if copied && !hasBOS {
			bos = t.Tokens["bos_token"]
		}
		if copied && !hasEOS {
			eos = t.Tokens["eos_token"]
		}
	}
	return tokenizer{bos, eos, in.AddBOS || t.AddBOS, in.AddEOS || t.AddEOS}, nil
}

// A tokenizer is the bos_token and eos_token of a render, and whether the model's
// tokenizer adds them (see Input.AddBOS).
type tokenizer struct {
	bos, eos       string
	addBOS, addEOS bool
}

// markupPool recycles the lists of template-text ranges renders with segments fill.
var markupPool = sync.Pool{New: func() any { return new([]jinja2.ByteRange) }}

// appendRender is AppendRender of a template llama-server has loaded, with in's special
// tokens bos and eos; when markup is not nil, it is set to the ranges of the prompt that
// are template text.
func (s *Server) appendRender(dst []byte, t *tmplgen.Template, in *tmplgen.Input, tok tokenizer, markup *[]jinja2.ByteRange) ([]byte, error) {
	rw := rewritePool.Get().(*llamaRewrite)
	defer rw.release()
	rw.bos, rw.eos, rw.addBOS, rw.addEOS = tok.bos, tok.eos, tok.addBOS, tok.addEOS
	if err := s.rewrite(rw, t, in); err != nil {
		return dst, err
	}
	start := len(dst)
	var own continuation // the handler's continuation of a continued final message
	if rw.cont != tmplgen.ContinueNone {
		own = ownContinuations[t.Caps.Handler]
	}
	var out []byte
	var err error
	if rw.cont != tmplgen.ContinueNone && markup == nil && own == nil {
		out, err = rw.applyContinued(t, dst, in)
	} else {
		out, err = llamaApply(t, dst, rw, in, rw.agp, markup)
	}
	if err != nil {
		return dst, err
	}
	if err := grammarRefusal(t, rw.tools, rw.toolChoice, rw.schema); err != nil {
		return dst, err
	}
	// splice replaces the prompt's bytes [at, at+del) by ins, markup or not
	splice := func(at, del int, ins string, isMarkup bool) {
		tail := append([]byte(ins), out[at+del:]...)
		out = append(out[:at], tail...)
		if markup != nil {
			*markup = jinja2.SpliceMarkup(*markup, at, del, len(ins), isMarkup)
		}
	}
	switch t.Caps.Handler {
	case "gpt_oss":
		// the last <|return|> of a prompt without generation prompt becomes <|end|>
		if i := bytes.LastIndex(out[start:], []byte("<|return|>")); !rw.agp && i >= 0 {
			i += start
			isMarkup := markup != nil && jinja2.MarkupCovers(*markup, i, i+len("<|return|>"))
			splice(i, len("<|return|>"), "<|end|>", isMarkup)
		}
	case "gemma4":
		if rw.agp && bytes.HasSuffix(out[start:], []byte("<turn|>\n")) {
			splice(len(out), 0, "<|turn>model\n", true)
		}
	}
	if rw.cont == tmplgen.ContinueNone {
		return out, nil
	}
	tail := promptTail{out: out, markup: markup}
	if err := continuationPrompt(t, rw, in, out[start:], own, &tail); err != nil {
		return dst, err
	}
	return tail.out, nil
}

// A promptTail appends text to a prompt, and when markup is not nil the ranges of it
// that are template text to *markup.
type promptTail struct {
	out    []byte
	markup *[]jinja2.ByteRange
}

// lit appends s, template text.
func (p *promptTail) lit(s string) {
	if p.markup != nil {
		*p.markup = jinja2.AppendRange(*p.markup, len(p.out), len(p.out)+len(s))
	}
	p.out = append(p.out, s...)
}

// data appends s, which the request gives.
func (p *promptTail) data(s string) { p.out = append(p.out, s...) }

// reasoning appends the markers open and close around m's reasoning, and m's content
// after them when content is set; without it, the reasoning is left open.
func (p *promptTail) reasoning(m *llamaMsg, content bool, open, close string) {
	p.lit(open)
	p.data(m.reasoning)
	if content {
		p.lit(close)
		p.data(m.renderContent())
	}
}

// text appends b, of which the ranges markup (of b, in order) are template text.
func (p *promptTail) text(b []byte, markup []jinja2.ByteRange) {
	if p.markup != nil {
		for _, r := range markup {
			*p.markup = jinja2.AppendRange(*p.markup, len(p.out)+r.Start, len(p.out)+min(r.End, len(b)))
		}
	}
	p.out = append(p.out, b...)
}

// llamaApply is llama.cpp's common_chat_template_direct_apply: a render of the
// rewritten variables, with add_generation_prompt defined as true when agp says so, and
// a leading bos_token and trailing eos_token removed when the tokenizer adds them.
//
// When markup is not nil, it is set to the ranges of the prompt that are template text.
func llamaApply(t *tmplgen.Template, dst []byte, rw *llamaRewrite, in *tmplgen.Input, agp bool, markup *[]jinja2.ByteRange) ([]byte, error) {
	out, err := llamaRender(t, dst, rw, agp, in, markup, nil)
	if err != nil {
		return dst, err
	}
	return rw.trimTokens(out, len(dst), markup), nil
}

// llamaRender is llamaApply without the removal of the tokens; when tail is not nil, it
// is set to where the template's generation prompt starts (Template.AppendRenderLlama).
func llamaRender(t *tmplgen.Template, dst []byte, rw *llamaRewrite, agp bool, in *tmplgen.Input, markup *[]jinja2.ByteRange, tail *int) ([]byte, error) {
	vars := &rw.vars
	if agp && !rw.agp {
		// add_generation_prompt is true for this render only
		vars.forceAGP = true
		defer func() { vars.forceAGP = false }()
	}
	return t.AppendRenderLlama(dst, vars, in, markup, tail, &rw.w)
}

// trimTokens removes from the render out[start:] a leading bos_token and a trailing
// eos_token when the tokenizer adds them (rw.addBOS, rw.addEOS); markup, when not nil,
// follows.
func (rw *llamaRewrite) trimTokens(out []byte, start int, markup *[]jinja2.ByteRange) []byte {
	if rw.addBOS && bytes.HasPrefix(out[start:], []byte(rw.bos)) {
		out = append(out[:start], out[start+len(rw.bos):]...)
		if markup != nil {
			*markup = jinja2.SpliceMarkup(*markup, start, len(rw.bos), 0, false)
		}
	}
	if rw.addEOS && bytes.HasSuffix(out[start:], []byte(rw.eos)) {
		out = out[:len(out)-len(rw.eos)]
		if markup != nil {
			*markup = jinja2.SpliceMarkup(*markup, len(out), len(rw.eos), 0, false)
		}
	}
	return out
}

// applyContinued is llamaApply of the prompt before a continued final message, for a
// handler that continues it after the template's generation prompt (generationPrompt).
// It renders first what that needs, the render with the generation prompt, into
// rw.scratch (rw.with). Of a template whose generation prompt is its last statement,
// on which nothing before depends (jinja2.Writer.MarkGenerationPrompt), that one render
// holds the prompt as well, up to the mark: the prompt needs no render of its own.
func (rw *llamaRewrite) applyContinued(t *tmplgen.Template, dst []byte, in *tmplgen.Input) ([]byte, error) {
	tail := -1
	with, err := llamaRender(t, rw.scratch[:0], rw, true, in, nil, &tail)
	if err != nil {
		// the prompt's own error comes first, as it did when it rendered first
		rw.with = prerendered{done: true, err: err}
		return llamaApply(t, dst, rw, in, rw.agp, nil)
	}
	rw.scratch = with // its room for the next rewrite
	// (a kwarg of that name is what the prompt renders with)
	given := rw.vars.has("add_generation_prompt")
	marked := tail >= 0 && !given
	var out []byte
	if marked { // the prefix first: trimming with moves its bytes
		out = rw.trimTokens(append(dst, with[:tail]...), len(dst), nil)
	}
	rw.with = prerendered{done: true, text: rw.trimTokens(with, 0, nil)}
	if !marked {
		return llamaApply(t, dst, rw, in, rw.agp, nil)
	}
	return out, nil
}

// prerendered is the render with the generation prompt when applyContinued has made it:
// its text (trimmed as llamaApply trims it) or its error.
type prerendered struct {
	done bool
	text []byte
	err  error
}

// generationPrompt is common_chat_template_generation_prompt: what the template adds
// for the generation prompt, as the difference of the renders without (prompt) and with
// it. The text is in rw.scratch, which it is valid until rw is released; when tracked,
// markup is its template text (ranges of text, in order).
func generationPrompt(t *tmplgen.Template, rw *llamaRewrite, in *tmplgen.Input, prompt []byte, tracked bool) (text []byte, markup []jinja2.ByteRange, err error) {
	var withMarkup *[]jinja2.ByteRange
	if tracked {
		withMarkup = new([]jinja2.ByteRange)
	}
	var with []byte
	if rw.with.done {
		with, err = rw.with.text, rw.with.err
	} else {
		with, err = llamaApply(t, rw.scratch[:0], rw, in, true, withMarkup)
		rw.scratch = with // its room for the next rewrite
	}
	if err != nil {
		return nil, nil, err
	}
	n := 0
	for n < len(prompt) && n < len(with) && prompt[n] == with[n] {
		n++
	}
	if tracked {
		for _, r := range *withMarkup {
			if r.End > n {
				markup = jinja2.AppendRange(markup, max(r.Start, n)-n, r.End-n)
			}
		}
	}
	return with[n:], markup, nil
}

// continuationPrompt appends to tail what llama.cpp appends to the prompt of
// messages[:-1] to continue the final message (common_chat_templates_apply_jinja and
// each handler's continuation block): the generation prompt, the reasoning markers and
// the continued reasoning, and the content when the content is continued. prompt is
// the prompt of messages[:-1]; own is the handler's continuation (ownContinuations), nil
// for one that continues after the generation prompt.
//
// Its markers are markup (the handler's, the template's generation prompt); the
// continued reasoning and content are data.
func continuationPrompt(t *tmplgen.Template, rw *llamaRewrite, in *tmplgen.Input, prompt []byte, own continuation, tail *promptTail) error {
	m, content := rw.contMsg, rw.cont == tmplgen.ContinueContent
	if own != nil {
		*tail = own(t, m, content, prompt, *tail)
		return nil
	}
	gen, markup, err := generationPrompt(t, rw, in, prompt, tail.markup != nil)
	if err != nil {
		return err
	}
	if t.Caps.Handler == "minimax_m3" {
		tail.text(gen, markup)
		tail.reasoning(m, content, "<mm:think>", "</mm:think>")
		return nil
	}
	// the generic handler (peg_generator::generate_parser); the reasoning markers are
	// the template's (Capabilities)
	if start := t.Caps.ReasoningStart; start != "" {
		if i := bytes.Index(gen, []byte(start)); i >= 0 {
			gen = gen[:i]
		}
		tail.text(gen, markup)
		tail.lit(start)
		tail.data(m.reasoning)
		if content {
			tail.lit(t.Caps.ReasoningEnd)
		}
	} else {
		tail.text(gen, markup)
	}
	if content {
		tail.data(m.renderContent())
	}
	return nil
}

// A continuation returns tail with what a handler of llama.cpp's appends to the prompt
// (before it) to continue the final message m: its own markers, the reasoning, and the
// content when content is set. (It takes and returns tail as a value: a pointer given to
// a function the compiler cannot see would move tail to the heap.)
type continuation func(t *tmplgen.Template, m *llamaMsg, content bool, prompt []byte, tail promptTail) promptTail

// ownContinuations are the handlers whose continuation of a final message is markers of
// their own, without the template's generation prompt.
var ownContinuations = map[string]continuation{
	"ministral_3":      reasoningContinuation("[THINK]", "[/THINK]"),
	"qwen3_coder":      qwen3CoderContinuation,
	"gpt_oss":          reasoningContinuation("<|start|>assistant<|channel|>analysis<|message|>", "<|end|><|start|>assistant<|channel|>final<|message|>"),
	"gemma4":           gemma4Continuation,
	"functionary_v3_2": markerContinuation("<|start_header_id|>assistant<|end_header_id|>\n\n>>>all\n"),
	"kimi_k2":          reasoningContinuation("<|im_assistant|>assistant<|im_middle|><think>", "</think>"),
	"kimi_k3":          reasoningContinuation(`<|open|>message role="assistant"<|sep|><|open|>think<|sep|>`, "<|close|>think<|sep|><|open|>response<|sep|>"),
	"muse_glimmer":     reasoningContinuation("<|start|>assistant to=self<|message|>", "<|eom|><|start|>assistant to=user<|message|>"),
	"lfm2":             reasoningContinuation("<|im_start|>assistant\n<think>", "</think>"),
	"lfm2_5":           reasoningContinuation("<|im_start|>assistant\n<think>", "</think>"),
	"gigachat_v3":      markerContinuation("assistant<|role_sep|>\n"),
	"deepseek_v3_2":    deepSeekContinuation,
	"cohere2moe":       reasoningContinuation("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|><|START_THINKING|>", "<|END_THINKING|><|START_TEXT|>"),
	"minicpm5":         reasoningContinuation("<|im_start|>assistant\n<think>\n", "\n</think>\n\n"),
}

// reasoningContinuation is the continuation that opens the reasoning with open and,
// before the content, closes it with close.
func reasoningContinuation(open, close string) continuation {
	return func(_ *tmplgen.Template, m *llamaMsg, content bool, _ []byte, tail promptTail) promptTail {
		tail.reasoning(m, content, open, close)
		return tail
	}
}

// markerContinuation is the continuation that writes marker, then the content (without
// the reasoning).
func markerContinuation(marker string) continuation {
	return func(_ *tmplgen.Template, m *llamaMsg, _ bool, _ []byte, tail promptTail) promptTail {
		tail.lit(marker)
		tail.data(m.renderContent())
		return tail
	}
}

// qwen3CoderContinuation is the qwen3_coder handler's continuation: the reasoning only
// when the template thinks.
func qwen3CoderContinuation(t *tmplgen.Template, m *llamaMsg, content bool, _ []byte, tail promptTail) promptTail {
	tail.lit("<|im_start|>assistant\n")
	if t.Caps.Thinking {
		tail.lit("<think>\n")
		tail.data(m.reasoning)
		if content {
			tail.lit("\n</think>\n\n")
		}
	}
	if content {
		tail.data(m.renderContent())
	}
	return tail
}

// gemma4Continuation is the gemma4 handler's: the model's turn opened when the prompt
// closed a turn.
func gemma4Continuation(_ *tmplgen.Template, m *llamaMsg, content bool, prompt []byte, tail promptTail) promptTail {
	if bytes.HasSuffix(prompt, []byte("<turn|>\n")) {
		tail.lit("<|turn>model\n")
	}
	tail.reasoning(m, content, "<|channel>thought\n", "<channel|>")
	return tail
}

// deepSeekContinuation is the deepseek_v3_2 handler's: DeepSeek V4 (SortToolResults)
// closes the reasoning it is not given.
func deepSeekContinuation(t *tmplgen.Template, m *llamaMsg, content bool, _ []byte, tail promptTail) promptTail {
	if !t.Caps.SortToolResults || m.reasoning != "" {
		tail.reasoning(m, content, "<｜Assistant｜><think>", "</think>")
		return tail
	}
	tail.lit("<｜Assistant｜></think>")
	if content {
		tail.data(m.renderContent())
	}
	return tail
}

// llamaRewrite is a request as llama-server hands it to the template.
type llamaRewrite struct {
	agp      bool // add_generation_prompt
	bos, eos string
	// addBOS and addEOS: the tokenizer adds bos and eos, which the prompt drops
	addBOS, addEOS bool
	// cont is ContinueContent or ContinueReasoning when contMsg, the final message
	// (in msgs, left out of vars), is continued; ContinueNone otherwise.
	cont    tmplgen.Continuation
	contMsg *llamaMsg
	// schema is the request's JSON schema of the answer (json_schema,
	// response_format), undefined when there is none; tools and toolChoice are the
	// request's, which with it make the grammar (grammar.go)
	schema     jinja2.Value
	tools      jinja2.Value
	toolChoice string

	// the storage of the rewrite, kept between renders (rewritePool)
	fields  []messageFields // the request's messages' fields
	msgs    []llamaMsg      // the parsed messages
	parts   []llamaPart     // their content parts
	calls   []llamaCall     // and tool calls
	jm      []*jinja2.Dict  // the messages as the template sees them
	arena   jinja2.Arena    // the storage of those made anew (toJSON), and of their list (its chunk kept)
	vars    llamaVars       // the template's variables
	scratch []byte          // the render with the generation prompt (generationPrompt)
	with    prerendered     // that render, when applyContinued has made it (in scratch)
	w       jinja2.Writer   // what the renders write with, zero between them
}

// rewritePool recycles the storage of rewrites between renders.
var rewritePool = sync.Pool{New: func() any { return new(llamaRewrite) }}

// maxPooledMessages is the most messages a rewrite kept in rewritePool has room for:
// a very long conversation's storage is left to the garbage collector.
const maxPooledMessages = 1024

// maxPooledScratch is the largest scratch buffer a rewrite kept in rewritePool holds.
const maxPooledScratch = 1 << 20

// release empties rw, which references the request no more, and puts it back in
// rewritePool: its storage (the slices, the dict, the arena and the scratch buffer) is kept, empty,
// the rest is zero (TestReleaseForgets), field by field: writing a whole llamaRewrite
// costs as much as the rest of the release.
func (rw *llamaRewrite) release() {
	clearFew(rw.fields)
	clearFew(rw.msgs)
	clearFew(rw.jm)
	if len(rw.parts)+len(rw.calls) > 0 {
		clear(rw.parts)
		clear(rw.calls)
	}
	rw.vars.reset()
	rw.fields, rw.msgs, rw.parts, rw.calls, rw.jm = rw.fields[:0], rw.msgs[:0], rw.parts[:0], rw.calls[:0], rw.jm[:0]
	if max(cap(rw.fields), cap(rw.msgs), cap(rw.parts), cap(rw.calls)) > maxPooledMessages {
		rw.fields, rw.msgs, rw.parts, rw.calls, rw.jm = nil, nil, nil, nil, nil
	}
	rw.scratch = rw.scratch[:0]
	if cap(rw.scratch) > maxPooledScratch {
		rw.scratch = nil
	}
	rw.arena.Reset()
	rw.contMsg = nil
	rw.agp, rw.cont, rw.with = false, tmplgen.ContinueNone, prerendered{}
	rw.bos, rw.eos, rw.toolChoice = "", "", ""
	rw.addBOS, rw.addEOS = false, false
	rw.schema, rw.tools = jinja2.Value{}, jinja2.Value{}
	rewritePool.Put(rw)
}

// clearFew is clear(s), element by element when s has few (most requests' messages):
// the compiler zeroes each in place, where clear calls the runtime's memclrHasPointers
// (about 50 instructions a call, for a message or two).
func clearFew[T any](s []T) {
	if len(s) > 4 {
		clear(s)
		return
	}
	var zero T
	for i := 0; i < len(s); i++ { // not a range loop, which the compiler makes a clear
		s[i] = zero
	}
}

// llamaMsg is llama.cpp's common_chat_msg.
type llamaMsg struct {
	role, content         string
	parts                 []llamaPart
	toolCalls             []llamaCall
	reasoning, name, tcID string
	// src is the request's message it was parsed from when that is what toJSON
	// builds (the same keys in the same order, each a str of data with the message's
	// text), nil otherwise: the template can be given src itself (a common message,
	// {"role": "user", "content": "..."}, is).
	src *jinja2.Dict
}

// empty is common_chat_msg::empty: the message has nothing but its role.
func (m *llamaMsg) empty() bool {
	return m.content == "" && len(m.parts) == 0 && len(m.toolCalls) == 0 && m.reasoning == "" && m.name == "" && m.tcID == ""
}

// renderContent is common_chat_msg::render_content: the content, or the text parts
// joined by a blank line.
func (m *llamaMsg) renderContent() string {
	if m.content != "" {
		return m.content
	}
	var b strings.Builder
	for _, p := range m.parts {
		if p.typ == "text" {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// llamaPart is a typed content part (common_chat_msg_content_part): its type and text,
// its other keys dropped.
type llamaPart struct {
	typ, text string
}

// llamaCall is a tool call. Its arguments are the request's: a str, or a value of
// another type (an object), which llama-server dumps into JSON text (toJSON).
type llamaCall struct {
	name, id string
	args     jinja2.Value
}

// llamaError is an error llama-server answers with.
func llamaError(t *tmplgen.Template, format string, args ...any) *tmplgen.Error {
	return &tmplgen.Error{Kind: tmplgen.InputError, Msg: fmt.Sprintf(format, args...), Template: t.File}
}

// rewrite applies s's request handling to in (docs/llama-server.md
// sections 4.1 to 4.7); in is only read, and rw.bos and rw.eos are its special tokens
// (modelTokens).
func (s *Server) rewrite(rw *llamaRewrite, t *tmplgen.Template, in *tmplgen.Input) error {
	caps := &t.Caps
	if !caps.Known() {
		return llamaError(t, "llamaserver.Render needs the template's capabilities, which were not computed: compile %s again with this tmplgen", t.Name)
	}
	if err := staticLoadError(t); err != nil {
		return err
	}
	if msg := in.Server.JSONError; msg != "" {
		return llamaError(t, "%s", msg) // the request's text is not JSON to llama-server
	}

	// oaicompat_chat_params_parse
	schema, err := llamaResponseSchema(t, &in.Server)
	if err != nil {
		return err
	}
	rw.schema = schema
	if in.Messages.Kind() != jinja2.KindList {
		return llamaError(t, "Expected 'messages' to be an array")
	}
	items := in.Messages.Items()
	rw.fields = slices.Grow(rw.fields[:0], len(items))[:len(items)]
	for i, m := range items {
		rw.fields[i].read(m.AsDict())
	}
	if err := checkServerMessages(rw.fields); err != nil {
		return llamaError(t, "%s", err)
	}
	msgs, err := rw.parseMessages(in.Messages.Items())
	rw.msgs = msgs
	if err != nil {
		return llamaError(t, "Failed to parse messages: %v", err)
	}
	tools, err := parseLlamaTools(in.Tools)
	if err != nil {
		return llamaError(t, "Failed to parse tools: %v", err)
	}
	toolChoice := "auto"
	if tc := in.Server.ToolChoice; tc.Kind() == jinja2.KindString {
		toolChoice = str(tc)
	}
	switch toolChoice {
	case "auto", "none", "required":
	default:
		return llamaError(t, "Invalid tool_choice: %s", toolChoice)
	}
	cont, agp := in.ContinueFinalMessage, in.AddGenerationPrompt
	if v := in.Server.AddGenerationPrompt; !v.IsUndefined() {
		// json_value(body, "add_generation_prompt", true): null or another type is true
		b, isBool := v.AsBool()
		agp = b || !isBool
	}
	if v := in.Server.ContinueFinalMessage; !v.IsUndefined() {
		cont = parseContinuation(v)
	}
	if n := len(msgs); cont == tmplgen.ContinueNone && !s.NoPrefillAssistant && n > 0 && msgs[n-1].role == "assistant" {
		if n >= 2 && msgs[n-2].role == "assistant" {
			return llamaError(t, "Cannot have 2 or more assistant messages at the end of the list.")
		}
		cont, agp = tmplgen.ContinueAuto, false
	}
	if cont != tmplgen.ContinueNone && agp {
		return llamaError(t, "Cannot set both add_generation_prompt and continue_final_message to true.")
	}
	rw.agp = agp
	rw.tools, rw.toolChoice = tools, toolChoice
	if f := in.Server.ReasoningFormat; !f.IsUndefined() {
		if f.Kind() != jinja2.KindString {
			return llamaError(t, "%s", typeError302(f))
		}
		switch str(f) {
		case "none", "auto", "deepseek", "deepseek-legacy":
		default:
			return llamaError(t, "Unknown reasoning format: %s", str(f))
		}
	}
	if tools.Kind() == jinja2.KindList && toolChoice != "none" && !in.Server.Grammar.IsUndefined() {
		return llamaError(t, "Cannot use custom grammar constraints with tools.")
	}
	// chat_template_kwargs: the server's, each replaced by the request's of its name
	kwargs := in.Kwargs
	if len(s.ChatTemplateKwargs) > 0 {
		kwargs = maps.Clone(s.ChatTemplateKwargs)
		maps.Copy(kwargs, in.Kwargs)
	}
	// enable_thinking defaults to whether the template supports thinking (supports_thinking)
	// unless the server has reasoning off
	enableThinking := caps.Thinking && !s.ReasoningOff
	if v, ok := kwargs["enable_thinking"]; ok {
		switch v.Kind() {
		case jinja2.KindBool:
			enableThinking, _ = v.AsBool()
		case jinja2.KindString:
			return llamaError(t, `invalid type for "enable_thinking" (expected boolean, got string)`)
		}
	}
	// reasoning_effort (a string; another type is read as ""): "none" turns thinking off
	// and removes a reasoning_effort kwarg, another non-empty effort replaces it
	if e := in.Server.ReasoningEffort; e.Kind() == jinja2.KindString && str(e) != "" {
		kwargs = maps.Clone(kwargs)
		if kwargs == nil {
			kwargs = map[string]jinja2.Value{}
		}
		if str(e) == "none" {
			enableThinking = false
			delete(kwargs, "reasoning_effort")
		} else {
			kwargs["reasoning_effort"] = e
		}
	}

	// common_chat_templates_apply_jinja: messages[:-1] are rendered, the final message
	// is continued after them
	if n := len(msgs); cont != tmplgen.ContinueNone && n > 0 {
		m := &msgs[n-1]
		rw.contMsg, msgs = m, msgs[:n-1]
		if cont == tmplgen.ContinueAuto {
			cont = tmplgen.ContinueContent
			if m.reasoning != "" && m.content == "" && len(m.parts) == 0 {
				cont = tmplgen.ContinueReasoning
			}
		}
		if !m.empty() {
			rw.cont = cont
		}
	}
	if caps.TrimContent {
		for i := range msgs {
			m := &msgs[i]
			content, reasoning := trimASCIISpace(m.content), trimASCIISpace(m.reasoning)
			if len(content) < len(m.content) || len(reasoning) < len(m.reasoning) {
				m.src = nil // the template sees the trimmed text
			}
			m.content, m.reasoning = content, reasoning
			for j := range m.parts {
				if m.parts[j].typ == "text" {
					m.parts[j].text = trimASCIISpace(m.parts[j].text)
				}
			}
		}
	}
	onlyString := caps.StringContent && !caps.TypedContent
	onlyTyped := !caps.StringContent && caps.TypedContent
	// jm[i] is msgs[i].src, the request's own message, where toJSON gives it as it is:
	// own(i) copies it before a change
	jm := slices.Grow(rw.jm[:0], len(msgs))[:len(msgs)]
	rw.jm = jm
	var arena *jinja2.Arena // the storage of the messages made anew or copied, once one is
	store := func() *jinja2.Arena {
		if arena == nil {
			arena = &rw.arena
			arena.Expect(arenaCells(msgs))
		}
		return arena
	}
	own := func(i int) *jinja2.Dict {
		if jm[i] == msgs[i].src {
			jm[i] = store().CopyDict(jm[i], 2)
		}
		return jm[i]
	}
	for i := range msgs {
		var a *jinja2.Arena
		if msgs[i].src == nil {
			a = store()
		}
		jm[i] = msgs[i].toJSON(onlyString, caps.ObjectArguments, a)
		if onlyTyped {
			if c, _ := jm[i].GetKey(jinja2.KeyContent); c.Kind() == jinja2.KindString {
				part := jinja2.DictValue(pairDict(store(), "type", jinja2.Str("text"), "text", c))
				own(i).SetStr("content", store().NewList([]jinja2.Value{part}))
			}
		}
		if !caps.KeepDeveloperRole && msgs[i].role == "developer" { // jm[i]'s role
			own(i).SetStr("role", jinja2.Str("system"))
		}
	}
	if !caps.SystemRole && len(jm) > 0 {
		if r, _ := jm[0].GetKey(jinja2.KeyRole); jinja2.EqStr(r, "system") {
			if len(jm) > 1 {
				a, _ := jm[0].GetKey(jinja2.KeyContent)
				b, _ := jm[1].GetKey(jinja2.KeyContent)
				for _, x := range []jinja2.Value{a, b} {
					if x.Kind() != jinja2.KindString {
						return llamaError(t, "[json.exception.type_error.302] type must be string, but is %s", nlohmannType(x))
					}
				}
				own(1).SetStr("content", jinja2.Str(str(a)+"\n"+str(b)))
			}
			jm, msgs = jm[1:], msgs[1:]
		}
	}
	if caps.ObjectArguments {
		for i, m := range jm {
			if len(msgs[i].toolCalls) == 0 { // jm[i] has no tool_calls
				continue
			}
			calls, _ := m.GetKey(jinja2.KeyToolCalls)
			for _, c := range calls.Items() {
				fn, _ := c.AsDict().GetKey(jinja2.KeyFunction)
				args, _ := fn.AsDict().GetKey(jinja2.KeyArguments)
				if args.Kind() != jinja2.KindString {
					continue
				}
				v, err := llamacpp.ParseJSON(str(args), store())
				if err != nil {
					return llamaError(t, "Failed to parse tool call arguments as JSON: %v", err)
				}
				fn.AsDict().SetStr("arguments", v)
			}
		}
	}
	switch caps.Handler {
	case "gemma4":
		if caps.MergeToolResponses {
			jm = gemma4ToolResponses(jm, store())
		}
	case "ministral_3":
		for i, m := range jm {
			jm[i] = ministralMessage(m, store())
		}
	case "gpt_oss", "lfm2", "lfm2_5":
		for i, m := range jm {
			r, ok := m.GetKey(jinja2.KeyReasoningContent)
			if !ok || r.Kind() != jinja2.KindString {
				continue
			}
			m = own(i)
			m.SetStr("thinking", r)
			if calls, _ := m.GetKey(jinja2.KeyToolCalls); caps.Handler == "gpt_oss" && calls.Kind() == jinja2.KindList && len(calls.Items()) > 0 {
				m.Delete(jinja2.Str("content"))
			}
		}
	case "deepseek_v3_2":
		if caps.SortToolResults {
			sortDeepSeekToolResults(jm)
		}
	}

	// common_chat_template_direct_apply_impl: the variables, in this order
	vars := &rw.vars // empty
	vars.base[varMessages] = rw.arena.ListOfDicts(in.Messages, jm)
	// the model's special tokens are markup, a request's data
	vars.base[varBOSToken], vars.base[varEOSToken] = jinja2.Lit(rw.bos), jinja2.Lit(rw.eos)
	if in.TokensFromRequest {
		vars.base[varBOSToken], vars.base[varEOSToken] = jinja2.Str(rw.bos), jinja2.Str(rw.eos)
	}
	vars.base[varEnableThinking] = jinja2.Bool(enableThinking)
	if tools.Kind() == jinja2.KindList {
		vars.base[varTools], vars.hasTools = tools, true
	}
	day := dayOf(in.Clock())
	vars.base[varDatetime], vars.base[varDateString] = day.datetime, day.dateString
	// the kwargs, then the variables after them: a variable the kwargs do not name is
	// not among extra's keys, and is added without looking for it
	extra := &vars.extra
	if len(kwargs) > 0 {
		var room [16]string // the names, sorted, without an allocation for a few
		names := room[:0]
		for k := range kwargs {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			vars.addKwarg(k, jinja2.CopyJSON(kwargs[k]))
		}
	}
	set := func(k string, v jinja2.Value) {
		if _, ok := kwargs[k]; ok {
			extra.SetStr(k, v)
		} else {
			extra.AddStr(k, v)
		}
	}
	if e := kwargs["reasoning_effort"]; e.Kind() == jinja2.KindString && str(e) != "" {
		if _, ok := kwargs["reasoning_strength"]; !ok {
			// llama.cpp binds a reasoning_effort to reasoning_strength too, before the
			// variables (caps_apply_reasoning_effort), so a reasoning_strength kwarg wins
			extra.AddStr("reasoning_strength", e)
		}
	}
	if caps.Handler == "deepseek_v3_2" && caps.SortToolResults && schema.Kind() == jinja2.KindDict {
		// DeepSeek V4 writes the response schema into the prompt
		set("response_format", schema)
	}
	if rw.agp {
		if _, ok := kwargs["add_generation_prompt"]; ok {
			extra.SetStr("add_generation_prompt", jinja2.Bool(true)) // in the kwarg's place
		} else {
			vars.agp, vars.agpAt = true, extra.Len()
		}
	}
	if pr := kwargs["preserve_reasoning"]; pr.Kind() == jinja2.KindBool {
		on, _ := pr.AsBool()
		for _, kv := range []struct {
			k string
			v bool
		}{{"preserve_thinking", on}, {"clear_thinking", !on}, {"truncate_history_thinking", !on}, {"drop_thinking", !on}} {
			if _, ok := kwargs[kv.k]; !ok {
				extra.AddStr(kv.k, jinja2.Bool(kv.v))
			}
		}
	}
	if !in.IntsFit64 {
		vars.jsonNumbers() // the engine reads every variable from JSON (global_from_json): its ints in int64
	}
	return nil
}

// A day is what llama-server's datetime and date_string variables say of the instants
// from start to end (Unix seconds, end excluded), which are of one date in loc and of one
// of its zone's offsets.
type day struct {
	loc                  *time.Location
	start, end           int64
	datetime, dateString jinja2.Value
}

// lastDay is the day dayOf was last asked for.
var lastDay atomic.Pointer[day]

// dayOf returns the day of now (in its location), formatted once a day, not per render:
// an instant of the day last asked for is found by its Unix time, without working out
// its date.
func dayOf(now time.Time) *day {
	sec := now.Unix()
	if c := lastDay.Load(); c != nil && c.loc == now.Location() && c.start <= sec && sec < c.end {
		return c
	}
	y, m, d := now.Date()
	start, end := time.Date(y, m, d, 0, 0, 0, 0, now.Location()).Unix(), time.Date(y, m, d+1, 0, 0, 0, 0, now.Location()).Unix()
	// within one offset the dates of instants increase with them, whatever time.Date
	// makes of a midnight a change of offset skips or repeats
	if zoneStart, zoneEnd := now.ZoneBounds(); !zoneStart.IsZero() {
		start = max(start, zoneStart.Unix())
		if !zoneEnd.IsZero() {
			end = min(end, zoneEnd.Unix())
		}
	}
	c := &day{now.Location(), start, end, jinja2.Str(pystr.Strftime(now, "%b %d %Y")), jinja2.Str(pystr.Strftime(now, "%d %b %Y"))}
	lastDay.Store(c)
	return c
}

// llamaResponseSchema is the JSON schema of the answer llama-server reads from
// json_schema and response_format, or undefined when there is none; its errors are
// llama-server's.
func llamaResponseSchema(t *tmplgen.Template, f *tmplgen.ServerFields) (jinja2.Value, error) {
	schema := f.JSONSchema
	if schema.Kind() == jinja2.KindNone {
		schema = jinja2.Undefined("json_schema")
	}
	grammar := f.Grammar.Kind() == jinja2.KindString && str(f.Grammar) != ""
	if !schema.IsUndefined() && grammar {
		return jinja2.Value{}, llamaError(t, "Cannot use both json_schema and grammar")
	}
	if f.ResponseFormat.IsUndefined() {
		return schema, nil
	}
	rf := f.ResponseFormat.AsDict()
	field := func(d *jinja2.Dict, key string) (jinja2.Value, bool) {
		if d == nil {
			return jinja2.Value{}, false
		}
		v, ok := d.GetStr(key)
		return v, ok && v.Kind() != jinja2.KindNone
	}
	orEmpty := func(v jinja2.Value, ok bool) jinja2.Value {
		if !ok {
			return jinja2.DictValue(jinja2.NewDict(0))
		}
		return v
	}
	typ := ""
	if v, ok := field(rf, "type"); ok && v.Kind() == jinja2.KindString {
		typ = str(v)
	}
	switch typ {
	case "json_object":
		if _, has := rf.GetStr("schema"); has || schema.IsUndefined() || isEmptyJSON(schema) {
			schema = orEmpty(field(rf, "schema"))
		}
	case "json_schema":
		wrapper := orEmpty(field(rf, "json_schema"))
		schema = orEmpty(field(wrapper.AsDict(), "schema"))
	case "", "text":
	default:
		return jinja2.Value{}, llamaError(t, `response_format type must be one of "text" or "json_object", but got: %s`, typ)
	}
	return schema, nil
}

// isEmptyJSON is nlohmann's empty(): an empty object or array (null is handled by the
// caller).
func isEmptyJSON(v jinja2.Value) bool {
	switch v.Kind() {
	case jinja2.KindDict:
		return v.AsDict().Len() == 0
	case jinja2.KindList, jinja2.KindTuple:
		return len(v.Items()) == 0
	}
	return false
}

// checkServerMessages is llama-server's check of the messages before it parses them:
// content is required except from the assistant (which needs content or tool calls), a
// string, null or a list of parts; image and audio parts need a multimodal projector,
// which a prompt-only server does not have.
func checkServerMessages(fields []messageFields) error {
	for i := range fields {
		f := &fields[i]
		if f.asJSON {
			continue // a str role and content
		}
		role := ""
		if r := f.v[fieldRole]; f.has[fieldRole] && r.Kind() == jinja2.KindString {
			role = str(r)
		}
		content, hasContent := f.v[fieldContent], f.has[fieldContent]
		if role != "assistant" && !hasContent {
			return fmt.Errorf("All non-assistant messages must contain 'content'")
		}
		if role == "assistant" && !hasContent {
			if !f.has[fieldToolCalls] {
				return fmt.Errorf("Assistant message must contain either 'content' or 'tool_calls'!")
			}
			continue
		}
		switch content.Kind() {
		case jinja2.KindString, jinja2.KindNone:
			continue
		case jinja2.KindList:
		default:
			return fmt.Errorf("Expected 'content' to be a string or an array")
		}
		for _, p := range content.Items() {
			typ := ""
			if d := p.AsDict(); d != nil {
				if v, ok := d.GetKey(jinja2.KeyType); ok && v.Kind() == jinja2.KindString {
					typ = str(v)
				}
			}
			switch typ {
			case "text":
			case "image_url":
				return fmt.Errorf("image input is not supported - hint: if this is unexpected, you may need to provide the mmproj")
			case "input_audio":
				return fmt.Errorf("audio input is not supported - hint: if this is unexpected, you may need to provide the mmproj")
			default:
				return fmt.Errorf("unsupported content[].type")
			}
		}
	}
	return nil
}

// parseContinuation is common_chat_continuation_parse: true, "content" and
// "reasoning_content" continue the final message, another value does not.
func parseContinuation(v jinja2.Value) tmplgen.Continuation {
	switch {
	case v.Kind() == jinja2.KindBool:
		if b, _ := v.AsBool(); b {
			return tmplgen.ContinueAuto
		}
	case jinja2.EqStr(v, "content"):
		return tmplgen.ContinueContent
	case jinja2.EqStr(v, "reasoning_content"):
		return tmplgen.ContinueReasoning
	}
	return tmplgen.ContinueNone
}

// The fields of a request message that llama-server reads.
const (
	fieldRole = iota
	fieldContent
	fieldToolCalls
	fieldReasoning
	fieldName
	fieldToolCallID
	numFields
)

// messageFields are the fields of a message, found in one pass over its keys.
type messageFields struct {
	v   [numFields]jinja2.Value
	has [numFields]bool
	// asJSON: the message has no other key, its keys come in the order of the fields
	// above, and role, content, reasoning_content, name and tool_call_id are strs of
	// data, those after content not empty: what the message is as llama.cpp hands it
	// to the template (common_chat_msg::to_json_oaicompat), when it has no tool calls.
	asJSON bool
}

// read sets f to the fields of the message m (none for nil).
func (f *messageFields) read(m *jinja2.Dict) {
	*f = messageFields{}
	if m == nil {
		return
	}
	if m.KeysAt(jinja2.KeyRole, jinja2.KeyContent) {
		// {"role": ..., "content": ...}, most messages, as readKeys reads it
		// (TestReadMessageFields), without its walk of the keys
		vals := m.Values()[:2]
		f.v[fieldRole], f.v[fieldContent] = vals[0], vals[1]
		f.has[fieldRole], f.has[fieldContent] = true, true
		f.asJSON = vals[0].IsDataStr() && vals[1].IsDataStr()
		return
	}
	f.readKeys(m)
}

// readKeys is read of a message m, not nil, found by walking its keys; f is zero.
func (f *messageFields) readKeys(m *jinja2.Dict) {
	keys := m.Keys()
	vals := m.Values()[:len(keys)] // (no bounds check below)
	f.asJSON = true
	last := -1
	for i, k := range keys {
		field := -1
		if key, ok := jinja2.KeyOfValue(k); ok {
			field = int(keyFields[key]) - 1
		}
		if field < 0 {
			f.asJSON = false
			continue
		}
		v := vals[i]
		f.v[field], f.has[field] = v, true
		f.asJSON = f.asJSON && field > last && field != fieldToolCalls && v.IsDataStr() && (field <= fieldContent || str(v) != "")
		last = field
	}
	f.asJSON = f.asJSON && f.has[fieldRole] && f.has[fieldContent]
}

// keyFields are 1 + the field of each jinja2.Key that is one, 0 for the others.
var keyFields = [jinja2.NumKeys]int8{
	jinja2.KeyRole: 1 + fieldRole, jinja2.KeyContent: 1 + fieldContent, jinja2.KeyToolCalls: 1 + fieldToolCalls,
	jinja2.KeyReasoningContent: 1 + fieldReasoning, jinja2.KeyName: 1 + fieldName, jinja2.KeyToolCallID: 1 + fieldToolCallID,
}

// parseMessages is common_chat_msgs_parse_oaicompat, of messages whose fields are
// rw.fields: the messages are rw.msgs, their parts and tool calls rw.parts and rw.calls.
func (rw *llamaRewrite) parseMessages(messages []jinja2.Value) ([]llamaMsg, error) {
	out, fields := slices.Grow(rw.msgs[:0], len(messages)), rw.fields
	for i, mv := range messages {
		m := mv.AsDict()
		if m == nil {
			return nil, fmt.Errorf("Expected 'message' to be an object, got %s", jinja2.CompactJSON(mv))
		}
		f := &fields[i]
		if f.asJSON {
			// what toJSON would build: its fields are strs, which read checked (the
			// absent ones zero, whose str is "")
			out = append(out, llamaMsg{role: str(f.v[fieldRole]), content: str(f.v[fieldContent]), src: m})
			if f.has[fieldReasoning] || f.has[fieldName] || f.has[fieldToolCallID] {
				msg := &out[len(out)-1]
				msg.reasoning, msg.name, msg.tcID = str(f.v[fieldReasoning]), str(f.v[fieldName]), str(f.v[fieldToolCallID])
			}
			continue
		}
		out = append(out, llamaMsg{})
		msg := &out[len(out)-1]
		if !f.has[fieldRole] {
			return nil, fmt.Errorf("Missing 'role' in message: %s", jinja2.CompactJSON(mv))
		}
		role := f.v[fieldRole]
		var ok bool
		if msg.role, ok = jsonString(role); !ok {
			return nil, typeError302(role)
		}
		content, hasContent := f.v[fieldContent], f.has[fieldContent]
		calls, hasCalls := f.v[fieldToolCalls], f.has[fieldToolCalls]
		if hasContent {
			switch content.Kind() {
			case jinja2.KindString:
				msg.content = str(content)
			case jinja2.KindList:
				start := len(rw.parts)
				for _, pv := range content.Items() {
					p := pv.AsDict()
					if p == nil || !p.Has(jinja2.Str("type")) {
						return nil, fmt.Errorf("Missing content part type: %s", jinja2.CompactJSON(pv))
					}
					typ, _ := p.GetKey(jinja2.KeyType)
					if typ.Kind() != jinja2.KindString || (str(typ) != "text" && str(typ) != "media_marker") {
						return nil, fmt.Errorf("Unsupported content part type: %s", jinja2.CompactJSON(typ))
					}
					text, ok := p.GetKey(jinja2.KeyText)
					if !ok {
						return nil, fmt.Errorf("[json.exception.out_of_range.403] key 'text' not found")
					}
					if text.Kind() != jinja2.KindString {
						return nil, typeError302(text)
					}
					rw.parts = append(rw.parts, llamaPart{typ: str(typ), text: str(text)})
				}
				msg.parts = rw.parts[start:len(rw.parts):len(rw.parts)]
			case jinja2.KindNone:
			default:
				return nil, fmt.Errorf("Invalid 'content' type: expected string or array, got %s (ref: https://github.com/ggml-org/llama.cpp/issues/8367)", jinja2.CompactJSON(content))
			}
		}
		if hasCalls {
			var items []jinja2.Value
			// llama.cpp iterates them as nlohmann::json iterates a value: an array's
			// items, an object's values, null as nothing, another value as itself
			switch calls.Kind() {
			case jinja2.KindList:
				items = calls.Items()
			case jinja2.KindDict:
				items = calls.AsDict().Values()
			case jinja2.KindNone:
			default:
				items = []jinja2.Value{calls}
			}
			start := len(rw.calls)
			for _, cv := range items {
				c := cv.AsDict()
				if c == nil || !c.Has(jinja2.Str("type")) {
					return nil, fmt.Errorf("Missing tool call type: %s", jinja2.CompactJSON(cv))
				}
				if typ, _ := c.GetKey(jinja2.KeyType); !jinja2.EqStr(typ, "function") {
					return nil, fmt.Errorf("Unsupported tool call type: %s", jinja2.CompactJSON(cv))
				}
				fv, ok := c.GetKey(jinja2.KeyFunction)
				if !ok {
					return nil, fmt.Errorf("Missing tool call function: %s", jinja2.CompactJSON(cv))
				}
				fn := fv.AsDict()
				if fn == nil || !fn.Has(jinja2.Str("name")) {
					return nil, fmt.Errorf("Missing tool call name: %s", jinja2.CompactJSON(cv))
				}
				var call llamaCall
				name, _ := fn.GetKey(jinja2.KeyName)
				if call.name, ok = jsonString(name); !ok {
					return nil, typeError302(name)
				}
				args, ok := fn.GetKey(jinja2.KeyArguments)
				if !ok {
					return nil, fmt.Errorf("[json.exception.out_of_range.403] key 'arguments' not found")
				}
				call.args = args
				if id, ok := c.GetKey(jinja2.KeyID); ok {
					if call.id, ok = jsonString(id); !ok {
						return nil, typeError302(id)
					}
				}
				rw.calls = append(rw.calls, call)
			}
			msg.toolCalls = rw.calls[start:len(rw.calls):len(rw.calls)]
		}
		if !hasContent && !hasCalls {
			return nil, fmt.Errorf("Expected 'content' or 'tool_calls' (ref: https://github.com/ggml-org/llama.cpp/issues/8367 & https://github.com/ggml-org/llama.cpp/issues/12279)")
		}
		var err error
		if msg.reasoning, err = f.str(fieldReasoning); err != nil {
			return nil, err
		}
		if msg.name, err = f.str(fieldName); err != nil {
			return nil, err
		}
		if msg.tcID, err = f.str(fieldToolCallID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// str returns the str of the field, "" when the message lacks it, or nlohmann's error
// for a value of another type.
func (f *messageFields) str(field int) (string, error) {
	if !f.has[field] {
		return "", nil // (inlined: most messages lack most fields)
	}
	return f.strOf(field)
}

// strOf is str of a field the message has.
func (f *messageFields) strOf(field int) (string, error) {
	s, ok := jsonString(f.v[field])
	if !ok {
		return "", typeError302(f.v[field])
	}
	return s, nil
}

// toJSON is common_chat_msg::to_json_oaicompat: the message as the template sees it,
// with llama.cpp's keys in llama.cpp's order. That is the request's message itself
// (m.src, shared) when it is already so; else its dicts and lists are a's. objectArgs:
// the template reads tool calls' arguments as objects (Capabilities.ObjectArguments).
func (m *llamaMsg) toJSON(concatText, objectArgs bool, a *jinja2.Arena) *jinja2.Dict {
	if m.src != nil {
		return m.src
	}
	j := a.NewDict(msgKeys)
	j.AddKey(jinja2.KeyRole, jinja2.Str(m.role))
	media := false
	for _, p := range m.parts {
		media = media || p.typ == "media_marker"
	}
	switch {
	case m.content != "":
		j.AddKey(jinja2.KeyContent, jinja2.Str(m.content))
	case len(m.parts) > 0 && (concatText || media):
		var text strings.Builder
		n := 0
		for _, p := range m.parts {
			n += len(p.text) + 1 // with the newline before it
		}
		text.Grow(n)
		lastMedia := false
		for _, p := range m.parts {
			newline := false
			switch p.typ {
			case "text":
				newline = !lastMedia && text.Len() > 0
				lastMedia = false
			case "media_marker":
				lastMedia = true
			}
			if newline {
				text.WriteByte('\n')
			}
			text.WriteString(p.text)
		}
		j.AddKey(jinja2.KeyContent, jinja2.Str(text.String()))
	case len(m.parts) > 0:
		var room [8]jinja2.Value
		parts := room[:0]
		for _, p := range m.parts {
			parts = append(parts, jinja2.DictValue(pairDict(a, "type", jinja2.Str(p.typ), "text", jinja2.Str(p.text))))
		}
		j.AddKey(jinja2.KeyContent, a.NewList(parts))
	default:
		j.AddKey(jinja2.KeyContent, jinja2.Str(""))
	}
	if m.reasoning != "" {
		j.AddKey(jinja2.KeyReasoningContent, jinja2.Str(m.reasoning))
	}
	if m.name != "" {
		j.AddKey(jinja2.KeyName, jinja2.Str(m.name))
	}
	if m.tcID != "" {
		j.AddKey(jinja2.KeyToolCallID, jinja2.Str(m.tcID))
	}
	if len(m.toolCalls) > 0 {
		var room [8]jinja2.Value
		calls := room[:0]
		for _, c := range m.toolCalls {
			args := c.args
			if args.Kind() == jinja2.KindString {
				args = jinja2.Str(str(args))
			} else {
				args = objectArguments(args, objectArgs)
			}
			fn := pairDict(a, "name", jinja2.Str(c.name), "arguments", args)
			d := a.NewDict(3)
			d.AddKey(jinja2.KeyType, jinja2.Str("function"))
			d.AddKey(jinja2.KeyFunction, jinja2.DictValue(fn))
			if c.id != "" {
				d.AddKey(jinja2.KeyID, jinja2.Str(c.id))
			}
			calls = append(calls, jinja2.DictValue(d))
		}
		j.AddKey(jinja2.KeyToolCalls, a.NewList(calls))
	}
	return j
}

// objectArguments is a tool call's arguments given as an object (or any other value but
// a str), as the template reads them: the JSON text llama-server dumps them into
// (common_chat_msgs_parse_oaicompat), or, for a template that reads arguments as objects
// (objectArgs), the value it parses that text back into. That value is v itself when
// the text holds v whole (jsonRoundTrips): no text is written and parsed again.
func objectArguments(v jinja2.Value, objectArgs bool) jinja2.Value {
	budget := jinja2.MaxJSONSize
	if objectArgs && jsonRoundTrips(v, 0, &budget) {
		return v
	}
	return jinja2.Str(jinja2.CompactJSON(llamacpp.NlohmannNumbers(v)))
}

// maxRoundTripDepth is how deeply jsonRoundTrips follows a value, well within
// jinja2.MaxNesting, which the text of a deeper one would exceed.
const maxRoundTripDepth = 64

// jsonRoundTrips reports whether v is what parsing its JSON text (jinja2.CompactJSON)
// gives back: it holds strs, ints within int64, finite floats, bools, None, lists and
// dicts of str keys only, nested at most maxRoundTripDepth deep, and its text is surely
// shorter than *budget bytes, which it takes from (six bytes a character of a str, the
// most an escape takes, and 32 a value).
func jsonRoundTrips(v jinja2.Value, depth int, budget *int) bool {
	if *budget -= 32; *budget < 0 || depth > maxRoundTripDepth {
		return false
	}
	switch v.Kind() {
	case jinja2.KindString:
		*budget -= 6 * len(str(v))
		return *budget >= 0
	case jinja2.KindInt: // (one beyond int64 may be a double beyond range: the text decides)
		_, fits := v.AsInt()
		return fits
	case jinja2.KindBool, jinja2.KindNone:
		return true
	case jinja2.KindFloat: // NaN and the infinities are text nlohmann::json does not parse
		f, _ := v.AsFloat()
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	case jinja2.KindList:
		for _, it := range v.Items() {
			if !jsonRoundTrips(it, depth+1, budget) {
				return false
			}
		}
		return true
	case jinja2.KindDict:
		d := v.AsDict()
		vals := d.Values()
		for i, k := range d.Keys() {
			if k.Kind() != jinja2.KindString || !jsonRoundTrips(k, depth+1, budget) || !jsonRoundTrips(vals[i], depth+1, budget) {
				return false
			}
		}
		return true
	}
	return false
}

// pairDict returns the dict {k1: v1, k2: v2} made in a.
func pairDict(a *jinja2.Arena, k1 string, v1 jinja2.Value, k2 string, v2 jinja2.Value) *jinja2.Dict {
	d := a.NewDict(2)
	d.AddStr(k1, v1)
	d.AddStr(k2, v2)
	return d
}

// msgKeys is the most keys toJSON gives a message.
const msgKeys = 6

// arenaCells is about how many cells of an Arena the rewrite takes for msgs (see
// jinja2.Arena.Expect): a message toJSON builds anew, or a copy of a request's message
// with two entries more and typed content, and the list of them.
func arenaCells(msgs []llamaMsg) int {
	n := 2 + len(msgs)
	for i := range msgs {
		if m := &msgs[i]; m.src == nil {
			n += (2 + 2*msgKeys) + (2 + len(m.parts)) + (2+2*2)*len(m.parts) + (2 + len(m.toolCalls)) + (2+2*3+2+2*2)*len(m.toolCalls)
		} else {
			n += (2 + 2*(m.src.Len()+2)) + (2 + 1) + (2 + 2*2)
		}
	}
	return n
}

// parseLlamaTools is what llama-server makes of the request's tools: an error when they
// are neither a list nor null, none unless a non-empty list; each tool rebuilt as
// {type, function: {name, description, parameters}}. It returns a list, or None when
// there are no tools: the request's own list when its tools are already so.
func parseLlamaTools(tools jinja2.Value) (jinja2.Value, error) {
	switch tools.Kind() {
	case jinja2.KindNone, jinja2.KindUndefined:
		return jinja2.None(), nil
	case jinja2.KindList:
	default:
		return jinja2.Value{}, fmt.Errorf("Expected 'tools' to be an array, got %s", jinja2.CompactJSON(tools))
	}
	if len(tools.Items()) == 0 {
		return jinja2.None(), nil
	}
	items := tools.Items()
	first := slices.IndexFunc(items, func(t jinja2.Value) bool { return !isLlamaTool(t) })
	if first < 0 {
		return tools, nil
	}
	out := append(make([]jinja2.Value, 0, len(items)), items[:first]...)
	for _, tv := range items[first:] {
		if isLlamaTool(tv) {
			out = append(out, tv)
			continue
		}
		t := tv.AsDict()
		if t == nil || !t.Has(jinja2.Str("type")) {
			return jinja2.Value{}, fmt.Errorf("Missing tool type: %s", jinja2.CompactJSON(tv))
		}
		if typ, _ := t.GetKey(jinja2.KeyType); !jinja2.EqStr(typ, "function") {
			return jinja2.Value{}, fmt.Errorf("Unsupported tool type: %s", jinja2.CompactJSON(tv))
		}
		fv, ok := t.GetKey(jinja2.KeyFunction)
		if !ok {
			return jinja2.Value{}, fmt.Errorf("Missing tool function: %s", jinja2.CompactJSON(tv))
		}
		fn := fv.AsDict()
		if fn == nil {
			return jinja2.Value{}, fmt.Errorf("[json.exception.type_error.304] cannot use at() with %s", nlohmannType(fv))
		}
		name, ok := fn.GetKey(jinja2.KeyName)
		if !ok {
			return jinja2.Value{}, fmt.Errorf("[json.exception.out_of_range.403] key 'name' not found")
		}
		if name.Kind() != jinja2.KindString {
			return jinja2.Value{}, typeError302(name)
		}
		desc := jinja2.Str("")
		if d, ok := fn.GetKey(jinja2.KeyDescription); ok {
			if d.Kind() != jinja2.KindString {
				return jinja2.Value{}, typeError302(d)
			}
			desc = d
		}
		params := jinja2.DictValue(jinja2.NewDict(0))
		if p, ok := fn.GetKey(jinja2.KeyParameters); ok {
			params = jinja2.CopyJSON(p)
		}
		f := jinja2.NewDict(3)
		f.SetStr("name", name)
		f.SetStr("description", desc)
		f.SetStr("parameters", params)
		out = append(out, jinja2.DictOf(jinja2.Str("type"), jinja2.Str("function"), jinja2.Str("function"), jinja2.DictValue(f)))
	}
	return jinja2.ListOf(out), nil
}

// isLlamaTool reports whether the request's tool v is what parseLlamaTools builds of
// it: {"type": "function", "function": {"name", "description", "parameters"}}, in that
// order, type a str of data, name and description strs.
func isLlamaTool(v jinja2.Value) bool {
	name, desc, _, ok := jinja2.FunctionTool(v)
	return ok && name.Kind() == jinja2.KindString && desc.Kind() == jinja2.KindString
}

// ministralMessage gives a system or assistant message the content blocks the
// ministral_3 handler builds: its reasoning as a thinking block, then its content. The
// message it returns, and its blocks, are made in a.
func ministralMessage(m *jinja2.Dict, a *jinja2.Arena) *jinja2.Dict {
	role, _ := m.GetKey(jinja2.KeyRole)
	if role.Kind() != jinja2.KindString || (str(role) != "system" && str(role) != "assistant") {
		return m
	}
	var room [2]jinja2.Value
	blocks := room[:0] // NewList copies them
	if r, ok := m.GetKey(jinja2.KeyReasoningContent); ok && r.Kind() == jinja2.KindString {
		blocks = append(blocks, jinja2.DictValue(pairDict(a, "type", jinja2.Str("thinking"), "thinking", r)))
	}
	if c, ok := m.GetKey(jinja2.KeyContent); ok {
		switch c.Kind() {
		case jinja2.KindString:
			blocks = append(blocks, jinja2.DictValue(pairDict(a, "type", jinja2.Str("text"), "text", c)))
		case jinja2.KindList:
			blocks = append(blocks, c.Items()...)
		}
	}
	out := a.CopyDict(m, 1)
	out.Delete(jinja2.Str("reasoning_content"))
	out.SetStr("content", a.NewList(blocks))
	return out
}

// gemma4ToolResponses is workaround::convert_tool_responses_gemma4: an assistant message
// with tool calls absorbs the tool messages after it (as tool_responses) and a plain
// assistant message after those. It returns msgs[:n], the messages after the change,
// whose new dicts and lists are a's.
func gemma4ToolResponses(msgs []*jinja2.Dict, a *jinja2.Arena) []*jinja2.Dict {
	out := msgs[:0] // (the message written is never after the next one read)
	for i := 0; i < len(msgs); {
		m := msgs[i]
		calls, _ := m.GetKey(jinja2.KeyToolCalls)
		if !dictRole(m, "assistant") || calls.Kind() != jinja2.KindList || len(calls.Items()) == 0 {
			out = append(out, m)
			i++
			continue
		}
		var reasoning *jinja2.Value
		if r, ok := m.GetKey(jinja2.KeyReasoningContent); ok && r.Kind() == jinja2.KindString {
			reasoning = &r
		}
		callList := calls.Items()
		var room [8]jinja2.Value
		responses := room[:0]
		i++
		for ; i < len(msgs) && dictRole(msgs[i], "tool"); i++ {
			cur := msgs[i]
			resp := jinja2.None()
			if c, ok := cur.GetKey(jinja2.KeyContent); ok {
				resp = c
				if c.Kind() == jinja2.KindString {
					if v, ok := llamacpp.JSONValue(str(c), a); ok {
						resp = v
					}
				}
			}
			name := ""
			if idx := len(responses); idx < len(callList) {
				if tc := callList[idx].AsDict(); tc != nil {
					if fn, ok := tc.GetKey(jinja2.KeyFunction); ok && fn.AsDict() != nil {
						if n, ok := fn.AsDict().GetKey(jinja2.KeyName); ok && n.Kind() == jinja2.KindString {
							name = str(n)
						}
					}
				}
			}
			if name == "" {
				if id, ok := cur.GetKey(jinja2.KeyToolCallID); ok && id.Kind() == jinja2.KindString {
					name = str(id)
				}
			}
			responses = append(responses, jinja2.DictValue(pairDict(a, "name", jinja2.Str(name), "response", resp)))
		}
		var content *jinja2.Value
		if i < len(msgs) && dictRole(msgs[i], "assistant") {
			next := msgs[i]
			nc, _ := next.GetKey(jinja2.KeyToolCalls)
			hasCalls := nc.Kind() == jinja2.KindList && len(nc.Items()) > 0
			c, _ := next.GetKey(jinja2.KeyContent)
			hasContent := (c.Kind() == jinja2.KindString && str(c) != "") || (c.Kind() == jinja2.KindList && len(c.Items()) > 0)
			if !hasCalls && hasContent {
				content = &c
				i++
			}
		}
		nm := a.NewDict(5)
		nm.AddKey(jinja2.KeyRole, jinja2.Str("assistant"))
		nm.AddKey(jinja2.KeyToolCalls, a.NewList(callList))
		if len(responses) > 0 {
			nm.AddStr("tool_responses", a.NewList(responses))
		}
		if content != nil {
			nm.AddKey(jinja2.KeyContent, *content)
		}
		if reasoning != nil {
			nm.AddKey(jinja2.KeyReasoningContent, *reasoning)
		}
		out = append(out, nm)
	}
	return out
}

// sortDeepSeekToolResults is deepseek_v4_sort_tool_results: in each run of user and
// tool messages after an assistant message with tool calls, the tool results are sorted
// (stably) into the order of the calls.
func sortDeepSeekToolResults(msgs []*jinja2.Dict) {
	// the ids of the tool calls of the last assistant message with some, and their
	// places (an id given twice has its last), and the places of a run of results: on
	// the stack for a few
	var orderRoom [8]callPlace
	var posRoom [8]int
	var resultRoom [8]*jinja2.Dict
	order := orderRoom[:0]
	for i := 0; i < len(msgs); {
		calls, _ := msgs[i].GetKey(jinja2.KeyToolCalls)
		if dictRole(msgs[i], "assistant") && calls.Kind() == jinja2.KindList && len(calls.Items()) > 0 {
			order = order[:0]
			for k, c := range calls.Items() {
				if d := c.AsDict(); d != nil {
					if id, ok := d.GetKey(jinja2.KeyID); ok && id.Kind() == jinja2.KindString && str(id) != "" {
						order = append(order, callPlace{str(id), k})
					}
				}
			}
			i++
			continue
		}
		if !dictRole(msgs[i], "user") && !dictRole(msgs[i], "tool") {
			i++
			continue
		}
		pos := posRoom[:0]
		j := i
		for ; j < len(msgs); j++ {
			if dictRole(msgs[j], "tool") {
				pos = append(pos, j)
			} else if !dictRole(msgs[j], "user") {
				break
			}
		}
		if len(pos) > 1 && len(order) > 0 {
			results := resultRoom[:0]
			for _, p := range pos {
				results = append(results, msgs[p])
			}
			rank := func(m *jinja2.Dict) int {
				if id, ok := m.GetKey(jinja2.KeyToolCallID); ok && id.Kind() == jinja2.KindString {
					for k := len(order) - 1; k >= 0; k-- {
						if order[k].id == str(id) {
							return order[k].place
						}
					}
				}
				return 0
			}
			slices.SortStableFunc(results, func(a, b *jinja2.Dict) int { return cmp.Compare(rank(a), rank(b)) })
			for k, p := range pos {
				msgs[p] = results[k]
			}
		}
		i = j
	}
}

// callPlace is the place of a tool call among its message's, by its id.
type callPlace struct {
	id    string
	place int
}

// dictRole reports whether a message's role is role.
func dictRole(m *jinja2.Dict, role string) bool {
	r, _ := m.GetKey(jinja2.KeyRole)
	return jinja2.EqStr(r, role)
}

// jsonString returns the str in v, as nlohmann's get<std::string> does.
func jsonString(v jinja2.Value) (string, bool) {
	if v.Kind() == jinja2.KindString {
		return str(v), true
	}
	return "", false
}

// typeError302 is nlohmann's error for a value that should have been a string.
func typeError302(v jinja2.Value) error {
	return fmt.Errorf("[json.exception.type_error.302] type must be string, but is %s", nlohmannType(v))
}

// nlohmannType names a JSON value's type as nlohmann::json does.
func nlohmannType(v jinja2.Value) string {
	switch v.Kind() {
	case jinja2.KindNone, jinja2.KindUndefined:
		return "null"
	case jinja2.KindString:
		return "string"
	case jinja2.KindBool:
		return "boolean"
	case jinja2.KindInt, jinja2.KindFloat:
		return "number"
	case jinja2.KindList, jinja2.KindTuple:
		return "array"
	case jinja2.KindDict:
		return "object"
	}
	return v.TypeName()
}

// trimASCIISpace removes the ASCII whitespace (C isspace) around s.
func trimASCIISpace(s string) string {
	return strings.Trim(s, " \t\n\v\f\r")
}

// str returns the str in v, "" when v is not a str.
func str(v jinja2.Value) string {
	s, _ := v.AsString()
	return s
}

// loadError is the error llama-server refuses to start with for t, or nil. When it
// loads a template, llama-server renders it on one request of its own (the thinking
// probe, common_chat_templates_support_enable_thinking: a user message "test", the
// generation prompt, thinking on, reasoning_format deepseek) through the whole of
// common_chat_templates_apply; when that render fails (a filter the engine lacks on the
// path it takes, say), the server does not start. The answer depends only on the
// template and the special tokens (bos and eos, in's): it is kept for the first
// maxLoadChecks templates and tokens asked for (a render with those looks it up without
// allocating), of tokens up to maxCheckedTokens bytes long, and computed again for others
// (a request can give tokens of its own, and any number of them).
func loadError(t *tmplgen.Template, bos, eos string, in *tmplgen.Input) error {
	if c := lastLoad.Load(); c != nil && c.key.t == t && c.key.bos == bos && c.key.eos == eos {
		return c.err
	}
	key := loadKey{t, bos, eos}
	if c, ok := loadChecks.Load(key); ok {
		c := c.(*loadCheck)
		lastLoad.Store(c)
		return c.err
	}
	err := probeLoad(t, bos, eos, in)
	if len(bos)+len(eos) <= maxCheckedTokens && loadCheckCount.Add(1) <= maxLoadChecks {
		loadChecks.LoadOrStore(key, &loadCheck{key, err})
	}
	return err
}

// staticLoadError is the error of a template llama-server refuses whatever its
// special tokens (Capabilities.LoadError): it does not start with it.
func staticLoadError(t *tmplgen.Template) error {
	if t.Caps.LoadError == "" {
		return nil
	}
	return llamaError(t, "llama.cpp rejects the template when it loads it: %s", t.Caps.LoadError)
}

// probeLoad renders llama-server's load-time probe of t with the special tokens bos and
// eos, and returns the error llama-server then refuses to start with, or nil.
func probeLoad(t *tmplgen.Template, bos, eos string, in *tmplgen.Input) error {
	if err := staticLoadError(t); err != nil {
		return err // its probe does not run
	}
	user := jinja2.NewDict(2)
	user.SetStr("role", jinja2.Str("user"))
	user.SetStr("content", jinja2.Str("test"))
	probe := &tmplgen.Input{
		Messages:            jinja2.NewList(jinja2.DictValue(user)),
		AddGenerationPrompt: true,
		Kwargs:              map[string]jinja2.Value{"enable_thinking": jinja2.Bool(true)},
		SpecialTokens:       map[string]string{"bos_token": bos, "eos_token": eos},
		Server:              tmplgen.ServerFields{ReasoningFormat: jinja2.Str("deepseek")},
		Now:                 in.Now,
	}
	// the probe is common_chat_templates_apply's: no server option reaches it
	if _, err := new(Server).appendRender(nil, t, probe, tokenizer{bos: bos, eos: eos}, nil); err != nil {
		return llamaError(t, "llama.cpp rejects the template when it loads it: Unable to generate parser for this template. Automatic parser generation failed: %v", err)
	}
	return nil
}

// A loadKey is a template and its special tokens.
type loadKey struct {
	t        *tmplgen.Template
	bos, eos string
}

// loadCheck is loadError's answer for a template and special tokens.
type loadCheck struct {
	key loadKey
	err error
}

// loadChecks keeps a *loadCheck per loadKey, loadCheckCount of them.
var (
	loadChecks     sync.Map
	loadCheckCount atomic.Int64
)

// The most load-time checks loadChecks keeps, and the longest special tokens (bos and
// eos together) it keeps them for.
const (
	maxLoadChecks    = 1024
	maxCheckedTokens = 256
)

// lastLoad is the entry of loadChecks loadError last answered with: a server that
// renders one template finds it without a lookup.
var lastLoad atomic.Pointer[loadCheck]
