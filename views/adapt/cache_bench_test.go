package adapt

import "testing"

// BenchmarkFrameCaches shows what each of the session's caches saves: the
// frame of the last step of a lesson whose world holds over 100,000 events,
// found in the frame cache ("cached"), built with every other cache warm
// ("built": a first visit), and built with one cache dropped before each
// build: the partitions' log rows ("no-rows"), the __transaction_state
// records' texts ("no-writes") and the events' lines (the trail,
// "no-events"). A cache stays if dropping it costs more than it takes to
// keep.
func BenchmarkFrameCaches(b *testing.B) {
	s := New(bigLesson(b))
	playTo(b, s, 3)
	s.Frame()
	for _, c := range []struct {
		name string
		drop func()
	}{
		{"cached", func() {}},
		{"built", s.forgetFrames},
		{"no-rows", func() { s.forgetFrames(); clear(s.rows) }},
		{"no-writes", func() { s.forgetFrames(); clear(s.writes) }},
		{"no-events", func() { s.forgetFrames(); s.events = trail{} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.drop()
				_ = s.Frame()
			}
		})
	}
}
