package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ardanlabs/jinja"
	gonja "github.com/nikolalohinski/gonja/v2"
	gonjacfg "github.com/nikolalohinski/gonja/v2/config"
	gonjaexec "github.com/nikolalohinski/gonja/v2/exec"
	gonjaload "github.com/nikolalohinski/gonja/v2/loaders"
)

// A renderFunc renders one pair with inputs built beforehand. The string it returns may
// alias a buffer the next call reuses.
type renderFunc func() (string, error)

// A peer is a Jinja interpreter the compiled renderers are measured against.
type peer struct {
	name string
	// compile parses a template's text once; bind builds the inputs of one request, once
	// per pair, and returns the function the timed loop calls.
	compile func(text string) (bind func(vars []variable) renderFunc, err error)
}

var peers = []peer{
	{name: "gonja", compile: compileGonja},
	{name: "ardanlabs", compile: compileArdanlabs},
}

func init() {
	gonja.SetLoggerOutput(io.Discard)
}

// compileGonja parses a template with gonja v2 configured as transformers configures
// Jinja2: trim_blocks and lstrip_blocks, the trailing newline dropped.
func compileGonja(text string) (func([]variable) renderFunc, error) {
	cfg := gonjacfg.New()
	cfg.TrimBlocks = true
	cfg.LeftStripBlocks = true
	cfg.KeepTrailingNewline = false
	fsLoader, err := gonjaload.NewFileSystemLoader("")
	if err != nil {
		return nil, err
	}
	const id = "template.jinja"
	loader, err := gonjaload.NewShiftedLoader(id, strings.NewReader(text), fsLoader)
	if err != nil {
		return nil, err
	}
	tpl, err := gonjaexec.NewTemplate(id, cfg, loader, gonja.DefaultEnvironment)
	if err != nil {
		return nil, err
	}
	return func(vars []variable) renderFunc {
		data := map[string]any{
			"raise_exception": func(args *gonjaexec.VarArgs) (*gonjaexec.Value, error) {
				msg := ""
				if len(args.Args) > 0 {
					msg = args.Args[0].String()
				}
				return nil, errors.New(msg)
			},
			"strftime_now": func(args *gonjaexec.VarArgs) (*gonjaexec.Value, error) {
				if len(args.Args) != 1 {
					return nil, errors.New("strftime_now takes a format")
				}
				return gonjaexec.AsValue(strftime(args.Args[0].String(), now)), nil
			},
		}
		for _, v := range vars {
			data[v.name] = toPlainGo(v.val)
		}
		ctx := gonjaexec.NewContext(data)
		var buf bytes.Buffer
		return func() (string, error) {
			buf.Reset()
			err := tpl.Execute(&buf, ctx)
			return buf.String(), err
		}
	}, nil
}

// toPlainGo turns a JSON value into the plain Go maps and slices gonja reads (object key
// order is lost: gonja's dicts are Go maps).
func toPlainGo(v *jv) any {
	switch v.kind {
	case 'b':
		return v.b
	case 'i':
		return int(v.i)
	case 'f':
		return v.f
	case 's':
		return v.s
	case 'a':
		out := make([]any, len(v.arr))
		for i, item := range v.arr {
			out[i] = toPlainGo(item)
		}
		return out
	case 'o':
		out := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			out[k] = toPlainGo(v.vals[i])
		}
		return out
	}
	return nil
}

// compileArdanlabs parses a template with ardanlabs/jinja (which applies trim_blocks and
// lstrip_blocks itself).
func compileArdanlabs(text string) (func([]variable) renderFunc, error) {
	tpl, err := jinja.Compile(text)
	if err != nil {
		return nil, err
	}
	return func(vars []variable) renderFunc {
		data := map[string]jinja.Value{
			"raise_exception": jinja.NewCallable("raise_exception", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
				msg := ""
				if len(args) > 0 {
					msg = ardanlabsStr(args[0])
				}
				return jinja.Undefined(), errors.New(msg)
			}),
			"strftime_now": jinja.NewCallable("strftime_now", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
				if len(args) != 1 {
					return jinja.Undefined(), errors.New("strftime_now takes a format")
				}
				return jinja.NewString(strftime(ardanlabsStr(args[0]), now)), nil
			}),
		}
		for _, v := range vars {
			data[v.name] = toArdanlabs(v.val)
		}
		return func() (string, error) { return tpl.RenderValues(data) }
	}, nil
}

// ardanlabsStr is a value as str() prints it (Value.String is repr).
func ardanlabsStr(v jinja.Value) string {
	if v.IsString() {
		return v.AsString()
	}
	return v.String()
}

// toArdanlabs turns a JSON value into ardanlabs/jinja values, keeping key order.
func toArdanlabs(v *jv) jinja.Value {
	switch v.kind {
	case 'b':
		return jinja.NewBool(v.b)
	case 'i':
		return jinja.NewInt(v.i)
	case 'f':
		return jinja.NewFloat(v.f)
	case 's':
		return jinja.NewString(v.s)
	case 'a':
		items := make([]jinja.Value, len(v.arr))
		for i, item := range v.arr {
			items[i] = toArdanlabs(item)
		}
		return jinja.NewList(items)
	case 'o':
		d := jinja.NewDict()
		for i, k := range v.keys {
			d.AsDict().Set(k, toArdanlabs(v.vals[i]))
		}
		return d
	}
	return jinja.None()
}

// probeTimeout bounds one probing call of a peer: an interpreter that loops forever on
// a template is left out rather than hanging the run.
const probeTimeout = 10 * time.Second

// safely runs f, turning a panic into an error and giving up after probeTimeout.
func safely[T any](f func() (T, error)) (out T, err error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("panic: %v", p)
			}
			done <- r
		}()
		r.v, r.err = f()
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(probeTimeout):
		return out, fmt.Errorf("no answer after %v", probeTimeout)
	}
}
