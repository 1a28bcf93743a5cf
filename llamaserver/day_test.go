package llamaserver

import (
	"math/rand/v2"
	"testing"
	"time"
	_ "time/tzdata" // the zones below, whatever the machine has

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// TestDayOf checks that the day dayOf answers from the day it keeps is the date of the
// instant asked for, for instants minutes apart around changes of offset (São Paulo's
// began at midnight: that day starts at 01:00) and days, in order and shuffled.
func TestDayOf(t *testing.T) {
	var instants []time.Time
	for _, c := range []struct {
		zone string
		from string // a day before a change of offset, in the zone
	}{
		{"UTC", "2026-12-05"},
		{"America/Sao_Paulo", "2018-11-03"}, // 00:00 -> 01:00 on 2018-11-04
		{"America/Sao_Paulo", "2019-02-15"}, // 00:00 -> 23:00 the day before, on 2019-02-17
		{"America/New_York", "2026-03-07"},
		{"America/New_York", "2026-10-31"},
		{"Australia/Lord_Howe", "2026-04-04"}, // a change of half an hour
	} {
		loc, err := time.LoadLocation(c.zone)
		if err != nil {
			t.Fatal(err)
		}
		from, err := time.ParseInLocation(time.DateOnly, c.from, loc)
		if err != nil {
			t.Fatal(err)
		}
		for m := 0; m < 3*24*60; m += 7 {
			instants = append(instants, from.Add(time.Duration(m)*time.Minute))
		}
	}
	check := func(now time.Time) {
		t.Helper()
		d := dayOf(now)
		if got, want := str(d.datetime), pystr.Strftime(now, "%b %d %Y"); got != want {
			t.Fatalf("datetime of %v: %q, want %q", now, got, want)
		}
		if got, want := str(d.dateString), pystr.Strftime(now, "%d %b %Y"); got != want {
			t.Fatalf("date_string of %v: %q, want %q", now, got, want)
		}
	}
	for _, now := range instants {
		check(now)
	}
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(instants), func(i, j int) { instants[i], instants[j] = instants[j], instants[i] })
	for _, now := range instants {
		check(now)
	}
}
