// Package modelfile reads the chat templates and special tokens of model files: GGUF
// files (tokenizer.chat_template, tokenizer.chat_template.NAME, the bos/eos tokens and
// add_bos/add_eos of tokenizer.ggml.*), Hugging Face tokenizer_config.json and
// chat_template.json files, and model directories as transformers loads them. Files
// are hostile input: every length and count is bounded, and errors name the offset
// and key (GGUF) or the line, column and path (JSON).
//
// It imports the standard library and package jinja2 (for its JSON decoder) only.
package modelfile
