package lessons

import (
	"bytes"
	"cmp"
	"embed"
	"errors"
	"io"
	"io/fs"
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
// lessons under both Kafka versions. The file's text is read from the
// embedded files when it is first needed (Source, the parse), not for the
// list: a copy of every file would be most of the list's cost.
type builtin struct {
	file string
	meta Meta

	// unread is why the file could not be read for the list, if it
	// could not; such a lesson is left out of the list.
	unread error

	readOnce sync.Once
	src      []byte
	readErr  error

	parseOnce sync.Once
	lesson    *Lesson
	err       error
}

// text reads the lesson's file once.
func (b *builtin) text() ([]byte, error) {
	b.readOnce.Do(func() {
		if b.unread != nil {
			b.readErr = b.unread
			return
		}
		b.src, b.readErr = content.ReadFile(b.file)
	})
	return b.src, b.readErr
}

// parsed parses the lesson once; every caller shares the result.
func (b *builtin) parsed() (*Lesson, error) {
	b.parseOnce.Do(func() {
		src, err := b.text()
		if err != nil {
			b.err = err
			return
		}
		b.lesson, b.err = Parse(b.file, src)
	})
	return b.lesson, b.err
}

var (
	loadOnce sync.Once
	builtins []*builtin
)

// load reads every built-in lesson's list entry once.
func load() []*builtin {
	loadOnce.Do(func() { builtins = readBuiltins() })
	return builtins
}

// readBuiltins reads the built-in lessons' list entries, in file name
// order (fs.ReadDir sorts), each file read through one reused buffer.
func readBuiltins() []*builtin {
	entries, err := fs.ReadDir(content, "content")
	if err != nil {
		return []*builtin{failedBuiltin("content", err)}
	}
	out := make([]*builtin, 0, len(entries))
	var buf []byte
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".lesson") {
			continue
		}
		f := "content/" + e.Name()
		buf, err = readInto(buf, f)
		if err != nil {
			out = append(out, failedBuiltin(f, err))
			continue
		}
		out = append(out, &builtin{file: f, meta: scanMeta(nameFromFile(f), buf)})
	}
	return out
}

// failedBuiltin is a lesson that fails to load with err, which the tests
// report; the list leaves it out.
func failedBuiltin(file string, err error) *builtin {
	return &builtin{file: file, unread: err}
}

// readInto reads the embedded file name into buf, grown as needed.
func readInto(buf []byte, name string) ([]byte, error) {
	f, err := content.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return buf, err
	}
	if n := int(st.Size()); cap(buf) < n {
		buf = make([]byte, n, n+n/2)
	}
	buf = buf[:st.Size()]
	_, err = io.ReadFull(f, buf)
	return buf, err
}

// All lists the built-in lessons in teaching order, from their headers
// alone: no lesson is parsed. The tests see to it that every built-in
// lesson parses and that each entry is the parsed lesson's Meta.
func All() []Meta {
	var out []Meta
	for _, b := range load() {
		if b.unread == nil {
			out = append(out, b.meta)
		}
	}
	return out
}

// scanMeta reads a lesson's list entry from its file without parsing the
// file: the header's title, summary, level and minutes, and the number of
// step: lines. It checks nothing; it is only for the built-in lessons,
// which the tests parse. It reads the header line by line and then only
// looks for the steps (countSteps).
func scanMeta(name string, src []byte) Meta {
	m := Meta{Name: name}
	for len(src) > 0 { // the header ends at setup: or the first step:
		line, rest := src, []byte(nil)
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, rest = src[:i], src[i+1:]
		}
		line = bytes.TrimLeft(line, " \t")
		switch {
		case bytes.HasPrefix(line, []byte("step:")):
			m.Steps = countSteps(src)
			return m
		case bytes.HasPrefix(line, []byte("setup:")):
			m.Steps = countSteps(rest)
			return m
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
		src = rest
	}
	return m
}

// countSteps counts the lines of src that start, after spaces and tabs,
// with "step:". It hops from line to line with bytes.IndexByte and looks
// only at each line's first bytes, as most lines are a step's text.
func countSteps(src []byte) int {
	n := 0
	for len(src) > 0 {
		i := 0
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if len(src)-i >= len("step:") && string(src[i:i+len("step:")]) == "step:" {
			n++
		}
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			break
		}
		src = src[i+nl+1:]
	}
	return n
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
	src, err = b.text()
	if err != nil {
		return "", nil, err
	}
	return b.file, src, nil
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
