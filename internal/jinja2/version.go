package jinja2

// Version is the tmplgen release this runtime belongs to, which the headers of
// generated files name. Generated code does not check it: it checks the version of
// the generated code (see EnforceVersion), which changes far less often.
const Version = "v0.1.0"

// The versions of generated code the runtime runs, from MinVersion to MaxVersion. The
// version of generated code is a number that goes up when the code tmplgen generates
// needs something new of the runtime (a function, a field, another meaning of one);
// tmplgen's generator writes the MaxVersion of its runtime. MinVersion goes up when the
// runtime drops what code older than that relies on. A release that changes neither
// runs the code of earlier releases and its code runs on their runtime.
const (
	// MinVersion is the oldest version of generated code this runtime runs.
	MinVersion = 2
	// MaxVersion is the newest version of generated code this runtime runs, the version
	// of the code the generator of this release writes.
	MaxVersion = 7
)

// EnforceVersion is how a generated file asserts at compile time that the runtime runs
// its version. A file of version 1 declares
//
//	const (
//		_ = jinja2.EnforceVersion(1 - jinja2.MinVersion)
//		_ = jinja2.EnforceVersion(jinja2.MaxVersion - 1)
//	)
//
// Both are constant expressions converted to an unsigned type, which a negative
// constant overflows: against a runtime whose MinVersion is above 1 (the file is too
// old: generate it again) the first line fails to compile, and against one whose
// MaxVersion is below 1 (the file needs a newer runtime: update tmplgen's module) the
// second does, with "constant -1 overflows jinja2.EnforceVersion" (the type named by
// its import path). This is how the
// code protoc-gen-go generates checks its runtime.
type EnforceVersion uint
