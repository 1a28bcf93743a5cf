// Package ir is the intermediate form of a chat template: a small tree of statements and
// expressions in which whitespace control is already applied (text is final) and every
// variable reference is resolved to the variable it means under Jinja2's scoping rules.
// Every node keeps its position in the template. The IR knows nothing of Go.
package ir

import (
	"github.com/tmplgen/tmplgen/internal/syntax"
)

// Pos is a position in the template text.
type Pos = syntax.Pos

// Template is a lowered template.
type Template struct {
	// File names the template in comments and error messages.
	File string
	// Source is the template text as given (its newlines not normalized), for citing it.
	Source string
	// Body is the root scope: variables assigned at the top level and the names the
	// template reads from its input.
	Body *Block
	// Vars are all variables, in order of creation.
	Vars []*Var
}

// Scope is where a set of variables lives: the template, a loop body, a macro, a block.
// Its variables are (re)initialized each time the scope is entered.
type Scope struct {
	Parent *Scope
	Vars   []*Var
}

// Block is a scope and the statements run in it.
type Block struct {
	Scope *Scope
	Stmts []Stmt
}

// Var is a template variable in one scope.
type Var struct {
	Name string
	// ID is unique within the template (used to give shadowing variables distinct names).
	ID int
	// Init is how the variable is set when its scope is entered: an *Input or *Global
	// (looked up in the render's context), a *Load of the enclosing scope's variable of
	// the same name, or *Undef. Nil for parameters, which the construct sets (loop
	// targets, macro parameters, the loop variable).
	Init Expr
	// Loads and Stores count the references to the variable.
	Loads, Stores int
}

// Stmt is a statement.
type Stmt interface {
	Position() Pos
}

// Expr is an expression.
type Expr interface {
	Position() Pos
}

// At gives a node its position.
type At struct{ P Pos }

// Position returns where the node comes from in the template.
func (a At) Position() Pos { return a.P }

// Text is literal output.
type Text struct {
	At
	Text string
}

// Print writes the str() of an expression.
type Print struct {
	At
	X Expr
}

// If runs Then when Cond is true, Else otherwise.
type If struct {
	At
	Cond Expr
	Then []Stmt
	Else []Stmt
	// ElseAt is where the else keyword of Else is; the zero Pos for an elif chain's
	// link (Else holds only the elif's If) or when there is no else.
	ElseAt Pos
}

// For is a for loop. Body's scope is entered for every item after Target is assigned.
type For struct {
	At
	Target Target
	Iter   Expr
	// Filter, when not nil, is the loop's inline if, evaluated in FilterScope with
	// FilterTarget bound to the candidate item.
	Filter       Expr
	FilterScope  *Scope
	FilterTarget Target
	// Loop is the loop variable, or nil when the body does not read it.
	Loop *Var
	Body *Block
	// Else runs when no iteration reached the end of the body; nil when absent.
	Else      *Block
	Recursive bool
}

// Assign evaluates Value and assigns it to Target.
type Assign struct {
	At
	Target Target
	Value  Expr
}

// Capture renders Body into a str (a set block), applies Filters, and assigns it.
type Capture struct {
	At
	Target  Target
	Body    *Block
	Filters []*Filter // applied innermost first; their X is nil
}

// MacroDef assigns a macro to its variable.
type MacroDef struct {
	At
	Var   *Var
	Macro *Macro
}

// Macro is a macro, or the caller of a call block.
type Macro struct {
	At
	Name     string
	Params   []*Var
	Defaults []Expr // one per parameter; nil for a required one
	// Caller, Varargs and Kwargs are the implicit variables the body reads, or nil.
	Caller, Varargs, Kwargs *Var
	// ExplicitCaller reports that caller is one of Params.
	ExplicitCaller bool
	Body           *Block
}

// CallBlock calls Call with caller=Caller and writes the result.
type CallBlock struct {
	At
	Call   *Call
	Caller *Macro
}

// FilterBlock renders Body, applies Filters to the text and writes the result.
type FilterBlock struct {
	At
	Body    *Block
	Filters []*Filter
}

// With assigns Values (evaluated in the enclosing scope) to Targets in a new scope and
// runs Body there; {% generation %} and {% block %} are Withs without targets.
type With struct {
	At
	Targets []Target
	Values  []Expr
	Body    *Block
}

// Break leaves the innermost loop.
type Break struct{ At }

// Continue goes to the next iteration of the innermost loop.
type Continue struct{ At }

// Fail is a statement that fails when it runs.
type Fail struct {
	At
	Tag string // the statement's tag (include, import...)
	// Kind is the error's kind, by the name of its constant: RuntimeError or TypeError
	// (package jinja2's), EngineError (package llamacpp's).
	Kind string
	Msg  string
}

// Target is where an assignment stores: a *VarTarget, *TupleTarget or *AttrTarget.
type Target interface {
	Position() Pos
}

// VarTarget assigns a variable.
type VarTarget struct {
	At
	Var *Var
}

// TupleTarget unpacks a sequence into several targets.
type TupleTarget struct {
	At
	Items []Target
}

// AttrTarget assigns an attribute of a namespace: {% set ns.attr = ... %}.
type AttrTarget struct {
	At
	NS   *Var
	Attr string
}

// Const is a literal: nil (None), bool, *big.Int, float64 or string.
type Const struct {
	At
	Value any
}

// Load reads a variable.
type Load struct {
	At
	Var *Var
}

// Input is a variable of the render's input (messages, tools, kwargs...).
type Input struct {
	At
	Name string
}

// Global is one of Jinja2's and transformers' global functions (range, namespace,
// dict, cycler, joiner, lipsum, raise_exception, strftime_now).
type Global struct {
	At
	Name string
}

// Undef is the undefined value of a variable that has not been assigned.
type Undef struct {
	At
	Name string
}

// Unspelled is an expression Jinja2's compiler folds into a float constant that its
// generated Python spells as a bare name (nan, inf), which Python does not know:
// evaluating it raises NameError naming it. llama.cpp, which folds nothing, evaluates X.
type Unspelled struct {
	At
	X    Expr
	Name string // "nan" or "inf"
}

// Msg is the message of the NameError.
func (x *Unspelled) Msg() string { return "name '" + x.Name + "' is not defined" }

// Invalid is an expression llama.cpp's engine fails when it evaluates it, after X:
// x.0, a member expression whose property is no name. Only Llama's IR has it.
type Invalid struct {
	At
	X   Expr
	Msg string // the engine's message
}

// Attr is x.name.
type Attr struct {
	At
	X    Expr
	Name string
}

// Item is x[key].
type Item struct {
	At
	X, Key Expr
}

// Slice is x[start:stop:step]; missing parts are nil.
type Slice struct {
	At
	X, Start, Stop, Step Expr
}

// List is a list display.
type List struct {
	At
	Items []Expr
}

// Tuple is a tuple display.
type Tuple struct {
	At
	Items []Expr
}

// Dict is a dict display.
type Dict struct {
	At
	Keys, Values []Expr
}

// Unary is -x, +x or not x (Op "neg", "pos", "not").
type Unary struct {
	At
	Op string
	X  Expr
}

// Binary is x op y for + - * / // % ** and the short-circuit "and" and "or".
type Binary struct {
	At
	Op   string
	L, R Expr
	// ConcatR reports that R is a ~ chain written without parentheses around it, which
	// llama.cpp reads differently (see LlamaConcat).
	ConcatR bool
}

// LlamaConcat returns x as llama.cpp's parser reads it when R is a ~ chain written
// without parentheses: its ~ has the precedence of + and -, and all three associate to
// the left, so a + b ~ c is (a + b) ~ c, where Jinja2 reads a + (b ~ c). ok is false
// for any other x.
func LlamaConcat(x *Binary) (c *Concat, ok bool) {
	r, isConcat := x.R.(*Concat)
	if !x.ConcatR || !isConcat {
		return nil, false
	}
	items := append([]Expr{&Binary{At: x.At, Op: x.Op, L: x.L, R: r.Items[0]}}, r.Items[1:]...)
	return &Concat{At: r.At, Items: items}, true
}

// Concat is a ~ b ~ ...
type Concat struct {
	At
	Items []Expr
}

// Compare is a chain x op1 y1 op2 y2...: each comparison in turn, stopping at the first
// false one. Ops are == != < <= > >= in notin.
type Compare struct {
	At
	X   Expr
	Ops []string
	Ys  []Expr
}

// Cond is then if test else else_; a nil Else is undefined.
type Cond struct {
	At
	Test, Then, Else Expr
}

// Kwarg is a keyword argument.
type Kwarg struct {
	Name  string
	Value Expr
	// PositionalAfter is how many positional arguments follow it in the call: 0 but in a
	// text only llama.cpp reads, where an argument takes its place among all of them.
	PositionalAfter int
}

// Args are the arguments of a call, filter or test.
type Args struct {
	Args      []Expr
	Kwargs    []Kwarg
	DynArgs   Expr // *args, or nil
	DynKwargs Expr // **kwargs, or nil
}

// Place is one of a call's positional places as llama.cpp holds its arguments: a
// positional argument (Arg), or a keyword argument its parser read before positional ones
// (Kwarg, with PositionalAfter > 0), which holds a place too.
type Place struct {
	Arg   Expr
	Kwarg *Kwarg
}

// Positional reports whether the call passes n positional arguments and nothing else.
func (a *Args) Positional(n int) bool {
	return len(a.Args) == n && len(a.Kwargs) == 0 && a.DynArgs == nil && a.DynKwargs == nil
}

// Interleaved reports whether a keyword argument comes before a positional one (which
// only llama.cpp's parser reads).
func (a *Args) Interleaved() bool {
	return len(a.Kwargs) > 0 && a.Kwargs[0].PositionalAfter > 0
}

// Places returns the call's positional places as llama.cpp holds them: its positional
// arguments, and before them each keyword argument followed by positional ones.
func (a *Args) Places() []Place {
	places := make([]Place, 0, len(a.Args)+len(a.Kwargs))
	k := 0
	for j, x := range a.Args {
		for ; k < len(a.Kwargs) && len(a.Args)-a.Kwargs[k].PositionalAfter <= j; k++ {
			places = append(places, Place{Kwarg: &a.Kwargs[k]})
		}
		places = append(places, Place{Arg: x})
	}
	return places
}

// Call is fn(args). A call of an *Attr is a method call.
type Call struct {
	At
	Fn Expr
	Args
}

// Filter is x | name(args).
type Filter struct {
	At
	Name string
	X    Expr
	Args
}

// Test is x is name(args).
type Test struct {
	At
	Name string
	X    Expr
	Args
}

// Construct names the kind of a statement as error messages cite it: the Jinja tag
// ("if", "for", "set", "macro", "call", "filter", "with") or "{{ }}" for output.
func Construct(s Stmt) string {
	switch s := s.(type) {
	case *Print:
		return "{{ }}"
	case *If:
		return "if"
	case *For:
		return "for"
	case *Assign, *Capture:
		return "set"
	case *MacroDef:
		return "macro"
	case *CallBlock:
		return "call"
	case *FilterBlock:
		return "filter"
	case *With:
		return "with"
	case *Fail:
		return s.Tag
	}
	return ""
}
