package progress

import (
	"path/filepath"
	"testing"
)

// One function decides the state directory, and the host key lives in
// it: EOSLAB_STATE_DIR first, then an absolute XDG_STATE_HOME (a relative
// one is ignored, as the XDG base directory specification says), then
// ~/.local/state.
func TestHostKeyFollowsTheStateDir(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{EnvDir: "/s", "XDG_STATE_HOME": "/x", "HOME": "/h"}, "/s"},
		{map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"}, "/x/eoslab"},
		{map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/eoslab"},
	} {
		get := func(k string) string { return c.env[k] }
		d, err := StateDir(get)
		if err != nil {
			t.Fatal(err)
		}
		k, err := HostKeyPath("", get)
		if err != nil {
			t.Fatal(err)
		}
		if d != filepath.FromSlash(c.want) || k != filepath.Join(d, HostKeyFile) {
			t.Errorf("%v: state dir %s, host key %s; want %s", c.env, d, k, c.want)
		}
		if k, _ := HostKeyPath("my.key", get); k != "my.key" {
			t.Errorf("--host-key my.key gave %s", k)
		}
	}
}

func TestWriteStateIsReadBack(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", ClassFile)
	if _, err := ReadState(p); err == nil {
		t.Fatal("a missing file was read")
	}
	if err := WriteState(p, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadState(p); err != nil || string(b) != "{}" {
		t.Fatalf("%q %v", b, err)
	}
	if _, err := ReadState(filepath.Dir(p)); err == nil {
		t.Fatal("a directory was read as a state file")
	}
}

func TestStateFile(t *testing.T) {
	f := StateFile(filepath.Join(t.TempDir(), ClassFile))
	if b, err := f.Load(); b != nil || err != nil {
		t.Fatalf("a missing file: %q %v", b, err)
	}
	if err := f.Save([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := f.Load(); string(b) != "x" || err != nil {
		t.Fatalf("%q %v", b, err)
	}
}
