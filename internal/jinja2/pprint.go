package jinja2

import (
	"strings"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// pformat is Python's pprint.pformat(v) as Jinja2's pprint filter calls it (width 80,
// indent 1, dicts sorted by key): the repr when it fits the width, otherwise dicts,
// lists and tuples one item per line and long strings split into adjacent literals.
func pformat(v Value) string {
	var b strings.Builder
	pp := &prettyPrinter{b: &b, width: 80}
	pp.format(v, 0, 0, 0)
	return b.String()
}

type prettyPrinter struct {
	b     *strings.Builder
	width int
}

// safeRepr is pprint's _safe_repr: repr with every dict's items sorted by key, at any
// depth inside plain dicts, lists and tuples.
func safeRepr(v Value, depth int) string {
	if depth > maxReprDepth {
		return "..."
	}
	switch {
	case v.kind() == KindDict:
		d := v.dict()
		if d.Len() == 0 {
			return "{}"
		}
		parts, keys := make([]string, 0, d.Len()), d.keys()
		for _, i := range sortedDictItems(d) {
			parts = append(parts, safeRepr(keys[i], depth+1)+": "+safeRepr(d.at(i), depth+1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case isPlainSeq(v):
		items := v.list().items()
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = safeRepr(it, depth+1)
		}
		switch {
		case v.kind() == KindList:
			return "[" + strings.Join(parts, ", ") + "]"
		case len(items) == 1:
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return v.Repr()
}

// isPlainSeq reports whether v is a list or tuple of its own items (not a range, a dict
// view or a groupby tuple, which have a repr of their own): the types pprint knows, and
// the sequences a reversed loop visits from the end as they are.
func isPlainSeq(v Value) bool {
	return (v.kind() == KindList || v.kind() == KindTuple) && v.list().name == ""
}

// sortedDictItems returns the positions of d's items ordered as pprint's
// sorted(d.items(), key=_safe_tuple) orders them: by key with <, and keys that cannot
// be compared by the name of their type.
func sortedDictItems(d *Dict) []int {
	keys := d.keys()
	return sortedOrder(len(keys), func(a, b int) bool { return safeLess(keys[a], keys[b]) }, false)
}

// safeLess is pprint's _safe_key ordering: a < b, or when Python cannot order them, the
// order of their type names (str(type(x))).
func safeLess(a, b Value) (less bool) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); !ok || e.Kind != TypeError {
				panic(r)
			}
			less = "<class '"+a.TypeName()+"'>" < "<class '"+b.TypeName()+"'>"
		}
	}()
	return Lt(a, b)
}

// format is pprint's PrettyPrinter._format.
func (pp *prettyPrinter) format(v Value, indent, allowance, level int) {
	rep := safeRepr(v, 0)
	maxWidth := pp.width - indent - allowance
	if utf8.RuneCountInString(rep) > maxWidth {
		switch {
		case v.kind() == KindDict:
			pp.dict(v.dict(), indent, allowance, level+1)
			return
		case isPlainSeq(v) && v.kind() == KindList:
			pp.b.WriteByte('[')
			pp.items(v.list().items(), indent, allowance+1, level+1)
			pp.b.WriteByte(']')
			return
		case isPlainSeq(v):
			items := v.list().items()
			end := ")"
			if len(items) == 1 {
				end = ",)"
			}
			pp.b.WriteByte('(')
			pp.items(items, indent, allowance+len(end), level+1)
			pp.b.WriteString(end)
			return
		case v.kind() == KindString && !v.IsMarkup():
			pp.str(v.str(), indent, allowance, level+1)
			return
		}
	}
	pp.b.WriteString(rep)
}

// dict is pprint's _pprint_dict and _format_dict_items.
func (pp *prettyPrinter) dict(d *Dict, indent, allowance, level int) {
	pp.b.WriteByte('{')
	order, keys := sortedDictItems(d), d.keys()
	indent++
	for n, i := range order {
		last := n == len(order)-1
		rep := safeRepr(keys[i], 0)
		pp.b.WriteString(rep)
		pp.b.WriteString(": ")
		allow := 1
		if last {
			allow = allowance + 1
		}
		pp.format(d.at(i), indent+utf8.RuneCountInString(rep)+2, allow, level)
		if !last {
			pp.b.WriteString(",\n" + strings.Repeat(" ", indent))
		}
	}
	pp.b.WriteByte('}')
}

// items is pprint's _format_items (compact=False): one item per line.
func (pp *prettyPrinter) items(items []Value, indent, allowance, level int) {
	indent++
	for i, it := range items {
		if i > 0 {
			pp.b.WriteString(",\n" + strings.Repeat(" ", indent))
		}
		allow := 1
		if i == len(items)-1 {
			allow = allowance
		}
		pp.format(it, indent, allow, level)
	}
}

// str is pprint's _pprint_str: a long string as adjacent literals, split after
// whitespace and at line ends, parenthesized at the top level.
func (pp *prettyPrinter) str(s string, indent, allowance, level int) {
	lines := pystr.SplitLinesKeep(s)
	if level == 1 {
		indent++
		allowance++
	}
	maxWidth1 := pp.width - indent
	maxWidth := maxWidth1
	var chunks []string
	rep := ""
	for i, line := range lines {
		rep = Str(line).Repr()
		if i == len(lines)-1 {
			maxWidth1 -= allowance
		}
		if utf8.RuneCountInString(rep) <= maxWidth1 {
			chunks = append(chunks, rep)
			continue
		}
		parts := wordsWithSpace(line)
		maxWidth2 := maxWidth
		current := ""
		for j, part := range parts {
			candidate := current + part
			if j == len(parts)-1 && i == len(lines)-1 {
				maxWidth2 -= allowance
			}
			if utf8.RuneCountInString(Str(candidate).Repr()) > maxWidth2 {
				if current != "" {
					chunks = append(chunks, Str(current).Repr())
				}
				current = part
			} else {
				current = candidate
			}
		}
		if current != "" {
			chunks = append(chunks, Str(current).Repr())
		}
	}
	if len(chunks) == 1 {
		pp.b.WriteString(rep)
		return
	}
	if level == 1 {
		pp.b.WriteByte('(')
	}
	for i, c := range chunks {
		if i > 0 {
			pp.b.WriteString("\n" + strings.Repeat(" ", indent))
		}
		pp.b.WriteString(c)
	}
	if level == 1 {
		pp.b.WriteByte(')')
	}
}

// wordsWithSpace is re.findall(r'\S*\s*', s) without its final empty match: runs of
// non-space followed by the whitespace after them.
func wordsWithSpace(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexFunc(s, pystr.IsSpace)
		if i < 0 {
			out = append(out, s)
			break
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !pystr.IsSpace(r) {
				break
			}
			j += size
		}
		out = append(out, s[:j])
		s = s[j:]
	}
	return out
}
