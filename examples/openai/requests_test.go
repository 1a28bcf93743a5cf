package openai_test

import (
	openaigo "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
	goopenai "github.com/sashabaranov/go-openai"
)

// The conversation both SDKs build: a developer message, a user message of a text part
// (and, with image, an image part), an assistant tool call without content (its
// arguments a JSON string, as the API sends them), the tool's result, and the next user
// turn; one tool.
const (
	developer  = "Answer in one sentence."
	question   = "What is the weather where this photo was taken?"
	photo      = "data:image/png;base64,iVBORw0KGgo="
	callID     = "call_1"
	toolName   = "get_weather"
	toolArgs   = `{"city":"Paris"}`
	toolResult = `{"temperature":21}`
	followUp   = "And tomorrow?"
)

// weatherSchema is the tool's parameters.
func weatherSchema() map[string]any {
	return map[string]any{
		"type":       "object",
		"properties": map[string]any{"city": map[string]any{"type": "string", "description": "The city"}},
		"required":   []string{"city"},
	}
}

// openaiGoRequest is the conversation as openai-go's request type.
func openaiGoRequest(image bool) openaigo.ChatCompletionNewParams {
	parts := []openaigo.ChatCompletionContentPartUnionParam{openaigo.TextContentPart(question)}
	if image {
		parts = append(parts, openaigo.ImageContentPart(openaigo.ChatCompletionContentPartImageImageURLParam{URL: photo}))
	}
	return openaigo.ChatCompletionNewParams{
		Model: "Qwen/Qwen3-0.6B",
		Messages: []openaigo.ChatCompletionMessageParamUnion{
			openaigo.DeveloperMessage(developer),
			openaigo.UserMessage(parts),
			{OfAssistant: &openaigo.ChatCompletionAssistantMessageParam{
				ToolCalls: []openaigo.ChatCompletionMessageToolCallUnionParam{{
					OfFunction: &openaigo.ChatCompletionMessageFunctionToolCallParam{
						ID:       callID,
						Function: openaigo.ChatCompletionMessageFunctionToolCallFunctionParam{Name: toolName, Arguments: toolArgs},
					},
				}},
			}},
			openaigo.ToolMessage(toolResult, callID),
			openaigo.UserMessage(followUp),
		},
		Tools: []openaigo.ChatCompletionToolUnionParam{
			openaigo.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name:        toolName,
				Description: openaigo.String("Get the weather of a city"),
				Parameters:  weatherSchema(),
			}),
		},
	}
}

// goOpenAIRequest is the conversation as go-openai's request type.
func goOpenAIRequest(image bool) goopenai.ChatCompletionRequest {
	parts := []goopenai.ChatMessagePart{{Type: goopenai.ChatMessagePartTypeText, Text: question}}
	if image {
		parts = append(parts, goopenai.ChatMessagePart{Type: goopenai.ChatMessagePartTypeImageURL, ImageURL: &goopenai.ChatMessageImageURL{URL: photo}})
	}
	return goopenai.ChatCompletionRequest{
		Model: "Qwen/Qwen3-0.6B",
		Messages: []goopenai.ChatCompletionMessage{
			{Role: goopenai.ChatMessageRoleDeveloper, Content: developer},
			{Role: goopenai.ChatMessageRoleUser, MultiContent: parts},
			{Role: goopenai.ChatMessageRoleAssistant, ToolCalls: []goopenai.ToolCall{{
				ID: callID, Type: goopenai.ToolTypeFunction, Function: goopenai.FunctionCall{Name: toolName, Arguments: toolArgs},
			}}},
			{Role: goopenai.ChatMessageRoleTool, Content: toolResult, ToolCallID: callID},
			{Role: goopenai.ChatMessageRoleUser, Content: followUp},
		},
		Tools: []goopenai.Tool{{Type: goopenai.ToolTypeFunction, Function: &goopenai.FunctionDefinition{
			Name: toolName, Description: "Get the weather of a city", Parameters: weatherSchema(),
		}}},
	}
}
