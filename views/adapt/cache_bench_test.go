package adapt

import "testing"

// BenchmarkFrameCaches shows what each of the session's caches saves: the
// frames of the last two steps of a lesson whose world holds over 100,000
// events, stepping back and forth between them, found in the frame cache
// ("cached"), built with every other cache warm ("built": a first visit),
// and built with one cache dropped before each build: the partitions' rows
// as the last frame showed them ("no-windows"), the partitions' log rows
// ("no-rows"), the __transaction_state records' texts ("no-writes") and the
// events' lines (the trail, "no-events"). A cache stays if dropping it
// costs more than it takes to keep.
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
		{"no-windows", func() { s.forgetFrames(); clear(s.windows) }},
		{"no-rows", func() { s.forgetFrames(); clear(s.rows) }},
		{"no-writes", func() { s.forgetFrames(); clear(s.writes) }},
		{"no-events", func() { s.forgetFrames(); s.events = trail{} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				c.drop()
				if s.Pos() == 3 {
					s.Back()
				} else {
					s.Next()
				}
				_ = s.Frame()
			}
		})
	}
}
