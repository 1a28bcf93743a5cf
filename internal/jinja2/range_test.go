package jinja2

import (
	"errors"
	"fmt"
	"testing"
)

// TestRangeLimit: range() is refused past Jinja2's MAX_RANGE by default, and past the
// Input's Limits.MaxRange when the caller sets one, lower or higher.
func TestRangeLimit(t *testing.T) {
	tests := []struct {
		limit, n int
		ok       bool
	}{
		{0, 100_000, true},
		{0, 100_001, false},
		{10, 10, true},
		{10, 11, false},
		{200_000, 150_000, true},
	}
	for _, tt := range tests {
		var got Value
		run := &Run{Vars: NewDict(0), File: "range.jinja", Limits: Limits{MaxRange: tt.limit}}
		_, err := run.Append(nil, func(w *Writer) { got = Range(w, Int(int64(tt.n))) })
		if tt.ok {
			if err != nil {
				t.Errorf("range(%d) with MaxRange %d: %v", tt.n, tt.limit, err)
			} else if n := len(got.list().items()); n != tt.n {
				t.Errorf("range(%d) with MaxRange %d: %d items", tt.n, tt.limit, n)
			}
			continue
		}
		limit := tt.limit
		if limit == 0 {
			limit = DefaultMaxRange
		}
		want := fmt.Sprintf("Range too big. The sandbox blocks ranges larger than MAX_RANGE (%d).", limit)
		var e *Error
		if !errors.As(err, &e) || e.Kind != OverflowError || e.Msg != want {
			t.Errorf("range(%d) with MaxRange %d: got %v, want OverflowError: %s", tt.n, tt.limit, err, want)
		}
	}
}
