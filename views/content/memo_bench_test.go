package content_test

import (
	"strconv"
	"testing"

	"github.com/eoslab/eoslab/views/content"
	"github.com/eoslab/eoslab/views/theme"
)

// BenchmarkMemo scrolls a 40-row window a line at a time over a lazy body
// of 2,000 styled lines, as a pane does on each scroll key: "memo" reads it
// through Memo, which makes each line once; "lazy" makes every line on
// screen again on every scroll. Memo stays as long as it costs less.
func BenchmarkMemo(b *testing.B) {
	th := theme.New(theme.Options{})
	line := func(i int) string {
		return th.Render(theme.Committed, "  "+strconv.Itoa(i)) + " " + th.Render(theme.Muted, "pid 4000 epoch 3 seq "+strconv.Itoa(2*i)+".."+strconv.Itoa(2*i+1))
	}
	for _, c := range []struct {
		name string
		body func() content.Content
	}{
		{"memo", func() content.Content { return content.MemoOf(content.Lazy(2000, line)) }},
		{"lazy", func() content.Content { return content.Lazy(2000, line) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			body := c.body()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				off := i % (body.Len() - 40)
				for j := off; j < off+40; j++ {
					_ = body.Line(j)
				}
			}
		})
	}
}
