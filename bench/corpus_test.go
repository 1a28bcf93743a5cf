package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/templatehash"
)

// now is the clock every engine's strftime_now reads: the oracle's.
var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// A benchTemplate is a catalog template: its compiled renderer and its text.
type benchTemplate struct {
	name string
	text string
	tmpl *tmplgen.Template
}

// A benchCase is one request of the oracle's cases.json, with the oracle's defaults
// applied, decoded both ways: as the runtime's input and as an ordered JSON tree the
// peers' inputs are built from.
type benchCase struct {
	id   string
	raw  []byte // the request as JSON, defaults applied
	tree *jv    // the same, decoded with key order kept
}

type corpus struct {
	root      string // the repository
	shared    string // ../shared
	templates []*benchTemplate
	cases     []*benchCase
}

var (
	corpusOnce sync.Once
	corpusVal  *corpus
	corpusErr  error
)

// loadCorpus reads the catalog, the template texts and the cases once. It fails when
// ../shared is missing: the benchmarks are meaningless without it.
func loadCorpus() (*corpus, error) {
	corpusOnce.Do(func() { corpusVal, corpusErr = readCorpus() })
	return corpusVal, corpusErr
}

func readCorpus() (*corpus, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	shared := os.Getenv("TMPLGEN_SHARED")
	if shared == "" {
		shared = filepath.Join(root, "..", "shared")
	}
	if st, err := os.Stat(filepath.Join(shared, "templates")); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s/templates is missing: the benchmarks need ../shared beside the repository (or TMPLGEN_SHARED)", shared)
	}
	c := &corpus{root: root, shared: shared}
	texts, err := readCatalog(filepath.Join(root, "templates", "catalog.tsv"), filepath.Join(shared, "templates"))
	if err != nil {
		return nil, err
	}
	for _, t := range generated.Registry.All() {
		text, ok := texts[t.Name]
		if !ok {
			return nil, fmt.Errorf("generated template %q is not in templates/catalog.tsv", t.Name)
		}
		c.templates = append(c.templates, &benchTemplate{name: t.Name, text: text, tmpl: t})
	}
	if len(c.templates) != len(texts) {
		return nil, fmt.Errorf("the catalog has %d templates, generated.Registry %d: regenerate generated/", len(texts), len(c.templates))
	}
	c.cases, err = readCases(filepath.Join(shared, "oracle", "cases.json"))
	if err != nil {
		return nil, err
	}
	return c, nil
}

// repoRoot finds the repository above the working directory: the folder that holds
// templates/catalog.tsv (the benchmarks are a module of their own, in bench/).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "templates", "catalog.tsv")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no templates/catalog.tsv above the working directory")
		}
		dir = parent
	}
}

// readCatalog returns the text of each catalog template by name.
func readCatalog(path, sharedTemplates string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: want name, source, sha256 (and tokens)", path, n)
		}
		file := filepath.Join(filepath.Dir(path), f[1])
		if rel, ok := strings.CutPrefix(f[1], "shared:"); ok {
			file = filepath.Join(sharedTemplates, rel)
		}
		text, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if got := templatehash.SHA256(string(text)); got != f[2] {
			return nil, fmt.Errorf("%s:%d: %s has sha256 %s, the catalog says %s", path, n, file, got, f[2])
		}
		out[f[0]] = string(text)
	}
	return out, sc.Err()
}

// readCases reads cases.json and applies the oracle's defaults as tmplgen check does:
// add_generation_prompt true, bos "<s>", eos "</s>".
func readCases(path string) ([]*benchCase, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []*benchCase
	for i, raw := range list {
		tree, err := decodeOrdered(raw)
		if err != nil || tree.kind != 'o' {
			return nil, fmt.Errorf("%s: case %d: not an object (%v)", path, i, err)
		}
		id, ok := tree.get("id")
		if !ok || id.kind != 's' {
			return nil, fmt.Errorf("%s: case %d has no id", path, i)
		}
		for _, d := range []struct{ k, v string }{{"add_generation_prompt", "true"}, {"bos", `"<s>"`}, {"eos", `"</s>"`}} {
			if _, ok := tree.get(d.k); !ok {
				v, _ := decodeOrdered([]byte(d.v))
				tree.keys = append(tree.keys, d.k)
				tree.vals = append(tree.vals, v)
			}
		}
		out = append(out, &benchCase{id: id.s, raw: tree.marshal(), tree: tree})
	}
	return out, nil
}

// tmplgenInput parses a request as the project does, with the oracle's clock.
func tmplgenInput(raw []byte) (*tmplgen.Input, error) {
	req, err := tmplgen.ParseRequest(raw)
	if err != nil {
		return nil, err
	}
	req.Now = now
	return &req.Input, nil
}

// jv is a decoded JSON value that keeps the order of object keys.
type jv struct {
	kind byte // 'n' null, 'b' bool, 'i' integer, 'f' float, 's' string, 'a' array, 'o' object
	b    bool
	i    int64
	f    float64
	s    string
	arr  []*jv
	keys []string
	vals []*jv
}

func (v *jv) get(k string) (*jv, bool) {
	for i, key := range v.keys {
		if key == k {
			return v.vals[i], true
		}
	}
	return nil, false
}

func decodeOrdered(data []byte) (*jv, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (*jv, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &jv{kind: 'n'}, nil
	case bool:
		return &jv{kind: 'b', b: t}, nil
	case string:
		return &jv{kind: 's', s: t}, nil
	case json.Number:
		if i, err := t.Int64(); err == nil && !strings.ContainsAny(string(t), ".eE") {
			return &jv{kind: 'i', i: i}, nil
		}
		f, err := t.Float64()
		if err != nil {
			return nil, err
		}
		return &jv{kind: 'f', f: f}, nil
	case json.Delim:
		switch t {
		case '[':
			v := &jv{kind: 'a', arr: []*jv{}}
			for dec.More() {
				item, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, item)
			}
			_, err := dec.Token()
			return v, err
		case '{':
			v := &jv{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				item, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, kt.(string))
				v.vals = append(v.vals, item)
			}
			_, err := dec.Token()
			return v, err
		}
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// marshal writes the value back as JSON, keys in order.
func (v *jv) marshal() []byte {
	var b bytes.Buffer
	v.write(&b)
	return b.Bytes()
}

func (v *jv) write(b *bytes.Buffer) {
	switch v.kind {
	case 'n':
		b.WriteString("null")
	case 'b':
		fmt.Fprint(b, v.b)
	case 'i':
		fmt.Fprint(b, v.i)
	case 'f':
		x, _ := json.Marshal(v.f)
		b.Write(x)
	case 's':
		x, _ := json.Marshal(v.s)
		b.Write(x)
	case 'a':
		b.WriteByte('[')
		for i, item := range v.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			item.write(b)
		}
		b.WriteByte(']')
	case 'o':
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			x, _ := json.Marshal(k)
			b.Write(x)
			b.WriteByte(':')
			v.vals[i].write(b)
		}
		b.WriteByte('}')
	}
}

// A variable is one template variable a peer renders with.
type variable struct {
	name string
	val  *jv
}

// templateVariables are the variables transformers' apply_chat_template passes to a
// template for a request (what ../shared/oracle/tools/hf_render.py does): messages,
// tools and documents (None when absent), add_generation_prompt, the special tokens,
// then chat_template_kwargs (and a top-level enable_thinking), which win. The
// functions raise_exception and strftime_now are each peer's to add.
func templateVariables(req *jv) []variable {
	null := &jv{kind: 'n'}
	field := func(k string) *jv {
		if v, ok := req.get(k); ok {
			return v
		}
		return null
	}
	vars := []variable{{"messages", field("messages")}, {"tools", field("tools")}, {"documents", field("documents")}}
	agp := &jv{kind: 'b', b: true}
	if v, ok := req.get("add_generation_prompt"); ok {
		agp = v
	}
	vars = append(vars, variable{"add_generation_prompt", agp})
	set := func(name string, v *jv) {
		for i := range vars {
			if vars[i].name == name {
				vars[i].val = v
				return
			}
		}
		vars = append(vars, variable{name, v})
	}
	for _, tok := range []string{"bos", "eos"} {
		if v, ok := req.get(tok); ok && v.kind != 'n' {
			set(tok+"_token", v)
		}
	}
	if st, ok := req.get("special_tokens"); ok && st.kind == 'o' {
		for i, k := range st.keys {
			set(k, st.vals[i])
		}
	}
	kwargs := &jv{kind: 'o'}
	if kw, ok := req.get("chat_template_kwargs"); ok && kw.kind == 'o' {
		kwargs = kw
	}
	if et, ok := req.get("enable_thinking"); ok && et.kind != 'n' {
		if _, has := kwargs.get("enable_thinking"); !has {
			kwargs = &jv{kind: 'o', keys: append(append([]string(nil), kwargs.keys...), "enable_thinking"), vals: append(append([]*jv(nil), kwargs.vals...), et)}
		}
	}
	for i, k := range kwargs.keys {
		switch k {
		case "messages", "tools", "documents", "add_generation_prompt":
			continue
		}
		set(k, kwargs.vals[i])
	}
	return vars
}

// strftime formats t as Python's time.strftime does for the directives chat templates
// use.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		pad := true
		if format[i] == '-' && i+1 < len(format) { // glibc: no padding
			pad = false
			i++
		}
		num := func(n, width int) {
			if pad {
				fmt.Fprintf(&b, "%0*d", width, n)
			} else {
				fmt.Fprintf(&b, "%d", n)
			}
		}
		switch format[i] {
		case 'Y':
			fmt.Fprintf(&b, "%d", t.Year())
		case 'y':
			num(t.Year()%100, 2)
		case 'm':
			num(int(t.Month()), 2)
		case 'd':
			num(t.Day(), 2)
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'H':
			num(t.Hour(), 2)
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2)
		case 'M':
			num(t.Minute(), 2)
		case 'S':
			num(t.Second(), 2)
		case 'j':
			num(t.YearDay(), 3)
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'B':
			b.WriteString(t.Month().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
