// Package vllmprobe computes what vLLM's OpenAI-compatible server decides about a chat
// template when it loads it (vllm/renderers/hf.py), so that the compiler writes it into
// the template's generated file (tmplgen.VLLMFacts) and nothing is probed when a request
// is rendered: the content format, whether the template mentions the developer role, and
// the variables it reads.
package vllmprobe

import (
	"slices"
	"strings"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/syntax"
)

// Facts returns what vLLM decides about the template text src, compiled as t.
func Facts(src string, t *ir.Template) tmplgen.VLLMFacts {
	return tmplgen.VLLMFacts{
		OpenAIContent: openAIContent(src),
		DeveloperRole: strings.Contains(src, `"developer"`) || strings.Contains(src, `'developer'`),
		Undeclared:    variables(t),
	}
}

// variables are the names t reads from its context, sorted.
func variables(t *ir.Template) []string {
	var names []string
	for _, v := range t.Vars {
		if in, ok := v.Init.(*ir.Input); ok && !slices.Contains(names, in.Name) {
			names = append(names, in.Name)
		}
	}
	slices.Sort(names)
	return names
}

// openAIContent is hf.py's _detect_content_format: whether the template has a loop over
// the content of a message, a message being the variable of a loop over messages or
// over a variable set from it (through filters, tests and slices), or a loop over a
// variable named content. Where hf.py's helpers assert a name (a loop of several names,
// a set of a namespace attribute or of several names, on the path they walk), the
// detection fails, and a template whose detection fails, or that does not parse, is
// "string".
func openAIContent(src string) bool {
	tmpl, err := syntax.Parse(src)
	if err != nil {
		return false
	}
	var sets []*syntax.Set
	var loops []*syntax.For
	walk(tmpl.Body, func(n syntax.Node) {
		switch n := n.(type) {
		case *syntax.Set:
			sets = append(sets, n)
		case *syntax.For:
			loops = append(loops, n)
		}
	})

	// _iter_nodes_assign_var_or_elems(root, "messages"), breadth first
	messageLists := []string{"messages"}
	for i := 0; i < len(messageLists); i++ {
		for _, s := range sets {
			if !elemsAccess(s.Value, messageLists[i], "") {
				continue
			}
			name, ok := s.Target.(*syntax.Name)
			if !ok {
				return false // the assertion fails
			}
			if name.Name != messageLists[i] {
				messageLists = append(messageLists, name.Name)
			}
		}
	}
	// _iter_nodes_assign_messages_item
	var messages []string
	for _, l := range loops {
		for _, v := range messageLists {
			if elemsAccess(l.Iter, v, "") {
				name, ok := l.Target.(*syntax.Name)
				if !ok {
					return false
				}
				messages = append(messages, name.Name)
				break
			}
		}
	}
	// _iter_nodes_assign_content_item: the first such loop decides
	for _, l := range loops {
		for _, v := range messages {
			if elemsAccess(l.Iter, v, "content") {
				_, ok := l.Target.(*syntax.Name)
				return ok
			}
		}
		if name, ok := l.Iter.(*syntax.Name); ok && name.Name == "content" {
			_, ok := l.Target.(*syntax.Name)
			return ok
		}
	}
	return false
}

// elemsAccess is hf.py's _is_var_or_elems_access: x is the variable name (or, with key,
// its item or attribute key), seen through filters, tests and slices.
func elemsAccess(x syntax.Expr, name, key string) bool {
	switch n := x.(type) {
	case *syntax.Filter:
		return n.X != nil && elemsAccess(n.X, name, key)
	case *syntax.Test:
		return elemsAccess(n.X, name, key)
	case *syntax.Getitem:
		if _, isSlice := n.Arg.(*syntax.Slice); isSlice {
			return elemsAccess(n.X, name, key)
		}
	}
	if key == "" {
		return isName(x, name)
	}
	switch n := x.(type) {
	case *syntax.Getitem:
		c, ok := n.Arg.(*syntax.Const)
		return ok && c.Value == key && isName(n.X, name)
	case *syntax.Getattr:
		return n.Attr == key && isName(n.X, name)
	}
	return false
}

func isName(x syntax.Expr, name string) bool {
	n, ok := x.(*syntax.Name)
	return ok && n.Name == name
}

// walk calls visit on each statement of nodes and of the statements they hold, in
// Jinja2's find_all order: a statement before what it holds, its fields in order.
func walk(nodes []syntax.Node, visit func(syntax.Node)) {
	for _, n := range nodes {
		visit(n)
		switch n := n.(type) {
		case *syntax.If:
			walkIf(n, visit)
		case *syntax.For:
			walk(n.Body, visit)
			walk(n.Else, visit)
		case *syntax.SetBlock:
			walk(n.Body, visit)
		case *syntax.Macro:
			walk(n.Body, visit)
		case *syntax.CallBlock:
			walk(n.Body, visit)
		case *syntax.FilterBlock:
			walk(n.Body, visit)
		case *syntax.With:
			walk(n.Body, visit)
		case *syntax.Block:
			walk(n.Body, visit)
		case *syntax.Generation:
			walk(n.Body, visit)
		}
	}
}

// walkIf walks an if's body, its elifs (each an If of Jinja2's, visited itself) and its
// else.
func walkIf(n *syntax.If, visit func(syntax.Node)) {
	walk(n.Body, visit)
	for _, e := range n.Elifs {
		visit(e)
		walkIf(e, visit)
	}
	walk(n.Else, visit)
}
