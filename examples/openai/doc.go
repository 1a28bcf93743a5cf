// Package openai shows a Go service rendering the prompt of a chat request built with
// the OpenAI SDKs' own types (github.com/openai/openai-go and
// github.com/sashabaranov/go-openai), as the server it stands in front of would:
// tmplgen.RequestOf converts the SDK's request without the service writing JSON, and
// package llamaserver or vllm renders it. It is a module of its own, so that tmplgen's
// module requires no SDK.
package openai
