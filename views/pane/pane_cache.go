package pane

// A pane keeps what it drew: each body line once styled (Memo), and
// its last few finished renderings (paneDrawn), shared by the pane's copies
// that Bubble Tea passes around. Update and View run on one goroutine, so
// they need no locking.

// paneSlots is how many renderings a pane keeps: enough for going back and
// forth over a few steps.
const paneSlots = 4

// Memo is Content that makes each line of another Content once, the
// first time it is drawn, and keeps it.
type Memo struct {
	c     Content
	n     int
	lines []string
	made  []bool // nil when every line is made
}

func MemoOf(c Content) *Memo {
	switch c := c.(type) {
	case *Memo:
		return c
	case Lines:
		return &Memo{c: c, n: len(c), lines: c}
	case nil:
		return &Memo{c: Lines(nil)}
	}
	return &Memo{c: c, n: c.Len()}
}

func (m *Memo) Len() int { return m.n }

func (m *Memo) Line(i int) string {
	if m.lines == nil {
		m.lines, m.made = make([]string, m.n), make([]bool, m.n)
	}
	if m.made != nil && !m.made[i] {
		m.lines[i], m.made[i] = m.c.Line(i), true
	}
	return m.lines[i]
}

// paneDrawn is a pane's last few renderings and what they were made from:
// stepping back and forth alternates between the bodies of a few frames.
type paneDrawn struct {
	slots [paneSlots]paneDraw
	next  int
}

type paneDraw struct {
	key   paneDrawKey
	head  []string
	lines []string
}

func (d *paneDrawn) get(k paneDrawKey, head []string) ([]string, bool) {
	if d == nil {
		return nil, false
	}
	for i := range d.slots {
		if s := &d.slots[i]; s.lines != nil && s.key == k && sameLines(s.head, head) {
			return s.lines, true
		}
	}
	return nil, false
}

func (d *paneDrawn) put(k paneDrawKey, head, lines []string) {
	if d == nil {
		return
	}
	d.slots[d.next] = paneDraw{key: k, head: head, lines: lines}
	d.next = (d.next + 1) % len(d.slots)
}

type paneDrawKey struct {
	body      *Memo
	title     string
	footer    string
	off, w, h int
	focused   bool
}

func sameLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
