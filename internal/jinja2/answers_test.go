package jinja2

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// An answer is what Python gave for one case a testdata/*/record.py recorded: Out, or
// the name and message of the exception it raised.
type answer struct {
	Out      *string
	Err, Msg string
}

// check fails the test when got, or the error e, is not the answer; what says what
// was computed.
func (a answer) check(t *testing.T, what, got string, e *Error) {
	t.Helper()
	switch {
	case a.Err != "" && (e == nil || string(e.Kind) != a.Err || e.Msg != a.Msg):
		t.Errorf("%s: %q, %v; Python raises %s: %s", what, got, e, a.Err, a.Msg)
	case a.Err == "" && (e != nil || got != *a.Out):
		t.Errorf("%s: %q, %v; Python gives %q", what, got, e, *a.Out)
	}
}

// readCases reads testdata/dir/cases.json into cases, a pointer to a slice, which must
// not be empty.
func readCases(t *testing.T, dir string, cases any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, cases); err != nil {
		t.Fatalf("testdata/%s/cases.json: %v", dir, err)
	}
	if reflect.ValueOf(cases).Elem().Len() == 0 {
		t.Fatalf("testdata/%s/cases.json has no cases", dir)
	}
}

// raised returns what f returns, or the *Error it raised (another panic goes on).
func raised(f func() string) (out string, e *Error) {
	defer func() {
		if p := recover(); p != nil {
			if pe, ok := p.(error); !ok || !errors.As(pe, &e) {
				panic(p)
			}
		}
	}()
	return f(), nil
}
