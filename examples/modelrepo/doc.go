// Package modelrepo shows tmplgen in a model's repository: the model's files are in
// model/ (a Hugging Face tokenizer_config.json with two chat templates), one
// go:generate line compiles its chat templates into the package chattmpl, which the
// repository's code imports to render prompts (see Example), and a test fails when
// chattmpl is stale (TestUpToDate).
//
// In a repository of your own, where tmplgen is a tool of the module (see the README),
// the line is
//
//	//go:generate go tool tmplgen gen -o chattmpl ./model
//
// Here tmplgen is this module's own command.
package modelrepo

//go:generate go run ../../cmd/tmplgen gen -pkg chattmpl -o chattmpl ./model
