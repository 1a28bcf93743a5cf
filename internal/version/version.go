// Package version says which tmplgen is running: its release version, which the
// headers of generated files name, and what the binary was built from.
package version

import (
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"runtime/debug"
	"strings"
)

// Version is tmplgen's release version, the runtime's (jinja2.Version). Generated
// files name it in their header, so changing it changes every generated file: it
// changes with a release, never with a commit. (What they assert is the version of the
// generated code, jinja2.MaxVersion.)
const Version = jinja2.Version

// Build says what the running binary was built from, as its build information
// (runtime/debug.ReadBuildInfo) records it: the version of the module holding the
// command ("module v1.2.3", with " => DIR" when go.mod replaces that module), else the
// VCS revision it was built at ("revision 93b5348…", with ", modified" for a tree with
// uncommitted changes). It is "" when the binary records neither (a build of tmplgen's
// own tree without VCS information, as with -buildvcs=false).
func Build() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	// the module holding the command: the main module, or a dependency (go tool, go run
	// of a required package)
	var mod *debug.Module
	for _, m := range append([]*debug.Module{&bi.Main}, bi.Deps...) {
		if strings.HasPrefix(bi.Path+"/", m.Path+"/") && (mod == nil || len(m.Path) > len(mod.Path)) {
			mod = m
		}
	}
	if mod != nil && mod.Version != "" && mod.Version != "(devel)" {
		if r := mod.Replace; r != nil {
			return "module " + mod.Version + " => " + strings.TrimSpace(r.Path+" "+strings.TrimPrefix(r.Version, "(devel)"))
		}
		return "module " + mod.Version
	}
	var revision, modified string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			revision = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			modified = ", modified"
		}
	}
	if revision == "" {
		return ""
	}
	return "revision " + revision + modified
}
