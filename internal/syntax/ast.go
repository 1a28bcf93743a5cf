package syntax

import "math/big"

// Node is a statement of a template body.
type Node interface {
	Position() Pos
}

// Expr is an expression.
type Expr interface {
	Position() Pos
}

// At is embedded in every node to carry its position.
type At struct{ P Pos }

// Position returns where the node starts in the template.
func (a At) Position() Pos { return a.P }

// Template is a parsed template.
type Template struct {
	Body []Node
}

// Data is literal template text, whitespace control already applied.
type Data struct {
	At
	Text string
}

// Print is {{ expr }} or {% print expr %}.
type Print struct {
	At
	X Expr
}

// If is {% if %} with its elif branches and else.
type If struct {
	At
	Test  Expr
	Body  []Node
	Elifs []*If
	Else  []Node
	// ElsePos is where the else keyword is, the zero Pos without an else.
	ElsePos Pos
}

// For is {% for target in iter [if test] [recursive] %}body{% else %}else{% endfor %}.
type For struct {
	At
	Target    Expr // *Name or *Tuple of names
	Iter      Expr
	Test      Expr // nil when there is no inline if
	Recursive bool
	Body      []Node
	Else      []Node
}

// Set is {% set target = value %}.
type Set struct {
	At
	Target Expr // *Name, *NSRef or *Tuple
	Value  Expr
}

// SetBlock is {% set target | filters %}body{% endset %}.
type SetBlock struct {
	At
	Target Expr
	Filter *Filter // applied to the captured text; its X is nil; may be nil
	Body   []Node
}

// Param is a macro or call-block parameter.
type Param struct {
	At
	Name    string
	Default Expr // nil when required
	// Star marks *name, which llama.cpp's parser reads among a macro's parameters
	// (ParseLlama) and Jinja2's refuses
	Star bool
}

// Macro is {% macro name(params) %}body{% endmacro %}.
type Macro struct {
	At
	Name   string
	Params []Param
	Body   []Node
}

// CallBlock is {% call(params) expr(args) %}body{% endcall %}.
type CallBlock struct {
	At
	Params []Param
	Call   *Call
	Body   []Node
}

// FilterBlock is {% filter name(args) | ... %}body{% endfilter %}.
type FilterBlock struct {
	At
	Filter *Filter // innermost X is nil: the body
	Body   []Node
}

// With is {% with a = x, b = y %}body{% endwith %}.
type With struct {
	At
	Targets []Expr
	Values  []Expr
	Body    []Node
}

// Block is {% block name %}body{% endblock %}, rendered in place.
type Block struct {
	At
	Name     string
	Scoped   bool
	Required bool
	Body     []Node
}

// Generation is transformers' {% generation %}body{% endgeneration %}: it renders its
// body, which is a scope of its own (it is a call block in Jinja2).
type Generation struct {
	At
	Body []Node
}

// Unsupported is a statement Jinja2 parses but cannot render without a template loader
// ({% include %}, {% import %}, {% from %}, {% extends %}): rendering it fails.
type Unsupported struct {
	At
	Tag string
}

// Break is {% break %}.
type Break struct{ At }

// Continue is {% continue %}.
type Continue struct{ At }

// Name is a variable reference.
type Name struct {
	At
	Name string
}

// NSRef is an assignment target ns.attr.
type NSRef struct {
	At
	Name, Attr string
}

// Const is a literal: nil (none), bool, *big.Int, float64 or string.
type Const struct {
	At
	Value any
}

// IntConst returns the integer value of c, or nil when c is not an integer.
func (c *Const) IntConst() *big.Int {
	v, _ := c.Value.(*big.Int)
	return v
}

// Tuple is a tuple display (a, b) or an unparenthesized a, b.
type Tuple struct {
	At
	Items []Expr
}

// List is a list display [a, b].
type List struct {
	At
	Items []Expr
}

// Pair is a key and value of a dict display.
type Pair struct {
	Key, Value Expr
}

// Dict is a dict display {k: v}.
type Dict struct {
	At
	Items []Pair
}

// Getattr is x.name.
type Getattr struct {
	At
	X    Expr
	Attr string
}

// Getitem is x[arg]; arg may be a *Slice.
type Getitem struct {
	At
	X   Expr
	Arg Expr
}

// Slice is start:stop:step inside a subscript; missing parts are nil.
type Slice struct {
	At
	Start, Stop, Step Expr
}

// Keyword is a keyword argument name=value.
type Keyword struct {
	Name  string
	Value Expr
	// PositionalAfter is how many positional arguments follow it: 0 but where
	// llama.cpp's parser read positional arguments after it (ParseLlama).
	PositionalAfter int
}

// Args are the arguments of a call, filter or test.
type Args struct {
	Args      []Expr
	Kwargs    []Keyword
	DynArgs   Expr // *args
	DynKwargs Expr // **kwargs
}

// Call is fn(args).
type Call struct {
	At
	Fn Expr
	Args
}

// Filter is x | name(args). X is nil for the filter of a filter block or set block.
type Filter struct {
	At
	X    Expr
	Name string
	Args
}

// Test is x is name(args).
type Test struct {
	At
	X    Expr
	Name string
	Args
}

// Unary operators.
const (
	OpNeg = "neg"
	OpPos = "pos"
	OpNot = "not"
)

// Unary is -x, +x or not x.
type Unary struct {
	At
	Op string
	X  Expr
}

// Binary operators, named as the Jinja2 tokens are.
const (
	OpAdd      = "+"
	OpSub      = "-"
	OpMul      = "*"
	OpDiv      = "/"
	OpFloorDiv = "//"
	OpMod      = "%"
	OpPow      = "**"
	OpAnd      = "and"
	OpOr       = "or"
)

// Binary is an arithmetic or boolean operation.
type Binary struct {
	At
	Op   string
	L, R Expr
	// ConcatR reports that R is a ~ chain written without parentheses around it
	// (a + b ~ c), which llama.cpp's parser, giving ~ the precedence of + and -, reads
	// as (a + b) ~ c.
	ConcatR bool
}

// Concat is a ~ b ~ c.
type Concat struct {
	At
	Items []Expr
}

// Operand is one comparison of a chain: op and right-hand side. Op is one of
// == != < <= > >= in notin.
type Operand struct {
	Op string
	X  Expr
}

// Compare is a chained comparison x op1 y op2 z.
type Compare struct {
	At
	X   Expr
	Ops []Operand
}

// CondExpr is then if test else else_; Else may be nil.
type CondExpr struct {
	At
	Test, Then, Else Expr
}
