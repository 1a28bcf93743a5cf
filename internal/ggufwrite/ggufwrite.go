// Package ggufwrite writes GGUF files holding metadata only (no tensors): enough for the
// readers and commands that only look at a model's tokenizer metadata, and small enough
// to keep in testdata. It is the project's own tool for making such files.
package ggufwrite

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// GGUF value types (the subset this writer produces).
const (
	typeUint32 = 4
	typeInt32  = 5
	typeBool   = 7
	typeString = 8
	typeArray  = 9
)

// KV is one metadata entry. Value is a string, uint32, int32, bool, []string or []int32.
type KV struct {
	Key   string
	Value any
}

// Write writes a GGUF version 3 file with the given metadata and no tensors.
func Write(w io.Writer, kvs []KV) error {
	bw := bufio.NewWriter(w)
	le := binary.LittleEndian
	put := func(v any) { binary.Write(bw, le, v) }
	str := func(s string) {
		put(uint64(len(s)))
		bw.WriteString(s)
	}
	bw.WriteString("GGUF")
	put(uint32(3))
	put(uint64(0)) // tensors
	put(uint64(len(kvs)))
	for _, kv := range kvs {
		str(kv.Key)
		switch v := kv.Value.(type) {
		case string:
			put(uint32(typeString))
			str(v)
		case uint32:
			put(uint32(typeUint32))
			put(v)
		case int32:
			put(uint32(typeInt32))
			put(v)
		case bool:
			put(uint32(typeBool))
			if v {
				put(uint8(1))
			} else {
				put(uint8(0))
			}
		case []string:
			put(uint32(typeArray))
			put(uint32(typeString))
			put(uint64(len(v)))
			for _, s := range v {
				str(s)
			}
		case []int32:
			put(uint32(typeArray))
			put(uint32(typeInt32))
			put(uint64(len(v)))
			for _, x := range v {
				put(x)
			}
		default:
			return fmt.Errorf("ggufwrite: key %q: unsupported value type %T", kv.Key, kv.Value)
		}
	}
	return bw.Flush()
}

// Model describes a metadata-only model file: its name, architecture, chat templates
// and a vocabulary with its BOS and EOS tokens.
type Model struct {
	Name           string
	Architecture   string
	ChatTemplate   string
	NamedTemplates map[string]string // tokenizer.chat_template.<name>
	Tokens         []string
	BOS, EOS       int // indexes into Tokens
	AddBOS, AddEOS bool
}

// KVs returns the model's metadata entries in a fixed order.
func (m *Model) KVs() []KV {
	kvs := []KV{
		{"general.architecture", m.Architecture},
		{"general.name", m.Name},
		{"tokenizer.ggml.model", "gpt2"},
		{"tokenizer.ggml.tokens", m.Tokens},
		{"tokenizer.ggml.bos_token_id", uint32(m.BOS)},
		{"tokenizer.ggml.eos_token_id", uint32(m.EOS)},
		{"tokenizer.ggml.add_bos_token", m.AddBOS},
		{"tokenizer.ggml.add_eos_token", m.AddEOS},
	}
	if m.ChatTemplate != "" {
		kvs = append(kvs, KV{"tokenizer.chat_template", m.ChatTemplate})
	}
	for _, name := range sortedKeys(m.NamedTemplates) {
		kvs = append(kvs, KV{"tokenizer.chat_template." + name, m.NamedTemplates[name]})
	}
	return kvs
}

// WriteFile writes the model as a GGUF file.
func (m *Model) WriteFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, m.KVs()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
