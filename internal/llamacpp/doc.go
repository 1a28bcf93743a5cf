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
//   - == is llama.cpp's equivalence: numbers by their int and double, dicts in order,
//     and a container holding a list or a dict equals nothing (Eq, Ne; equal.go); a
//     chain of comparisons is (a < b) < c; the comparison tests (eq, ge, lt...) are its
//     value_compare, apart from its operators (CallTest);
//   - in: anything in an undefined value is false, but an undefined or none operand is
//     otherwise an error, items are found by Eq, and a list in a list is an error (In,
//     NotIn, InStrs), where Jinja2 compares;
//   - a member under a dot is a builtin first (a dict's items, a number's abs), then a
//     dict's key; a number has no real or imag, a loop no depth, a function no member
//     (Attr, ItemAttr);
//   - several names take a list or tuple of as many items only (Unpack);
//   - a for loop cannot iterate over a str (Iterable);
//   - an attribute of a dict can be set as a namespace's (CheckNamespace,
//     SetAttr), and a list's append and pop change it (CallMethod): the
//     render works on its own copy of its variables (OwnVariables), as llama.cpp's does;
//   - each type has its own filters and methods, and one it lacks is an error, as is a
//     test llama.cpp lacks (CallFilter, CallMethod, CallTest; see
//     builtins.go);
//   - map, select, reject, selectattr and rejectattr return lists, and read their
//     arguments as llama.cpp does (llamaFilter, llamaMap, llamaSelect); sort and dictsort
//     order as libstdc++'s std::sort (cxxsort.go); str builtins follow its C++ (format
//     with {} only, split at any separator's string form, int and float as strtol and
//     strtod, indent by getline's lines; strings.go, numconv.go), and strftime_now is C's
//     strftime (StrftimeNow);
//   - a macro call binds as many parameters as it has arguments, each to the keyword
//     argument of its name (a KwArg among the positional arguments is one) unless it
//     is undefined, or else the positional argument at its place (undefined if
//     neither), and the others to their defaults (BindMacro; ir.DirectCall's
//     LlamaArgs for the calls bound when the template is compiled);
//   - a function (a macro, a global such as range) or a KwArg has no truth value: a
//     condition, not, and or or of one is an error (Truthy, And, Or);
//   - tojson writes JSON as nlohmann::json dumps it (FilterTojson, WriteJSON);
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
