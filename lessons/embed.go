package lessons

import (
	"embed"
	"errors"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

// The built-in lessons. A file's "NN-" prefix orders the list; its name
// without prefix and extension is the lesson's name.
//
//go:embed content/*.lesson
var content embed.FS

type builtin struct {
	file   string
	src    []byte
	lesson *Lesson
	err    error
}

var (
	loadOnce sync.Once
	builtins []builtin
)

// load parses every built-in lesson once.
func load() []builtin {
	loadOnce.Do(func() {
		// Glob's only error is ErrBadPattern, for a constant pattern; it
		// is kept as a lesson that fails to load, which the tests report.
		files, err := fs.Glob(content, "content/*.lesson")
		if err != nil {
			builtins = append(builtins, builtin{file: "content/*.lesson", err: err})
			return
		}
		sort.Strings(files)
		for _, f := range files {
			src, err := content.ReadFile(f)
			b := builtin{file: f, src: src, err: err}
			if err == nil {
				b.lesson, b.err = Parse(f, src)
			}
			builtins = append(builtins, b)
		}
	})
	return builtins
}

// All lists the built-in lessons in teaching order. A lesson that does not
// parse is left out (the tests see to it that none is).
func All() []Meta {
	var out []Meta
	for _, b := range load() {
		if b.lesson != nil {
			out = append(out, b.lesson.Meta())
		}
	}
	return out
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
	return b.lesson, b.err
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
			return &bs[i], nil
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
