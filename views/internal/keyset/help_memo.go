package keyset

// HelpMemo holds the help bar for the last few sets of keys and widths:
// the help model renders each key with lipgloss, and fitting the bar to
// the width renders it several times. A nil HelpMemo keeps nothing.
type HelpMemo struct {
	slots [4]struct{ sig, line string }
	next  int
}

// Get is the help bar kept for sig, the keys and width it was drawn for.
func (c *HelpMemo) Get(sig string) (string, bool) {
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

// Put keeps line as the help bar for sig, in place of the oldest kept.
func (c *HelpMemo) Put(sig, line string) {
	if c == nil {
		return
	}
	c.slots[c.next].sig, c.slots[c.next].line = sig, line
	c.next = (c.next + 1) % len(c.slots)
}
