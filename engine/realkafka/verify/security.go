package verify

import (
	"context"
	"crypto/tls"
	"net"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"

	"github.com/eoslab/eoslab/engine/realkafka/conn"
)

// The driver's clients connect as the run's raw client does (Options.Conn:
// TLS and SASL). Those under the fault wrapper dial through dial, which
// does the TLS handshake below the wrapper, so the wrapper parses the
// same plaintext frames on a TLS cluster; kgo refuses Dialer together
// with DialTLSConfig, so they get the TLS config only through dial.

// rawTLS is the raw client's TLS config, nil in plaintext.
func (d *driver) rawTLS() *tls.Config {
	t, _ := d.raw.OptValue(kgo.DialTLSConfig).(*tls.Config)
	return t
}

// sasl is the raw client's SASL option, none without SASL.
func (d *driver) sasl() []kgo.Opt {
	ms, _ := d.raw.OptValue(kgo.SASL).([]sasl.Mechanism)
	if len(ms) == 0 {
		return nil
	}
	return []kgo.Opt{kgo.SASL(ms...)}
}

// dial is the dial a fault wrapper wraps.
func (d *driver) dial() func(ctx context.Context, network, host string) (net.Conn, error) {
	return conn.DialWith(d.rawTLS())
}
