package harness

import (
	"fmt"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
)

// Profile is the request handling a render applies around a compiled template, as the
// command's -profile flag and a Request's profile name it.
type Profile uint8

// The profiles.
const (
	// Transformers renders as transformers' apply_chat_template does
	// (tmplgen.Template.Render).
	Transformers Profile = iota
	// LlamaServer renders the prompt llama-server builds (llamaserver.Render).
	LlamaServer
	// VLLM renders the prompt vLLM's server builds (vllm.Render).
	VLLM
)

// String returns the profile's name as ParseProfile accepts it and a Request names it.
func (p Profile) String() string {
	switch p {
	case Transformers:
		return "transformers"
	case LlamaServer:
		return "llama_server"
	case VLLM:
		return "vllm"
	}
	return fmt.Sprintf("Profile(%d)", uint8(p))
}

// ParseProfile returns the profile named "transformers" (also "") or "llama_server"
// (also spelled "llama-server", as the server's binary is named).
func ParseProfile(name string) (Profile, error) {
	switch name {
	case "transformers", "":
		return Transformers, nil
	case "llama_server", "llama-server":
		return LlamaServer, nil
	case "vllm":
		return VLLM, nil
	}
	return 0, fmt.Errorf("unknown profile %q (transformers, llama-server, vllm)", name)
}

// Render renders in with t under the profile.
func (p Profile) Render(t *tmplgen.Template, in *tmplgen.Input) (string, error) {
	switch p {
	case LlamaServer:
		return llamaserver.Render(t, in)
	case VLLM:
		return vllm.Render(t, in)
	}
	return t.Render(in)
}
