package cli

import (
	"bytes"
	"net"
	"strings"
	"testing"
)

// TestInspectFlags: eoslab inspect's bad flags are exit 2 with one line,
// and a cluster that does not answer is exit 1 with one line that names
// it. It lives with the other command tests: in views/inspect it linked
// the whole command line into that package's test binary (32 MB, 7 MB
// without).
func TestInspectFlags(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close() // nothing listens there now
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect"}, 2, "--brokers HOST:PORT is required"},
		{[]string{"inspect", "--brokers", "nohost"}, 2, `--brokers "nohost": want HOST:PORT`},
		{[]string{"inspect", "--brokers", "a:1,"}, 2, "want HOST:PORT"},
		{[]string{"inspect", "--brokers", "a:1", "--partition", "orders"}, 2, `--partition "orders": want TOPIC:N`},
		{[]string{"inspect", "--brokers", "a:1", "--partition", "orders:-1"}, 2, "want TOPIC:N"},
		{[]string{"inspect", "--brokers", "a:1", "--every", "1ms"}, 2, "--every takes a duration of 500ms or more"},
		{[]string{"inspect", "--brokers", "a:1", "--topic", ""}, 2, "take a non-empty name"},
		{[]string{"inspect", "--brokers", "a:1", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"inspect", "--brokers", closed, "--once", "--timeout", "2s"}, 1, "the cluster at " + closed + " did not answer"},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, &out, &errb)
		msg := strings.TrimSuffix(errb.String(), "\n")
		if code != c.code || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d and one line with %q", c.args, code, msg, out.String(), c.code, c.want)
		}
	}
}
