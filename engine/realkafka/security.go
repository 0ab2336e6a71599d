package realkafka

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Secured listeners. A cluster always keeps its PLAINTEXT listener (the
// brokers, the readiness check and an operator's admin tools use it);
// Options.Security adds client listeners beside it, each on its own port:
//
//   - "sasl": SASL_PLAINTEXT with PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512.
//     The SCRAM credentials are written at format time
//     (kafka-storage.sh format --add-scram, KIP-900); PLAIN's come from
//     the listener's JAAS config (PlainLoginModule user_NAME="PASSWORD").
//   - "ssl": SSL with client authentication required, from a CA and
//     certificates made here with crypto/x509 and given to the broker as
//     PEM text in the config (ssl.keystore.type=PEM, KIP-651; an inline
//     key needs no password, a keystore file's does).
//
// A secured cluster runs StandardAuthorizer: the user eoslab (by SASL or
// by its certificate) is a super user, the user learner (SASL only) has
// no ACL, so it shows what a principal without permissions is told.

// Security kinds Options.Security takes.
const (
	SecuritySASL = "sasl"
	SecuritySSL  = "ssl"
)

// SASL users of a secured cluster.
const (
	SASLUser    = "eoslab"
	LearnerUser = "learner"
)

// Secured is what a client of a secured cluster needs: the listeners'
// bootstrap addresses and the files of the credentials.
type Secured struct {
	SASL, SSL string // bootstrap of each listener, "" when not asked for
	// PasswordFile holds SASLUser's and LearnerFile LearnerUser's password.
	PasswordFile, LearnerFile string
	CA, Cert, Key             string // PEM files: the CA, eoslab's client certificate and key
	// passwords
	pass, learner string
	// PEM text for the broker
	caPEM, brokerCert, brokerKey string
}

func checkSecurity(kinds []string) error {
	seen := map[string]bool{}
	for _, k := range kinds {
		if k != SecuritySASL && k != SecuritySSL || seen[k] {
			return &UsageError{fmt.Sprintf("kafka: --security %q: want sasl, ssl or both (sasl,ssl), each once", strings.Join(kinds, ","))}
		}
		seen[k] = true
	}
	return nil
}

// Secured is nil for a plaintext-only cluster.
func (c *Cluster) Secured() *Secured { return c.sec }

func has(kinds []string, k string) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// secure makes the credentials in dir and picks the listeners' ports.
func (c *Cluster) secure(dir string) error {
	if len(c.opts.Security) == 0 {
		return nil
	}
	s := &Secured{}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	var err error
	if s.pass, err = secret(); err != nil {
		return err
	}
	if s.learner, err = secret(); err != nil {
		return err
	}
	s.PasswordFile, s.LearnerFile = filepath.Join(dir, "sasl-password"), filepath.Join(dir, "learner-password")
	for f, p := range map[string]string{s.PasswordFile: s.pass, s.LearnerFile: s.learner} {
		if err := os.WriteFile(f, []byte(p+"\n"), 0o600); err != nil {
			return err
		}
	}
	if has(c.opts.Security, SecuritySSL) {
		if err := s.makeCerts(dir); err != nil {
			return err
		}
	}
	var sasl, ssl []string
	for _, n := range c.nodes {
		if has(c.opts.Security, SecuritySASL) {
			if n.saslPort, err = freePort(); err != nil {
				return err
			}
			sasl = append(sasl, fmt.Sprintf("127.0.0.1:%d", n.saslPort))
		}
		if has(c.opts.Security, SecuritySSL) {
			if n.sslPort, err = freePort(); err != nil {
				return err
			}
			ssl = append(ssl, fmt.Sprintf("127.0.0.1:%d", n.sslPort))
		}
	}
	s.SASL, s.SSL = strings.Join(sasl, ","), strings.Join(ssl, ",")
	c.sec = s
	return nil
}

func secret() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// securityLines are a node's server.properties lines for the secured
// listeners; they come after eoslab's and override its listener lines
// (java.util.Properties keeps a key's last value).
func (c *Cluster) securityLines(n *node) []string {
	s := c.sec
	if s == nil {
		return nil
	}
	listeners := []string{fmt.Sprintf("PLAINTEXT://127.0.0.1:%d", n.bport)}
	protos := []string{"CONTROLLER:PLAINTEXT", "PLAINTEXT:PLAINTEXT"}
	var lines []string
	if n.saslPort != 0 {
		listeners = append(listeners, fmt.Sprintf("SASL://127.0.0.1:%d", n.saslPort))
		protos = append(protos, "SASL:SASL_PLAINTEXT")
		lines = append(lines,
			"listener.name.sasl.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
			fmt.Sprintf(`listener.name.sasl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_%s="%s" user_%s="%s";`, SASLUser, s.pass, LearnerUser, s.learner),
			"listener.name.sasl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;",
			"listener.name.sasl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;")
	}
	if n.sslPort != 0 {
		listeners = append(listeners, fmt.Sprintf("SSL://127.0.0.1:%d", n.sslPort))
		protos = append(protos, "SSL:SSL")
		lines = append(lines,
			"listener.name.ssl.ssl.keystore.type=PEM",
			"listener.name.ssl.ssl.keystore.certificate.chain="+propText(s.brokerCert),
			"listener.name.ssl.ssl.keystore.key="+propText(s.brokerKey),
			"listener.name.ssl.ssl.truststore.type=PEM",
			"listener.name.ssl.ssl.truststore.certificates="+propText(s.caPEM),
			"listener.name.ssl.ssl.client.auth=required")
	}
	head := []string{
		"listeners=" + strings.Join(listeners, ",") + fmt.Sprintf(",CONTROLLER://127.0.0.1:%d", n.cport),
		"advertised.listeners=" + strings.Join(listeners, ","),
		"listener.security.protocol.map=" + strings.Join(protos, ","),
		"authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
		// ANONYMOUS: the PLAINTEXT and CONTROLLER listeners' principal.
		fmt.Sprintf("super.users=User:ANONYMOUS;User:%s;User:CN=%s", SASLUser, SASLUser),
	}
	return append(head, lines...)
}

// propText is PEM text as one properties value: java.util.Properties
// reads \n as a line break.
func propText(pemText string) string {
	return strings.ReplaceAll(strings.TrimSpace(pemText), "\n", `\n`)
}

// formatArgs are StorageTool format's --add-scram arguments (KIP-900).
func (c *Cluster) formatArgs() []string {
	if c.sec == nil || !has(c.opts.Security, SecuritySASL) {
		return nil
	}
	var args []string
	for _, m := range []string{"SCRAM-SHA-256", "SCRAM-SHA-512"} {
		args = append(args,
			"--add-scram", fmt.Sprintf("%s=[name=%s,password=%s]", m, SASLUser, c.sec.pass),
			"--add-scram", fmt.Sprintf("%s=[name=%s,password=%s]", m, LearnerUser, c.sec.learner))
	}
	return args
}

// makeCerts writes a CA, the broker's certificate (127.0.0.1 and
// localhost) and eoslab's client certificate (CN=eoslab).
func (s *Secured) makeCerts(dir string) error {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "eoslab test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(7 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	ca, _ = x509.ParseCertificate(caDER)
	s.caPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}))
	leaf := func(serial int64, cn string, usage x509.ExtKeyUsage, server bool) (certPEM, keyPEM string, err error) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return "", "", err
		}
		t := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(7 * 24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}
		if server {
			t.DNSNames, t.IPAddresses = []string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1)}
		}
		der, err := x509.CreateCertificate(rand.Reader, t, ca, &key.PublicKey, caKey)
		if err != nil {
			return "", "", err
		}
		// PKCS#8: the only unencrypted form Kafka's PEM key store reads.
		k, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return "", "", err
		}
		return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
			string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: k})), nil
	}
	if s.brokerCert, s.brokerKey, err = leaf(2, "127.0.0.1", x509.ExtKeyUsageServerAuth, true); err != nil {
		return err
	}
	clientCert, clientKey, err := leaf(3, SASLUser, x509.ExtKeyUsageClientAuth, false)
	if err != nil {
		return err
	}
	s.CA, s.Cert, s.Key = filepath.Join(dir, "ca.pem"), filepath.Join(dir, "client.pem"), filepath.Join(dir, "client-key.pem")
	for f, text := range map[string]string{s.CA: s.caPEM, s.Cert: clientCert, s.Key: clientKey} {
		if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// Lines are what `eoslab kafka up` prints for the secured listeners, one
// NAME=VALUE a line, after BOOTSTRAP=.
func (s *Secured) Lines() []string {
	var out []string
	if s.SASL != "" {
		out = append(out, "BOOTSTRAP_SASL="+s.SASL, "SASL_USER="+SASLUser, "SASL_PASSWORD_FILE="+s.PasswordFile,
			"SASL_LEARNER="+LearnerUser, "SASL_LEARNER_PASSWORD_FILE="+s.LearnerFile)
	}
	if s.SSL != "" {
		out = append(out, "BOOTSTRAP_SSL="+s.SSL, "TLS_CA="+s.CA, "TLS_CERT="+s.Cert, "TLS_KEY="+s.Key)
	}
	return out
}
