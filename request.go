package tmplgen

import (
	"bytes"
	"fmt"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// Request is an OpenAI-style chat request as JSON: messages, tools, documents,
// add_generation_prompt (default true) and continue_final_message (of any type: Input
// holds transformers' reading, ServerFields the values for the servers'),
// chat_template_kwargs (an object's entries are Kwargs; ServerFields keeps the value, which
// each profile reads its way when it is not an object), the fields llama-server reads
// (ServerFields), the special tokens (bos_token/eos_token or bos/eos, special_tokens: an
// extension of the references' tools, which a render with segments marks data, see
// Input.TokensFromRequest) and add_bos/add_eos. Other fields are ignored, as servers
// ignore them: a top-level enable_thinking among them (llama-server reads
// chat_template_kwargs.enable_thinking, and its own --reasoning option).
type Request struct {
	Input
}

// ParseRequest decodes an OpenAI-style request, as ParseJSON decodes it (text that is
// not UTF-8 and lone surrogate escapes are refused, as llama-server and vLLM refuse
// them; a leading UTF-8 byte order mark is skipped, as they skip it). Key order is kept
// everywhere, since it shows in what templates print (tojson, iterating a dict). The
// request's SpecialTokens and Kwargs are never nil: a caller can add to them.
func ParseRequest(data []byte) (*Request, error) {
	// a UTF-8 byte order mark before the text, which both servers skip (nlohmann::json;
	// json.loads of the body's bytes)
	data = bytes.TrimPrefix(data, []byte(llamacpp.UTF8BOM))
	v, facts, err := jinja2.ParseJSONFacts(data)
	if err != nil {
		return nil, fmt.Errorf("request: %w", publicJSONError(err))
	}
	r, err := requestOf(v)
	if r != nil {
		r.IntsFit64 = !facts.BigInts
		if facts.NonFinite || facts.BigInts { // what nlohmann::json may refuse
			r.Server.JSONError = llamacpp.NlohmannParse(string(data))
		}
	}
	return r, err
}

// RequestOf returns the request a Go value holds, as ParseRequest returns it for the
// value's JSON: a request type of an OpenAI SDK (openai-go's
// openai.ChatCompletionNewParams, go-openai's openai.ChatCompletionRequest), a map or a
// struct of the request's fields. It converts x with ValueOf, which takes a type
// implementing json.Marshaler (the SDKs' types do) as what its MarshalJSON returns: the
// request the SDK would send, fields and key order included.
func RequestOf(x any) (*Request, error) {
	v, err := jinja2.ValueOf(x)
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	return requestOf(v)
}

// requestOf reads the fields of a request decoded into v.
func requestOf(v Value) (*Request, error) {
	d := v.AsDict()
	if d == nil {
		return nil, fmt.Errorf("request: want a JSON object, got %s", jinja2.JSONTypeName(v))
	}
	r := &Request{Input: Input{
		Tools:               jinja2.None(),
		Documents:           jinja2.None(),
		AddGenerationPrompt: true,
		SpecialTokens:       map[string]string{},
		Kwargs:              map[string]Value{},
	}}
	msgs, ok := d.GetStr("messages")
	if !ok || msgs.Kind() != jinja2.KindList {
		return nil, fmt.Errorf("request: \"messages\" must be a list")
	}
	// a message that is not an object reaches the template as it is in transformers;
	// llama-server and vLLM refuse it
	r.Messages = msgs
	values := d.Values()
	for i, k := range d.Keys() {
		val := values[i]
		switch k.Text() {
		case "tools", "documents":
			// any value: transformers hands the template what it is given, and each
			// server checks its own way (llamaserver, vllm)
			if k.Text() == "tools" {
				r.Tools = val
			} else {
				r.Documents = val
			}
		case "continue_final_message":
			// as transformers reads it; r.Server keeps the value for the servers'
			// readings
			r.ContinueFinalMessage, r.Server.ContinueFinalMessage = continuation(val), val
		case "add_generation_prompt":
			// a value that is not a bool is what the template gets in transformers,
			// whose truth it tests; r.Server keeps the value for the servers' readings
			r.AddGenerationPrompt, r.Server.AddGenerationPrompt = val.Truthy(), val
		case "add_bos", "add_eos":
			b, ok := val.AsBool()
			if !ok {
				return nil, fmt.Errorf("request: %q must be true or false", k.Text())
			}
			if k.Text() == "add_bos" {
				r.AddBOS = b
			} else {
				r.AddEOS = b
			}
		case "bos", "eos", "bos_token", "eos_token":
			name := k.Text()
			switch name {
			case "bos":
				name = "bos_token"
			case "eos":
				name = "eos_token"
			}
			switch val.Kind() {
			case jinja2.KindString:
				r.setToken(name, val.Text())
			case jinja2.KindNone:
				delete(r.SpecialTokens, name)
			default:
				return nil, fmt.Errorf("request: %q must be a string or null", k.Text())
			}
		case "special_tokens":
			sd := val.AsDict()
			if sd == nil {
				return nil, fmt.Errorf("request: \"special_tokens\" must be an object")
			}
			tokens := sd.Values()
			for j, sk := range sd.Keys() {
				s, ok := tokens[j].AsString()
				if !ok {
					return nil, fmt.Errorf("request: special_tokens[%q] must be a string", sk.Text())
				}
				r.setToken(sk.Text(), s)
			}
		case "chat_template_kwargs":
			r.Server.ChatTemplateKwargs = val
			kd := val.AsDict()
			if kd == nil {
				// no kwargs: null, and another value that is false to Python ([] from
				// PHP's json_encode), give none to transformers and llama-server, which
				// also takes another value as none (its keys, "0" or "", name no
				// variable); a render through the transformers profile makes kwargs of
				// a list of pairs and refuses another (Template.kwargsInput), vLLM
				// refuses all but null
				continue
			}
			// messages, tools, documents and add_generation_prompt are kwargs too:
			// transformers' apply_chat_template passes its own under those names
			// (Lookup reads them first), llama-server lets kwargs replace its variables
			kwargs := kd.Values()
			for j, kk := range kd.Keys() {
				r.Kwargs[kk.Text()] = kwargs[j]
			}
		default:
			if f := r.Server.field(k.Text()); f != nil {
				*f = val
			}
		}
	}
	return r, nil
}

// setToken sets the special token name to the request's text.
func (r *Request) setToken(name, text string) {
	r.SpecialTokens[name], r.TokensFromRequest = text, true
}

// continuation reads continue_final_message as transformers does: "content" and
// "reasoning_content" are what they say (llama-server's, which transformers takes as
// true), another value continues the final message when it is true to Python.
func continuation(v Value) Continuation {
	switch {
	case v.Kind() == jinja2.KindString && v.Text() == "content":
		return ContinueContent
	case v.Kind() == jinja2.KindString && v.Text() == "reasoning_content":
		return ContinueReasoning
	case v.Truthy():
		return ContinueAuto
	}
	return ContinueNone
}
