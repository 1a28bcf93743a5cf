package interp

import "strings"

// llamaLoadError returns the error llama.cpp (b10257) gives when it loads the template
// text src, as its own lexer and parser see it, or "" when they accept it: a string
// literal with an escape its lexer lacks (it knows \n \t \r \b \f \v \\ \' \" only, where
// Jinja2 keeps any other backslash), and a statement its parser lacks (it knows set, if,
// for, macro, call, filter, generation, break and continue, not raw, with, block,
// include...). llama-server then refuses to start: every request gets this error. Its
// lexer runs first, so an escape error comes before a statement error.
func llamaLoadError(src string) string {
	var unknown string
	for i := 0; i+1 < len(src); i++ {
		if strings.HasPrefix(src[i:], "{#") {
			if k := strings.Index(src[i+2:], "#}"); k >= 0 {
				i += k + 3
			}
			continue
		}
		if src[i] != '{' || (src[i+1] != '{' && src[i+1] != '%') {
			continue
		}
		statement := src[i+1] == '%'
		end := "}}"
		if statement {
			end = "%}"
		}
		j := i + 2
		if statement && unknown == "" {
			name := strings.TrimLeft(src[j:], "-+ \t\r\n")
			k := 0
			for k < len(name) && (name[k] == '_' || 'a' <= name[k] && name[k] <= 'z' || 'A' <= name[k] && name[k] <= 'Z' || '0' <= name[k] && name[k] <= '9') {
				k++
			}
			if name = name[:k]; name != "" && !llamaStatements[name] {
				unknown = "Unknown statement: " + name
			}
		}
		for j < len(src) && !strings.HasPrefix(src[j:], end) {
			q := src[j]
			if q != '\'' && q != '"' {
				j++
				continue
			}
			for j++; j < len(src) && src[j] != q; j++ {
				if src[j] != '\\' || j+1 >= len(src) {
					continue
				}
				j++
				if !strings.ContainsRune(`ntrbfv\'"`, rune(src[j])) {
					return `lexer: unknown escape character \` + string(src[j])
				}
			}
			j++
		}
		i = j
	}
	return unknown
}

// llamaStatements are the statement keywords llama.cpp's parser knows, with the ones
// that continue or end a statement.
var llamaStatements = set("set endset if elif else endif for endfor macro endmacro call endcall filter endfilter generation endgeneration break continue")
