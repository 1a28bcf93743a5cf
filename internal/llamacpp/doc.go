// Package llamacpp implements llama.cpp's Jinja engine (common/jinja, the llama.cpp of
// package llamaserver) where it differs from Jinja2: what the second render function of
// a generated template (Template.LlamaFunc, its llama.cpp twin) calls, through package
// llamacpp (the module's llamacpp/, which declares the names generated code calls and
// nothing else). Each function has
// the name of the package jinja2 function the Jinja2 render function calls at the same
// place, so that a diff of the two functions shows the package and the differences of
// semantics only, and differs from it only where llama.cpp does:
//
//   - undefined is lenient: an attribute or item of an undefined value is undefined
//     (Attr, Item, ItemStr, ItemInt), where Jinja2 raises
//     UndefinedError;
//   - + and ~ of an undefined value or none with a str give the str, the undefined
//     value or none written as "", and a str joins the string form of another value
//     (llamaString: floats as C's %f, strs in containers unescaped) (Add, Sum,
//     Concat): Jinja2 raises for + and for ~ writes none as "None" and Python's
//     str();
//   - in: anything in an undefined value is false, but an undefined or none operand is
//     otherwise an error (In, NotIn, InStrs), where Jinja2 compares;
//   - a for loop cannot iterate over a str (Iterable);
//   - an attribute of a dict can be set as a namespace's (CheckNamespace,
//     SetAttr), and a list's append and pop change it (CallMethod): the
//     render works on its own copy of its variables (OwnVariables), as llama.cpp's does;
//   - each type has its own filters and methods, and one it lacks is an error, as is a
//     test llama.cpp lacks (CallFilter, CallMethod, CallTest; see
//     builtins.go);
//   - map, select, reject, selectattr and rejectattr return lists, and the select family
//     reads its arguments as llama.cpp does (llamaFilter);
//   - a macro call binds as many parameters as it has arguments, each to the keyword
//     argument of its name or else the positional argument at its place (undefined if
//     neither), and the others to their defaults (BindMacro; ir.DirectCall's
//     LlamaArgs for the calls bound when the template is compiled);
//   - dict, lipsum, cycler and joiner are no globals (CallMissingGlobal);
//   - arithmetic and ordering compute with doubles, and many operand types Python
//     accepts are errors (Sub, Mul, Div, Mod, FloorDiv,
//     Pow, Lt, Le, Gt, Ge; see ops.go);
//   - {{ x }} writes a str as it is, a number or a bool in llama.cpp's string form, the
//     items of a list one after the other, and nothing for anything else (Write):
//     Jinja2 writes str(x), "None" for none.
//
// Code other than generated code calls it too: package llamaserver, and the compiler,
// which probes templates with llama.cpp's builtins.
package llamacpp
