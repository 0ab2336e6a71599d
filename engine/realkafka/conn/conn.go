// Package conn turns the connection flags every cluster command shares
// (inspect, verify, live, kafka preflight) into franz-go options: the
// seeds, TLS (kgo.DialTLSConfig) and SASL PLAIN or SCRAM (franz-go's
// pkg/sasl/plain and pkg/sasl/scram). It is the one place that reads the
// files those flags name (CA, client certificate, key, password).
//
// It is an I/O edge: it reads files and the environment. The fault
// wrapper (engine/realkafka/wire) parses plaintext frames, so a client
// under faults dials through Dial, which does TCP and the TLS handshake
// below the wrapper: the wrapper sits above TLS and sees the same Kafka
// frames on a TLS cluster as on a plaintext one. SASL is Kafka requests
// (SaslHandshake, SaslAuthenticate) on that connection, which the
// wrapper passes through.
package conn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// PasswordEnv is the environment variable a SASL password is read from
// when no --sasl-password-file is given. A password is never a flag's
// value: a flag shows in ps, shell history and CI logs.
const PasswordEnv = "EOSLAB_SASL_PASSWORD"

// Mechanisms are the SASL mechanisms --sasl-mechanism takes.
var Mechanisms = []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}

// Flags are the connection flags as given.
type Flags struct {
	Brokers string
	// TLS is --tls; any of the other TLS flags turns it on too.
	TLS                       bool
	CAFile, CertFile, KeyFile string
	ServerName                string
	SASLMechanism, SASLUser   string
	SASLPasswordFile          string
}

// UsageError is a bad flag or an unreadable file: exit 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usage(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Config is a checked connection: what every client of a command is
// built from.
type Config struct {
	Seeds []string
	// TLS is nil for a plaintext cluster.
	TLS *tls.Config
	// Mechanism is "" without SASL; User is its user (never the password).
	Mechanism, User string
	sasl            sasl.Mechanism
}

// Build checks the flags and reads the files they name. getenv is
// os.Getenv in the CLI (a parameter so tests need not touch the
// process's environment).
func (f Flags) Build(getenv func(string) string) (*Config, error) {
	c := &Config{}
	if strings.TrimSpace(f.Brokers) == "" {
		return nil, usage("--brokers HOST:PORT is required")
	}
	for _, s := range strings.Split(f.Brokers, ",") {
		if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
			return nil, usage("--brokers %q: want HOST:PORT[,HOST:PORT...], such as 127.0.0.1:9092", f.Brokers)
		}
		c.Seeds = append(c.Seeds, s)
	}
	if err := f.buildTLS(c); err != nil {
		return nil, err
	}
	if err := f.buildSASL(c, getenv); err != nil {
		return nil, err
	}
	return c, nil
}

func (f Flags) buildTLS(c *Config) error {
	if !f.TLS && f.CAFile == "" && f.CertFile == "" && f.KeyFile == "" && f.ServerName == "" {
		return nil
	}
	if (f.CertFile == "") != (f.KeyFile == "") {
		return usage("--tls-cert and --tls-key go together (a client certificate needs its private key)")
	}
	t := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.ServerName}
	if f.CAFile != "" {
		pem, err := os.ReadFile(f.CAFile)
		if err != nil {
			return usage("--tls-ca: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return usage("--tls-ca %s: no PEM certificate in the file", f.CAFile)
		}
		t.RootCAs = pool
	}
	if f.CertFile != "" {
		for _, p := range []string{f.CertFile, f.KeyFile} {
			if _, err := os.Stat(p); err != nil {
				return usage("--tls-cert/--tls-key: %v", err)
			}
		}
		cert, err := tls.LoadX509KeyPair(f.CertFile, f.KeyFile)
		if err != nil {
			return usage("--tls-cert %s, --tls-key %s: %v", f.CertFile, f.KeyFile, err)
		}
		t.Certificates = []tls.Certificate{cert}
	}
	c.TLS = t
	return nil
}

func (f Flags) buildSASL(c *Config, getenv func(string) string) error {
	if f.SASLMechanism == "" {
		if f.SASLUser != "" || f.SASLPasswordFile != "" {
			return usage("--sasl-user and --sasl-password-file need --sasl-mechanism (%s)", strings.Join(Mechanisms, ", "))
		}
		return nil
	}
	mech := strings.ToUpper(f.SASLMechanism)
	known := false
	for _, m := range Mechanisms {
		known = known || m == mech
	}
	if !known {
		return usage("--sasl-mechanism %q: want one of %s", f.SASLMechanism, strings.Join(Mechanisms, ", "))
	}
	if f.SASLUser == "" {
		return usage("--sasl-mechanism %s needs --sasl-user NAME", mech)
	}
	var pass string
	switch {
	case f.SASLPasswordFile != "":
		b, err := os.ReadFile(f.SASLPasswordFile)
		if err != nil {
			return usage("--sasl-password-file: %v", err)
		}
		pass = strings.TrimRight(string(b), "\r\n")
		if pass == "" {
			return usage("--sasl-password-file %s is empty", f.SASLPasswordFile)
		}
	case getenv(PasswordEnv) != "":
		pass = getenv(PasswordEnv)
	default:
		return usage("--sasl-mechanism %s needs a password: --sasl-password-file FILE or the environment variable %s", mech, PasswordEnv)
	}
	c.Mechanism, c.User = mech, f.SASLUser
	switch mech {
	case "PLAIN":
		c.sasl = plain.Auth{User: f.SASLUser, Pass: pass}.AsMechanism()
	case "SCRAM-SHA-256":
		c.sasl = scram.Auth{User: f.SASLUser, Pass: pass}.AsSha256Mechanism()
	default:
		c.sasl = scram.Auth{User: f.SASLUser, Pass: pass}.AsSha512Mechanism()
	}
	return nil
}

// Describe is one line for a command's header: where and how it
// connects, never the password.
func (c *Config) Describe() string {
	s := strings.Join(c.Seeds, ",")
	if c.TLS != nil {
		s += " over TLS"
	} else {
		s += " in plaintext"
	}
	if c.Mechanism != "" {
		s += fmt.Sprintf(", SASL %s as %s", c.Mechanism, c.User)
	}
	return s
}

// Opts are the options of a client that dials the cluster directly.
func (c *Config) Opts() []kgo.Opt {
	opts := []kgo.Opt{kgo.SeedBrokers(c.Seeds...)}
	if c.TLS != nil {
		opts = append(opts, kgo.DialTLSConfig(c.TLS.Clone()))
	}
	if c.sasl != nil {
		opts = append(opts, kgo.SASL(c.sasl))
	}
	return opts
}

// Dial connects to host and, on a TLS cluster, completes the handshake:
// the dial a fault wrapper wraps, so it sees Kafka's frames in the clear.
func (c *Config) Dial(ctx context.Context, network, host string) (net.Conn, error) {
	return DialWith(c.TLS)(ctx, network, host)
}

// DialWith is Dial for a TLS config (nil: plain TCP), as kgo dials with
// DialTLSConfig: the server name defaults to the host dialled.
func DialWith(t *tls.Config) func(ctx context.Context, network, host string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if t == nil {
		return d.DialContext
	}
	return func(ctx context.Context, network, host string) (net.Conn, error) {
		cfg := t.Clone()
		if cfg.ServerName == "" {
			h, _, err := net.SplitHostPort(host)
			if err != nil {
				return nil, err
			}
			cfg.ServerName = h
		}
		return (&tls.Dialer{NetDialer: d, Config: cfg}).DialContext(ctx, network, host)
	}
}
