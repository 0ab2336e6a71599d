package lessons

import (
	"bytes"
	"cmp"
	"embed"
	"errors"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The built-in lessons. A file's "NN-" prefix orders the list; its name
// without prefix and extension is the lesson's name.
//
//go:embed content/*.lesson
var content embed.FS

// builtin is one built-in lesson: its list entry, read from the file's
// header without parsing it, and the lesson, parsed the first time it is
// asked for. The lesson list (All) is drawn before anything is played, so
// eoslab's first frame pays for reading 17 headers, not for parsing 17
// lessons under both Kafka versions.
type builtin struct {
	file string
	src  []byte
	meta Meta

	once   sync.Once
	lesson *Lesson
	err    error
}

// parsed parses the lesson once; every caller shares the result.
func (b *builtin) parsed() (*Lesson, error) {
	b.once.Do(func() { b.lesson, b.err = Parse(b.file, b.src) })
	return b.lesson, b.err
}

var (
	loadOnce sync.Once
	builtins []*builtin
)

// load reads every built-in lesson's file and list entry once.
func load() []*builtin {
	loadOnce.Do(func() { builtins = readBuiltins() })
	return builtins
}

// readBuiltins reads the built-in lessons' files and list entries.
func readBuiltins() []*builtin {
	// Glob's only error is ErrBadPattern, for a constant pattern; it is
	// kept as a lesson that fails to load, which the tests report.
	files, err := fs.Glob(content, "content/*.lesson")
	if err != nil {
		b := &builtin{file: "content/*.lesson", err: err}
		b.once.Do(func() {})
		return []*builtin{b}
	}
	sort.Strings(files)
	out := make([]*builtin, 0, len(files))
	for _, f := range files {
		src, err := content.ReadFile(f)
		b := &builtin{file: f, src: src, meta: scanMeta(nameFromFile(f), src)}
		if err != nil {
			b.err = err
			b.once.Do(func() {})
		}
		out = append(out, b)
	}
	return out
}

// All lists the built-in lessons in teaching order, from their headers
// alone: no lesson is parsed. The tests see to it that every built-in
// lesson parses and that each entry is the parsed lesson's Meta.
func All() []Meta {
	var out []Meta
	for _, b := range load() {
		if b.src != nil {
			out = append(out, b.meta)
		}
	}
	return out
}

// scanMeta reads a lesson's list entry from its file without parsing the
// file: the header's title, summary, level and minutes, and the number of
// step: lines. It checks nothing; it is only for the built-in lessons,
// which the tests parse. It looks at a line's first bytes before making a
// string of it, as most lines are a step's say: or do:.
func scanMeta(name string, src []byte) Meta {
	m := Meta{Name: name}
	header := true // the header ends at setup: or the first step:
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimLeft(line, " \t")
		switch {
		case bytes.HasPrefix(line, []byte("step:")):
			m.Steps++
			header = false
		case !header:
		case bytes.HasPrefix(line, []byte("setup:")):
			header = false
		case bytes.HasPrefix(line, []byte("title:")), bytes.HasPrefix(line, []byte("summary:")),
			bytes.HasPrefix(line, []byte("level:")), bytes.HasPrefix(line, []byte("minutes:")):
			key, val, _, _ := splitKey(strings.TrimSuffix(string(line), "\r"))
			switch key {
			case "title":
				m.Title = cmp.Or(m.Title, val)
			case "summary":
				m.Summary = cmp.Or(m.Summary, val)
			case "level":
				m.Level = cmp.Or(m.Level, val)
			case "minutes":
				if n, err := strconv.Atoi(val); err == nil && m.Minutes == 0 {
					m.Minutes = n
				}
			}
		}
	}
	return m
}

// ErrNotFound is returned by Load and Source for an unknown lesson name.
var ErrNotFound = errors.New("no such lesson")

// Load returns a built-in lesson by name. Lessons are immutable once parsed,
// so every caller may share the same value.
func Load(name string) (*Lesson, error) {
	b, err := find(name)
	if err != nil {
		return nil, err
	}
	return b.parsed()
}

// Source returns a built-in lesson's file name and text, for `eoslab check`
// and for teachers who want a starting point.
func Source(name string) (file string, src []byte, err error) {
	b, err := find(name)
	if err != nil {
		return "", nil, err
	}
	return b.file, b.src, nil
}

func find(name string) (*builtin, error) {
	bs := load()
	var names []string
	for i := range bs {
		n := nameFromFile(bs[i].file)
		if n == name {
			return bs[i], nil
		}
		names = append(names, n)
	}
	return nil, &notFound{name: name, names: names}
}

type notFound struct {
	name  string
	names []string
}

func (e *notFound) Error() string {
	return "no lesson named " + quote(e.name) + "; the lessons are " + strings.Join(e.names, ", ")
}

func (e *notFound) Unwrap() error { return ErrNotFound }
