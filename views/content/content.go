// Package content is what a pane scrolls through: Content made line by line
// on demand (Lines, Lazy, Sections with sticky headings), the Range to bring
// into view, and Memo, which makes each line once. The panels build it and
// the pane draws it; it is a foundation so that neither imports the other.
package content

// Content is the body of a pane. Lines are made on demand, so a partition
// log of thousands of rows costs only the lines that are on screen.
type Content interface {
	Len() int
	Line(i int) string
}

// Lines is Content held as ready-made lines.
type Lines []string

func (t Lines) Len() int          { return len(t) }
func (t Lines) Line(i int) string { return t[i] }

// lazyLines is Content whose lines are built by a function.
type lazyLines struct {
	n int
	f func(i int) string
}

// Lazy is Content of n lines, line i made by f(i) when it is drawn.
func Lazy(n int, f func(i int) string) Content { return lazyLines{n: n, f: f} }

func (l lazyLines) Len() int          { return l.n }
func (l lazyLines) Line(i int) string { return l.f(i) }

// Sticky is Content made of sections, each led by a heading line (a
// partition's name, a producer's name). When the pane scrolls past a
// section's heading, it draws the heading on the first row, above the rest
// of the section, so a log is never on screen without its partition.
type Sticky interface {
	Content
	// StickyAt returns the heading to draw above line i when i is the
	// first line on screen. ok is false when line i is itself a heading,
	// or is in no section.
	StickyAt(i int) (heading string, ok bool)
}

// Sections is Content held as lines, with the indexes of its headings in
// ascending order.
type Sections struct {
	Lines Lines
	Heads []int
}

func (s Sections) Len() int          { return len(s.Lines) }
func (s Sections) Line(i int) string { return s.Lines[i] }

func (s Sections) StickyAt(i int) (string, bool) { return stickyAt(s, s.Heads, i) }

// SectionsOf is Sections with lines made on demand by c.
func SectionsOf(c Content, heads []int) Sticky { return lazySections{c, heads} }

type lazySections struct {
	Content
	heads []int
}

func (s lazySections) StickyAt(i int) (string, bool) { return stickyAt(s.Content, s.heads, i) }

// stickyAt is the heading of the section line i of c is in, the sections
// starting at heads; none for a heading or a blank line.
func stickyAt(c Content, heads []int, i int) (string, bool) {
	h := -1
	for _, x := range heads {
		if x > i {
			break
		}
		h = x
	}
	if h < 0 || h == i || (i < c.Len() && c.Line(i) == "") {
		return "", false
	}
	return c.Line(h), true
}

// Range is an inclusive range of body lines; a negative From means none.
type Range struct{ From, To int }

var NoRange = Range{-1, -1}
