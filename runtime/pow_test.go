package runtime

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestFloatPow checks float ** against Python's results, recorded by
// testdata/pow/record.py: the same float, as repr writes it, or the same error.
func TestFloatPow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "pow", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases [][3]string
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, c := range cases {
		x, err1 := strconv.ParseFloat(c[0], 64)
		y, err2 := strconv.ParseFloat(c[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%v: %v %v", c, err1, err2)
		}
		got := powResult(Float(x), Float(y))
		if got != c[2] {
			if bad++; bad <= 20 {
				t.Errorf("%s ** %s = %s, Python %s", c[0], c[1], got, c[2])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ from Python", bad, len(cases))
	}
}

// powResult returns the repr of a ** b, or the kind of the error it raises.
func powResult(a, b Value) (out string) {
	defer func() {
		if r := recover(); r != nil {
			var e *Error
			if err, ok := r.(error); ok && errors.As(err, &e) {
				out = string(e.Kind)
				return
			}
			panic(r)
		}
	}()
	return Pow(a, b).Repr()
}
