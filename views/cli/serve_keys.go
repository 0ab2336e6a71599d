package cli

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/engine/termsafe"
)

// hostKeyPath is --host-key, or the host key in the user's state
// directory: $XDG_STATE_HOME/eoslab, ~/.local/state/eoslab, or the
// configuration directory where there is no such convention.
func hostKeyPath(flagPath string) (string, error) {
	if flagPath != "" {
		return flagPath, nil
	}
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil && runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
			dir = filepath.Join(home, ".local", "state")
		} else if cd, err := os.UserConfigDir(); err == nil {
			dir = cd
		} else {
			return "", invalid("eoslab serve: no state directory for the host key (%v); pass --host-key FILE", err)
		}
	}
	return filepath.Join(dir, "eoslab", "ssh_host_ed25519_key"), nil
}

// serveLog is the server's log on w. Its lines carry what SSH clients
// send (a seat name, a request type), so they go through termsafe.Writer:
// an ESC from a client reaches the operator's terminal escaped.
func serveLog(w io.Writer) *log.Logger {
	return log.New(termsafe.Writer(w), "eoslab serve: ", log.LstdFlags)
}

// loadHostKey reads the host key, or makes one there on first start, and
// returns it with its fingerprint.
func loadHostKey(path string) ([]byte, string, error) {
	b, err := readKeyFile(path)
	if errors.Is(err, os.ErrNotExist) {
		_, priv, gerr := ed25519.GenerateKey(rand.Reader)
		if gerr != nil {
			return nil, "", invalid("eoslab serve: making a host key: %v", gerr)
		}
		blk, merr := gossh.MarshalPrivateKey(priv, "eoslab serve host key")
		if merr != nil {
			return nil, "", invalid("eoslab serve: making a host key: %v", merr)
		}
		b = pem.EncodeToMemory(blk)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, "", invalid("%s: cannot make the host key's directory: %v", path, err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return nil, "", invalid("%s: cannot write the host key: %v", path, err)
		}
	} else if err != nil {
		return nil, "", invalid("%s: cannot read the host key: %v", path, err)
	}
	signer, err := gossh.ParsePrivateKey(b)
	if err != nil {
		return nil, "", invalid("%s: not an unencrypted SSH private key (PEM): %v", path, err)
	}
	return b, gossh.FingerprintSHA256(signer.PublicKey()), nil
}

// maxKeyFileBytes caps what is read of the host key and presenter key
// files: a key is a few hundred bytes, and --host-key /dev/zero must end
// with a message, not fill the memory.
const maxKeyFileBytes = 1 << 20

// readKeyFile reads a key file of at most maxKeyFileBytes; a larger one is
// an error. A missing file's error is os.Open's (errors.Is ErrNotExist).
func readKeyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFileBytes+1))
	if err == nil && len(b) > maxKeyFileBytes {
		err = fmt.Errorf("larger than %d MiB; a key file holds a few lines", maxKeyFileBytes>>20)
	}
	return b, err
}

// readPublicKeys reads an authorized_keys-style file: one public key a
// line, blank lines and # comments skipped.
func readPublicKeys(path string) ([]gossh.PublicKey, error) {
	b, err := readKeyFile(path)
	if err != nil {
		return nil, invalid("%s: cannot read: %v", path, err)
	}
	var keys []gossh.PublicKey
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, _, _, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, invalid("%s:%d: expected a public key such as 'ssh-ed25519 AAAA... name': %v", path, i+1, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, invalid("%s: no public key in the file", path)
	}
	return keys, nil
}
