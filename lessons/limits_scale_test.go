package lessons

import (
	"runtime"
	"strings"
	"testing"
)

const scaleHeader = "title: T\nsummary: S\nlevel: basics\nminutes: 1\nintro: I\n\nsetup:\n  topic t partitions=1\n  producer P\n  consumer C\n\n"

// scaleLesson is a lesson of steps steps of per "P send" do: lines each.
func scaleLesson(steps, per int) []byte {
	var b strings.Builder
	b.WriteString(scaleHeader)
	for i := 0; i < steps; i++ {
		b.WriteString("step: s\n  say: x\n")
		for j := 0; j < per; j++ {
			b.WriteString("  do: P send t-0 v\n")
		}
	}
	return []byte(b.String())
}

// TestLessonScaleLimits: a lesson past MaxSteps steps or MaxActions
// commands is refused at the line that passes the limit, at once, where a
// 100,000-step lesson used to take over a gigabyte to check.
func TestLessonScaleLimits(t *testing.T) {
	// Lines: 11 of header, then 3 a step (1001st: 12+3*1000); with 97
	// sends a step, command 20001 (3 in setup) is step 207's 16th do:.
	for _, c := range []struct {
		src  []byte
		want string
	}{
		{scaleLesson(30_000, 1), "x.lesson:3012: a lesson has at most 1000 steps; this is step 1001"},
		{scaleLesson(1000, 97), "x.lesson:20423: a lesson runs at most 20000 setup: and do: commands; this is command 20001"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := Check("x.lesson", c.src)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 300<<20 {
			t.Errorf("%s: allocated %d MB", c.want, alloc>>20)
		}
	}
}

// TestLongLessonCheckKeepsTwoWorlds checks a lesson of 999 steps within
// the limits: what stays allocated after the check's steps does not grow
// with the steps (the check lets each world go once judged).
func TestLongLessonCheckKeepsTwoWorlds(t *testing.T) {
	heap := func(steps int) uint64 {
		l, err := Parse("x.lesson", scaleLesson(steps, 10))
		if err != nil {
			t.Fatal(err)
		}
		p := NewPlayer(l)
		if err := p.validate(); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		runtime.KeepAlive(p)
		return m.HeapAlloc
	}
	small, big := heap(100), heap(800)
	if big > small+64<<20 {
		t.Fatalf("after checking 800 steps %d MB stay allocated, after 100 %d MB", big>>20, small>>20)
	}
}

// BenchmarkCheckLongLesson checks the largest lesson of sends the limits
// allow: 999 steps of 20 sends.
func BenchmarkCheckLongLesson(b *testing.B) {
	src := scaleLesson(999, 20)
	b.ReportAllocs()
	for b.Loop() {
		if err := Check("x.lesson", src); err != nil {
			b.Fatal(err)
		}
	}
}
