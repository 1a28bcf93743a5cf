module github.com/tmplgen/tmplgen

go 1.26.0

require (
	github.com/dave/jennifer v1.7.1
	golang.org/x/text v0.23.0
)
