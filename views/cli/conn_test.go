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
	// live without --headless says the player is not built.
	code, _, errOut = runCLI(t, "live", "--brokers", "127.0.0.1:9")
	if code != 2 || !strings.Contains(errOut, "--headless") {
		t.Errorf("live without --headless: exit %d, %q", code, errOut)
	}
}
