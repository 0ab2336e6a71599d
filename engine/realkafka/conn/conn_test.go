package conn

import (
	"crypto/tls"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBuildRefuses: each bad combination or unreadable file is a
// UsageError (exit 2) whose message names the flag.
func TestBuildRefuses(t *testing.T) {
	notPEM := write(t, "ca.txt", "not a certificate\n")
	empty := write(t, "pw", "\n")
	cases := []struct {
		name string
		f    Flags
		want string
	}{
		{"no brokers", Flags{}, "--brokers HOST:PORT is required"},
		{"no port", Flags{Brokers: "localhost"}, `--brokers "localhost"`},
		{"cert without key", Flags{Brokers: "h:1", CertFile: "c.pem"}, "--tls-cert and --tls-key go together"},
		{"key without cert", Flags{Brokers: "h:1", KeyFile: "k.pem"}, "--tls-cert and --tls-key go together"},
		{"missing CA", Flags{Brokers: "h:1", CAFile: filepath.Join(t.TempDir(), "none.pem")}, "--tls-ca: open"},
		{"CA not PEM", Flags{Brokers: "h:1", CAFile: notPEM}, "no PEM certificate"},
		{"missing cert", Flags{Brokers: "h:1", CertFile: "/nonexistent/c.pem", KeyFile: "/nonexistent/k.pem"}, "--tls-cert/--tls-key: stat"},
		{"user without mechanism", Flags{Brokers: "h:1", SASLUser: "u"}, "need --sasl-mechanism"},
		{"unknown mechanism", Flags{Brokers: "h:1", SASLMechanism: "GSSAPI", SASLUser: "u"}, `--sasl-mechanism "GSSAPI": want one of PLAIN`},
		{"mechanism without user", Flags{Brokers: "h:1", SASLMechanism: "PLAIN"}, "needs --sasl-user"},
		{"no password", Flags{Brokers: "h:1", SASLMechanism: "PLAIN", SASLUser: "u"}, "needs a password: --sasl-password-file FILE or the environment variable " + PasswordEnv},
		{"empty password file", Flags{Brokers: "h:1", SASLMechanism: "PLAIN", SASLUser: "u", SASLPasswordFile: empty}, "is empty"},
		{"missing password file", Flags{Brokers: "h:1", SASLMechanism: "PLAIN", SASLUser: "u", SASLPasswordFile: "/nonexistent/pw"}, "--sasl-password-file: open"},
	}
	for _, c := range cases {
		_, err := c.f.Build(env(nil))
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want a UsageError with %q", c.name, err, c.want)
		}
	}
}

// TestOpts: what a client is built with, read back from kgo.
func TestOpts(t *testing.T) {
	c, err := Flags{Brokers: "a:1,b:2"}.Build(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.TLS != nil || c.Mechanism != "" || len(c.Opts()) != 1 {
		t.Errorf("plaintext: TLS %v, mechanism %q, %d opts; want none, none, 1", c.TLS, c.Mechanism, len(c.Opts()))
	}
	pw := write(t, "pw", "s3cret\n")
	for _, m := range []string{"plain", "SCRAM-SHA-256", "scram-sha-512"} {
		c, err := Flags{Brokers: "a:1", TLS: true, ServerName: "kafka.example", SASLMechanism: m, SASLUser: "alice", SASLPasswordFile: pw}.Build(env(nil))
		if err != nil {
			t.Fatal(err)
		}
		cl, err := kgo.NewClient(c.Opts()...)
		if err != nil {
			t.Fatal(err)
		}
		tc, _ := cl.OptValue(kgo.DialTLSConfig).(*tls.Config)
		ms, _ := cl.OptValue(kgo.SASL).([]sasl.Mechanism)
		cl.Close()
		if tc == nil || tc.ServerName != "kafka.example" {
			t.Errorf("%s: TLS config %v, want one with ServerName kafka.example", m, tc)
		}
		if len(ms) != 1 || ms[0].Name() != strings.ToUpper(m) {
			t.Errorf("%s: SASL mechanisms %v, want %s", m, ms, strings.ToUpper(m))
		}
		if d := c.Describe(); strings.Contains(d, "s3cret") || !strings.Contains(d, "alice") {
			t.Errorf("Describe() = %q: want the user and never the password", d)
		}
	}
	// The environment gives the password when no file does.
	c, err = Flags{Brokers: "a:1", SASLMechanism: "PLAIN", SASLUser: "u"}.Build(env(map[string]string{PasswordEnv: "pw"}))
	if err != nil || c.Mechanism != "PLAIN" {
		t.Errorf("password from %s: %v, mechanism %q", PasswordEnv, err, c.Mechanism)
	}
	// Any TLS file flag turns TLS on.
	c, err = Flags{Brokers: "a:1", ServerName: "x"}.Build(env(nil))
	if err != nil || c.TLS == nil {
		t.Errorf("--tls-server-name alone: %v, TLS %v; want TLS on", err, c.TLS)
	}
}
