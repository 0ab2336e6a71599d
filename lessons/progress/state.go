package progress

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/eoslab/eoslab/lessons/regfile"
)

// HostKeyFile is the name of eoslab serve's host key in the state
// directory.
const HostKeyFile = "ssh_host_ed25519_key"

// ClassFile is the name of eoslab serve's class in the state directory:
// the lesson, the step, the answers, the seats and the presenter code,
// so that a restarted server keeps the class.
const ClassFile = "class.json"

// StateDir is the one place that decides eoslab's state directory, for
// the progress, the served class and the host key alike: DefaultDir.
func StateDir(getenv func(string) string) (string, error) {
	d, err := DefaultDir(getenv)
	if err != nil {
		return "", fmt.Errorf("no state directory (%v); set %s", err, EnvDir)
	}
	return d, nil
}

// HostKeyPath is flagPath when it is set, else the host key in StateDir.
func HostKeyPath(flagPath string, getenv func(string) string) (string, error) {
	if flagPath != "" {
		return flagPath, nil
	}
	d, err := StateDir(getenv)
	if err != nil {
		return "", fmt.Errorf("%v, or pass --host-key FILE", err)
	}
	return filepath.Join(d, HostKeyFile), nil
}

// maxStateFile caps what ReadState reads: a class of a few hundred seats
// is well under a megabyte.
const maxStateFile = 16 << 20

// ReadState reads a file of the state directory; a missing one is
// errors.Is(err, fs.ErrNotExist), anything but a regular file an error.
func ReadState(path string) ([]byte, error) {
	return regfile.ReadFile(path, maxStateFile)
}

// WriteState puts src at path atomically, as the progress file is
// written: a temporary file beside it, synced, renamed over it.
func WriteState(path string, src []byte) error {
	s := &Store{dir: filepath.Dir(path), file: path}
	if err := s.write(src); err != nil {
		return errors.New(filepath.Base(path) + ": " + err.Error())
	}
	return nil
}

// StateFile is a file of the state directory that eoslab serve keeps its
// class in (a serve.Keeper): Load gives nil for a file not there yet.
type StateFile string

// Load reads the file; nil with no error when there is none yet.
func (f StateFile) Load() ([]byte, error) {
	b, err := ReadState(string(f))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// String is the file's path, for messages about it.
func (f StateFile) String() string { return string(f) }

// Save writes the file atomically.
func (f StateFile) Save(b []byte) error { return WriteState(string(f), b) }

// SummaryFile is the name of the class summary eoslab serve's presenter
// exports, beside the class.
const SummaryFile = "class-summary.txt"

// Export writes a class summary beside the file and returns its path.
func (f StateFile) Export(text string) (string, error) {
	p := filepath.Join(filepath.Dir(string(f)), SummaryFile)
	return p, WriteState(p, []byte(text))
}
