package llamacpp

// Capabilities are what llama.cpp's llama-server (b10587) finds out about a chat
// template when it loads it: the capabilities its Jinja engine detects by rendering the
// template on fixed probe requests (jinja::caps_get), the specialized handler it picks
// by substrings of the template text, and whether the template supports thinking.
// tmplgen computes them when it compiles a template (see package internal/llamaprobe) and writes them
// into the generated Template; package llamaserver reads them to rewrite requests
// the way llama-server does. The field comments name llama.cpp's own fields.
type Capabilities struct {
	// SystemRole: the template reads the content of a leading system message
	// (supports_system_role). When false, llama-server merges the system message into
	// the next message.
	SystemRole bool
	// StringContent: the template renders a message whose content is a string
	// (supports_string_content).
	StringContent bool
	// TypedContent: the template iterates a message's content as a list of parts
	// (supports_typed_content). With StringContent and not TypedContent, llama-server
	// joins the text parts of a typed content into one string.
	TypedContent bool
	// Tools: the template reads the name of a tool definition (supports_tools).
	Tools bool
	// ToolCalls: the template reads an assistant message's tool_calls
	// (supports_tool_calls).
	ToolCalls bool
	// ParallelToolCalls: the template reads the second of two tool calls
	// (supports_parallel_tool_calls).
	ParallelToolCalls bool
	// ObjectArguments: the template reads a tool call's arguments as an object
	// (supports_object_arguments); llama-server then parses string arguments as JSON.
	ObjectArguments bool
	// PreserveReasoning: the template prints the reasoning_content of an earlier
	// assistant turn (supports_preserve_reasoning; informational).
	PreserveReasoning bool

	// Handler is the code path llama-server renders the template with: "generic" (its
	// differential autoparser) or a specialized one chosen by substrings of the template
	// text ("gpt_oss", "gemma4", "qwen3_coder", ...). Some handlers adjust messages
	// before rendering or the prompt after. Empty means the capabilities were never
	// computed.
	Handler string
	// Thinking is llama.cpp's supports_thinking for the template, which
	// llamaserver.Render defaults enable_thinking to.
	Thinking bool
	// ThinkingStartTag is the thinking start tag llama.cpp reports (thinking_start_tag),
	// empty for a handler that sets none (muse_glimmer) and for a template whose
	// reasoning has an end marker and no start marker.
	ThinkingStartTag string
	// KeepDeveloperRole: the template text has "<|channel|>", so llama-server leaves a
	// developer message's role as it is (it maps it to system otherwise).
	KeepDeveloperRole bool
	// TrimContent: the template text is StepFun's ("You have access to the following
	// functions in JSONSchema format"), so llama-server trims the whitespace around every
	// content, reasoning_content and text part.
	TrimContent bool
	// MergeToolResponses: the gemma4 handler on an older gemma4 template (without
	// "{#- OpenAI Chat Completions:"): an assistant message with tool calls absorbs the
	// tool messages after it as tool_responses, and a plain assistant message after those.
	MergeToolResponses bool
	// SortToolResults: the deepseek_v3_2 handler on a DeepSeek V4 template (without
	// "function_calls"): tool results are sorted into the order of their calls.
	SortToolResults bool
	// ReasoningMode, ReasoningStart and ReasoningEnd are what the generic handler's
	// reasoning analysis found: "none", "tag_based" or "tools_only", and the markers
	// around reasoning (with their whitespace). Empty for a specialized handler.
	ReasoningMode                string
	ReasoningStart, ReasoningEnd string
	// ToolArguments and ToolTrigger are what the generic handler's tool-call analysis
	// found, which decides the grammar of tool calls llama-server builds for a request
	// with tools (and refuses the request when a tool's parameters cannot be turned into
	// one): ToolArguments is "json" when a call writes its arguments as one JSON object
	// (the grammar holds the tool's parameters schema), "tagged" when it writes each
	// argument in a tag of its own (the grammar holds the schema of each argument that is
	// not a string), "" when the analysis found no tool calls (no grammar); ToolTrigger,
	// that text starts a call, without which tool_choice auto builds no grammar. Empty for
	// a specialized handler.
	ToolArguments string
	ToolTrigger   bool
	// LoadError is the error llama.cpp gives when it loads the template, "" when it
	// loads it: a llama-server given the template refuses to start, and package
	// llamaserver answers every request with it.
	LoadError string
}

// Known reports whether the capabilities were computed (a template compiled by a
// tmplgen that computes them).
func (c *Capabilities) Known() bool { return c.Handler != "" }
