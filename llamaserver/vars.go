package llamaserver

import (
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// llamaVars are the variables llama-server hands the template
// (common_chat_template_direct_apply_impl), as the render looks them up: those every
// request defines are fields, found by a switch on the name, and the request's
// chat_template_kwargs with the variables defined after them are a dict, extra, whose
// value of a name comes first; add_generation_prompt, which llama-server defines after
// the kwargs, is a field too when no kwarg names it. Building them costs a few stores
// where a dict of them all cost an entry each, and so does a lookup (dict, for Vars,
// builds that dict).
type llamaVars struct {
	base     [numBaseVars]jinja2.Value // by baseVarNames; tools only when hasTools
	hasTools bool
	// extra are the kwargs, sorted by name, then the variables defined after them (a
	// kwarg of the same name replaced in its place), in that order
	extra jinja2.Dict
	// shadowed: a kwarg has the name of one of base, whose value it replaces
	shadowed bool
	// agp: add_generation_prompt is true, a variable no kwarg names (one that does is
	// set in extra), defined after the first agpAt entries of extra
	agp   bool
	agpAt int
	// forceAGP: add_generation_prompt is true for this render, whatever extra says
	// (llamaRender)
	forceAGP bool
}

// The variables every request defines, in llama.cpp's order; tools only when the request
// has a list of them.
const (
	varMessages = iota
	varBOSToken
	varEOSToken
	varEnableThinking
	varTools
	varDatetime
	varDateString
	numBaseVars
)

// baseVarNames are the names of the variables every request defines, by their index.
var baseVarNames = [numBaseVars]string{"messages", "bos_token", "eos_token", "enable_thinking", "tools", "datetime", "date_string"}

// Lookup returns the variable name: what the render function reads (jinja2.Variables).
func (v *llamaVars) Lookup(name string) jinja2.Value {
	i := baseVar(name)
	if i >= 0 && !v.shadowed && (i != varTools || v.hasTools) {
		return v.base[i] // (extra has no name of base)
	}
	if (v.forceAGP || v.agp) && name == "add_generation_prompt" {
		return jinja2.Bool(true)
	}
	if v.extra.Len() > 0 {
		if x, ok := v.extra.GetStr(name); ok {
			return x
		}
	}
	if i >= 0 && (i != varTools || v.hasTools) {
		return v.base[i]
	}
	return jinja2.Undefined(name)
}

// addKwarg adds the kwarg name to extra, which lacks it.
func (v *llamaVars) addKwarg(name string, x jinja2.Value) {
	v.extra.AddStr(name, x)
	v.shadowed = v.shadowed || baseVar(name) >= 0
}

// baseVar returns the index of the variable every request defines named name, -1 for
// another name: baseVarNames' index (TestBaseVar), by a switch, which takes fewer
// instructions than comparing with each.
func baseVar(name string) int {
	switch name {
	case "messages":
		return varMessages
	case "bos_token":
		return varBOSToken
	case "eos_token":
		return varEOSToken
	case "enable_thinking":
		return varEnableThinking
	case "tools":
		return varTools
	case "datetime":
		return varDatetime
	case "date_string":
		return varDateString
	}
	return -1
}

// has reports whether the variable name is defined by the request's handling, not only
// for this render (forceAGP).
func (v *llamaVars) has(name string) bool {
	if v.agp && name == "add_generation_prompt" {
		return true
	}
	if _, ok := v.extra.GetStr(name); ok {
		return true
	}
	i := baseVar(name)
	return i >= 0 && (i != varTools || v.hasTools)
}

// jsonNumbers makes every int of the variables an int64, as llama.cpp's engine reads
// each from JSON (global_from_json).
func (v *llamaVars) jsonNumbers() {
	for i, x := range v.base {
		if i != varTools || v.hasTools {
			v.base[i] = llamacpp.JSONNumbers(x)
		}
	}
	keys := v.extra.Keys()
	for i, x := range v.extra.Values() {
		if n := llamacpp.JSONNumbers(x); n != x {
			v.extra.Set(keys[i], n)
		}
	}
}

// dict returns the variables as one dict, in the order llama.cpp defines them: those
// every request defines (the value of a kwarg of the same name in its place), then the
// others of extra.
func (v *llamaVars) dict() *jinja2.Dict {
	d := jinja2.NewDict(numBaseVars + v.extra.Len())
	for i, name := range baseVarNames {
		if i == varTools && !v.hasTools {
			continue
		}
		x := v.base[i]
		if e, ok := v.extra.GetStr(name); ok {
			x = e
		}
		d.AddStr(name, x)
	}
	keys := v.extra.Keys()
	for i, x := range v.extra.Values() {
		if v.agp && i == v.agpAt {
			d.AddStr("add_generation_prompt", jinja2.Bool(true))
		}
		d.Set(keys[i], x) // in its place when d has it already
	}
	if v.agp && v.agpAt == v.extra.Len() {
		d.AddStr("add_generation_prompt", jinja2.Bool(true))
	}
	return d
}

// reset empties v, keeping the storage of extra.
func (v *llamaVars) reset() {
	v.extra.Clear()
	v.base, v.hasTools, v.shadowed, v.forceAGP = [numBaseVars]jinja2.Value{}, false, false, false
	v.agp, v.agpAt = false, 0
}
