package jinja2_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// Types of the tests: each exercises a rule of ValueOf.

type inner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
}

type hidden struct{ Shown, unexported int }

type withEmbedded struct {
	inner          // promoted: a, b
	*hidden        // promoted through a pointer: Shown
	Own     string `json:"own"`
	B       string // not inner's b: names are case-sensitive
	secret  int
}

// twins embeds two types with a field of the same name at the same depth: both hide.
type twinA struct{ X, OnlyA int }
type twinB struct{ X, OnlyB int }
type twins struct {
	twinA
	twinB
}

// taggedWins has an untagged and a tagged field of the same name at the same depth.
type taggedWins struct {
	twinA
	Tagged int `json:"X"`
}

// options has the options of json tags, and names they cannot give.
type options struct {
	Skipped  int            `json:"-"`
	Dash     int            `json:"-,"`
	Empty    string         `json:",omitempty"`
	Zero     int            `json:"zero,omitempty"`
	NilSlice []int          `json:"nil_slice,omitempty"`
	EmptyMap map[string]int `json:"empty_map,omitempty"`
	Kept     []int          `json:"kept,omitempty"`
	When     time.Time      `json:"when,omitzero"`
	Custom   zeroIsOdd      `json:"custom,omitzero"`
	Count    int            `json:"count,string"`
	Flag     bool           `json:"flag,string"`
	Ratio    float64        `json:"ratio,string"`
	Quoted   string         `json:"quoted,string"`
	PtrCount *int           `json:"ptr_count,string"`
	NilCount *int           `json:"nil_count,string"`
	BadName  int            `json:"a\"b"`
	Uni      int            `json:"naïve"`
}

// zeroIsOdd has an IsZero method that omitzero asks.
type zeroIsOdd int

func (z zeroIsOdd) IsZero() bool { return z%2 == 1 }

// celsius marshals itself to JSON (value receiver).
type celsius float64

func (c celsius) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"celsius": %g}`, float64(c)), nil
}

// ptrMarshaler has MarshalJSON on its pointer: used when the value is addressable.
type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return fmt.Appendf(nil, `"ptr %d"`, p.N), nil }

// level is a TextMarshaler, as a value and as a map key.
type level int

func (l level) MarshalText() ([]byte, error) { return fmt.Appendf(nil, "L%d", int(l)), nil }

// failing fails to marshal.
type failing struct{}

var errFailing = errors.New("no JSON today")

func (failing) MarshalJSON() ([]byte, error) { return nil, errFailing }

// badJSON marshals to something that is not JSON.
type badJSON struct{}

func (badJSON) MarshalJSON() ([]byte, error) { return []byte(`{"a":`), nil }

// node makes lists that may end or loop.
type node struct {
	Name string `json:"name"`
	Next *node  `json:"next"`
}

func TestValueOfKinds(t *testing.T) {
	n := 7
	for _, c := range []struct {
		name string
		x    any
		want string // Repr
	}{
		{"nil", nil, "None"},
		{"bool", true, "True"},
		{"int8", int8(-8), "-8"},
		{"int64 min", int64(math.MinInt64), "-9223372036854775808"},
		{"uint8", uint8(200), "200"},
		{"uintptr", uintptr(3), "3"},
		{"uint64 max", uint64(math.MaxUint64), "18446744073709551615"},
		{"float64", 1.5, "1.5"},
		{"integral float", 3.0, "3.0"},
		{"float32 shortest", float32(0.1), "0.1"},
		{"string", "héllo", "'héllo'"},
		{"invalid UTF-8", "a\xffb\xe2\x82", "'a\ufffdb\ufffd\ufffd'"},
		{"named int with a String method", time.Month(5), "5"},
		{"slice", []int{1, 2}, "[1, 2]"},
		{"nil slice", []int(nil), "None"},
		{"empty slice", []string{}, "[]"},
		{"array", [2]bool{true, false}, "[True, False]"},
		{"byte array", [3]byte{1, 2, 3}, "[1, 2, 3]"},
		{"bytes", []byte("hi"), "'aGk='"},
		{"nil bytes", []byte(nil), "None"},
		{"map sorted", map[string]int{"b": 1, "a": 2, "B": 3}, "{'B': 3, 'a': 2, 'b': 1}"},
		{"int keys sorted as strs", map[int]string{10: "x", 9: "y", -1: "z"}, "{'-1': 'z', '10': 'x', '9': 'y'}"},
		{"uint keys", map[uint8]bool{2: true}, "{'2': True}"},
		{"text keys", map[level]int{2: 0, 1: 0}, "{'L1': 0, 'L2': 0}"},
		{"nil map", map[string]int(nil), "None"},
		{"empty map", map[string]any{}, "{}"},
		{"pointer", &n, "7"},
		{"nil pointer", (*int)(nil), "None"},
		{"interfaces", []any{1, "a", nil, []any{}}, "[1, 'a', None, []]"},
		{"struct", inner{A: 1}, "{'a': 1}"},
		{"embedded", withEmbedded{inner: inner{1, "x"}, hidden: &hidden{Shown: 2, unexported: 3}, Own: "o", B: "B", secret: 4}, "{'a': 1, 'b': 'x', 'Shown': 2, 'own': 'o', 'B': 'B'}"},
		{"nil embedded pointer", withEmbedded{}, "{'a': 0, 'own': '', 'B': ''}"},
		{"twins hide each other", twins{}, "{'OnlyA': 0, 'OnlyB': 0}"},
		{"tagged wins", taggedWins{}, "{'OnlyA': 0, 'X': 0}"},
		{"options", options{Skipped: 1, Dash: 2, Kept: []int{1}, Custom: 3, Count: 4, Flag: true, Ratio: 0.5, Quoted: "<q>", PtrCount: &n, BadName: 5, Uni: 6},
			`{'-': 2, 'kept': [1], 'count': '4', 'flag': 'true', 'ratio': '0.5', 'quoted': '"\\u003cq\\u003e"', 'ptr_count': '7', 'nil_count': None, 'BadName': 5, 'naïve': 6}`},
		{"omitzero asks IsZero", options{Custom: 2}, `{'-': 0, 'custom': 2, 'count': '0', 'flag': 'false', 'ratio': '0', 'quoted': '""', 'ptr_count': None, 'nil_count': None, 'BadName': 0, 'naïve': 0}`},
		{"raw message keeps order", json.RawMessage(`{"z": 1, "a": [1.0, 2]}`), "{'z': 1, 'a': [1.0, 2]}"},
		{"nil raw message", json.RawMessage(nil), "None"},
		{"number int", json.Number("12"), "12"},
		{"number float", json.Number("1e3"), "1000.0"},
		{"number big", json.Number("123456789012345678901234567890"), "123456789012345678901234567890"},
		{"empty number", json.Number(""), "0"},
		{"marshaler", celsius(21.5), "{'celsius': 21.5}"},
		{"pointer marshaler, not addressable", ptrMarshaler{1}, "{'N': 1}"},
		{"pointer marshaler, addressable", []ptrMarshaler{{2}}, "['ptr 2']"},
		{"pointer marshaler, map value", map[string]ptrMarshaler{"k": {3}}, "{'k': {'N': 3}}"},
		{"text marshaler", level(3), "'L3'"},
		{"time", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "'2026-01-02T03:04:05Z'"},
		{"Value", jinja2.NewTuple(jinja2.Int(1)), "(1,)"},
		{"Value in a map", map[string]jinja2.Value{"v": jinja2.Undefined("u")}, "{'v': Undefined}"},
		{"Dict", jinja2.DictOf(jinja2.Str("k"), jinja2.Int(1)).AsDict(), "{'k': 1}"},
		{"nil Dict", (*jinja2.Dict)(nil), "None"},
		{"Message", tmplgen.Message{Role: "user", Content: "hi"}, "{'role': 'user', 'content': 'hi'}"},
		{"chat types in a struct", struct {
			Call tmplgen.ToolCall    `json:"call"`
			Tool *tmplgen.Tool       `json:"tool"`
			Part tmplgen.ContentPart `json:"part"`
		}{tmplgen.ToolCall{Name: "f"}, &tmplgen.Tool{Name: "g"}, tmplgen.ContentPart{Type: "text", Text: "t"}},
			"{'call': {'type': 'function', 'function': {'name': 'f', 'arguments': {}}}, 'tool': {'type': 'function', 'function': {'name': 'g'}}, 'part': {'type': 'text', 'text': 't'}}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := jinja2.ValueOf(c.x)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Repr(); got != c.want {
				t.Errorf("ValueOf(%#v) = %s, want %s", c.x, got, c.want)
			}
		})
	}
}

// TestValueOfAsEncodingJSON checks the rule ValueOf follows: its value is what
// ParseJSON (json.loads) reads from encoding/json's Marshal of the same Go value. The
// values have no integral floats, which Marshal writes as ints.
func TestValueOfAsEncodingJSON(t *testing.T) {
	n := 7
	values := []any{
		withEmbedded{inner: inner{1, "x"}, hidden: &hidden{Shown: 2}, Own: "o"},
		&withEmbedded{Own: "o"},
		twins{}, taggedWins{Tagged: 1},
		options{Dash: 2, Kept: []int{}, Custom: 2, Count: 4, Flag: true, Ratio: 0.25, Quoted: "a<b>&\"c\"\u2028", PtrCount: &n, Uni: 6},
		&options{When: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)},
		[]any{uint64(math.MaxUint64), int64(math.MinInt64), float32(1) / 3, 1e21, 1e-7, "a\xffb", []byte{0, 255}, [2]byte{0, 255}},
		map[level]celsius{1: 1.5, 2: -2.5},
		map[int]any{10: json.Number("1.5"), 9: json.RawMessage(`[{"b":1,"a":2}]`), 8: []ptrMarshaler{{1}}, 7: map[string]ptrMarshaler{"k": {1}}},
		struct {
			P ptrMarshaler  `json:"p"`
			Q *ptrMarshaler `json:"q"`
			L []level       `json:"l"`
		}{P: ptrMarshaler{1}, Q: &ptrMarshaler{2}, L: []level{1}},
		&struct {
			P ptrMarshaler `json:"p"` // addressable through the pointer
		}{P: ptrMarshaler{3}},
		&node{Name: "a", Next: &node{Name: "b"}},
	}
	for i, x := range values {
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		want, err := jinja2.ParseJSON(b)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		got, err := jinja2.ValueOf(x)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		sameValue(t, fmt.Sprintf("%d: %T", i, x), got, want)
	}
}

// sameValue fails unless got and want print the same JSON and the same repr.
func sameValue(t *testing.T, what string, got, want jinja2.Value) {
	t.Helper()
	if g, w := string(jinja2.AppendJSON(nil, got)), string(jinja2.AppendJSON(nil, want)); g != w {
		t.Errorf("%s: JSON\n got %s\nwant %s", what, g, w)
	}
	if g, w := got.Repr(), want.Repr(); g != w {
		t.Errorf("%s: repr\n got %s\nwant %s", what, g, w)
	}
}

func TestValueOfErrors(t *testing.T) {
	cyclic := &node{Name: "a"}
	cyclic.Next = &node{Name: "b", Next: cyclic}
	selfMap := map[string]any{}
	selfMap["self"] = selfMap
	selfSlice := []any{nil}
	selfSlice[0] = selfSlice
	var selfAny any
	selfAny = &selfAny
	deep := any(1)
	for range jinja2.MaxNesting + 1 {
		deep = []any{deep}
	}
	for _, c := range []struct {
		name string
		x    any
		want string
	}{
		{"chan", map[string]any{"messages": []any{0, 1, map[string]any{"content": make(chan int)}}}, "messages[2].content: unsupported type chan int"},
		{"func", struct{ F func() }{}, "F: unsupported type func()"},
		{"complex", []complex64{1}, "[0]: unsupported type complex64"},
		{"key type", map[[2]int]int{}, "unsupported type map[[2]int]int"},
		{"odd key", map[string]any{"a b": make(chan int)}, `["a b"]: unsupported type chan int`},
		{"NaN", []float64{math.NaN()}, "[0]: unsupported value NaN"},
		{"Inf", struct{ F float32 }{float32(math.Inf(-1))}, "F: unsupported value -Inf"},
		{"quoted NaN", struct {
			F float64 `json:",string"`
		}{math.NaN()}, "F: unsupported value NaN"},
		{"bad number", json.Number("0x10"), `invalid number literal "0x10"`},
		{"spaced number", json.Number(" 1"), `invalid number literal " 1"`},
		{"Python's NaN", json.Number("NaN"), `invalid number literal "NaN"`},
		{"MarshalJSON error", []any{failing{}}, "[0]: MarshalJSON of jinja2_test.failing: no JSON today"},
		{"bad MarshalJSON", badJSON{}, "MarshalJSON of jinja2_test.badJSON returned bad JSON"},
		{"bad raw message", json.RawMessage(`{`), "MarshalJSON of json.RawMessage returned bad JSON"},
		{"cycle of pointers", []*node{cyclic}, "[0]: cycle through *jinja2_test.node"},
		{"cycle of maps", map[string]any{"m": selfMap}, "m: cycle through map[string]interface {}"},
		{"cycle of slices", selfSlice, "cycle through []interface {}"},
		{"cycle of interfaces", selfAny, "cycle through *interface {}"},
		{"too deep", deep, "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: nests more than 1000 levels"},
		{"chat type", []tmplgen.Message{{Content: "no role"}}, "[0]: a message needs a role"},
		{"chat type within", map[string]any{"m": tmplgen.Message{Role: "assistant", ToolCalls: []tmplgen.ToolCall{{ID: "1"}}}}, "m.tool_calls[0]: a tool call needs a name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := jinja2.ValueOf(c.x)
			if err == nil {
				t.Fatalf("ValueOf gave %s, want an error", v.Repr())
			}
			if got, want := err.Error(), "tmplgen.ValueOf: "+c.want; !strings.HasPrefix(got, want) {
				t.Errorf("error %q, want %q", got, want)
			}
		})
	}
	if _, err := jinja2.ValueOf(failing{}); !errors.Is(err, errFailing) {
		t.Errorf("error %v does not wrap MarshalJSON's", err)
	}
}

// TestValueOfNumbers checks that a json.Number converts when encoding/json writes it.
func TestValueOfNumbers(t *testing.T) {
	for _, s := range []string{"0", "-0", "01", "1.", ".5", "+1", "1e5", "1E+5", "1e", "-", "0x10", "1_0",
		"Infinity", "-Infinity", "NaN", "1 ", " 1", "1.5e-3", "-01", "1e400", "123456789012345678901234567890", "[1]", `"1"`, "null"} {
		_, marshalErr := json.Marshal(json.Number(s))
		if _, err := jinja2.ValueOf(json.Number(s)); (err == nil) != (marshalErr == nil) {
			t.Errorf("json.Number(%q): ValueOf's error is %v, Marshal's %v", s, err, marshalErr)
		}
	}
}

// tree is a recursive type no other test converts, so that the goroutines of
// TestValueOfConcurrent find no typeInfo cached.
type tree struct {
	Label    string           `json:"label"`
	Children map[string]*tree `json:"children,omitempty"`
	Leaves   []tree           `json:"leaves,omitempty"`
}

// TestValueOfConcurrent converts from several goroutines at once, while the typeInfos of
// a recursive type are being built (run with -race).
func TestValueOfConcurrent(t *testing.T) {
	x := &tree{Label: "root", Children: map[string]*tree{"a": {Label: "a", Leaves: []tree{{Label: "l"}}}}}
	const want = "{'label': 'root', 'children': {'a': {'label': 'a', 'leaves': [{'label': 'l'}]}}}"
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			v, err := jinja2.ValueOf(x)
			if err != nil || v.Repr() != want {
				t.Errorf("ValueOf = %s, %v; want %s", v.Repr(), err, want)
			}
		})
	}
	wg.Wait()
}

func TestValueOfPassesValues(t *testing.T) {
	d := jinja2.DictOf(jinja2.Str("k"), jinja2.Int(1))
	v, err := jinja2.ValueOf(struct{ D jinja2.Value }{d})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := v.AsDict().GetStr("D")
	if got.AsDict() != d.AsDict() {
		t.Error("a Value was copied, not passed on")
	}
	v, err = jinja2.ValueOf(d.AsDict())
	if err != nil || v.AsDict() != d.AsDict() {
		t.Errorf("ValueOf(*Dict) = %s, %v: not the same dict", v.Repr(), err)
	}
}

func TestChatErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		msgs  []tmplgen.Message
		tools []tmplgen.Tool
		want  string
	}{
		{name: "role", msgs: []tmplgen.Message{{Role: "user"}, {Content: "x"}}, want: "tmplgen.MessagesValue: messages[1]: a message needs a role"},
		{name: "content and parts", msgs: []tmplgen.Message{{Role: "user", Content: "x", Parts: []tmplgen.ContentPart{{Type: "text"}}}}, want: "tmplgen.MessagesValue: messages[0]: a message has either content or parts"},
		{name: "part type", msgs: []tmplgen.Message{{Role: "user", Parts: []tmplgen.ContentPart{{Text: "x"}}}}, want: "tmplgen.MessagesValue: messages[0].content[0]: a content part needs a type"},
		{name: "call name", msgs: []tmplgen.Message{{Role: "assistant", ToolCalls: []tmplgen.ToolCall{{ID: "1"}}}}, want: "tmplgen.MessagesValue: messages[0].tool_calls[0]: a tool call needs a name"},
		{name: "arguments", msgs: []tmplgen.Message{{Role: "assistant", ToolCalls: []tmplgen.ToolCall{{Name: "f", Arguments: map[string]any{"x": func() {}}}}}}, want: "tmplgen.MessagesValue: messages[0].tool_calls[0].function.arguments.x: unsupported type func()"},
		{name: "tool name", tools: []tmplgen.Tool{{Description: "d"}}, want: "tmplgen.ToolsValue: tools[0]: a tool needs a name"},
		{name: "parameters", tools: []tmplgen.Tool{{Name: "f", Parameters: json.RawMessage(`{"type": }`)}}, want: "tmplgen.ToolsValue: tools[0].function.parameters: MarshalJSON of json.RawMessage returned bad JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.msgs != nil {
				_, err = tmplgen.MessagesValue(c.msgs)
			} else {
				_, err = tmplgen.ToolsValue(c.tools)
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestChatEmpty(t *testing.T) {
	msgs, err := tmplgen.MessagesValue(nil)
	if err != nil || msgs.Repr() != "[]" {
		t.Errorf("MessagesValue(nil) = %s, %v; want []", msgs.Repr(), err)
	}
	tools, err := tmplgen.ToolsValue(nil)
	if err != nil || !tools.IsNone() {
		t.Errorf("ToolsValue(nil) = %s, %v; want None", tools.Repr(), err)
	}
	tools, err = tmplgen.ToolsValue([]tmplgen.Tool{})
	if err != nil || tools.Repr() != "[]" {
		t.Errorf("ToolsValue([]) = %s, %v; want []", tools.Repr(), err)
	}
}

// A typedRequest is a request as typed Go values, and the same request as JSON.
type typedRequest struct {
	name  string
	msgs  []tmplgen.Message
	tools []tmplgen.Tool
	json  string
}

var weatherParams = `{"type": "object", "properties": {"city": {"type": "string", "description": "City name, e.g. \"Paris\""}, "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}`

var typedRequests = []typedRequest{
	{
		name: "tools",
		msgs: []tmplgen.Message{
			{Role: "system", Content: "You are a helpful assistant."},
			{Role: "user", Content: "What's the weather in Paris?"},
		},
		tools: []tmplgen.Tool{
			{Name: "get_weather", Description: "Get the current weather in a city (°C by default)", Parameters: json.RawMessage(weatherParams)},
			{Name: "search_docs", Description: "Search the knowledge base", Parameters: map[string]any{
				"type":     "object",
				"required": []string{"query"},
				"properties": map[string]any{
					"limit":   map[string]any{"default": 5, "type": "integer"},
					"query":   map[string]string{"type": "string"},
					"filters": struct{}{},
				},
			}},
		},
		json: `{"messages": [
			{"role": "system", "content": "You are a helpful assistant."},
			{"role": "user", "content": "What's the weather in Paris?"}],
		"tools": [
			{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather in a city (\u00b0C by default)", "parameters": ` + weatherParams + `}},
			{"type": "function", "function": {"name": "search_docs", "description": "Search the knowledge base", "parameters":
				{"properties": {"filters": {}, "limit": {"default": 5, "type": "integer"}, "query": {"type": "string"}}, "required": ["query"], "type": "object"}}}]}`,
	},
	{
		name: "tool_flow",
		msgs: []tmplgen.Message{
			{Role: "user", Name: "alice", Content: "What's the weather in Paris?"},
			{Role: "assistant", ReasoningContent: "The user wants the weather.", ToolCalls: []tmplgen.ToolCall{
				{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Paris", "unit": "c"}`},
			}},
			{Role: "tool", ToolCallID: "call_1", Name: "get_weather", Content: `{"temp": 21, "sky": "clear"}`},
			{Role: "assistant", Content: "It is 21°C and clear."},
			{Role: "user", Content: "Thanks!"},
		},
		tools: []tmplgen.Tool{{Name: "get_weather", Parameters: json.RawMessage(weatherParams)}},
		json: `{"messages": [
			{"role": "user", "name": "alice", "content": "What's the weather in Paris?"},
			{"role": "assistant", "content": "", "reasoning_content": "The user wants the weather.", "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"unit\": \"c\"}"}}]},
			{"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "{\"temp\": 21, \"sky\": \"clear\"}"},
			{"role": "assistant", "content": "It is 21°C and clear."},
			{"role": "user", "content": "Thanks!"}],
		"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": ` + weatherParams + `}}]}`,
	},
	{
		name: "parallel_calls_and_parts",
		msgs: []tmplgen.Message{
			{Role: "user", Parts: []tmplgen.ContentPart{
				{Type: "text", Text: "Part one."},
				{Type: "image_url", ImageURL: "https://example.com/a.png"},
				{Type: "text", Text: "Part two."},
			}},
			{Role: "assistant", Content: "Let me check.", ToolCalls: []tmplgen.ToolCall{
				{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris", "unit": "c"}`)},
				{ID: "call_2", Name: "search_docs", Arguments: struct {
					Query string `json:"query"`
					Limit int    `json:"limit"`
				}{"umbrella", 3}},
				{Name: "now"},
			}},
			{Role: "tool", ToolCallID: "call_1", Content: "21"},
			{Role: "tool", ToolCallID: "call_2", Content: "[]"},
			{Role: "tool", Content: "12:00"},
		},
		json: `{"messages": [
			{"role": "user", "content": [{"type": "text", "text": "Part one."}, {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}, {"type": "text", "text": "Part two."}]},
			{"role": "assistant", "content": "Let me check.", "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}},
				{"id": "call_2", "type": "function", "function": {"name": "search_docs", "arguments": {"query": "umbrella", "limit": 3}}},
				{"type": "function", "function": {"name": "now", "arguments": {}}}]},
			{"role": "tool", "tool_call_id": "call_1", "content": "21"},
			{"role": "tool", "tool_call_id": "call_2", "content": "[]"},
			{"role": "tool", "content": "12:00"}]}`,
	},
}

// typedInput builds the Input of a typed request; ParseRequest's defaults otherwise.
func typedInput(t *testing.T, r typedRequest) *tmplgen.Input {
	t.Helper()
	in := &tmplgen.Input{AddGenerationPrompt: true, SpecialTokens: map[string]string{}, Kwargs: map[string]jinja2.Value{}}
	var err error
	if in.Messages, err = tmplgen.MessagesValue(r.msgs); err != nil {
		t.Fatal(err)
	}
	if in.Tools, err = tmplgen.ToolsValue(r.tools); err != nil {
		t.Fatal(err)
	}
	in.Documents = jinja2.None()
	return in
}

// TestTypedAsJSON checks that typed requests convert to the very values ParseRequest
// reads from their JSON, and render to the same prompts (or errors) with every
// compiled template, under both profiles.
func TestTypedAsJSON(t *testing.T) {
	for _, r := range typedRequests {
		t.Run(r.name, func(t *testing.T) {
			req, err := tmplgen.ParseRequest([]byte(r.json))
			if err != nil {
				t.Fatal(err)
			}
			in := typedInput(t, r)
			sameValue(t, "messages", in.Messages, req.Messages)
			sameValue(t, "tools", in.Tools, req.Tools)
			viaValueOf, err := jinja2.ValueOf(r.msgs)
			if err != nil {
				t.Fatal(err)
			}
			sameValue(t, "ValueOf(messages)", viaValueOf, req.Messages)
			rendered := 0
			for _, tmpl := range generated.Registry.All() {
				for _, profile := range renderers {
					got, gotErr := profile.render(tmpl, in)
					want, wantErr := profile.render(tmpl, &req.Input)
					if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
						t.Errorf("%s (%s): typed input renders\n%q (%v)\nJSON renders\n%q (%v)", tmpl.Name, profile.name, got, gotErr, want, wantErr)
					}
					if wantErr == nil {
						rendered++
					}
				}
			}
			if rendered == 0 {
				t.Error("no template renders the request")
			}
		})
	}
}

// TestTypedQwen3 renders the first typed request with Qwen3 from typed values: the prompt lists the
// tools, their keys in order.
func TestTypedQwen3(t *testing.T) {
	tmpl, err := generated.ByName("Qwen-Qwen3-0.6B")
	if err != nil {
		t.Fatal("no Qwen-Qwen3-0.6B template")
	}
	prompt, err := tmpl.Render(typedInput(t, typedRequests[0]))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather in a city (°C by default)", "parameters": ` + weatherParams + `}}`
	if !strings.Contains(prompt, want) {
		t.Errorf("the prompt lacks %s:\n%s", want, prompt)
	}
}

// renderers are the two ways a service renders a template: as transformers does, and
// as llama-server does.
var renderers = []struct {
	name   string
	render func(*tmplgen.Template, *tmplgen.Input) (string, error)
}{
	{"transformers", (*tmplgen.Template).Render},
	{"llama-server", llamaserver.Render},
}
