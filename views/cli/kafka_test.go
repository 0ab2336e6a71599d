package cli

import (
	"strings"
	"testing"
)

// TestKafkaUpRefusesBadBrokerConfig: a --broker-config that is not one
// KEY=VALUE line exits 2 with one line, before anything is fetched or run.
func TestKafkaUpRefusesBadBrokerConfig(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		kv, want string
	}{
		{"transactional.id.expiration.ms", `--broker-config "transactional.id.expiration.ms": want KEY=VALUE`},
		{"=5000", `--broker-config "=5000": want KEY=VALUE`},
		{"a b=1", `"a b" is not a broker setting name`},
		{"x=1\nlisteners=PLAINTEXT://:1", "a setting is one line"},
	} {
		code, out, errs := runCLI(t, "kafka", "up", "--dir", dir, "--broker-config", "log.retention.ms=1", "--broker-config", c.kv)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: code %d out %q err %q, want %q", c.kv, code, out, errs, c.want)
		}
	}
}

func TestBrokerConfigLines(t *testing.T) {
	got, err := brokerConfigLines([]string{"transactional.id.expiration.ms=5000", " a.b = x=y "})
	if err != nil || strings.Join(got, "|") != "transactional.id.expiration.ms=5000|a.b=x=y" {
		t.Fatalf("got %q, %v", got, err)
	}
}
