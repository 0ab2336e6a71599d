package lessons

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// fingerprint renders what a learner can observe of a world: every event,
// every log, the producers, the coordinators and the consumers.
func fingerprint(w *engine.World) string {
	var b strings.Builder
	for _, e := range w.EventsSince(0) {
		b.WriteString(e.Line())
		b.WriteByte('\n')
	}
	for _, v := range w.Violations() {
		fmt.Fprintf(&b, "violation %s %s\n", v.Name, v.Text())
	}
	for _, tp := range w.SortedPartitions() {
		p := w.Partition(tp)
		fmt.Fprintf(&b, "%s hw=%d lso=%d leo=%d\n", tp, p.HW, p.LastStableOffset(), p.LEO)
		for i := range p.Batches {
			batch, _, _ := w.BatchAt(tp, p.Batches[i].BaseOffset)
			fmt.Fprintf(&b, "  %+v\n", batch)
		}
		var pids []int64
		for pid := range p.Producers {
			pids = append(pids, pid)
		}
		sort.Slice(pids, func(i, j int) bool { return pids[i] < pids[j] })
		for _, pid := range pids {
			e := p.Producers[pid]
			fmt.Fprintf(&b, "  pid %d epoch %d cached %v\n", pid, e.ProducerEpoch, e.Cached())
		}
	}
	for _, p := range w.Producers() {
		fmt.Fprintf(&b, "producer %s %s pid=%d epoch=%d err=%v inflight=%d parts=%v\n", p.Name, p.State, p.ProducerID, p.Epoch, p.LastError, len(p.InFlight), p.Parts)
	}
	var parts []int32
	for n := range w.TxnStateLogs() {
		parts = append(parts, n)
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i] < parts[j] })
	for _, n := range parts {
		for _, r := range w.TxnStatePartition(n).Log {
			fmt.Fprintf(&b, "txnlog %d %s\n", n, r)
		}
	}
	for _, c := range w.Consumers() {
		fmt.Fprintf(&b, "consumer %s %v\n", c.Name, c.Positions)
		for _, r := range c.Received {
			// Source is a pointer: print what it points to, not where.
			fmt.Fprintf(&b, "  %s@%d %s uid=%d", r.TP, r.Offset, r.Value, r.UID)
			if r.Source != nil {
				fmt.Fprintf(&b, " source=%+v", *r.Source)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// answerRight answers the current checkpoint, if any, with the right choice.
func answerRight(t testing.TB, p *Player) {
	if p.Pending() {
		if right, ok := p.Answer(p.Correct(p.Pos())); !right || !ok {
			t.Fatalf("step %d: the right answer was refused", p.Pos())
		}
	}
}

// TestPlayerBackIsExact: whatever path leads to a position, the world there
// is the world of playing straight to it. Later steps must not disturb the
// snapshots of earlier ones.
func TestPlayerBackIsExact(t *testing.T) {
	eachReading(t, func(t *testing.T, l *Lesson) {
		{
			straight := NewPlayer(l)
			want := []string{fingerprint(straight.World())}
			for {
				answerRight(t, straight)
				if !straight.Next() {
					break
				}
				want = append(want, fingerprint(straight.World()))
			}
			if len(want) != len(l.Steps)+1 {
				t.Fatalf("played %d positions of %d", len(want), len(l.Steps)+1)
			}
			p := NewPlayer(l)
			check := func(how string) {
				t.Helper()
				if got := fingerprint(p.World()); got != want[p.Pos()] {
					t.Fatalf("%s: position %d differs from playing straight to it", how, p.Pos())
				}
			}
			// A walk with every kind of move: two forward, one back, ...
			for p.Pos() < p.Len() {
				answerRight(t, p)
				p.Next()
				check("next")
				answerRight(t, p)
				if p.Next() {
					check("next")
					p.Back()
					check("back")
				}
			}
			for p.Back() {
				check("back from the end")
			}
			p.Restart()
			check("restart")
			for {
				answerRight(t, p)
				if !p.Next() {
					break
				}
				check("second pass")
			}
			// A fresh player recomputing everything agrees too.
			fresh := NewPlayer(l)
			for k := range want {
				if fingerprint(fresh.WorldAt(k)) != want[k] {
					t.Fatalf("position %d is not deterministic", k)
				}
			}
		}
	})
}

func TestPlayerCheckpointFlow(t *testing.T) {
	l, err := Parse("ok.lesson", []byte(okLesson))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(l)
	if p.Back() || p.Pos() != 0 || p.Len() != 2 || p.Title() != "T" {
		t.Fatal("a new player stands at 0 and cannot go back")
	}
	if _, ok := p.Answer(1); ok {
		t.Fatal("answered at position 0, which has no checkpoint")
	}
	if !p.Next() || p.Pos() != 1 || !p.Pending() {
		t.Fatal("step 1 should run and show its checkpoint")
	}
	if p.Next() {
		t.Fatal("Next ran past an unanswered checkpoint")
	}
	for _, bad := range []int{0, 3, -1} {
		if _, ok := p.Answer(bad); ok {
			t.Fatalf("Answer(%d) accepted", bad)
		}
	}
	if right, ok := p.Answer(2); right || !ok {
		t.Fatalf("Answer(2) = %v, %v; the right choice is 1", right, ok)
	}
	if _, ok := p.Answer(1); ok {
		t.Fatal("a checkpoint was answered twice")
	}
	if p.Chosen(1) != 2 || p.Correct(1) != 1 {
		t.Fatalf("chosen %d correct %d", p.Chosen(1), p.Correct(1))
	}
	if !p.Next() || p.Next() || p.Pos() != 2 {
		t.Fatal("the lesson should end after step 2")
	}
	p.Back()
	if p.Pending() {
		t.Fatal("going back should keep the answer")
	}
	p.Restart()
	if p.Pos() != 0 || p.Chosen(1) != 0 {
		t.Fatal("Restart should go to 0 and forget the answers")
	}
}

// longLesson is a lesson of n steps, each sending one record and running
// the network until it is quiet.
func longLesson(tb testing.TB, n int) *Lesson {
	var b strings.Builder
	b.WriteString("title: Long\nsummary: many steps\nlevel: systems\nminutes: 5\nsetup:\n  topic t\n  producer A\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "step: send %d\n  say: A sends v%d.\n  do: A send t-0 v%d\n  do: run\n", i, i, i)
	}
	l, err := Parse("long.lesson", []byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func TestLongLessonBack(t *testing.T) {
	l := longLesson(t, 200)
	p := NewPlayer(l)
	for p.Next() {
	}
	end := fingerprint(p.World())
	mid := fingerprint(p.WorldAt(100))
	for p.Pos() > 100 {
		p.Back()
	}
	if fingerprint(p.World()) != mid {
		t.Fatal("position 100 changed after playing to the end")
	}
	for p.Next() {
	}
	if fingerprint(p.World()) != end {
		t.Fatal("the end changed after going back")
	}
	if got := p.World().Partition(engine.TP{Topic: "t"}).LEO; got != 200 {
		t.Fatalf("LEO %d, want 200", got)
	}
}

// BenchmarkBack1000 steps the player back 1,000 steps of a played lesson:
// only the player's own part, a move over snapshots, with no frame built or
// drawn. The keypress a learner makes, with the frame built and drawn, is
// measured by BenchmarkJump in views/adapt.
func BenchmarkBack1000(b *testing.B) {
	l := longLesson(b, 1000)
	p := NewPlayer(l)
	for p.Next() {
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for p.Back() {
		}
		b.StopTimer()
		for p.Next() {
		}
		b.StartTimer()
	}
}

// BenchmarkPlay1000 plays a 1,000-step lesson from the start: the cost of
// computing every snapshot once.
func BenchmarkPlay1000(b *testing.B) {
	l := longLesson(b, 1000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := NewPlayer(l)
		for p.Next() {
		}
	}
}

// TestSnapshotsKeepTheirWorlds: pointing the snapshots at the live world's
// history arrays (ensure) leaves every position showing what it showed
// when it was first computed.
func TestSnapshotsKeepTheirWorlds(t *testing.T) {
	l := txnLesson(t, 30)
	p := NewPlayer(l)
	first := []string{fingerprint(p.World())}
	for p.Next() {
		first = append(first, fingerprint(p.World()))
	}
	for k := range first {
		if got := fingerprint(p.WorldAt(k)); got != first[k] {
			t.Fatalf("position %d changed after the lesson was played on", k)
		}
	}
}
