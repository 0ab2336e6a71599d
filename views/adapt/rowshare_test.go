package adapt

import (
	"reflect"
	"testing"

	"github.com/eoslab/eoslab/lessons"
)

// TestRowsSharedWhenUnchanged: stepping on, a partition the step did not
// write to, after a step that marked none of its rows, keeps the very
// rows of the last frame (no copy of up to maxRows rows per first visit),
// and they are the rows a frame built from the world alone shows.
func TestRowsSharedWhenUnchanged(t *testing.T) {
	t.Parallel()
	src := "title: Share\nsummary: rows kept\nlevel: systems\nminutes: 1\nsetup:\n  topic t partitions=2\n  producer A\n" +
		"step: both\n  say: both\n  do: A send t-0 a\n  do: A send t-1 b\n  do: run\n" +
		"step: one\n  say: one\n  do: A send t-0 c\n  do: run\n" +
		"step: again\n  say: again\n  do: A send t-0 d\n  do: run\n"
	l, err := lessons.Parse("share.lesson", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := New(l)
	f2 := playTo(t, s, 2)
	f3 := playTo(t, s, 3)
	r2, r3 := f2.Partitions[1].Rows, f3.Partitions[1].Rows
	if len(r3) == 0 || &r2[0] != &r3[0] {
		t.Fatalf("t-1's %d rows at step 3 are a copy of step 2's", len(r3))
	}
	if &f2.Partitions[0].Rows[0] == &f3.Partitions[0].Rows[0] {
		t.Fatal("t-0, written at step 3, shares step 2's rows")
	}
	u := New(l)
	playTo(t, u, 3)
	u.forget()
	if got := u.Frame().Partitions; !reflect.DeepEqual(got, f3.Partitions) {
		t.Fatalf("step 3's partitions differ from a frame built from the world:\n got %+v\nwant %+v", got, f3.Partitions)
	}
}
