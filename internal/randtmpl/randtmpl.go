// Package randtmpl generates random chat-template-shaped Jinja programs and random chat
// requests from a seed, for the codegen fuzz target (which builds what the compiler
// makes of them) and the differential test (which renders them with Python Jinja2 and
// with tmplgen). The programs loop over messages, branch on roles and contents, keep
// state in namespaces, define and call macros, capture blocks and apply the filters,
// tests and methods real templates use; a program is always valid Jinja2 syntax, and
// may fail when it runs, as real templates do on some requests.
package randtmpl

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// A gen writes one program.
type gen struct {
	r     *rand.Rand
	b     strings.Builder
	depth int
	// loops are the loop variables in scope, innermost last; macros the macros defined
	// so far, with their parameter counts; ns whether the namespace ns is defined
	loops  []string
	macros []macro
	ns     bool
	params []string // the parameters of the macro being written
	// inMacro: a macro's body is being written, which may read the names of the scope it
	// is called from (llama.cpp's engine resolves them there, Jinja2 where it is defined)
	inMacro bool
	// llama leaves out what llama.cpp's parser refuses (with blocks, ** and /, a sign
	// before a parenthesis, \u escapes, 1e3 and 1_000), so that its render is compared
	llama bool
}

type macro struct {
	name   string
	params int
	caller bool // its body calls caller() when it is given one
}

// Template returns the program of seed.
func Template(seed uint64) string { return template(seed, false) }

// LlamaTemplate returns the program of seed made of what llama.cpp's parser reads
// (Template's programs fail to load there about half the time, which hides the render).
func LlamaTemplate(seed uint64) string { return template(seed, true) }

func template(seed uint64, llama bool) string {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x6a696e6a61)), llama: llama}
	if g.chance(2) {
		g.b.WriteString("{%- set ns = namespace(count=0, last='', found=false) -%}\n")
		g.ns = true
	}
	if g.chance(3) {
		g.macroDef()
	}
	g.stmts(2 + g.r.IntN(4))
	if g.chance(2) {
		g.b.WriteString("{%- if add_generation_prompt %}<|assistant|>\n{% endif -%}")
	}
	return g.b.String()
}

func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

func (g *gen) pick(options ...string) string {
	if g.llama {
		var kept []string
		for _, o := range options {
			if !slices.ContainsFunc(llamaLacks, func(s string) bool { return strings.Contains(o, s) }) {
				kept = append(kept, o)
			}
		}
		if len(kept) > 0 {
			options = kept
		}
	}
	return options[g.r.IntN(len(options))]
}

// llamaLacks are what llama.cpp's engine refuses, at load (//) or whenever it runs
// (filters of no type, unique, map by a filter, loop.cycle, a loop over or unpacking of
// a str): a LlamaTemplate leaves out the options that have them.
var llamaLacks = []string{"//", "batch", "groupby", "wordwrap", "wordcount", "pprint", "center", "|sum", "round(", "loop.cycle", "'ab'", "unique", "map('string')", "|e", ".count(",
	".find(", ".splitlines(", ".zfill(", ".partition(", ".isdigit(", ".isspace(", ".swapcase(", ".casefold(", ".expandtabs(", "map('upper')",
	"{:", "{0}", "%5", "%x", "%-", "urlencode", "xmlattr", "filesizeformat", "forceescape", "striptags", "attr(", "sort_keys",
	"sameas false", "eq 'user'", "in ['user']", "|items", "|list|last", "|min", "|max"}

// dash returns a whitespace control marker, or none.
func (g *gen) dash() string { return g.pick("", "-", "") }

func (g *gen) tag(body string) string { return "{%" + g.dash() + " " + body + " " + g.dash() + "%}" }

func (g *gen) stmts(n int) {
	for range n {
		g.stmt()
	}
}

func (g *gen) stmt() {
	if g.depth > 3 {
		g.print()
		return
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.IntN(10) {
	case 0, 1:
		g.text()
	case 2, 3:
		g.print()
	case 4, 5:
		g.forLoop()
	case 6, 7:
		g.ifStmt()
	case 8:
		g.set()
	case 9:
		switch g.r.IntN(4) {
		case 3:
			// a macro defined where it is called, whose body may read the loop
			// variables around it (Jinja2 closes over them; llama.cpp reads its caller's)
			g.nestedMacro()
		case 0:
			g.b.WriteString(g.tag("set captured") + "")
			g.stmts(1 + g.r.IntN(2))
			g.b.WriteString(g.tag("endset") + "[{{ captured" + g.pick("", "|trim", "|length", "|upper") + " }}]")
		case 1:
			g.b.WriteString(g.tag("filter " + g.pick("upper", "trim", "lower", "replace('a', 'b')")))
			g.stmts(1 + g.r.IntN(2))
			g.b.WriteString(g.tag("endfilter"))
		default:
			g.macroCall()
		}
	}
}

func (g *gen) text() {
	g.b.WriteString(g.pick("<|user|>", "\n", " ", "[INST]", "</s>", "\n\n", "### ", "{ ", " }", "\t", "ü", "—"))
}

func (g *gen) print() {
	g.b.WriteString("{{" + g.dash() + " " + g.expr(0) + " " + g.dash() + "}}")
}

func (g *gen) forLoop() {
	if g.chance(6) {
		// a loop of two names over a dict's items, whose body sets a name read after it
		g.b.WriteString(g.tag("for k, v in " + g.pick("{'a': 1, 'b': x0}.items()", "(messages[0] or {}).items()", "{'z': messages|length}|dictsort")))
		g.b.WriteString("{{ k }}={{ v }};" + g.tag("set x1 = k"))
		g.b.WriteString(g.tag("endfor") + "{{ x1 }}")
		return
	}
	v := fmt.Sprintf("m%d", len(g.loops))
	iter := g.pick("messages", "messages", "messages[1:]", "messages|reverse", "messages[::-1]", "[1, 2, 3]", "tools or []", "messages|selectattr('role', 'equalto', 'user')|list",
		"messages[-2:]", "messages|batch(2)|first", "range(messages|length)", "'ab'", "messages|map(attribute='role')|unique|list")
	filter := ""
	if g.chance(4) {
		filter = " if " + v + ".role is defined"
	}
	g.b.WriteString(g.tag("for " + v + " in " + iter + filter))
	g.loops = append(g.loops, v)
	g.stmts(1 + g.r.IntN(3))
	if g.chance(5) {
		g.b.WriteString(g.tag("if loop.index > 2") + g.tag(g.pick("break", "continue")) + g.tag("endif"))
	}
	g.loops = g.loops[:len(g.loops)-1]
	if g.chance(5) {
		g.b.WriteString(g.tag("else") + "(none)")
	}
	g.b.WriteString(g.tag("endfor"))
}

func (g *gen) ifStmt() {
	g.b.WriteString(g.tag("if " + g.cond()))
	g.stmts(1 + g.r.IntN(2))
	for range g.r.IntN(3) {
		g.b.WriteString(g.tag("elif " + g.cond()))
		g.stmts(1)
	}
	if g.chance(2) {
		g.b.WriteString(g.tag("else"))
		g.stmts(1)
	}
	g.b.WriteString(g.tag("endif"))
}

func (g *gen) set() {
	if g.ns && g.chance(2) {
		g.b.WriteString(g.tag(g.pick(
			"set ns.count = ns.count + 1",
			"set ns.last = "+g.strExpr(),
			"set ns.found = "+g.cond(),
		)))
		return
	}
	switch g.r.IntN(6) {
	case 0:
		g.b.WriteString(g.tag("set x0, x1 = " + g.pick("messages[0].role, 1", "[1, 2]", "(messages|length, 'a')", "'ab'")))
		return
	case 1:
		if g.llama {
			break
		}
		g.b.WriteString(g.tag("with x2 = "+g.expr(1)) + "{{ x2 }}")
		g.stmts(1)
		g.b.WriteString(g.tag("endwith"))
		return
	}
	g.b.WriteString(g.tag("set x" + fmt.Sprint(g.r.IntN(3)) + " = " + g.expr(1)))
}

func (g *gen) macroDef() {
	m := macro{name: fmt.Sprintf("render%d", len(g.macros)), params: 1 + g.r.IntN(2)}
	params := []string{"a"}
	if m.params == 2 {
		// (a default reading a name: llama.cpp evaluates it in the scope of the call)
		params = append(params, "b="+g.pick("''", "'-'", "none", "1", "x1|default('u1')", "(m0.role if m0 is defined else 'u0')"))
	}
	g.b.WriteString(g.tag("macro " + m.name + "(" + strings.Join(params, ", ") + ")"))
	saved, savedLoops, savedIn := g.params, g.loops, g.inMacro
	g.params, g.loops, g.inMacro = []string{"a", "b"}[:m.params], nil, true
	g.depth++
	g.stmts(1 + g.r.IntN(2))
	if m.caller = g.chance(3); m.caller {
		g.b.WriteString("{{ caller(" + g.pick("", "a") + ") if caller is defined else '-' }}")
	}
	g.depth--
	g.params, g.loops, g.inMacro = saved, savedLoops, savedIn
	g.b.WriteString(g.tag("endmacro"))
	g.macros = append(g.macros, m)
}

// nestedMacro defines a macro inside the statement being written and calls it.
func (g *gen) nestedMacro() {
	name := fmt.Sprintf("inner%d", len(g.macros))
	g.b.WriteString(g.tag("macro " + name + "(a)"))
	saved, savedIn := g.params, g.inMacro
	g.params, g.inMacro = []string{"a"}, true
	g.stmts(1 + g.r.IntN(2))
	g.params, g.inMacro = saved, savedIn
	g.b.WriteString(g.tag("endmacro"))
	g.b.WriteString("{{ " + name + "(" + g.expr(1) + ") }}")
	if len(g.loops) > 0 && g.chance(2) {
		g.b.WriteString(g.tag("for m9 in [1, 2]") + "{{ " + name + "(m9) }}" + g.tag("endfor"))
	}
}

func (g *gen) macroCall() {
	if len(g.macros) == 0 {
		g.print()
		return
	}
	if g.chance(4) {
		// a namespace of the calling scope, which a macro may read (llama.cpp)
		g.b.WriteString(g.tag("set ns2 = namespace(v=" + g.strExpr() + ")"))
	}
	m := g.macros[g.r.IntN(len(g.macros))]
	args := []string{g.expr(1)}
	if m.params == 2 && g.chance(2) {
		args = append(args, g.strExpr())
	}
	if g.llama && g.chance(6) {
		// llama.cpp's KwArg: default's keyword argument given as its default, which a
		// call reads as a keyword argument (here b's)
		args = []string{g.value() + "|default(" + g.pick("b", "boolean", "a") + "=" + g.strExpr() + ")"}
	} else if g.chance(3) {
		// keyword arguments, which Jinja2 and llama.cpp bind differently
		switch g.r.IntN(4) {
		case 0:
			args = []string{"a=" + g.expr(1)}
		case 1:
			args = []string{g.expr(1), "b=" + g.strExpr()}
		case 2:
			args = []string{"b=" + g.strExpr()}
		default:
			args = []string{"b=" + g.strExpr(), "a=" + g.expr(1)}
		}
	}
	if m.caller && g.chance(2) {
		g.b.WriteString(g.tag("call" + g.pick("", "(x)") + " " + m.name + "(" + strings.Join(args, ", ") + ")"))
		g.b.WriteString(g.pick("[", "{{ x }}", "{{ caller }}") + g.pick("c", "{{ messages|length }}"))
		g.b.WriteString(g.tag("endcall"))
		return
	}
	if g.chance(4) {
		// through another name: the call of a value, not of the macro's name
		g.b.WriteString(g.tag("set h = "+m.name) + "{{ h(" + strings.Join(args, ", ") + ") }}")
		return
	}
	g.b.WriteString("{{ " + m.name + "(" + strings.Join(args, ", ") + ") }}")
}

// value returns a variable or attribute the template can read here.
func (g *gen) value() string {
	var opts []string
	for _, v := range g.loops {
		opts = append(opts, v, v+".role", v+".content", v+"['role']", v+".get('name', 'anon')", "loop.index", "loop.first", "loop.last",
			"loop.revindex0", "loop.length", "loop.previtem", "loop.nextitem", "loop.cycle('x', 'y')", v+"|string")
	}
	opts = append(opts, g.params...)
	if g.inMacro {
		opts = append(opts, "(m0.role if m0 is defined else 'u0')", "(x1 if x1 is defined else 'u1')", "(ns2.v if ns2 is defined else 'u2')")
	}
	opts = append(opts, "messages|length", "messages[0].role", "messages[-1].content", "bos_token", "enable_thinking", "x0", "tools|length")
	if g.llama {
		// a subscript of several expressions, of which llama.cpp's parser keeps the first
		// (or a slice's first three)
		opts = append(opts, "messages[-1 0].content", "(messages|map(attribute='role')|list)[1 5:]|join")
	}
	if g.ns {
		opts = append(opts, "ns.count", "ns.last", "ns.found")
	}
	return g.pick(opts...)
}

func (g *gen) strExpr() string {
	switch g.r.IntN(4) {
	case 0:
		return g.pick("'a'", "'<b>'", "\"it's\"", "'\\n'", "''", "'ü'")
	case 1:
		return g.value() + "|string"
	case 2:
		return "(" + g.value() + " ~ " + g.pick("'!'", "'\\n'", "' '") + ")"
	default:
		return g.value() + g.pick("|upper", "|lower", "|trim", "|tojson", "|default('d')")
	}
}

func (g *gen) expr(depth int) string {
	if depth > 2 {
		return g.value()
	}
	switch g.r.IntN(16) {
	case 0, 1, 2:
		return g.value()
	case 13:
		// more of the str methods and filters templates use, and Python's formatting
		return "(" + g.strExpr() + ")" + g.pick(".rstrip('!')", ".lstrip()", ".endswith('!')", ".find('a')",
			".splitlines()|length", ".zfill(4)", ".center(6, '*')", ".partition('a')|list", ".isdigit()",
			".isspace()", ".swapcase()", ".casefold()", ".expandtabs(2)", ".rsplit(' ', 1)|last",
			"|striptags", "|urlencode", "|forceescape", "|list|last", "|min", "|max", "|length|abs",
			"|map('upper')|join", "|items|list|length", "|attr('role')", "|tojson(sort_keys=true)")
	case 14:
		return g.pick("'%5.2f' % "+g.value()+"|float", "'%x|%o' % ((messages|length), 8)", "'%-4s|' % "+g.value(),
			"'{:>5}|{:<3}'.format("+g.strExpr()+", 1)", "'{0}{0}'.format("+g.value()+")",
			"messages|map(attribute='role')|select('ne', 'user')|list", "[3, 1, 2]|select('odd')|list",
			"[none, 1, '']|reject('none')|list", "{'b': 2, 'a': "+g.value()+"}|xmlattr", "1500|filesizeformat",
			"[1, 2, 3]|sum / 2", "(messages|length)|abs - 5", "[messages|length, 3]|max", "'A,b'.lower().split(',')")
	case 3:
		return g.strExpr()
	case 4:
		return g.expr(depth+1) + " ~ " + g.expr(depth+1)
	case 5:
		return g.expr(depth+1) + g.pick("|length", "|string", "|list|length", "|tojson", "|first", "|int", "|e",
			"|tojson(indent=2)", "|default('d', true)", "|default(boolean=true)", "|indent(2, first=true)",
			"|replace('a', 'b', 1)", "|round(1, 'floor')", "|truncate(5, true, '..', 0)", "|center(9)",
			"|wordcount", "|reverse|join", "|batch(2)|list|length", "|sum", "|float|round(method='ceil')")
	case 12:
		if !g.llama && g.chance(3) {
			return g.pick("10 / 4", "1.0 / 3", "2 ** 0.5", "1e3", "1_000", "'\\u00e9\\x41'", "("+g.value()+"|string|length) / 3")
		}
		return g.pick("'%s-%d' % ("+g.strExpr()+", messages|length)", "'{}!'.format("+g.value()+")",
			"("+g.strExpr()+").split('a')|join('|')", "("+g.strExpr()+")[::-1]", "("+g.strExpr()+")[1:-1]",
			"("+g.strExpr()+").title()", "("+g.strExpr()+").count('a')", "{'b': 1, 'a': "+g.value()+"}|dictsort|first",
			"{'b': 1, 'a': 2}.items()|list", "("+g.strExpr()+")|wordwrap(3)", "("+g.strExpr()+")|capitalize",
			"messages|slice(2)|list|length", "' x '|float(1.5)", "'12'|int + 1", "("+g.value()+")|pprint")
	case 11:
		return "messages" + g.pick("|map(attribute='role')|join(',')", "|selectattr('role', 'equalto', 'user')|list|length",
			"|rejectattr('content')|list|length", "|sort(attribute='role')|first", "|map(attribute='role', default='?')|list",
			"|groupby('role')|length", "|sum(attribute='content', start='')", "|unique(attribute='role')|list|length")
	case 6:
		return "(" + g.expr(depth+1) + " if " + g.cond() + " else " + g.strExpr() + ")"
	case 7:
		ops, operands := []string{" + ", " * ", " - ", " // ", " % "}, []string{"1", "2", "-2", "(messages|length)", "(" + g.value() + "|string|length)"}
		if !g.llama {
			ops, operands = append(ops, " ** ", " / "), append(operands, "-(messages|length)")
		}
		return g.pick("1", "2", "-3", "0.5", "10", "-7") + g.pick(ops...) + g.pick(operands...)
	case 8:
		return "[" + g.expr(depth+1) + ", " + g.strExpr() + "]" + g.pick("|map('string')|join(',')", "|length", "", "[0]")
	case 9:
		return "(" + g.value() + "|string)" + g.pick(".strip()", ".split()|length", ".startswith('<')", ".replace('a', 'A')", ".upper()", "[:3]", "|title")
	case 10:
		return "{'k': " + g.expr(depth+1) + "}" + g.pick("|tojson", ".k", "['k']", "|length", ".get('z', 0)")
	default:
		return g.pick("none", "true", "false", "'text'", "42", "3.0")
	}
}

func (g *gen) cond() string {
	switch g.r.IntN(9) {
	case 0:
		return g.value() + " == " + g.pick("'user'", "'assistant'", "'system'", "'tool'", "1", "true")
	case 1:
		return g.value() + " is " + g.pick("defined", "none", "string", "mapping", "sequence", "number", "not none", "undefined",
			"integer", "float", "boolean", "lower", "upper", "callable", "iterable", "sameas false", "escaped", "eq 'user'", "in ['user']")
	case 2:
		return g.pick("'a'", "'user'", "'1'") + " in (" + g.value() + "|string)"
	case 3:
		return "not " + g.value()
	case 4:
		return g.cond() + g.pick(" and ", " or ") + g.cond()
	case 5:
		return g.value() + "|string|length " + g.pick(">", "<", "==", ">=") + " " + g.pick("0", "1", "2")
	case 6:
		return g.pick("messages|length is divisibleby(2)", "1 < messages|length < 3", "messages[-1].role in ['user', 'tool']",
			"messages|selectattr('role', 'in', ['user'])|list", "messages[1:]|length > 0", "messages[0] is mapping",
			"(messages|map(attribute='role')|list)[::-1]|first == 'user'", "tools is iterable", "(tools|length) is odd")
	default:
		return g.value()
	}
}

// An object is a JSON object whose keys keep their order.
type object []field

// A field is a key of an object and its value.
type field struct {
	key   string
	value any
}

// set returns o with the value of key set to v: in its place, or added last.
func (o object) set(key string, v any) object {
	for i := range o {
		if o[i].key == key {
			o[i].value = v
			return o
		}
	}
	return append(o, field{key, v})
}

// get returns the value of key, nil when o lacks it.
func (o object) get(key string) any {
	for _, f := range o {
		if f.key == key {
			return f.value
		}
	}
	return nil
}

// MarshalJSON writes o's keys in their order.
func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(f.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// requestTools are the tools Request picks from: the shapes of schema clients send (a
// bare object, descriptions, enums, required fields, nested objects and arrays, numbers
// with bounds, nullable types, unions, none at all).
var requestTools = []json.RawMessage{
	json.RawMessage(`{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}`),
	json.RawMessage(`{"type": "function", "function": {"name": "get_current_weather", "description": "Get the current weather in a given location", ` +
		`"parameters": {"type": "object", "properties": {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}, ` +
		`"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}}}`),
	json.RawMessage(`{"type": "function", "function": {"name": "search", "description": "Search the web.\nReturns the top results.", ` +
		`"parameters": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 5, "minimum": 1}, ` +
		`"safe": {"type": "boolean"}, "filters": {"type": "object", "properties": {"site": {"type": "string"}, "after": {"type": ["string", "null"]}}}, ` +
		`"tags": {"type": "array", "items": {"type": "string"}}, "score": {"type": "number", "maximum": 1.5}}, "required": ["query", "limit"]}}}`),
	json.RawMessage(`{"type": "function", "function": {"name": "no_params", "description": "Takes nothing."}}`),
	json.RawMessage(`{"type": "function", "function": {"name": "lookup_item", "description": "a <b> & 'c' \"q\" — ünï", ` +
		`"parameters": {"type": "object", "properties": {"id": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "either"}}, "required": []}}}`),
}

// toolArguments are the arguments of the tool calls Request makes, as JSON: objects of
// every JSON type, nested, unicode, empty.
var toolArguments = []json.RawMessage{
	json.RawMessage(`{"x": 1}`),
	json.RawMessage(`{"x": "é", "y": [1, 2]}`),
	json.RawMessage(`{"location": "Paris, France", "unit": "celsius"}`),
	json.RawMessage(`{"n": 1.5, "ok": true, "none": null, "nested": {"a": [1, {"b": "c"}]}, "big": 12345678901234}`),
	json.RawMessage(`{}`),
	json.RawMessage(`{"q": "line\nbreak \"quoted\" <tag>"}`),
}

// Request returns a random chat request of seed as JSON: messages of random roles and
// contents (typed parts, images, tool calls with arguments of every JSON type, reasoning
// and names now and then), tools with schemas of the shapes clients send, and the
// fields templates and servers read (chat_template_kwargs, documents, tool_choice,
// reasoning_effort, continue_final_message).
func Request(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x72657175657374))
	pick := func(options ...string) string { return options[r.IntN(len(options))] }
	var msgs []object
	n := 1 + r.IntN(4)
	if r.IntN(8) == 0 {
		n = 0
	}
	for i := range n {
		// a message's keys in the order clients send them (role, content, then the
		// others), or now and then the other way round
		m := object{{"role", pick("user", "assistant", "system", "user", "tool")},
			{"content", pick("Hi", "Hello there", "", "a <b> & 'c'", "ünïcode — ok", "line\nbreak", "  padded  ", fmt.Sprint(i))}}
		if r.IntN(6) == 0 {
			m[0], m[1] = m[1], m[0]
		}
		if r.IntN(12) == 0 {
			m = m.set("role", "developer")
		}
		if r.IntN(6) == 0 {
			m = m.set("content", []any{json.RawMessage(`{"type": "text", "text": "typed"}`)})
		}
		if r.IntN(6) == 0 {
			m = m.set("content", nil)
		}
		if r.IntN(8) == 0 {
			m = m.set("content", []any{json.RawMessage(`{"type": "text", "text": "one"}`), json.RawMessage(`{"type": "text", "text": " two"}`)})
		}
		if r.IntN(16) == 0 {
			m = m.set("content", []any{json.RawMessage(`{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}`),
				json.RawMessage(`{"type": "text", "text": "what is this?"}`)})
		}
		if m.get("role") == "assistant" && r.IntN(3) == 0 {
			var calls []any
			for c := range 1 + r.IntN(2) {
				args := any(toolArguments[r.IntN(len(toolArguments))])
				if r.IntN(2) == 0 {
					args = string(toolArguments[r.IntN(len(toolArguments))])
				}
				if r.IntN(10) == 0 {
					// not JSON, or JSON that Python reads and llama-server's parser
					// (nlohmann::json) does not, or the other way round (a BOM)
					args = pick("not json", "", "[1, 2]", "NaN", `{"t": Infinity}`, "[1e400]", "\ufeff{\"x\": 1}")
				}
				call := object{{"type", "function"}, {"function", object{{"name", pick("f", "get_current_weather")}, {"arguments", args}}}}
				if r.IntN(2) == 0 {
					call = append(object{{"id", fmt.Sprintf("call_%d_%d", i, c)}}, call...)
				}
				calls = append(calls, call)
			}
			m = m.set("tool_calls", calls)
			if r.IntN(20) == 0 {
				// a call not in a list: llama-server iterates an object's values
				m = m.set("tool_calls", calls[0])
			}
		}
		if m.get("role") == "assistant" && r.IntN(4) == 0 {
			m = m.set("reasoning_content", pick("thinking...", "", "a\nb"))
		}
		if m.get("role") == "tool" && r.IntN(2) == 0 {
			m = m.set("tool_call_id", "call_"+fmt.Sprint(i))
		}
		if m.get("role") == "tool" && r.IntN(4) == 0 {
			// a result some handlers parse as JSON (gemma4's tool responses)
			m = m.set("content", pick(`{"temp": 21}`, `{"temp": NaN}`, "[1e400]", "\ufeff[1]", "-0"))
		}
		if r.IntN(5) == 0 {
			m = m.set("name", "n"+fmt.Sprint(i))
		}
		msgs = append(msgs, m)
	}
	if msgs == nil {
		msgs = []object{}
	}
	req := map[string]any{
		"messages":              msgs,
		"add_generation_prompt": r.IntN(2) == 0,
		"bos":                   "<s>",
		"eos":                   "</s>",
	}
	if r.IntN(3) == 0 {
		var tools []any
		for _, t := range r.Perm(len(requestTools))[:1+r.IntN(3)] {
			tools = append(tools, requestTools[t])
		}
		req["tools"] = tools
	}
	if r.IntN(3) == 0 {
		kwargs := map[string]any{"enable_thinking": r.IntN(2) == 0}
		if r.IntN(3) == 0 {
			kwargs["x0"] = []any{"k", 2, nil}[r.IntN(3)] // a variable the programs read
		}
		if r.IntN(30) == 0 {
			// names the servers treat apart: transformers refuses self, vLLM a template
			kwargs[pick("self", "chat_template")] = "x"
		}
		req["chat_template_kwargs"] = kwargs
	}
	if r.IntN(12) == 0 {
		req["documents"] = []any{json.RawMessage(`{"title": "T", "text": "Some <doc> text."}`)}
	}
	if r.IntN(10) == 0 {
		req["tool_choice"] = pick("auto", "none", "required")
	}
	if r.IntN(10) == 0 {
		req["reasoning_effort"] = pick("low", "high", "none")
	}
	if r.IntN(12) == 0 {
		req["continue_final_message"] = true
	}
	// fields of other types than a client should send, which each server reads its way
	if r.IntN(10) == 0 {
		req["add_generation_prompt"] = []any{nil, 0, 1, "false", "yes", 1.0}[r.IntN(6)]
	}
	if r.IntN(15) == 0 {
		req["continue_final_message"] = []any{nil, 1, "content", "reasoning_content", "yes", false}[r.IntN(6)]
	}
	if _, ok := req["chat_template_kwargs"]; !ok && r.IntN(20) == 0 {
		// not an object: none to transformers when false to Python, the pairs of a
		// list of pairs, to llama-server always none; vLLM refuses all but null
		req["chat_template_kwargs"] = []any{[]any{}, false, nil, []any{1}, "x", true, []any{[]any{"x0", "p"}}}[r.IntN(7)]
	}
	if r.IntN(30) == 0 {
		// a message that is not an object, which transformers hands the template as it
		// is and the servers refuse
		odd := make([]any, 0, len(msgs)+1)
		for _, m := range msgs {
			odd = append(odd, m)
		}
		odd = slices.Insert(odd, r.IntN(len(msgs)+1), []any{"Hi", 5, nil, []any{"user", "Hi"}}[r.IntN(4)])
		req["messages"] = odd
	}
	if r.IntN(40) == 0 {
		// a template of the request's, which vLLM refuses and the others ignore
		req["chat_template"] = pick("{{ 'x' }}", "")
	}
	if r.IntN(20) == 0 {
		// tools or documents that are not a list: transformers hands the template the
		// value; llama-server refuses such tools and never reads documents; vLLM iterates
		// tools as Python does and refuses such documents
		req[pick("tools", "documents")] = []any{map[string]any{}, map[string]any{"type": "function"}, "", "x", false, 0}[r.IntN(6)]
	}
	b, err := json.Marshal(req)
	if err != nil {
		panic(err) // the values are all JSON
	}
	return b
}
