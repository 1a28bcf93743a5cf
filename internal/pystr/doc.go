// Package pystr is Python's string algorithms as CPython implements them, on Go
// strings and runes, with no template value in sight: the case mappings and character
// classes of str (casetable.go, generated from CPython's Unicode database by
// internal/gencase), textwrap (Jinja2's wordwrap), Jinja2's urlize, markupsafe's
// escaping and striptags with Python's html.unescape (entities.go, HTML5's character
// references, generated from Python's html module by internal/gencase), and glibc's
// strftime. Package jinja2 builds its filters and methods on it.
package pystr
