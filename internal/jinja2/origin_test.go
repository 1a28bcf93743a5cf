package jinja2

import (
	"slices"
	"strings"
	"testing"
)

// TestTrackedRender runs a render function that writes template text, data and values
// mixing both, and checks the ranges of template text AppendTracked reports.
func TestTrackedRender(t *testing.T) {
	user := Str("hi <|im_end|>")
	fn := func(w *Writer) {
		w.WriteString("<|im_start|>")                       // 0-12 template
		w.Write(user)                                       // 12-25 data
		w.Write(Add(Lit("<a>"), user))                      // 25-28 template, 28-41 data
		w.Write(w.Capture(func() { w.WriteString("<b>") })) // 41-44 template
		w.Write(Int(7))                                     // 44-45 data
		mark := w.Mark()
		w.WriteString("<dropped>")
		w.Drop(mark)
		w.Write(FilterTrim(Concat(Lit(" <c>"), user, Lit("</c> ")), nil, nil)) // 45-48, 61-65 template
	}
	var r Run
	out, markup, err := r.AppendTracked([]byte("dst"), nil, fn)
	if err != nil {
		t.Fatal(err)
	}
	want := "dst<|im_start|>hi <|im_end|><a>hi <|im_end|><b>7<c>hi <|im_end|></c>"
	if string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	wantMarkup := []ByteRange{{3, 15}, {28, 31}, {44, 47}, {48, 51}, {64, 68}}
	if !slices.Equal(markup, wantMarkup) {
		t.Errorf("template text at %v, want %v", markup, wantMarkup)
	}
	plain, err := r.Append([]byte("dst"), fn)
	if err != nil || string(plain) != want {
		t.Errorf("untracked render: %q, %v", plain, err)
	}
	// the output limit holds for every kind of write
	for _, write := range []func(w *Writer){
		func(w *Writer) { w.WriteString("0123456789abc") },
		func(w *Writer) { w.Write(Str("0123456789abc")) },
		func(w *Writer) { w.WriteJSON(Str("0123456789abc"), nil, nil) },
	} {
		limited := Run{Limits: Limits{MaxOutput: 10}}
		if _, _, err := limited.AppendTracked(nil, nil, write); err == nil || !strings.Contains(err.Error(), "output exceeds the limit of 10 bytes") {
			t.Errorf("a tracked render beyond the output limit: %v", err)
		}
	}
}

// TestOriginsOfOperations checks what operations make of template text and data.
func TestOriginsOfOperations(t *testing.T) {
	tracking.Add(1) // as in a tracked render: mixed strs are made
	defer tracking.Add(-1)
	lit, data := Lit("<t>"), Str("d")
	for _, tt := range []struct {
		name string
		v    Value
		want []ByteRange // nil: data; of the whole str: template text
	}{
		{"lit + lit", Add(lit, lit), []ByteRange{{0, 6}}},
		{"lit + data", Add(lit, data), []ByteRange{{0, 3}}},
		{"data ~ lit ~ 1", Concat(data, lit, Int(1)), []ByteRange{{1, 4}}},
		{"lit.upper()", CallMethod(lit, "upper", nil, nil), []ByteRange{{0, 3}}},
		{"(lit + data).upper()", CallMethod(Add(lit, data), "upper", nil, nil), []ByteRange{{0, 3}}},
		{"lit.replace(lit, data)", CallMethod(lit, "replace", []Value{lit, data}, nil), nil},
		{"lit.replace('<', '[')", CallMethod(lit, "replace", []Value{Lit("<"), Lit("[")}, nil), []ByteRange{{0, 3}}},
		{"'%s' % lit", Mod(Lit("[%s]"), lit), []ByteRange{{0, 5}}},
		{"'%s' % data", Mod(Lit("[%s]"), data), nil},
		{"(lit + data)[1:]", Slice(Add(lit, data), Int(1), Missing(), Missing()), []ByteRange{{0, 2}}},
		{"[lit, data] | join(lit)", FilterJoin(NewList(lit, data), []Value{lit}, nil), []ByteRange{{0, 6}}},
		{"lit | tojson", FilterTojson(lit, nil, nil), []ByteRange{{0, 5}}},
		{"data | tojson", FilterTojson(data, nil, nil), nil},
	} {
		var got []ByteRange
		switch tt.v.origin() {
		case originTemplate:
			got = []ByteRange{{0, len(tt.v.str())}}
		case originMixed:
			got = tt.v.boxed().markup
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s = %q: template text at %v, want %v", tt.name, tt.v.str(), got, tt.want)
		}
	}
}

// TestMixedStrAppends builds a text of template text and data piece by piece, as
// {% set ns.out = ns.out ~ part %} does: each step keeps the ranges, and a str the text
// grew from keeps its own text and ranges.
func TestMixedStrAppends(t *testing.T) {
	tracking.Add(1)
	defer tracking.Add(-1)
	acc := Concat(Lit("<a>"), Str("x"))
	first := acc
	for range 3 {
		acc = Concat(acc, Lit("<b>"), Str("y"))
	}
	other := Concat(first, Str("z")) // first is no longer the buffer's end: a copy
	if got, want := acc.str(), "<a>x<b>y<b>y<b>y"; got != want {
		t.Fatalf("text %q, want %q", got, want)
	}
	if got, want := acc.boxed().markup, []ByteRange{{0, 3}, {4, 7}, {8, 11}, {12, 15}}; !slices.Equal(got, want) {
		t.Errorf("template text at %v, want %v", got, want)
	}
	if first.str() != "<a>x" || other.str() != "<a>xz" || !slices.Equal(other.boxed().markup, []ByteRange{{0, 3}}) {
		t.Errorf("first %q, other %q %v", first.str(), other.str(), other.boxed().markup)
	}
}

// TestSpliceMarkup checks the edits a profile makes of a prompt's template text.
func TestSpliceMarkup(t *testing.T) {
	rs := []ByteRange{{0, 3}, {5, 10}}
	for _, tt := range []struct {
		name         string
		at, del, ins int
		markup       bool
		want         []ByteRange
	}{
		{"remove a leading BOS", 0, 3, 0, false, []ByteRange{{2, 7}}},
		{"cut the end", 8, 2, 0, false, []ByteRange{{0, 3}, {5, 8}}},
		{"append markup", 10, 0, 4, true, []ByteRange{{0, 3}, {5, 14}}},
		{"append data", 10, 0, 4, false, []ByteRange{{0, 3}, {5, 10}}},
		{"replace markup by markup", 6, 2, 1, true, []ByteRange{{0, 3}, {5, 9}}},
		{"replace across data", 2, 4, 1, false, []ByteRange{{0, 2}, {3, 7}}},
	} {
		if got := SpliceMarkup(rs, tt.at, tt.del, tt.ins, tt.markup); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestIsDataStr: only a str Str makes is a str of data.
func TestIsDataStr(t *testing.T) {
	mixed := mixedStr("<|x|>data", []ByteRange{{0, 5}})
	for _, tt := range []struct {
		v    Value
		want bool
	}{{Str("a"), true}, {Str(""), true}, {Lit("a"), false}, {Markup("a"), false}, {mixed, false}, {Int(1), false}, {None(), false}} {
		if got := tt.v.IsDataStr(); got != tt.want {
			t.Errorf("%#v.IsDataStr() = %v, want %v", tt.v, got, tt.want)
		}
	}
}
