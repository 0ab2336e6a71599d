package realkafka

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strings"
	"testing"
)

func TestSecurityRefused(t *testing.T) {
	for _, s := range [][]string{{"tls"}, {"sasl", "sasl"}, {""}} {
		o := Options{Dir: "d", Security: s}
		if err := o.defaults(); ExitCode(err) != 2 || !strings.Contains(err.Error(), "--security") {
			t.Errorf("--security %v: %v, want a usage error naming --security", s, err)
		}
	}
}

// TestSecurityLines: the secured listeners' config, and credentials a
// TLS client accepts (the broker's certificate verifies against the CA
// for 127.0.0.1; the client's key pair loads).
func TestSecurityLines(t *testing.T) {
	c := &Cluster{opts: Options{Security: []string{SecuritySASL, SecuritySSL}}, nodes: []*node{{id: 1, bport: 1, cport: 2}}}
	if err := c.secure(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	n := c.nodes[0]
	p := serverProperties(n, "1@127.0.0.1:2", 4, c.securityLines(n))
	for _, want := range []string{
		"SASL:SASL_PLAINTEXT", "SSL:SSL", "listener.name.sasl.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512\n",
		`user_eoslab="` + c.sec.pass + `"`, "listener.name.ssl.ssl.keystore.type=PEM\n", "listener.name.ssl.ssl.client.auth=required\n",
		"super.users=User:ANONYMOUS;User:eoslab;User:CN=eoslab\n",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("server.properties lacks %q", want)
		}
	}
	// java.util.Properties keeps a key's last value: the listener lines
	// eoslab's override come after it.
	if i, j := strings.Index(p, "listeners=PLAINTEXT://127.0.0.1:1,CONTROLLER"), strings.LastIndex(p, "\nlisteners="); i < 0 || j < i {
		t.Errorf("the secured listeners line does not come last:\n%s", p)
	}
	if args := strings.Join(c.formatArgs(), " "); !strings.Contains(args, "--add-scram SCRAM-SHA-512=[name=learner,password="+c.sec.learner+"]") {
		t.Errorf("format args %q lack learner's SCRAM-SHA-512 credential", args)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(c.sec.caPEM)) {
		t.Fatal("CA is not PEM")
	}
	srv, err := tls.X509KeyPair([]byte(c.sec.brokerCert), []byte(c.sec.brokerKey))
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(srv.Certificate[0])
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"}); err != nil {
		t.Errorf("broker certificate for 127.0.0.1: %v", err)
	}
	if _, err := tls.LoadX509KeyPair(c.sec.Cert, c.sec.Key); err != nil {
		t.Errorf("client key pair: %v", err)
	}
	if b, _ := os.ReadFile(c.sec.PasswordFile); strings.TrimSpace(string(b)) != c.sec.pass {
		t.Errorf("password file holds %q", b)
	}
}
