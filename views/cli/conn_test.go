package cli

import (
	"strings"
	"testing"
)

// TestConnFlags: every command that talks to a cluster takes the same
// connection flags, and a bad combination is exit 2 with the flag named,
// before any connection is tried.
func TestConnFlags(t *testing.T) {
	t.Setenv("EOSLAB_SASL_PASSWORD", "")
	bad := [][]string{
		{"--brokers", "127.0.0.1:9", "--tls-cert", "c.pem"},
		{"--brokers", "127.0.0.1:9", "--sasl-mechanism", "PLAIN", "--sasl-user", "u"},
		{"--brokers", "127.0.0.1:9", "--sasl-mechanism", "KERBEROS", "--sasl-user", "u"},
		{"--brokers", "127.0.0.1:9", "--tls-ca", "/nonexistent/ca.pem"},
		{"--brokers", "nohost"},
	}
	wants := []string{"--tls-cert and --tls-key go together", "needs a password", `--sasl-mechanism "KERBEROS"`, "--tls-ca: open", `--brokers "nohost"`}
	for _, cmd := range [][]string{{"kafka", "preflight"}, {"inspect", "--once"}, {"live", "--headless"}, {"verify", "x.scn"}} {
		for i, args := range bad {
			code, _, errOut := runCLI(t, append(append([]string{}, cmd...), args...)...)
			if code != 2 || !strings.Contains(errOut, wants[i]) {
				t.Errorf("%v %v: exit %d, stderr %q; want 2 and %q", cmd, args, code, errOut, wants[i])
			}
		}
	}
	// A password is never a flag.
	code, _, errOut := runCLI(t, "kafka", "preflight", "--brokers", "127.0.0.1:9", "--sasl-password", "x")
	if code != 2 || !strings.Contains(errOut, "unknown flag --sasl-password;") {
		t.Errorf("--sasl-password: exit %d, %q; want 2, unknown flag", code, errOut)
	}
	// live without --headless opens the player once the cluster
	// answers: a cluster that does not is exit 1 with why, before the
	// terminal is taken; a lesson that does not exist is exit 2 before
	// the cluster is asked.
	code, _, errOut = runCLI(t, "live", "--brokers", "127.0.0.1:9", "--lesson", "zombie")
	if code != 1 || !strings.Contains(errOut, "did not answer") {
		t.Errorf("live on no cluster: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "live", "--brokers", "127.0.0.1:9", "--lesson", "no-such-lesson")
	if code != 2 || !strings.Contains(errOut, "--lesson no-such-lesson") {
		t.Errorf("live --lesson no-such-lesson: exit %d, %q", code, errOut)
	}
}
