package adapt

import "testing"

func BenchmarkZZBuild(b *testing.B) {
	s := New(bigLesson(b))
	playTo(b, s, 3)
	s.Frame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.build(2 + i%2)
	}
}
