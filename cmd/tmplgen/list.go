package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
)

var listCommand = &command{
	name:    "list",
	summary: "list the templates of the catalog (the names render -template takes)",
	doc: `list prints the templates of the catalog, one a line: the name render -template
takes, the sha256 of the template text, where the text came from, and the
capabilities llama.cpp finds in it (the yes-or-no ones that are yes, and the handler
llama-server renders it with). -json prints them as a JSON list.

tmplgen carries the catalog's generated Go (package generated), not a build of it:
the first list or render -template NAME builds it with the Go toolchain (go must be
on PATH) into a program in tmplgen's cache, in a minute or so, and later ones reuse
that program (tmplgen help render describes the cache).`,
	flags: func(fs *flag.FlagSet) func(stdio, []string) error {
		asJSON := fs.Bool("json", false, "print a JSON list of {name, sha256, origin, capabilities}")
		return func(s stdio, args []string) error {
			if len(args) > 0 {
				return usageError{"takes no arguments"}
			}
			_, templates, err := openCatalog(s.err)
			if err != nil {
				return err
			}
			if *asJSON {
				enc := json.NewEncoder(s.out)
				enc.SetIndent("", "  ")
				return enc.Encode(templates)
			}
			w := tabwriter.NewWriter(s.out, 0, 8, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tSHA256\tORIGIN\tCAPABILITIES")
			for _, t := range templates {
				var caps []string
				for _, f := range capFlags(t.Capabilities) {
					if f.on {
						caps = append(caps, strings.ReplaceAll(f.label, " ", "_"))
					}
				}
				caps = append(caps, "handler="+t.Capabilities.Handler)
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", t.Name, t.SHA256, t.Origin, strings.Join(caps, ","))
			}
			return w.Flush()
		}
	},
}
