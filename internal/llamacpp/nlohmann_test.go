package llamacpp

import (
	"encoding/json"
	"os"
	"testing"
)

// TestNlohmannParse: NlohmannParse throws what nlohmann::json::parse throws, for each
// text of testdata/nlohmann/errors.json (recorded by record.sh from the library itself).
func TestNlohmannParse(t *testing.T) {
	data, err := os.ReadFile("testdata/nlohmann/errors.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Bytes []byte          `json:"-"`
		Raw   []int           `json:"bytes"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		text := make([]byte, len(c.Raw))
		for i, b := range c.Raw {
			text[i] = byte(b)
		}
		var want string
		if err := json.Unmarshal(c.Error, &want); err != nil {
			var raw []int
			if err := json.Unmarshal(c.Error, &raw); err != nil {
				t.Fatal(err)
			}
			w := make([]byte, len(raw))
			for i, b := range raw {
				w[i] = byte(b)
			}
			want = string(w)
		}
		if got := NlohmannParse(string(text)); got != want {
			t.Errorf("NlohmannParse(%q)\n got %q\nwant %q", text, got, want)
		}
	}
	if len(cases) < 50 {
		t.Errorf("only %d recorded texts", len(cases))
	}
}
