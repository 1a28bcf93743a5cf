package syntax

import (
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"
)

// MaxNesting bounds how deeply statements and expressions may nest, so that hostile
// input cannot exhaust the stack. Real templates nest fewer than 30 levels.
const MaxNesting = 400

// MaxElifs bounds the elif branches of one if statement. Jinja2 takes any number, but
// Go code of a chain of n else-ifs takes a type check quadratic in n (each branch is a
// scope inside the one before): 2,000 compile in a second, 20,000 in a minute. Real
// templates have fewer than 60.
const MaxElifs = 2000

// MaxCallNesting bounds how deeply call blocks nest. Each one's body is a Go function
// literal inside the call's arguments, which go/printer formats in time cubic in their
// depth: 300 took 14 s, 50 take a tenth of a second. Real templates nest one or two.
const MaxCallNesting = 50

// Parse reads template text into a syntax tree. The text is normalized first as Jinja2
// does (\r\n and \r become \n, one trailing newline is dropped). Errors are *Error values
// naming the line and column.
func Parse(src string) (*Template, error) {
	t, _, err := parse(src, false)
	return t, err
}

// ParseLlama is Parse as llama.cpp's lexer and parser read the text where they differ
// from Jinja2's: the whitespace they strip around tags is ASCII only (see
// lexer.stripBefore); a text ending in a lone \r keeps its last newline; a macro's
// parameter may be *name (Param.Star); a number is digits and a fraction (lexer.llamaNumber); list items,
// dict pairs and call arguments need no commas; a positional argument may follow a keyword
// one (Keyword.PositionalAfter); a parameter without a default may follow
// one with; x.0 is an attribute that is no name (a Getattr whose Name is digits, which
// llama.cpp's engine fails when it evaluates it). differs reports that the tree differs
// from Parse's for a text both read.
func ParseLlama(src string) (t *Template, differs bool, err error) {
	return parse(src, true)
}

// parse is Parse, or ParseLlama for llama.
func parse(src string, llama bool) (*Template, bool, error) {
	if len(src) > MaxTemplateSize {
		return nil, false, &Error{Pos: Pos{1, 1}, Msg: fmt.Sprintf("template is %d bytes, more than the %d allowed", len(src), MaxTemplateSize)}
	}
	if !utf8.ValidString(src) {
		off := 0
		for off < len(src) {
			r, size := utf8.DecodeRuneInString(src[off:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			off += size
		}
		line := strings.Count(src[:off], "\n") + 1
		col := utf8.RuneCountInString(src[strings.LastIndexByte(src[:off], '\n')+1:off]) + 1
		return nil, false, &Error{Pos: Pos{line, col}, Msg: fmt.Sprintf("template is not valid UTF-8 (byte offset %d)", off)}
	}
	l := &lexer{llama: llama}
	text := NormalizeNewlines(src)
	if llama && strings.HasSuffix(src, "\r") {
		// llama.cpp's lexer drops a trailing newline only when the text ends with "\n":
		// a lone "\r" there becomes one and stays
		text += "\n"
		l.llamaDiffers = true
	}
	toks, err := l.lex(text)
	if err != nil {
		return nil, false, err
	}
	p := &parser{toks: toks, llama: llama}
	body, err := p.parseAll()
	if err != nil {
		return nil, false, err
	}
	return &Template{Body: body}, l.llamaDiffers || p.llamaDiffers, nil
}

type parser struct {
	toks     []token
	i        int
	tagStack []string   // statements being parsed, for error messages
	endStack [][]string // end tags being looked for, for error messages
	depth    int
	calls    int // the call blocks being parsed
	// llama reads what llama.cpp's parser reads where Jinja2's refuses it (ParseLlama):
	// list items, dict pairs, call arguments and subscripts without commas, parameters
	// without defaults after defaulted ones; llamaDiffers records a tree that differs
	// from Jinja2's (x.0)
	llama, llamaDiffers bool
}

// failure is the panic value that carries a syntax error up to Parse.
type failure struct{ err *Error }

func (p *parser) parseAll() (body []Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			body, err = nil, f.err
		}
	}()
	return p.subparse(nil), nil
}

func (p *parser) failAt(pos Pos, format string, args ...any) {
	panic(failure{&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) fail(format string, args ...any) {
	p.failAt(p.cur().pos, format, args...)
}

func (p *parser) cur() token { return p.toks[p.i] }

func (p *parser) look() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// enter guards recursion depth; the returned function leaves.
func (p *parser) enter() func() {
	p.depth++
	if p.depth > MaxNesting {
		p.fail("template nests more than %d levels deep", MaxNesting)
	}
	return func() { p.depth-- }
}

// chain starts a chain of operations (a or b or c, x.a[0].b, x|f|g): each operation
// nests the ones before it one level deeper in the tree (deeper), and the returned
// function restores the depth at its start. A long chain is as deep a tree as as many
// parentheses, which every later pass walks recursively.
func (p *parser) chain() func() {
	depth := p.depth
	return func() { p.depth = depth }
}

// deeper counts one more operation of a chain (see chain).
func (p *parser) deeper() {
	p.depth++
	if p.depth > MaxNesting {
		p.fail("template nests more than %d levels deep", MaxNesting)
	}
}

func (p *parser) skipName(name string) bool {
	if p.cur().is(name) {
		p.i++
		return true
	}
	return false
}

func (p *parser) skipOp(op string) bool {
	if p.cur().isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectKind(kind tokenKind) token {
	t := p.cur()
	if t.kind != kind {
		p.unexpected(kind.String())
	}
	return p.next()
}

func (p *parser) expectOp(op string) token {
	if !p.cur().isOp(op) {
		p.unexpected(op)
	}
	return p.next()
}

func (p *parser) expectName(name string) token {
	if !p.cur().is(name) {
		p.unexpected(name)
	}
	return p.next()
}

func (p *parser) unexpected(want string) {
	t := p.cur()
	if t.kind == tokEOF {
		p.fail("unexpected end of template, expected '%s'.", want)
	}
	p.fail("expected token '%s', got '%s'", want, t.describe())
}

// subparse parses statements and data until one of the end tags (names after {%) or
// the end of the template when ends is nil. The current token is left on the end tag.
func (p *parser) subparse(ends []string) []Node {
	defer p.enter()()
	var body []Node
	if ends != nil {
		p.endStack = append(p.endStack, ends)
		defer func() { p.endStack = p.endStack[:len(p.endStack)-1] }()
	}
	for {
		t := p.cur()
		switch t.kind {
		case tokEOF:
			return body
		case tokData:
			p.next()
			body = append(body, &Data{At{t.pos}, t.text})
		case tokVarBegin:
			p.next()
			x := p.parseTuple(tupleOpts{condexpr: true})
			p.expectKind(tokVarEnd)
			body = append(body, &Print{At{t.pos}, x})
		case tokBlockBegin:
			p.next()
			if ends != nil {
				for _, e := range ends {
					if p.cur().is(e) {
						return body
					}
				}
			}
			body = append(body, p.parseStatement(t.pos))
			p.expectKind(tokBlockEnd)
		default:
			p.fail("unexpected '%s'", t.describe())
		}
	}
}

// parseStatements parses a statement body after its opening tag up to one of the end
// tags; with drop the end tag name is consumed.
func (p *parser) parseStatements(ends []string, drop bool) []Node {
	p.skipOp(":")
	p.expectKind(tokBlockEnd)
	body := p.subparse(ends)
	if p.cur().kind == tokEOF {
		p.failEOF(ends)
	}
	if drop {
		p.next()
	}
	return body
}

func (p *parser) failEOF(ends []string) {
	stack := append(append([][]string{}, p.endStack...), ends)
	p.failUnknown("", stack)
}

// failUnknown reports an unknown tag (or, with an empty name, the end of the template)
// with the hints Jinja2 gives.
func (p *parser) failUnknown(name string, stack [][]string) {
	var msg []string
	if name == "" {
		msg = append(msg, "Unexpected end of template.")
	} else {
		msg = append(msg, fmt.Sprintf("Encountered unknown tag '%s'.", name))
	}
	if len(stack) > 0 {
		expected := map[string]bool{}
		for _, ends := range stack {
			for _, e := range ends {
				expected[e] = true
			}
		}
		var quoted []string
		for _, e := range stack[len(stack)-1] {
			quoted = append(quoted, "'"+e+"'")
		}
		looking := strings.Join(quoted, " or ")
		if name != "" && expected[name] {
			msg = append(msg, "You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for "+looking+".")
		} else {
			msg = append(msg, "Jinja was looking for the following tags: "+looking+".")
		}
	}
	if len(p.tagStack) > 0 {
		msg = append(msg, fmt.Sprintf("The innermost block that needs to be closed is '%s'.", p.tagStack[len(p.tagStack)-1]))
	}
	p.fail("%s", strings.Join(msg, " "))
}

func (p *parser) parseStatement(pos Pos) Node {
	t := p.cur()
	if t.kind != tokName {
		p.fail("tag name expected")
	}
	if t.text == "autoescape" && !p.llama {
		// Jinja2 renders it (escaping what {{ }} writes in the block); llama.cpp refuses it
		// as a tag it does not know
		p.fail("tmplgen does not compile {%% autoescape %%} blocks, which no known chat template uses")
	}
	if !statementTags[t.text] {
		p.failUnknown(t.text, p.endStack)
	}
	p.tagStack = append(p.tagStack, t.text)
	defer func() { p.tagStack = p.tagStack[:len(p.tagStack)-1] }()
	switch t.text {
	case "for":
		return p.parseFor(pos)
	case "if":
		return p.parseIf(pos)
	case "set":
		return p.parseSet(pos)
	case "macro":
		return p.parseMacro(pos)
	case "call":
		return p.parseCallBlock(pos)
	case "filter":
		return p.parseFilterBlock(pos)
	case "with":
		return p.parseWith(pos)
	case "block":
		return p.parseBlock(pos)
	case "print":
		p.next()
		var items []Expr
		for p.cur().kind != tokBlockEnd {
			if len(items) > 0 {
				p.expectOp(",")
			}
			items = append(items, p.parseExpression(true))
		}
		if len(items) == 1 {
			return &Print{At{pos}, items[0]}
		}
		return &Print{At{pos}, &Tuple{At{pos}, items}}
	case "break", "continue":
		p.next()
		if t.text == "break" {
			return &Break{At{pos}}
		}
		return &Continue{At{pos}}
	case "generation":
		p.next()
		return &Generation{At{pos}, p.parseStatements([]string{"endgeneration"}, true)}
	case "include", "import", "from", "extends":
		return p.parseLoaderTag(pos)
	}
	panic("unreachable: " + t.text)
}

// statementTags are the tags that start a statement.
var statementTags = map[string]bool{
	"for": true, "if": true, "set": true, "macro": true, "call": true, "filter": true, "with": true,
	"block": true, "print": true, "break": true, "continue": true, "generation": true,
	"include": true, "import": true, "from": true, "extends": true,
}

func (p *parser) parseFor(pos Pos) Node {
	p.next()
	// the target and the iterable are tuples that end only where isTupleEnd says
	target := p.parseAssignTarget(assignOpts{tuple: true})
	p.expectName("in")
	iter := p.parseTuple(tupleOpts{})
	var test Expr
	if p.skipName("if") {
		test = p.parseExpression(true)
	}
	recursive := p.skipName("recursive")
	body := p.parseStatements([]string{"endfor", "else"}, false)
	var els []Node
	if p.next().text == "else" {
		els = p.parseStatements([]string{"endfor"}, true)
	}
	return &For{At: At{pos}, Target: target, Iter: iter, Test: test, Recursive: recursive, Body: body, Else: els}
}

func (p *parser) parseIf(pos Pos) Node {
	p.next()
	result := &If{At: At{pos}}
	node := result
	for {
		node.Test = p.parseTuple(tupleOpts{})
		node.Body = p.parseStatements([]string{"elif", "else", "endif"}, false)
		t := p.next()
		if t.text == "elif" {
			if len(result.Elifs) == MaxElifs {
				p.failAt(t.pos, "an if statement with more than %d elif branches", MaxElifs)
			}
			node = &If{At: At{t.pos}}
			result.Elifs = append(result.Elifs, node)
			continue
		}
		if t.text == "else" {
			result.ElsePos = t.pos
			result.Else = p.parseStatements([]string{"endif"}, true)
		}
		return result
	}
}

func (p *parser) parseSet(pos Pos) Node {
	p.next()
	target := p.parseAssignTarget(assignOpts{tuple: true, namespace: true})
	if p.skipOp("=") {
		return &Set{At{pos}, target, p.parseTuple(tupleOpts{condexpr: true})}
	}
	filter := p.parseFilter(nil, false)
	body := p.parseStatements([]string{"endset"}, true)
	f, _ := filter.(*Filter)
	return &SetBlock{At{pos}, target, f, body}
}

func (p *parser) parseSignature() []Param {
	var params []Param
	p.expectOp("(")
	seenDefault := false
	for !p.cur().isOp(")") {
		if len(params) > 0 {
			p.separator()
		}
		star := p.llama && p.skipOp("*")
		t := p.expectKind(tokName)
		param := Param{At: At{t.pos}, Name: t.text, Star: star}
		if star {
			params = append(params, param)
			continue
		}
		if p.skipOp("=") {
			param.Default = p.parseExpression(true)
			seenDefault = true
		} else if seenDefault && !p.llama {
			p.fail("non-default argument follows default argument")
		}
		params = append(params, param)
	}
	p.expectOp(")")
	return params
}

func (p *parser) parseMacro(pos Pos) Node {
	p.next()
	name := p.expectKind(tokName).text
	params := p.parseSignature()
	body := p.parseStatements([]string{"endmacro"}, true)
	return &Macro{At{pos}, name, params, body}
}

func (p *parser) parseCallBlock(pos Pos) Node {
	p.next()
	var params []Param
	if p.cur().isOp("(") {
		params = p.parseSignature()
	}
	x := p.parseExpression(true)
	call, ok := x.(*Call)
	if !ok {
		p.failAt(pos, "expected call")
	}
	p.calls++
	if p.calls > MaxCallNesting {
		p.failAt(pos, "call blocks nest more than %d deep", MaxCallNesting)
	}
	body := p.parseStatements([]string{"endcall"}, true)
	p.calls--
	return &CallBlock{At{pos}, params, call, body}
}

func (p *parser) parseFilterBlock(pos Pos) Node {
	p.next()
	f := p.parseFilter(nil, true).(*Filter)
	body := p.parseStatements([]string{"endfilter"}, true)
	return &FilterBlock{At{pos}, f, body}
}

func (p *parser) parseWith(pos Pos) Node {
	p.next()
	w := &With{At: At{pos}}
	for p.cur().kind != tokBlockEnd {
		if len(w.Targets) > 0 {
			p.expectOp(",")
		}
		w.Targets = append(w.Targets, p.parseAssignTarget(assignOpts{tuple: true}))
		p.expectOp("=")
		w.Values = append(w.Values, p.parseExpression(true))
	}
	w.Body = p.parseStatements([]string{"endwith"}, true)
	return w
}

func (p *parser) parseBlock(pos Pos) Node {
	p.next()
	name := p.expectKind(tokName).text
	scoped := p.skipName("scoped")
	required := p.skipName("required")
	if p.cur().isOp("-") {
		p.fail("Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.")
	}
	body := p.parseStatements([]string{"endblock"}, true)
	if required {
		for _, n := range body {
			if d, ok := n.(*Data); !ok || strings.TrimSpace(d.Text) != "" {
				p.fail("Required blocks can only contain comments or whitespace")
			}
		}
	}
	p.skipName(name)
	return &Block{At{pos}, name, scoped, required, body}
}

// parseLoaderTag parses include, import, from and extends, which need a template loader
// to render; their syntax is checked as Jinja2 checks it.
func (p *parser) parseLoaderTag(pos Pos) Node {
	tag := p.next().text
	p.parseExpression(true)
	switch tag {
	case "include":
		if p.cur().is("ignore") && p.look().is("missing") {
			p.i += 2
		}
	case "import":
		p.expectName("as")
		p.expectKind(tokName)
	case "from":
		p.expectName("import")
		for {
			if p.cur().kind != tokName || ((p.cur().is("with") || p.cur().is("without")) && p.look().is("context")) {
				break
			}
			p.next()
			if p.skipName("as") {
				p.expectKind(tokName)
			}
			if !p.skipOp(",") {
				break
			}
		}
	}
	if tag != "extends" && (p.cur().is("with") || p.cur().is("without")) && p.look().is("context") {
		p.i += 2
	}
	return &Unsupported{At{pos}, tag}
}

// assignOpts configure parseAssignTarget.
type assignOpts struct {
	tuple     bool
	namespace bool
}

func (p *parser) parseAssignTarget(o assignOpts) Expr {
	var target Expr
	if o.tuple {
		target = p.parseTuple(tupleOpts{simplified: true, namespace: o.namespace})
	} else {
		target = p.parsePrimary(o.namespace)
	}
	if !canAssign(target) {
		p.failAt(target.Position(), "can't assign to '%s'", nodeKind(target))
	}
	return target
}

func canAssign(x Expr) bool {
	switch x := x.(type) {
	case *Name, *NSRef:
		return true
	case *Tuple:
		for _, it := range x.Items {
			if !canAssign(it) {
				return false
			}
		}
		return true
	}
	return false
}

func nodeKind(x Expr) string {
	return strings.ToLower(strings.TrimPrefix(fmt.Sprintf("%T", x), "*syntax."))
}

// parseExpression parses an expression, with inline if/else unless condexpr is false.
func (p *parser) parseExpression(condexpr bool) Expr {
	if condexpr {
		return p.parseCondExpr()
	}
	return p.parseOr()
}

func (p *parser) parseCondExpr() Expr {
	defer p.enter()()
	pos := p.cur().pos
	x := p.parseOr()
	defer p.chain()()
	for p.skipName("if") {
		p.deeper()
		test := p.parseOr()
		var els Expr
		if p.skipName("else") {
			els = p.parseCondExpr()
		}
		x = &CondExpr{At{pos}, test, x, els}
	}
	return x
}

// The binary operators take their positions as Jinja2's parser gives their nodes
// line numbers (what its tracebacks name): the first operation of a chain is where the
// chain starts, each later one where its operator is.

func (p *parser) parseOr() Expr {
	defer p.chain()()
	pos := p.cur().pos
	x := p.parseAnd()
	for p.cur().is("or") {
		p.deeper()
		p.next()
		x = &Binary{At: At{pos}, Op: OpOr, L: x, R: p.parseAnd()}
		pos = p.cur().pos
	}
	return x
}

func (p *parser) parseAnd() Expr {
	defer p.chain()()
	pos := p.cur().pos
	x := p.parseNot()
	for p.cur().is("and") {
		p.deeper()
		p.next()
		x = &Binary{At: At{pos}, Op: OpAnd, L: x, R: p.parseNot()}
		pos = p.cur().pos
	}
	return x
}

func (p *parser) parseNot() Expr {
	if p.cur().is("not") {
		defer p.enter()()
		pos := p.next().pos
		return &Unary{At{pos}, OpNot, p.parseNot()}
	}
	return p.parseCompare()
}

var compareOps = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (p *parser) parseCompare() Expr {
	defer p.chain()()
	pos := p.cur().pos
	x := p.parseMath1()
	var ops []Operand
	operand := func(op string) {
		if len(ops) > 0 {
			p.deeper() // a < b < c is (a < b) and (b < c)
		}
		ops = append(ops, Operand{op, p.parseMath1()})
	}
	for {
		t := p.cur()
		switch {
		case t.kind == tokOp && compareOps[t.text]:
			p.next()
			operand(t.text)
		case t.is("in"):
			p.next()
			operand("in")
		case t.is("not") && p.look().is("in"):
			p.i += 2
			operand("notin")
		default:
			if len(ops) == 0 {
				return x
			}
			return &Compare{At{pos}, x, ops}
		}
	}
}

func (p *parser) parseMath1() Expr {
	defer p.chain()()
	pos := p.cur().pos
	x, _ := p.parseConcat()
	for p.cur().isOp("+") || p.cur().isOp("-") {
		p.deeper()
		t := p.next()
		r, chain := p.parseConcat()
		x = &Binary{At{pos}, t.text, x, r, chain}
		pos = p.cur().pos
	}
	return x
}

// parseConcat parses a ~ b ~ ...; chain reports that it read a ~ (not one operand,
// which may be a ~ chain in parentheses).
func (p *parser) parseConcat() (x Expr, chain bool) {
	pos := p.cur().pos
	items := []Expr{p.parseMath2()}
	for p.skipOp("~") {
		items = append(items, p.parseMath2())
	}
	if len(items) == 1 {
		return items[0], false
	}
	return &Concat{At{pos}, items}, true
}

func (p *parser) parseMath2() Expr {
	defer p.chain()()
	pos := p.cur().pos
	x := p.parsePow()
	for {
		t := p.cur()
		if !(t.isOp("*") || t.isOp("/") || t.isOp("//") || t.isOp("%")) {
			return x
		}
		p.deeper()
		p.next()
		x = &Binary{At: At{pos}, Op: t.text, L: x, R: p.parsePow()}
		pos = p.cur().pos
	}
}

func (p *parser) parsePow() Expr {
	defer p.chain()()
	pos := p.cur().pos
	x := p.parseUnary(true)
	for p.cur().isOp("**") {
		p.deeper()
		p.next()
		x = &Binary{At: At{pos}, Op: OpPow, L: x, R: p.parseUnary(true)}
		pos = p.cur().pos
	}
	return x
}

func (p *parser) parseUnary(withFilter bool) Expr {
	defer p.enter()()
	t := p.cur()
	var x Expr
	switch {
	case t.isOp("-"):
		p.next()
		x = &Unary{At{t.pos}, OpNeg, p.parseUnary(false)}
	case t.isOp("+"):
		p.next()
		x = &Unary{At{t.pos}, OpPos, p.parseUnary(false)}
	default:
		x = p.parsePrimary(false)
	}
	x = p.parsePostfix(x)
	if withFilter {
		x = p.parseFilterExpr(x)
	}
	return x
}

func (p *parser) parsePrimary(namespace bool) Expr {
	t := p.cur()
	switch t.kind {
	case tokName:
		p.next()
		switch t.text {
		case "true", "True":
			return &Const{At{t.pos}, true}
		case "false", "False":
			return &Const{At{t.pos}, false}
		case "none", "None":
			return &Const{At{t.pos}, nil}
		}
		if namespace && p.cur().isOp(".") {
			p.next()
			attr := p.expectKind(tokName)
			return &NSRef{At{t.pos}, t.text, attr.text}
		}
		return &Name{At{t.pos}, t.text}
	case tokString:
		p.next()
		s := t.str
		for p.cur().kind == tokString {
			s += p.next().str
		}
		return &Const{At{t.pos}, s}
	case tokInt:
		p.next()
		return &Const{At{t.pos}, new(big.Int).Set(t.int)}
	case tokFloat:
		p.next()
		return &Const{At{t.pos}, t.float}
	case tokOp:
		switch t.text {
		case "(":
			p.next()
			x := p.parseTuple(tupleOpts{condexpr: true, explicitParens: true})
			p.expectOp(")")
			return x
		case "[":
			return p.parseList()
		case "{":
			return p.parseDict()
		}
	}
	p.fail("unexpected '%s'", t.describe())
	return nil
}

// tupleOpts configure parseTuple.
type tupleOpts struct {
	simplified     bool // only names and literals (assignment targets)
	condexpr       bool
	explicitParens bool
	namespace      bool
}

// isTupleEnd reports whether a tuple ends at the current token, after a trailing
// comma: only at }}, %} and ). Jinja2 passes its parse_tuple extra end names (the "in"
// of a for target, the "recursive" of a for iterable) but never honours them
// (TokenStream.test_any receives them as one tuple argument), so in Jinja2
// {% for a, in x %} is a syntax error, and so it is here.
func (p *parser) isTupleEnd() bool {
	t := p.cur()
	return t.kind == tokVarEnd || t.kind == tokBlockEnd || t.isOp(")")
}

func (p *parser) parseTuple(o tupleOpts) Expr {
	defer p.enter()()
	pos := p.cur().pos
	var items []Expr
	isTuple := false
	for {
		if len(items) > 0 {
			p.expectOp(",")
		}
		if p.isTupleEnd() {
			break
		}
		if o.simplified {
			items = append(items, p.parsePrimary(o.namespace))
		} else {
			items = append(items, p.parseExpression(o.condexpr))
		}
		if !p.cur().isOp(",") {
			break
		}
		isTuple = true
	}
	if !isTuple {
		if len(items) > 0 {
			return items[0]
		}
		if !o.explicitParens {
			p.fail("Expected an expression, got '%s'", p.cur().describe())
		}
	}
	return &Tuple{At{pos}, items}
}

// separator reads the comma between two items of a list, a dict or a call's arguments,
// which llama.cpp's parser does not require.
func (p *parser) separator() {
	if p.llama {
		p.skipOp(",")
		return
	}
	p.expectOp(",")
}

func (p *parser) parseList() Expr {
	t := p.expectOp("[")
	var items []Expr
	for !p.cur().isOp("]") {
		if len(items) > 0 {
			p.separator()
		}
		if p.cur().isOp("]") {
			break
		}
		items = append(items, p.parseExpression(true))
	}
	p.expectOp("]")
	return &List{At{t.pos}, items}
}

func (p *parser) parseDict() Expr {
	t := p.expectOp("{")
	var items []Pair
	for !p.cur().isOp("}") {
		if len(items) > 0 {
			p.separator()
		}
		if p.cur().isOp("}") {
			break
		}
		k := p.parseExpression(true)
		p.expectOp(":")
		items = append(items, Pair{k, p.parseExpression(true)})
	}
	p.expectOp("}")
	return &Dict{At{t.pos}, items}
}

func (p *parser) parsePostfix(x Expr) Expr {
	defer p.chain()()
	for {
		t := p.cur()
		switch {
		case t.isOp(".") || t.isOp("["):
			p.deeper()
			x = p.parseSubscript(x)
		case t.isOp("("):
			p.deeper()
			x = p.parseCall(x)
		default:
			return x
		}
	}
}

func (p *parser) parseFilterExpr(x Expr) Expr {
	defer p.chain()()
	for {
		t := p.cur()
		switch {
		case t.isOp("|"):
			p.deeper()
			x = p.parseFilter(x, false)
		case t.is("is"):
			p.deeper()
			x = p.parseTest(x)
		case t.isOp("("):
			p.deeper()
			x = p.parseCall(x)
		default:
			return x
		}
	}
}

func (p *parser) parseSubscript(x Expr) Expr {
	defer p.enter()()
	t := p.next()
	if t.isOp(".") {
		a := p.next()
		switch a.kind {
		case tokName:
			return &Getattr{At{t.pos}, x, a.text}
		case tokInt:
			if p.llama {
				p.llamaDiffers = true
				return &Getattr{At{t.pos}, x, a.text}
			}
			return &Getitem{At{t.pos}, x, &Const{At{a.pos}, new(big.Int).Set(a.int)}}
		}
		p.failAt(a.pos, "expected name or number")
	}
	if p.llama {
		if sub, ok := p.parseLlamaSubscript(); ok {
			return &Getitem{At{t.pos}, x, sub}
		}
	}
	var args []Expr
	for !p.cur().isOp("]") {
		if len(args) > 0 {
			p.expectOp(",")
		}
		args = append(args, p.parseSubscribed())
	}
	p.expectOp("]")
	if len(args) == 1 {
		return &Getitem{At{t.pos}, x, args[0]}
	}
	return &Getitem{At{t.pos}, x, &Tuple{At{t.pos}, args}}
}

// parseLlamaSubscript reads the inside of a subscript and its closing bracket as
// llama.cpp's parser does (parse_member_expression_arguments): expressions up to the
// bracket, without commas, a colon after one or in its place making the subscript a
// slice of the first three; the others are read and dropped. It reads nothing and
// returns false for an empty subscript.
func (p *parser) parseLlamaSubscript() (Expr, bool) {
	if p.cur().isOp("]") {
		return nil, false
	}
	pos := p.cur().pos
	var parts []Expr
	slice, adjacent, afterExpr := false, false, false
	for !p.cur().isOp("]") {
		if p.cur().isOp(":") {
			p.next()
			parts, slice, afterExpr = append(parts, nil), true, false
			continue
		}
		adjacent = adjacent || afterExpr // two expressions without a colon, which Jinja2 refuses
		parts, afterExpr = append(parts, p.parseExpression(true)), true
		if p.cur().isOp(":") {
			p.next()
			slice, afterExpr = true, false
		}
	}
	p.expectOp("]")
	if !slice {
		p.llamaDiffers = p.llamaDiffers || len(parts) > 1
		return parts[0], true
	}
	p.llamaDiffers = p.llamaDiffers || adjacent || len(parts) > 3
	parts = append(parts, nil, nil, nil)
	return &Slice{At{pos}, parts[0], parts[1], parts[2]}, true
}

func (p *parser) parseSubscribed() Expr {
	pos := p.cur().pos
	var parts []Expr
	if p.cur().isOp(":") {
		p.next()
		parts = []Expr{nil}
	} else {
		x := p.parseExpression(true)
		if !p.cur().isOp(":") {
			return x
		}
		p.next()
		parts = []Expr{x}
	}
	switch t := p.cur(); {
	case t.isOp(":"):
		parts = append(parts, nil)
	case !t.isOp("]") && !t.isOp(","):
		parts = append(parts, p.parseExpression(true))
	default:
		parts = append(parts, nil)
	}
	if p.cur().isOp(":") {
		p.next()
		if t := p.cur(); !t.isOp("]") && !t.isOp(",") {
			parts = append(parts, p.parseExpression(true))
		} else {
			parts = append(parts, nil)
		}
	} else {
		parts = append(parts, nil)
	}
	return &Slice{At{pos}, parts[0], parts[1], parts[2]}
}

func (p *parser) parseCallArgs() Args {
	open := p.expectOp("(")
	var a Args
	ensure := func(ok bool) {
		if !ok {
			p.failAt(open.pos, "invalid syntax for function call expression")
		}
	}
	requireComma := false
	for !p.cur().isOp(")") {
		if requireComma {
			p.separator()
			if p.cur().isOp(")") {
				break
			}
		}
		switch t := p.cur(); {
		case t.isOp("*"):
			ensure(a.DynArgs == nil && a.DynKwargs == nil)
			p.next()
			a.DynArgs = p.parseExpression(true)
		case t.isOp("**"):
			ensure(a.DynKwargs == nil)
			p.next()
			a.DynKwargs = p.parseExpression(true)
		case t.kind == tokName && p.look().isOp("="):
			ensure(a.DynKwargs == nil)
			p.i += 2
			a.Kwargs = append(a.Kwargs, Keyword{Name: t.text, Value: p.parseExpression(true)})
		default:
			ensure(a.DynArgs == nil && a.DynKwargs == nil && (len(a.Kwargs) == 0 || p.llama))
			for i := range a.Kwargs {
				a.Kwargs[i].PositionalAfter++
			}
			a.Args = append(a.Args, p.parseExpression(true))
		}
		requireComma = true
	}
	p.expectOp(")")
	return a
}

func (p *parser) parseCall(fn Expr) Expr {
	defer p.enter()()
	pos := p.cur().pos
	return &Call{At{pos}, fn, p.parseCallArgs()}
}

// parseFilter parses | name(args) filters applied to x; inline starts without a pipe
// (filter blocks).
func (p *parser) parseFilter(x Expr, inline bool) Expr {
	for p.cur().isOp("|") || inline {
		defer p.enter()()
		if !inline {
			p.next()
		}
		t := p.expectKind(tokName)
		name := t.text
		for p.cur().isOp(".") {
			p.next()
			name += "." + p.expectKind(tokName).text
		}
		var args Args
		if p.cur().isOp("(") {
			args = p.parseCallArgs()
		}
		x = &Filter{At{t.pos}, x, name, args}
		inline = false
	}
	return x
}

var testArgStarts = map[tokenKind]bool{tokName: true, tokString: true, tokInt: true, tokFloat: true}

func (p *parser) parseTest(x Expr) Expr {
	defer p.enter()()
	is := p.next()
	negated := p.skipName("not")
	name := p.expectKind(tokName).text
	for p.cur().isOp(".") {
		p.next()
		name += "." + p.expectKind(tokName).text
	}
	var args Args
	t := p.cur()
	switch {
	case t.isOp("("):
		args = p.parseCallArgs()
	case (testArgStarts[t.kind] || t.isOp("[") || t.isOp("{")) && !t.is("else") && !t.is("or") && !t.is("and"):
		if t.is("is") {
			p.fail("You cannot chain multiple tests with is")
		}
		args.Args = []Expr{p.parsePostfix(p.parsePrimary(false))}
	}
	var result Expr = &Test{At{is.pos}, x, name, args}
	if negated {
		result = &Unary{At{is.pos}, OpNot, result}
	}
	return result
}
