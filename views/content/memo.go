package content

// Memo is Content that makes each line of another Content once, the
// first time it is drawn, and keeps it.
type Memo struct {
	Content Content
	n       int
	lines   []string
	made    []bool // nil when every line is made
}

func MemoOf(c Content) *Memo {
	switch c := c.(type) {
	case *Memo:
		return c
	case Lines:
		return &Memo{Content: c, n: len(c), lines: c}
	case nil:
		return &Memo{Content: Lines(nil)}
	}
	return &Memo{Content: c, n: c.Len()}
}

func (m *Memo) Len() int { return m.n }

func (m *Memo) Line(i int) string {
	if m.lines == nil {
		m.lines, m.made = make([]string, m.n), make([]bool, m.n)
	}
	if m.made != nil && !m.made[i] {
		m.lines[i], m.made[i] = m.Content.Line(i), true
	}
	return m.lines[i]
}
