package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/tmplgen/tmplgen/jinja2"
)

var listCommand = &command{
	name:    "list",
	summary: "list the templates compiled into tmplgen (the names render -template takes)",
	doc: `list prints the templates compiled into tmplgen, one a line: the name render
-template takes, the sha256 of the template text, where the text came from, and
the capabilities llama.cpp finds in it (the yes-or-no ones that are yes, and the
handler llama-server renders it with). -json prints them as a JSON list.`,
	flags: func(fs *flag.FlagSet) func(stdio, []string) error {
		asJSON := fs.Bool("json", false, "print a JSON list of {name, sha256, origin, capabilities}")
		return func(s stdio, args []string) error {
			if len(args) > 0 {
				return usageError{"takes no arguments"}
			}
			templates := compiled.All()
			if *asJSON {
				type entry struct {
					Name         string              `json:"name"`
					SHA256       string              `json:"sha256"`
					Origin       string              `json:"origin"`
					Capabilities jinja2.Capabilities `json:"capabilities"`
				}
				list := make([]entry, 0, len(templates))
				for _, t := range templates {
					list = append(list, entry{t.Name, t.SHA256, t.Origin, t.Caps})
				}
				enc := json.NewEncoder(s.out)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			w := tabwriter.NewWriter(s.out, 0, 8, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tSHA256\tORIGIN\tCAPABILITIES")
			for _, t := range templates {
				var caps []string
				for _, f := range capFlags(t.Caps) {
					if f.on {
						caps = append(caps, strings.ReplaceAll(f.label, " ", "_"))
					}
				}
				caps = append(caps, "handler="+t.Caps.Handler)
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", t.Name, t.SHA256, t.Origin, strings.Join(caps, ","))
			}
			return w.Flush()
		}
	},
}
