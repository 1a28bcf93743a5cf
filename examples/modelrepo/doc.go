// Package modelrepo shows tmplgen in a model's repository: the model's files are in
// model/ (a Hugging Face tokenizer_config.json with two chat templates), and one
// go:generate line compiles its chat templates into the package chattmpl, which the
// repository's code imports to render prompts.
package modelrepo

//go:generate go run -tags tmplgen_bootstrap ../../cmd/tmplgen gen -pkg chattmpl -o chattmpl ./model
