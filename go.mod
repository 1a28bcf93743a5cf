module github.com/tmplgen/tmplgen

go 1.26
