package script

import (
	"strconv"
	"strings"
	"testing"
)

// expectScenario is n idempotent sends, each run to quiet and followed by
// the given expect lines (with %d replaced by the send's index): the shape
// of a long generated scenario that checks every step (issue 7).
func expectScenario(tb testing.TB, n int, expects ...string) []Command {
	tb.Helper()
	var b strings.Builder
	b.WriteString("topic t\nproducer A enable.idempotence=true acks=all\n")
	for i := 0; i < n; i++ {
		d := strconv.Itoa(i)
		b.WriteString("A send t-0 v" + d + "\nrun\n")
		for _, e := range expects {
			b.WriteString(strings.ReplaceAll(e, "%d", d) + "\n")
		}
	}
	cmds, err := Parse("bench.scn", []byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return cmds
}

// benchExpects runs the scenario b.N times and times only its expect
// lines; it reports the time per expect line, which must not grow with
// the length of the history (issue 7: within 1.5x between sizes 8x apart).
func benchExpects(b *testing.B, cmds []Command) {
	lines := 0
	for _, c := range cmds {
		if c.Expect != nil {
			lines++
		}
	}
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		r := NewRunner()
		for _, c := range cmds {
			if c.Expect != nil {
				b.StartTimer()
				_, f, err := r.Exec(c)
				b.StopTimer()
				if err != nil || f != nil {
					b.Fatalf("%s: %v %v", c.Text, err, f)
				}
				continue
			}
			if _, _, err := r.Exec(c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/expect")
}

// benchForms are the event checks the benchmarks time: a text that the
// send's own acknowledgement contains (found among the newest events), a
// counted typed check of the last command, a negative typed check over the
// whole history (read through the kind index), a negative text check of
// the last command, and a check of the newest ProduceResponse.
var benchForms = []struct{ name, line string }{
	{"text", `expect event "NONE(0) baseOffset=%d"`},
	{"count-in-last", `expect event kind=seqcheck actor=t-0 count=1 in=last`},
	{"no-kind", `expect no event kind=fence`},
	{"no-text-in-last", `expect no event "OUT_OF_ORDER" in=last`},
	{"response", `expect response ProduceResponse to=A error=NONE baseOffset=%d`},
}

// BenchmarkExpectEvent times one expect line against the history of n
// sends, at two sizes 8x apart (issue 7: within 1.5x). The world is built
// once; each operation is one check of the last send, through the
// runner's index as a scenario run uses it.
func BenchmarkExpectEvent(b *testing.B) {
	for _, f := range benchForms {
		for _, n := range []int{1000, 8000} {
			b.Run(f.name+"/sends="+strconv.Itoa(n), func(b *testing.B) {
				cmds := expectScenario(b, n, f.line)
				r := NewRunner()
				for _, c := range cmds {
					if _, fail, err := r.Exec(c); err != nil || fail != nil {
						b.Fatalf("%s: %v %v", c.Text, err, fail)
					}
				}
				last := cmds[len(cmds)-1]
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, fail, err := r.Exec(last); err != nil || fail != nil {
						b.Fatalf("%s: %v %v", last.Text, err, fail)
					}
				}
			})
		}
	}
}

// BenchmarkExpectEventRun plays the whole scenario, one expect line after
// each send, and times only the expect lines, so the index's upkeep as the
// history grows is included: ns/expect must stay flat too.
func BenchmarkExpectEventRun(b *testing.B) {
	for _, f := range benchForms {
		for _, n := range []int{1000, 8000} {
			b.Run(f.name+"/sends="+strconv.Itoa(n), func(b *testing.B) {
				benchExpects(b, expectScenario(b, n, f.line))
			})
		}
	}
}
