package cli

import (
	"errors"
	"os"
	"strings"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/lessons"
)

// openInput opens a scenario or lesson file. A regular file larger than
// script.MaxFileBytes is refused before a byte of it is read; a pipe or a
// device, whose size is unknown, is read by the parsers through their
// limit, which stops one byte past it (eoslab run /dev/zero ends there).
func openInput(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, invalid("%s: cannot read: %v", path, pe.Err)
		}
		return nil, invalid("%s: cannot read: %v", path, err)
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > script.MaxFileBytes {
		f.Close()
		return nil, asInvalid(script.FileTooLarge(path))
	}
	return f, nil
}

// isLessonFile reports whether an argument names a lesson file rather than
// a built-in lesson: a path (it has a directory separator) or a name
// ending in .lesson. Built-in names have neither.
func isLessonFile(arg string) bool {
	return strings.HasSuffix(arg, ".lesson") || strings.ContainsAny(arg, `/\`)
}

// loadLesson loads a built-in lesson by name or a lesson file by path.
// With check set, a file is also played to the end, as 'eoslab check'
// does, so the player never opens a lesson whose answers are wrong. Every
// problem is an invalid-input error naming file:line.
func loadLesson(arg string, check bool) (*lessons.Lesson, error) {
	if !isLessonFile(arg) {
		l, err := lessons.Load(arg)
		if err != nil {
			return nil, invalid("eoslab: %v", err)
		}
		return l, nil
	}
	in, err := openInput(arg)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	l, err := lessons.ParseReader(arg, in)
	if err != nil {
		return nil, asInvalid(err)
	}
	if check {
		if err := l.Check(); err != nil {
			return nil, invalid("%s\n%s: the lesson does not play as written; 'eoslab run %s' shows where", err, arg, arg)
		}
	}
	return l, nil
}
