package pane

import "github.com/eoslab/eoslab/views/content"

// A pane keeps what it drew: each body line once styled (Memo), and
// its last few finished renderings (paneDrawn), shared by the pane's copies
// that Bubble Tea passes around. Update and View run on one goroutine, so
// they need no locking.

// paneSlots is how many renderings a pane keeps: enough for going back and
// forth over a few steps.
const paneSlots = 4

// paneDrawn is a pane's last few renderings and what they were made from:
// stepping back and forth alternates between the bodies of a few frames.
type paneDrawn struct {
	slots [paneSlots]paneDraw
	next  int
	// boxed remembers body lines fitted between the borders: a new
	// frame's body is mostly lines the pane drew for the frame before
	// (a log's older rows, the events that were there), made again.
	boxed map[boxKey]string
}

type boxKey struct {
	v, s, ell string
	inner     int
}

// maxBoxed bounds boxed: a few screens of lines. When it is full it
// starts again, which costs one frame's fitting.
const maxBoxed = 2048

// boxLine is boxLine(v, s, inner, ell), remembered.
func (d *paneDrawn) boxLine(v, s string, inner int, ell string) string {
	if d == nil {
		return boxLine(v, s, inner, ell)
	}
	k := boxKey{v: v, s: s, ell: ell, inner: inner}
	if l, ok := d.boxed[k]; ok {
		return l
	}
	if d.boxed == nil || len(d.boxed) >= maxBoxed {
		d.boxed = make(map[boxKey]string, 256)
	}
	l := boxLine(v, s, inner, ell)
	d.boxed[k] = l
	return l
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
	body      *content.Memo
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
