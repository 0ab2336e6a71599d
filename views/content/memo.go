package content

// Memo is Content that makes each line of another Content once, the
// first time it is drawn, and keeps it.
//
// A body may have thousands of lines of which a pane shows a screenful, so
// the lines are kept in chunks of memoChunk, each made when one of its
// lines is first drawn: a frame that is drawn once does not pay for a
// slot per line it never shows.
type Memo struct {
	Content Content
	n       int
	lines   []string     // every line, when the Content is Lines
	chunks  []*memoLines // chunk i holds lines i*memoChunk on
}

// memoChunk is how many lines a chunk of a Memo holds: the bits of made.
const memoChunk = 64

type memoLines struct {
	lines [memoChunk]string
	made  uint64 // bit j: lines[j] is made
}

func MemoOf(c Content) *Memo {
	switch c := c.(type) {
	case *Memo:
		return c
	case Lines:
		return &Memo{Content: c, n: len(c), lines: c}
	case nil:
		return &Memo{Content: Lines(nil), lines: Lines(nil)}
	}
	return &Memo{Content: c, n: c.Len()}
}

func (m *Memo) Len() int { return m.n }

func (m *Memo) Line(i int) string {
	if m.lines != nil {
		return m.lines[i]
	}
	if i < 0 || i >= m.n {
		panic("content: line out of range")
	}
	if m.chunks == nil {
		m.chunks = make([]*memoLines, (m.n+memoChunk-1)/memoChunk)
	}
	c := m.chunks[i/memoChunk]
	if c == nil {
		c = &memoLines{}
		m.chunks[i/memoChunk] = c
	}
	j := uint(i % memoChunk)
	if c.made&(1<<j) == 0 {
		c.lines[j], c.made = m.Content.Line(i), c.made|1<<j
	}
	return c.lines[j]
}
