//go:build unix

package progress

import (
	"os"
	"syscall"
)

// lockDir takes an exclusive flock(2) on the progress directory itself and
// returns its release. Every write of the progress holds it from reading
// the file to renaming the new one over it, so two eoslab processes
// writing at once take turns and each reads what the other wrote. Locking
// the directory leaves no lock file behind.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}
