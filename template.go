package tmplgen

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/internal/pystr"
)

// Template is a compiled chat template, as the registry of generated renderers holds
// it.
type Template struct {
	// Name is the renderer's name (for catalog templates, the model or file it is from).
	Name string
	// Origin says where the template text came from.
	Origin string
	// SHA256 is the hex sha256 of the template text the renderer was compiled from.
	SHA256 string
	// Aliases are the sha256 of texts that render the same: the text with one trailing
	// newline added or removed (Jinja2 drops a single trailing newline).
	Aliases []string
	// File is the template's file name as error messages cite it.
	File string
	// Func is the generated render function: it writes the prompt into w, reading the
	// template's variables from it (w.Lookup).
	Func func(w *jinja2.Writer)
	// Append, when not nil, runs Func with a Writer on its stack (jinja2.Run.Start): the
	// render of a template whose function keeps no reference to its Writer, without
	// segments, runs it. It takes the Run by value: a pointer passed through a function
	// value would move the caller's Run to the heap.
	Append func(r jinja2.Run, dst []byte) ([]byte, error)
	// LlamaFunc is Func compiled with llama.cpp's Jinja semantics where they differ
	// from Jinja2's (package llamacpp), which package llamaserver renders with; nil for
	// a template that renders the same either way, or that was not compiled for them.
	LlamaFunc func(w *jinja2.Writer)
	// Caps are the template's capabilities as llama.cpp detects them, computed when the
	// template was compiled; package llamaserver reads them.
	Caps llamacpp.Capabilities
	// VLLM is what vLLM's server decides about the template when it loads it, computed
	// when the template was compiled.
	VLLM VLLMFacts
	// ReadsTokens are the special-token variables (bos_token, eos_token, unk_token,
	// sep_token, pad_token, cls_token, mask_token: transformers' special_tokens_map) the
	// template reads, in order: a render fails when one has no value (see ModelInput).
	ReadsTokens []string
	// Tokens are the special tokens of the model the template was generated from, by
	// variable name (bos_token, eos_token, unk_token...: the texts its model file
	// names); a render takes each one its input's SpecialTokens do not give. Nil for a
	// template generated from a template file.
	Tokens map[string]string
	// Spans are the position table of the generated file, in its compact form: the
	// template statement that runs on each line of Func's file, which a failed render
	// reports (see jinja2.Spans). A template without them (an interpreter's) reports
	// what its Writer was told (jinja2.Writer.At).
	Spans jinja2.Spans
	// AddBOS and AddEOS say that the model's tokenizer adds the BOS or EOS token itself,
	// as its model file says; a render takes them as if the input set them (see
	// Input.AddBOS).
	AddBOS, AddEOS bool
}

// Render renders the template for in and returns the prompt.
func (t *Template) Render(in *Input) (string, error) {
	st := renderStates.Get().(*renderState)
	defer func() {
		if cap(st.buf) <= maxPooledBuffer {
			renderStates.Put(st)
		}
	}()
	b, err := t.appendRenderTracked(st.buf[:0], in, nil, &st.w)
	st.buf = b
	return string(b), err
}

// A renderState is what Render renders with: the buffer it renders into, and the
// Writer (zero between renders).
type renderState struct {
	buf []byte
	w   jinja2.Writer
}

// renderStates recycles the states of Render, so that a render allocates its prompt
// once, as a string, and takes one thing from a pool.
var renderStates = sync.Pool{New: func() any { return new(renderState) }}

// maxPooledBuffer is the capacity beyond which Render's buffer is left to the garbage
// collector rather than kept for the next render.
const maxPooledBuffer = 1 << 20

// AppendRender renders the template for in as transformers' apply_chat_template does,
// appending the prompt to dst; in is never modified. (Package llamaserver renders the
// prompt llama-server builds instead.)
func (t *Template) AppendRender(dst []byte, in *Input) (out []byte, err error) {
	return t.appendRenderTracked(dst, in, nil, nil)
}

// appendRenderTracked is AppendRender that, when markup is not nil, sets it to the
// ranges of the prompt that are template text; w, when not nil, is the Writer to
// render with (jinja2.Run.Writer).
func (t *Template) appendRenderTracked(dst []byte, in *Input, markup *[]jinja2.ByteRange, w *jinja2.Writer) (out []byte, err error) {
	if t == nil || in == nil {
		_, err := t.ModelInput(in) // its error for a nil template or input
		return dst, err
	}
	if in.Server.ChatTemplateKwargs.Kind() != jinja2.KindUndefined {
		var err error
		if in, err = t.kwargsInput(in); err != nil {
			return dst, err
		}
	}
	var lacks bool
	if len(t.ReadsTokens) > 0 || t.AddBOS || t.AddEOS { // else in lacks nothing the render needs
		if lacks, err = t.LacksTokens(in, t.ReadsTokens...); err != nil {
			return dst, err
		}
	}
	switch {
	case in.ContinueFinalMessage != ContinueNone:
		if lacks {
			in = t.withTokens(in)
		}
		return t.appendContinued(dst, in, markup, w)
	case lacks:
		// the model's tokens after the input's own, without a copy of the input
		vars := modelTokenPool.Get().(*modelTokens)
		vars.in, vars.tokens = in, t.Tokens
		out, err = t.appendRender(dst, in, vars, nil, markup, nil, w)
		*vars = modelTokens{}
		modelTokenPool.Put(vars)
		return out, err
	}
	return t.appendRender(dst, in, in, nil, markup, nil, w)
}

// kwargsInput returns in with the keyword arguments transformers makes of the
// request's chat_template_kwargs when it is not an object (ParseRequest made Kwargs of
// an object's entries), as the reference reads it (hf_render.py, dict(value or {})):
// none from a value false to Python, Python's dict() of another (a list of pairs); an
// *Error for a value dict() refuses, for keys that are not strs, and for kwargs that
// name self, which transformers passes on to Jinja2's Template.render(self, ...).
func (t *Template) kwargsInput(in *Input) (*Input, error) {
	k := in.Server.ChatTemplateKwargs
	if d := k.AsDict(); d != nil {
		if _, self := d.GetStr("self"); self {
			return nil, t.kwargsError(selfKwarg)
		}
		return in, nil
	}
	if !k.Truthy() {
		return in, nil
	}
	d, err := jinja2.DictFrom(k)
	if err != nil {
		return nil, t.kwargsError(err.Error())
	}
	out := *in
	out.Kwargs = make(map[string]Value, len(in.Kwargs)+d.Len())
	maps.Copy(out.Kwargs, in.Kwargs)
	vals := d.Values()
	for i, key := range d.Keys() {
		switch {
		case key.Kind() != jinja2.KindString:
			return nil, t.kwargsError("keywords must be strings")
		case key.Text() == "self":
			return nil, t.kwargsError(selfKwarg)
		}
		out.Kwargs[key.Text()] = vals[i]
	}
	return &out, nil
}

// selfKwarg is Python's error for a kwarg named self, which Jinja2's
// Template.render(self, ...) takes as its own.
const selfKwarg = "Template.render() got multiple values for argument 'self'"

// kwargsError is the error of a request whose chat_template_kwargs transformers cannot
// pass to the template, Python's error msg.
func (t *Template) kwargsError(msg string) error {
	return &Error{Kind: InputError, Template: t.File, Msg: "chat_template_kwargs: " + msg +
		" (transformers passes dict(chat_template_kwargs) to Jinja2's Template.render(self, ...) as keyword arguments; " +
		"llama-server takes an object's entries as variables and ignores another value, vLLM refuses all but an object)"}
}

// modelTokens are the variables of in with, after its own special tokens, those of
// the template's model (tokens): in's variables as ModelInput gives them, without the
// copy.
type modelTokens struct {
	in     *Input
	tokens map[string]string
}

// Lookup returns the value of the variable name.
func (v *modelTokens) Lookup(name string) Value { return v.in.lookup(name, v.tokens) }

// modelTokenPool recycles the modelTokens of renders, so that a render of an input
// without its model's special tokens allocates nothing for them.
var modelTokenPool = sync.Pool{New: func() any { return new(modelTokens) }}

// ModelInput returns in with the special tokens and tokenizer settings of the
// template's model (Tokens, AddBOS, AddEOS) that in lacks: in itself when it lacks
// none, else a copy. Every render sees its input as it would return it, with the
// special tokens its profile needs (ReadsTokens for transformers and vLLM; bos_token and
// eos_token for llama-server, which strips a leading BOS), though without the copy: it
// looks the model's tokens up after in's own (see LacksTokens).
//
// It fails for a nil template or input (ErrNilInput), and with an *Error of kind
// InputError (ErrMissingToken) when the template reads one of tokens (ReadsTokens)
// that neither in (SpecialTokens, Kwargs) nor the template gives, unless
// in.AllowMissingTokens: a prompt rendered without its model's token is not the
// model's prompt, though Jinja2 prints the undefined token as "" without complaint. A
// template compiled from a model's files carries its tokens; one compiled from a
// .jinja file does not.
func (t *Template) ModelInput(in *Input, tokens ...string) (*Input, error) {
	switch {
	case t == nil:
		return nil, fmt.Errorf("tmplgen: render of a nil *Template: %w", ErrNilInput)
	case in == nil:
		return nil, fmt.Errorf("tmplgen: render of %s with a nil *Input: %w", t.Name, ErrNilInput)
	}
	lacks, err := t.LacksTokens(in, tokens...)
	if err != nil {
		return nil, err
	}
	if lacks {
		return t.withTokens(in), nil
	}
	return in, nil
}

// LacksTokens reports whether ModelInput(in, tokens...) copies in: in lacks one of the
// special tokens named tokens that the template's model gives (Tokens), or one of its
// tokenizer settings (AddBOS, AddEOS). A profile can look the model's tokens up
// instead. It fails as ModelInput does: for a nil template or input, and for a token
// neither gives that the template reads.
func (t *Template) LacksTokens(in *Input, tokens ...string) (lacks bool, err error) {
	if t == nil || in == nil {
		_, err := t.ModelInput(in)
		return false, err
	}
	lacks = t.AddBOS && !in.AddBOS || t.AddEOS && !in.AddEOS
	for _, name := range tokens {
		if _, ok := in.SpecialTokens[name]; ok {
			continue
		}
		if _, ok := in.Kwargs[name]; ok {
			continue
		}
		if _, ok := t.Tokens[name]; ok {
			lacks = true
			continue
		}
		if !in.AllowMissingTokens && slices.Contains(t.ReadsTokens, name) {
			return false, &Error{Kind: InputError, Template: t.File, err: ErrMissingToken, Msg: fmt.Sprintf("the template reads %s, "+
				"which the input does not give (a template compiled from a .jinja file carries no special tokens): "+
				"set Input.SpecialTokens[%q] to the model's token (its tokenizer_config.json or GGUF names it; "+
				"in a request to tmplgen render, the field %q), compile the template from the model's files "+
				"(tmplgen gen MODEL, tmplgen render -model MODEL), or set Input.AllowMissingTokens to render it "+
				"undefined", name, name, name)}
		}
	}
	return lacks, nil
}

// withTokens returns a copy of in with the model's special tokens and tokenizer
// settings it lacks.
func (t *Template) withTokens(in *Input) *Input {
	out := *in
	out.SpecialTokens = make(map[string]string, len(t.Tokens)+len(in.SpecialTokens))
	for name, text := range t.Tokens {
		out.SpecialTokens[name] = text
	}
	for name, text := range in.SpecialTokens {
		out.SpecialTokens[name] = text
	}
	out.AddBOS = in.AddBOS || t.AddBOS
	out.AddEOS = in.AddEOS || t.AddEOS
	return &out
}

// ErrMissingToken is the error (errors.Is) of a render whose template reads a special
// token that neither the input nor the template gives (see Template.ModelInput).
var ErrMissingToken = errors.New("special token missing")

// ErrNilInput is the error (errors.Is) of a render given a nil *Input or a nil
// *Template.
var ErrNilInput = errors.New("nil input or template")

// continueTag is what transformers appends to the final message's text to find where
// it ends in the prompt (CONTINUE_FINAL_MESSAGE_TAG).
const continueTag = "CONTINUE_FINAL_MESSAGE_TAG "

// appendContinued is apply_chat_template with continue_final_message: the final
// message's text is tagged, the conversation rendered, and the prompt cut where the tag
// is, so that it ends with the final message's text, open.
func (t *Template) appendContinued(dst []byte, in *Input, markup *[]jinja2.ByteRange, w *jinja2.Writer) ([]byte, error) {
	fail := func(format string, args ...any) ([]byte, error) {
		return dst, &Error{Kind: InputError, Msg: fmt.Sprintf(format, args...), Template: t.File}
	}
	if in.AddGenerationPrompt {
		return fail("continue_final_message and add_generation_prompt are not compatible. Use continue_final_message when you want the model to continue the final message, and add_generation_prompt when you want to add a header that will prompt it to start a new assistant message instead.")
	}
	msgs := in.Messages.Items()
	if in.Messages.Kind() != jinja2.KindList || len(msgs) == 0 {
		return fail("continue_final_message needs a final message: messages is empty")
	}
	messages := jinja2.CopyJSON(in.Messages)
	last := messages.Items()[len(msgs)-1].AsDict()
	if last == nil {
		return fail("continue_final_message: messages[%d] is not a dict", len(msgs)-1)
	}
	content, ok := last.GetStr("content")
	if !ok {
		return fail("continue_final_message: messages[%d] has no content (KeyError: 'content')", len(msgs)-1)
	}
	var final string
	switch content.Kind() {
	case jinja2.KindString:
		final = content.Text()
		last.SetStr("content", jinja2.Str(final+continueTag))
	case jinja2.KindList, jinja2.KindTuple:
		found := false
		parts := content.Items()
		for i := len(parts) - 1; i >= 0 && !found; i-- {
			block := parts[i].AsDict()
			text, ok := Value{}, false
			if block != nil {
				text, ok = block.GetStr("text")
			}
			if ok && text.Kind() != jinja2.KindString {
				return fail("continue_final_message: the text of the final message's part is %s, not a str", text.TypeName())
			}
			if ok {
				final, found = text.Text(), true
				block.SetStr("text", jinja2.Str(final+continueTag))
			}
		}
		if !found {
			return fail("continue_final_message is set but we could not find any text to continue in the final message!")
		}
	default:
		return fail("continue_final_message: the content of messages[%d] is %s, not a str or a list of parts", len(msgs)-1, content.TypeName())
	}
	tagged := *in
	tagged.Messages, tagged.ContinueFinalMessage = messages, ContinueNone
	start := len(dst)
	out, err := t.appendRender(dst, &tagged, &tagged, nil, markup, nil, w)
	if err != nil {
		return dst, err
	}
	rendered := string(out[start:])
	cut := func(out []byte) []byte { // the prompt is out, a prefix of the render's
		if markup != nil {
			*markup = jinja2.SpliceMarkup(*markup, len(out), len(rendered)-(len(out)-start), 0, false)
		}
		return out
	}
	tag := strings.TrimSpace(continueTag)
	if !strings.Contains(rendered, strings.TrimFunc(final, pystr.IsSpace)) || !strings.Contains(rendered, tag) {
		return fail("continue_final_message is set but the final message does not appear in the chat after applying the chat template! " +
			"This can happen if the chat template deletes portions of the final message. " +
			"Please verify the chat template and final message in your chat to ensure they are compatible.")
	}
	at := strings.LastIndex(rendered, tag)
	if strings.HasPrefix(rendered[at:], continueTag) {
		return cut(out[:start+at]), nil
	}
	return cut(append(out[:start], strings.TrimRightFunc(rendered[:at], pystr.IsSpace)...)), nil
}

// AppendRenderLlama renders the template as llama.cpp's Jinja engine does, with
// LlamaFunc (Func for a template without one), appending the prompt to dst: the
// variables are vars exactly (llama-server's, which package llamaserver builds from an
// Input), the clock and limits in's. When markup is not nil, it is set to the ranges of
// the prompt that are template text (see AppendRenderSegments). When tail is not nil,
// it is set to where the template's generation prompt starts in the prompt (after dst):
// what its last statement, {% if add_generation_prompt %}, writes when nothing before
// depends on that variable (the llama.cpp render function marks it); -1 for a template
// whose function does not mark it. When w is not nil, the render writes with it: a
// zero Writer the caller keeps between renders, which it leaves zero (jinja2.Run.Writer);
// nil takes one from a pool.
func (t *Template) AppendRenderLlama(dst []byte, vars jinja2.Variables, in *Input, markup *[]jinja2.ByteRange, tail *int, w *jinja2.Writer) ([]byte, error) {
	fn := t.LlamaFunc
	if fn == nil {
		fn = t.Func
	}
	return t.appendRender(dst, in, vars, fn, markup, tail, w)
}

// appendRender runs the compiled function fn (LlamaFunc, or Func when nil: through
// Append when there is one and no segments, generation prompt or Writer are asked for)
// on the variables vars (in, or llama-server's) with in's clock and limits; a failure
// is an *Error or *RaiseError. When markup is not nil, it is set to the ranges of the
// output that are template text; when tail is not nil, it is set to where fn marked the
// generation prompt (jinja2.Run.GenerationPrompt); w, when not nil, is the Writer to
// render with (jinja2.Run.Writer).
func (t *Template) appendRender(dst []byte, in *Input, vars jinja2.Variables, fn func(*jinja2.Writer), markup *[]jinja2.ByteRange, tail *int, w *jinja2.Writer) ([]byte, error) {
	// field by field: a composite literal is built in a temporary and copied
	var r jinja2.Run
	r.Vars, r.Now, r.Limits, r.File, r.Spans, r.Writer = vars, in.Now, jinja2.Limits(in.Limits), t.File, t.Spans, w
	var out []byte
	var err error
	switch {
	case fn == nil && markup == nil && tail == nil && w == nil && t.Append != nil:
		out, err = t.Append(r, dst)
	case markup != nil:
		out, *markup, err = r.AppendTracked(dst, (*markup)[:0], t.funcOr(fn))
	default:
		out, err = r.Append(dst, t.funcOr(fn))
	}
	if err != nil {
		return dst, renderError(err)
	}
	if tail != nil {
		*tail = r.GenerationPrompt
	}
	return out, nil
}

// funcOr returns fn, or Func when fn is nil.
func (t *Template) funcOr(fn func(*jinja2.Writer)) func(*jinja2.Writer) {
	if fn == nil {
		return t.Func
	}
	return fn
}

// VLLMFacts are what vLLM's OpenAI-compatible server decides about a chat template when
// it loads it (vllm/renderers/hf.py), before any request: how it shapes message
// contents, whether it keeps developer messages, and which request variables it hands
// the template.
type VLLMFacts struct {
	// OpenAIContent is the "openai" content format (_detect_content_format): the
	// template loops over a message's content ({% for part in message.content %}), so
	// every content reaches it as a list of text parts; otherwise ("string") text parts
	// are joined with "\n".
	OpenAIContent bool
	// DeveloperRole: the template text has "developer" or 'developer' in quotes
	// (_detect_developer_role_support), so developer messages reach it as they are;
	// otherwise they become system messages.
	DeveloperRole bool
	// Undeclared are the names the template reads from its context, sorted
	// (jinja2.meta.find_undeclared_variables): vLLM hands the template only the kwargs
	// among them (resolve_chat_template_kwargs).
	Undeclared []string
}
