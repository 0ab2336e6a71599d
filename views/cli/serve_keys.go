package cli

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/lessons/regfile"
)

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
		return nil, "", invalid("eoslab serve: cannot read the host key: %v", err)
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
// an error, and so is what is not a regular file (a FIFO would block the
// open). Every error's text starts with the path; a missing file's is
// errors.Is ErrNotExist.
func readKeyFile(path string) ([]byte, error) {
	b, err := regfile.ReadFile(path, maxKeyFileBytes)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = fmt.Errorf("%s: %w", path, pe.Err)
	}
	return b, err
}

// readPublicKeys reads an authorized_keys-style file: one public key a
// line, blank lines and # comments skipped.
func readPublicKeys(path string) ([]gossh.PublicKey, error) {
	b, err := readKeyFile(path)
	if err != nil {
		return nil, invalid("eoslab serve: cannot read the presenter key: %v", err)
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
