package views

// helpMemo holds the help bar for the last few sets of keys and widths:
// the help model renders each key with lipgloss, and fitting the bar to
// the width renders it several times. A nil helpMemo keeps nothing.
type helpMemo struct {
	slots [4]struct{ sig, line string }
	next  int
}

func (c *helpMemo) get(sig string) (string, bool) {
	if c == nil {
		return "", false
	}
	for _, h := range c.slots {
		if h.sig == sig && sig != "" {
			return h.line, true
		}
	}
	return "", false
}

func (c *helpMemo) put(sig, line string) {
	if c == nil {
		return
	}
	c.slots[c.next].sig, c.slots[c.next].line = sig, line
	c.next = (c.next + 1) % len(c.slots)
}
