package cli

import (
	"strings"
	"testing"
)

// TestVerifyNeeds: verify --needs lists, without a broker, the files that
// need an owned or an expiry cluster, one a line, the first such line of
// each on standard error; bad input is exit 2 with what is wrong.
func TestVerifyNeeds(t *testing.T) {
	scn := "../../engine/testdata/scenarios/"
	files := []string{scn + "acks1-loss-leader-crash.scn", scn + "s32-transactional-id-expiry.scn", scn + "s01-first-write.scn"}
	code, out, errOut := runCLI(t, append([]string{"verify", "--needs", "owned", "--transaction-version", "2"}, files...)...)
	if code != 0 || out != files[0]+"\n" || !strings.Contains(errOut, "acks1-loss-leader-crash.scn:17: crashes broker-3") {
		t.Errorf("--needs owned: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, append([]string{"verify", "--needs", "expiry", "--transaction-version", "0"}, files...)...)
	if code != 0 || out != files[1]+"\n" {
		t.Errorf("--needs expiry: exit %d, stdout %q", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--needs", "shared", "--transaction-version", "2", files[0]}, `--needs "shared": want owned or expiry`},
		{[]string{"--needs", "owned", files[0]}, "--transaction-version 0, 1 or 2"},
		{[]string{"--needs", "owned", "--transaction-version", "3", files[0]}, "--transaction-version 0, 1 or 2"},
		{[]string{"--transaction-version", "2", files[0]}, "--transaction-version goes with --needs"},
		{[]string{"--needs", "owned", "--transaction-version", "2", "nonexistent.scn"}, "nonexistent.scn"},
		{[]string{"--needs", "owned", "--transaction-version", "2"}, "at least one file"},
	} {
		code, _, errOut := runCLI(t, append([]string{"verify"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("verify %v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
