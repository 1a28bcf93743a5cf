package codegen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// The position table. Generated code does not record where it is as it runs: the
// comment citing a statement's template line starts the statement's span, the lines of
// the generated file from the cite to the next cite in the same Go block (or to the end
// of the block), and a table of spans at the end of the file (a constant in the compact
// form of jinja2.Spans, in Template.Spans) maps the line a render failed on back to the
// template's statement. The runtime decodes it only when a render fails.

// A site is a statement whose cite starts a span: its position, the construct its
// errors name, whether it is an elif (whose cite opens the body of its else if: the
// span is the whole else if, condition included), and the position its errors report
// when it is not the cited one (report; see the print and with statements in
// codegen.go).
type site struct {
	pos       ir.Pos
	construct string
	elif      bool
	report    ir.Pos
}

// appendSpanTable returns the formatted source src with the position table of the
// template file's sites appended as the constant table; the lines of src stay where
// they are, so the table holds their numbers.
func appendSpanTable(src []byte, table, file string, sites map[string]site) ([]byte, error) {
	spans, err := spansOf(src, sites)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.Write(src)
	fmt.Fprintf(&b, "\n// %s is the position table of %s (see jinja2.Spans): the template\n", table, sanitizeComment(file))
	b.WriteString("// statement each line of this file runs, which a render that fails there reports.\n")
	fmt.Fprintf(&b, "const %s = %s\n", table, strconv.Quote(string(jinja2.EncodeSpans(spans))))
	return []byte(b.String()), nil
}

// spansOf finds the spans of the Go source src: for each cite of a site (by the cite's
// text), the lines its statement runs on.
func spansOf(src []byte, sites map[string]site) ([]jinja2.Span, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("codegen: the generated source does not parse: %w", err)
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }

	// the cites, by the line they are on
	cites := map[int]site{}
	for _, group := range f.Comments {
		for _, c := range group.List {
			if st, ok := sites[strings.TrimPrefix(c.Text, "// ")]; ok {
				cites[line(c.Slash)] = st
			}
		}
	}

	var spans []jinja2.Span
	add := func(st site, from, to int) {
		p := st.pos
		if st.report != (ir.Pos{}) {
			p = st.report
		}
		spans = append(spans, jinja2.Span{From: from, To: to, Line: p.Line, Col: p.Col, Construct: st.construct})
	}
	// list finds the spans of a list of statements, which is between the lines open and
	// close and is the body of the else if elseIf (nil for another list)
	list := func(stmts []ast.Stmt, open, close int, elseIf *ast.IfStmt) {
		var cur *site
		from, prevEnd := 0, open
		for i := 0; i <= len(stmts); i++ {
			start := close
			if i < len(stmts) {
				start = line(stmts[i].Pos())
			}
			// the last cite between the previous statement and this one; the cite of an
			// elif opening the body of its else if gives the else if's span
			var found *site
			for l := prevEnd + 1; l < start; l++ {
				c, ok := cites[l]
				switch {
				case !ok:
				case c.elif && elseIf != nil && prevEnd == open:
					add(c, line(elseIf.Pos()), line(elseIf.End()))
				default:
					found = &c
				}
			}
			if i == len(stmts) {
				break
			}
			if found != nil {
				if cur != nil {
					add(*cur, from, prevEnd)
				}
				cur, from = found, start
			}
			prevEnd = line(stmts[i].End())
		}
		if cur != nil {
			add(*cur, from, prevEnd)
		}
	}
	elseIfs := map[*ast.BlockStmt]*ast.IfStmt{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			if e, ok := n.Else.(*ast.IfStmt); ok {
				elseIfs[e.Body] = e
			}
		case *ast.BlockStmt:
			list(n.List, line(n.Lbrace), line(n.Rbrace), elseIfs[n])
		case *ast.CaseClause:
			list(n.Body, line(n.Colon), line(n.End())+1, nil)
		}
		return true
	})
	// outer spans before the spans nested in them
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].From != spans[j].From {
			return spans[i].From < spans[j].From
		}
		return spans[i].To > spans[j].To
	})
	return spans, nil
}
