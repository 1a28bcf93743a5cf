package llamaserver_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// dumpVars is a template function that writes the JSON of each variable it sees, so that
// a test reads exactly what llamaserver.Render gives a template.
func dumpVars(w *jinja2.Writer) {
	for _, n := range []string{"messages", "tools", "bos_token", "eos_token", "enable_thinking", "add_generation_prompt", "datetime", "date_string", "documents", "foo", "preserve_thinking", "clear_thinking", "response_format"} {
		if v := w.Lookup(n); !v.IsUndefined() {
			w.WriteString(n + "=" + string(jinja2.AppendJSON(nil, v)) + "\n")
		}
	}
}

// generic are the capabilities of a common template: system role, string content,
// tools and tool calls with string arguments, no thinking.
var generic = llamacpp.Capabilities{SystemRole: true, StringContent: true, Tools: true, ToolCalls: true, ParallelToolCalls: true, Handler: "generic", ReasoningMode: "none"}

func llamaRender(t *testing.T, caps llamacpp.Capabilities, request string, prepare ...func(*tmplgen.Input)) (string, error) {
	t.Helper()
	req, err := tmplgen.ParseRequest([]byte(request))
	if err != nil {
		t.Fatal(err)
	}
	req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, p := range prepare {
		p(&req.Input)
	}
	tmpl := &tmplgen.Template{Name: "dump", File: "dump.jinja", Func: dumpVars, Caps: caps}
	return llamaserver.Render(tmpl, &req.Input)
}

func TestLlamaServerRewrite(t *testing.T) {
	noSystem := generic
	noSystem.SystemRole = false
	objectArgs := generic
	objectArgs.ObjectArguments = true
	onlyTyped := generic
	onlyTyped.StringContent, onlyTyped.TypedContent = false, true
	both := generic
	both.TypedContent = true
	thinking := generic
	thinking.Thinking, thinking.ThinkingStartTag = true, "<think>"
	thinking.ReasoningMode, thinking.ReasoningStart, thinking.ReasoningEnd = "tag_based", "<think>\n", "\n</think>\n\n"
	deepseekV4 := generic
	deepseekV4.Handler, deepseekV4.SortToolResults = "deepseek_v3_2", true
	gptOSS := generic
	gptOSS.Handler, gptOSS.KeepDeveloperRole = "gpt_oss", true

	tests := []struct {
		name    string
		caps    llamacpp.Capabilities
		request string
		want    string // the dumped variables, or the error's message
	}{
		{"messages rebuilt with llama.cpp's keys and order", generic,
			`{"messages": [{"content": "hi", "role": "user", "extra": 1, "name": "alice"},
				{"role": "assistant", "content": null, "reasoning_content": "", "tool_calls": [{"function": {"arguments": {"city": "Paris", "n": 3.0}, "name": "get"}, "type": "function", "id": "c1"}]},
				{"role": "tool", "tool_call_id": "c1", "content": "21C"}], "bos": "<s>", "eos": "</s>"}`,
			`messages=[{"role": "user", "content": "hi", "name": "alice"}, {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "get", "arguments": "{\"city\":\"Paris\",\"n\":3.0}"}, "id": "c1"}]}, {"role": "tool", "content": "21C", "tool_call_id": "c1"}]` + "\n" +
				`bos_token="<s>"` + "\n" + `eos_token="</s>"` + "\n" + `enable_thinking=false` + "\n" + `add_generation_prompt=true` + "\n" +
				`datetime="Nov 30 2026"` + "\n" + `date_string="30 Nov 2026"` + "\n"},
		{"developer becomes system; typed content joined", generic,
			`{"messages": [{"role": "developer", "content": "Be brief."}, {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}], "add_generation_prompt": false}`,
			`messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "a\nb"}]`},
		{"gpt-oss keeps the developer role", gptOSS,
			`{"messages": [{"role": "developer", "content": "Be brief."}]}`,
			`messages=[{"role": "developer", "content": "Be brief."}]`},
		{"typed content kept where the template reads both, a part's other keys dropped", both,
			`{"messages": [{"role": "user", "content": [{"type": "text", "text": "a", "cache": true}]}]}`,
			`messages=[{"role": "user", "content": [{"type": "text", "text": "a"}]}]`},
		{"string content as a part where the template reads only parts", onlyTyped,
			`{"messages": [{"role": "user", "content": "a"}]}`,
			`messages=[{"role": "user", "content": [{"type": "text", "text": "a"}]}]`},
		{"system merged into the next message without a system role", noSystem,
			`{"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}, {"role": "system", "content": "later"}]}`,
			`messages=[{"role": "user", "content": "S\nU"}, {"role": "system", "content": "later"}]`},
		{"a lone system message dropped without a system role", noSystem,
			`{"messages": [{"role": "system", "content": "S"}]}`,
			`messages=[]`},
		{"typed content cannot be merged", both2(noSystem),
			`{"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": [{"type": "text", "text": "a"}]}]}`,
			`[json.exception.type_error.302] type must be string, but is array`},
		{"string arguments parsed where the template reads objects", objectArgs,
			`{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{\"b\": 1, \"a\": [true]}"}}]}, {"role": "user", "content": "x"}]}`,
			`"arguments": {"b": 1, "a": [true]}`},
		{"bad JSON arguments", objectArgs,
			`{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{oops"}}]}, {"role": "user", "content": "x"}]}`,
			`Failed to parse tool call arguments as JSON`},
		{"tools rebuilt; an empty list is no tools", generic,
			`{"messages": [], "tools": [{"type": "function", "function": {"name": "f", "x": 1}, "y": 2}]}`,
			`tools=[{"type": "function", "function": {"name": "f", "description": "", "parameters": {}}}]`},
		{"no tools variable for an empty list", generic,
			`{"messages": [], "tools": []}`, "enable_thinking=false"},
		{"enable_thinking defaults to the thinking start tag", thinking,
			`{"messages": []}`, "enable_thinking=true"},
		{"enable_thinking from chat_template_kwargs; kwargs are variables", thinking,
			`{"messages": [], "chat_template_kwargs": {"enable_thinking": false, "foo": [1]}}`, "enable_thinking=false\nadd_generation_prompt=true\ndatetime=\"Nov 30 2026\"\ndate_string=\"30 Nov 2026\"\nfoo=[1]\n"},
		{"enable_thinking as a string", thinking,
			`{"messages": [], "chat_template_kwargs": {"enable_thinking": "no"}}`,
			`invalid type for "enable_thinking" (expected boolean, got string)`},
		{"preserve_reasoning defines the thinking switches", generic,
			`{"messages": [], "chat_template_kwargs": {"preserve_reasoning": true}}`, "preserve_thinking=true\nclear_thinking=false\n"},
		{"no add_generation_prompt variable when false", generic,
			`{"messages": [{"role": "user", "content": "x"}], "add_generation_prompt": false}`, "enable_thinking=false\ndatetime="},
		{"a final assistant message is continued after the generation prompt", generic,
			`{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": [{"type": "text", "text": "Once"}, {"type": "text", "text": " upon"}]}], "add_generation_prompt": false}`,
			"messages=[{\"role\": \"user\", \"content\": \"x\"}]\n" + `bos_token=""` + "\n" + `eos_token=""` + "\n" + "enable_thinking=false\ndatetime=\"Nov 30 2026\"\ndate_string=\"30 Nov 2026\"\n" +
				"add_generation_prompt=true\ndatetime=\"Nov 30 2026\"\ndate_string=\"30 Nov 2026\"\nOnce\n\n upon"},
		{"a continued message after the reasoning markers", thinking,
			`{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}]}`,
			"add_generation_prompt=true\ndatetime=\"Nov 30 2026\"\ndate_string=\"30 Nov 2026\"\n<think>\n\n</think>\n\ny"},
		{"a message with only reasoning continues the reasoning", thinking,
			`{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "", "reasoning_content": "Hmm"}]}`,
			"date_string=\"30 Nov 2026\"\n<think>\nHmm"},
		{"continue_final_message: content continues any final message", thinking,
			`{"messages": [{"role": "user", "content": "x"}], "continue_final_message": "content", "add_generation_prompt": false}`,
			"date_string=\"30 Nov 2026\"\n<think>\n\n</think>\n\nx"},
		{"continue_final_message: reasoning_content", thinking,
			`{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "y", "reasoning_content": "R"}], "continue_final_message": "reasoning_content", "add_generation_prompt": false}`,
			"date_string=\"30 Nov 2026\"\n<think>\nR"},
		{"an empty final message continues nothing", generic,
			`{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": ""}]}`,
			"enable_thinking=false\ndatetime=\"Nov 30 2026\"\ndate_string=\"30 Nov 2026\"\n"},
		{"continue_final_message with add_generation_prompt", generic,
			`{"messages": [{"role": "user", "content": "x"}], "continue_final_message": true}`,
			`Cannot set both add_generation_prompt and continue_final_message to true.`},
		{"two final assistant messages", generic,
			`{"messages": [{"role": "assistant", "content": "x"}, {"role": "assistant", "content": "y"}]}`,
			`Cannot have 2 or more assistant messages at the end of the list.`},
		{"a message without content or tool calls", generic,
			`{"messages": [{"role": "user"}]}`, `All non-assistant messages must contain 'content'`},
		{"an assistant message without content or tool calls", generic,
			`{"messages": [{"role": "assistant"}]}`, `Assistant message must contain either 'content' or 'tool_calls'!`},
		{"a content that is neither a string nor a list", generic,
			`{"messages": [{"role": "user", "content": 3}]}`, `Expected 'content' to be a string or an array`},
		{"a part of an unknown type", generic,
			`{"messages": [{"role": "user", "content": [{"type": "video"}]}]}`, `unsupported content[].type`},
		{"an unknown content part", generic,
			`{"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]}`, `image input is not supported - hint: if this is unexpected, you may need to provide the mmproj`},
		{"tool_choice", generic, `{"messages": [], "tool_choice": "any"}`, `Invalid tool_choice: any`},
		{"tool_choice of another type is auto", generic, `{"messages": [], "tool_choice": {"type": "function"}}`, `enable_thinking=false`},
		{"reasoning_format", generic, `{"messages": [], "reasoning_format": "bogus"}`, `Unknown reasoning format: bogus`},
		{"reasoning_format not a string", generic, `{"messages": [], "reasoning_format": 1}`, `[json.exception.type_error.302] type must be string, but is number`},
		{"reasoning_effort none turns thinking off", thinking, `{"messages": [], "reasoning_effort": "none"}`, `enable_thinking=false`},
		{"reasoning_effort high does not", thinking, `{"messages": [], "reasoning_effort": "high"}`, `enable_thinking=true`},
		{"response_format type", generic, `{"messages": [], "response_format": {"type": "xml"}}`, `response_format type must be one of "text" or "json_object", but got: xml`},
		{"json_schema and grammar", generic, `{"messages": [], "json_schema": {}, "grammar": "root ::= x"}`, `Cannot use both json_schema and grammar`},
		{"grammar with tools", generic, `{"messages": [], "grammar": "root ::= x", "tools": [{"type": "function", "function": {"name": "f"}}]}`, `Cannot use custom grammar constraints with tools.`},
		{"the response schema reaches DeepSeek V4", deepseekV4, `{"messages": [], "response_format": {"type": "json_schema", "json_schema": {"schema": {"type": "object"}}}}`, `response_format={"type": "object"}`},
		{"chat_template_kwargs replace llama-server's variables", generic, `{"messages": [{"role": "user", "content": "x"}], "chat_template_kwargs": {"messages": [1], "documents": [2]}}`, "messages=[1]\n"},
		{"kwargs documents are a variable", generic, `{"messages": [], "chat_template_kwargs": {"documents": [2]}}`, "documents=[2]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := llamaRender(t, tt.caps, tt.request)
			if err != nil {
				var rerr *tmplgen.Error
				if !errors.As(err, &rerr) {
					t.Fatalf("error %v is not a *tmplgen.Error", err)
				}
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got\n%s\nwant it to contain\n%s", got, tt.want)
			}
		})
	}
}

// both2 returns c reading both string and typed content.
func both2(c llamacpp.Capabilities) llamacpp.Capabilities {
	c.TypedContent = true
	return c
}

func TestLlamaServerPostProcessing(t *testing.T) {
	literal := func(s string) func(*jinja2.Writer) {
		return func(w *jinja2.Writer) { w.WriteString(s) }
	}
	deepseekV4 := generic
	deepseekV4.Handler, deepseekV4.SortToolResults = "deepseek_v3_2", true
	gptOSS := generic
	gptOSS.Handler = "gpt_oss"
	gemma := generic
	gemma.Handler = "gemma4"
	tests := []struct {
		name    string
		caps    llamacpp.Capabilities
		out     string
		request string
		prepare func(*tmplgen.Input)
		dst     string
		want    string
	}{
		{"a leading bos stripped when the vocabulary adds it", generic, "<s>A</s>", `{"messages": [], "bos": "<s>", "eos": "</s>", "add_bos": true}`, nil, "", "A</s>"},
		{"a trailing eos stripped when the vocabulary adds it", generic, "<s>A</s>", `{"messages": [], "bos": "<s>", "eos": "</s>"}`, func(in *tmplgen.Input) { in.AddEOS = true }, "", "<s>A"},
		{"both, appended to a buffer", generic, "<s>A</s>", `{"messages": [], "bos": "<s>", "eos": "</s>", "add_bos": true, "add_eos": true}`, nil, "prefix:", "prefix:A"},
		{"gpt-oss: the last <|return|> without generation prompt", gptOSS, "a<|return|>b<|return|>c", `{"messages": [], "add_generation_prompt": false}`, nil, "", "a<|return|>b<|end|>c"},
		{"gpt-oss: kept with a generation prompt", gptOSS, "a<|return|>", `{"messages": []}`, nil, "", "a<|return|>"},
		{"gemma4: the model turn after a closed turn", gemma, "x<turn|>\n", `{"messages": []}`, nil, "", "x<turn|>\n<|turn>model\n"},
		{"prefill appended after stripping", generic, "<s>P", `{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "ans"}], "bos": "<s>", "add_bos": true}`, nil, "", "Pans"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := tmplgen.ParseRequest([]byte(tt.request))
			if err != nil {
				t.Fatal(err)
			}
			if tt.prepare != nil {
				tt.prepare(&req.Input)
			}
			tmpl := &tmplgen.Template{Name: "lit", File: "lit.jinja", Func: literal(tt.out), Caps: tt.caps}
			got, err := llamaserver.AppendRender([]byte(tt.dst), tmpl, &req.Input)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLlamaServerLeavesInputAlone: Render gives the template the request's own
// messages where llama.cpp would build the same ones, and changes a copy where it
// changes them; the caller's input is never changed (renders share inputs across
// goroutines).
func TestLlamaServerLeavesInputAlone(t *testing.T) {
	ministral := generic
	ministral.SystemRole, ministral.ObjectArguments, ministral.Handler = false, true, "ministral_3"
	onlyTyped := generic
	onlyTyped.StringContent, onlyTyped.TypedContent = false, true
	gptOSS := generic
	gptOSS.Handler = "gpt_oss"
	trim := generic
	trim.TrimContent, trim.SystemRole = true, false
	gemma := generic
	gemma.Handler, gemma.MergeToolResponses = "gemma4", true
	request := `{"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": " U "},
		{"role": "assistant", "content": "A", "reasoning_content": "R", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{\"x\": 1}"}},
			{"type": "function", "function": {"name": "g", "arguments": {"x": {"y": [1]}}}}]},
		{"role": "tool", "content": "{\"r\": [1]}"}, {"role": "developer", "content": "D"}, {"role": "assistant", "content": "B", "reasoning_content": "R2"},
		{"role": "user", "content": "U2"}, {"role": "assistant", "content": "pre"}],
		"tools": [{"type": "function", "function": {"name": "f"}}, {"type": "function", "function": {"name": "g", "description": "G", "parameters": {"type": "object"}}}],
		"chat_template_kwargs": {"enable_thinking": false, "k": {"a": [1]}}}`
	// a template that changes what it is given, as llama.cpp's engine lets a template
	// do ({% set message.content = ... %}, x.append(y)): generated code starts such a
	// render with OwnVariables
	mutate := func(w *jinja2.Writer) {
		llamacpp.OwnVariables(w)
		for _, tool := range w.Lookup("tools").Items() {
			llamacpp.SetAttr(tool.AsDict().Values()[1], "name", jinja2.Str("changed"))
		}
		for _, m := range w.Lookup("messages").Items() {
			llamacpp.SetAttr(m, "content", jinja2.Str("changed"))
			calls, _ := m.AsDict().GetStr("tool_calls")
			for _, c := range calls.Items() {
				fn, _ := c.AsDict().GetStr("function")
				if args, _ := fn.AsDict().GetStr("arguments"); args.Kind() == jinja2.KindDict {
					llamacpp.SetAttr(args, "x", jinja2.Str("changed")) // the request's object, for ministral_3
				}
			}
		}
		dumpVars(w)
	}
	for name, caps := range map[string]llamacpp.Capabilities{"generic": generic, "ministral_3": ministral, "typed": onlyTyped, "gpt_oss": gptOSS, "trim": trim, "gemma4": gemma} {
		req, err := tmplgen.ParseRequest([]byte(request))
		if err != nil {
			t.Fatal(err)
		}
		dump := func() string {
			return string(jinja2.AppendJSON(nil, req.Messages)) + string(jinja2.AppendJSON(nil, req.Tools)) + string(jinja2.AppendJSON(nil, req.Kwargs["k"]))
		}
		before := dump()
		for _, fn := range []func(*jinja2.Writer){dumpVars, mutate} {
			tmpl := &tmplgen.Template{Name: "dump", File: "dump.jinja", Func: fn, Caps: caps}
			for range 2 { // the second with storage the first left behind
				if _, err := llamaserver.Render(tmpl, &req.Input); err != nil {
					t.Fatal(err)
				}
			}
		}
		if after := dump(); before != after {
			t.Errorf("%s: the render changed its input:\nbefore %s\nafter  %s", name, before, after)
		}
	}
}

func TestLlamaServerNeedsCapabilities(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "old", File: "old.jinja", Func: dumpVars}
	_, err := llamaserver.Render(tmpl, &tmplgen.Input{Messages: jinja2.NewList()})
	if err == nil || !strings.Contains(err.Error(), "capabilities") {
		t.Errorf("got %v, want an error about the missing capabilities", err)
	}
}

// TestServerKwargs: --chat-template-kwargs gives every request its variables, as if the
// request had them in chat_template_kwargs, and a request's kwarg of the same name
// replaces the server's.
func TestServerKwargs(t *testing.T) {
	thinking := generic
	thinking.Thinking = true
	tmpl := &tmplgen.Template{Name: "dump", File: "dump.jinja", Func: dumpVars, Caps: thinking}
	render := func(s *llamaserver.Server, request string) string {
		t.Helper()
		req, err := tmplgen.ParseRequest([]byte(request))
		if err != nil {
			t.Fatal(err)
		}
		req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		out, err := s.Render(tmpl, &req.Input)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	const plain = `{"messages": [{"role": "user", "content": "q"}]}`
	server := &llamaserver.Server{ChatTemplateKwargs: map[string]tmplgen.Value{"enable_thinking": jinja2.Bool(false), "foo": jinja2.Str("server")}}
	if got, want := render(server, plain), render(&llamaserver.Server{}, `{"messages": [{"role": "user", "content": "q"}], "chat_template_kwargs": {"enable_thinking": false, "foo": "server"}}`); got != want {
		t.Errorf("server kwargs: got\n%s\nwant the render of the request with those kwargs:\n%s", got, want)
	}
	const own = `{"messages": [{"role": "user", "content": "q"}], "chat_template_kwargs": {"enable_thinking": true, "foo": "request"}}`
	if got, want := render(server, own), render(&llamaserver.Server{}, own); got != want {
		t.Errorf("a request's kwargs: got\n%s\nwant them to replace the server's:\n%s", got, want)
	}
	if got := render(&llamaserver.Server{ReasoningOff: true}, plain); !strings.Contains(got, "enable_thinking=false") {
		t.Errorf("--reasoning off: got\n%s\nwant enable_thinking=false", got)
	}
}

// TestLoadErrorPerTokens: llama-server's load-time check depends on the special tokens a
// request gives (its probe renders the template with them): a template whose probe fails
// with some tokens only is refused with those and rendered with others, whichever came
// first and however often they alternate.
func TestLoadErrorPerTokens(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "tokens", File: "tokens.jinja", Caps: generic, Func: func(w *jinja2.Writer) {
		bos := w.Lookup("bos_token")
		if s, _ := bos.AsString(); s == "<bad>" {
			jinja2.RaiseException(w, jinja2.Str("no such token"))
		}
		w.WriteData(bos.Text())
	}}
	for range 3 {
		for _, bos := range []string{"<s>", "<bad>", "<t>"} {
			in := &tmplgen.Input{
				Messages:      jinja2.NewList(jinja2.DictOf(jinja2.Str("role"), jinja2.Str("user"), jinja2.Str("content"), jinja2.Str("hi"))),
				SpecialTokens: map[string]string{"bos_token": bos, "eos_token": "</s>"},
			}
			got, err := llamaserver.Render(tmpl, in)
			switch {
			case bos == "<bad>" && (err == nil || !strings.Contains(err.Error(), "rejects the template when it loads it") || !strings.Contains(err.Error(), "no such token")):
				t.Fatalf("bos %s: got %q, %v; want the load-time refusal", bos, got, err)
			case bos != "<bad>" && (err != nil || got != bos):
				t.Fatalf("bos %s: got %q, %v; want %q", bos, got, err, bos)
			}
		}
	}
}
