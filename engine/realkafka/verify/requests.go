package verify

import (
	"fmt"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// checkIn is check with the simulation's world at hand, for the facts
// whose comparison needs to know what the simulation counted.
func (d *driver) checkIn(e script.Expectation, w *engine.World) (bool, string, string) {
	if x, ok := e.(script.RequestsCheck); ok {
		if why := d.mirrorCounted(x); why != "" { // mirror.go
			return false, "", why
		}
		return d.requests(x, w)
	}
	if x, ok := e.(script.ProducerCheck); ok {
		if p := d.prods[x.Name]; p != nil && p.mirror != nil {
			return d.mirrorFact(p, x, w) // mirror.go
		}
	}
	if x, ok := e.(script.ResponseCheck); ok {
		return d.responseFact(x, w) // responses.go
	}
	return d.check(e)
}

// requests compares `expect requests N [kind=] [from=] [txn=]` with the
// requests the fault wrapper saw the file's producers write. Only the
// kinds the simulation has are counted (franz-go's ApiVersions and
// Metadata are a client's bookkeeping the simulation does not model, as
// are the Java client's); a dropped request counts, a duplicate's copy
// does not, as the simulation counts one per send. What the wrapper
// cannot see is not played: requests brokers send each other
// (WriteTxnMarkers, the leader's AddPartitionsToTxn verification of
// KIP-890) and a consumer's, whose fetch loop and group protocol are
// franz-go's own.
func (d *driver) requests(x script.RequestsCheck, w *engine.World) (bool, string, string) {
	if x.Kind == "WriteTxnMarkers" || strings.HasPrefix(x.From, "broker-") {
		return false, "", "requests brokers send each other are not on a client's connection, where the wrapper counts"
	}
	var key kmsg.Key
	if x.Kind != "" {
		k, ok := keys[x.Kind]
		if !ok {
			return false, "", x.Kind + " has no wire mapping"
		}
		key = k
	}
	if x.From != "" {
		if _, ok := d.decls[x.From]; !ok {
			return false, "", fmt.Sprintf("the requests of %s (not a producer) are not counted: a consumer's fetch loop and group protocol are franz-go's own", x.From)
		}
	}
	// Who else the simulation counted under this filter: those requests
	// have no counterpart the wrapper sees.
	f := engine.RequestFilter{From: x.From, TxnID: x.TxnID}
	if x.Kind != "" {
		f.Kind, f.KindSet = engine.MsgKindByName(x.Kind)
	}
	var others []string
	for _, t := range w.RequestTallies() {
		if _, producer := d.decls[t.From]; producer || !matches(t, f) || slices.Contains(others, t.From) {
			continue
		}
		others = append(others, t.From)
	}
	if len(others) > 0 {
		return false, "", "the simulation counts requests of " + strings.Join(others, ", ") + " here, which the wrapper on the producers' connections does not see"
	}
	if x.From == "" && x.TxnID == "" && len(d.cdecls) > 0 {
		return false, "", "a consumer's requests would count here; its fetch loop is franz-go's own"
	}
	n := 0
	names := make([]string, 0, len(d.prods))
	for name := range d.prods {
		names = append(names, name)
	}
	for _, name := range names {
		if x.From != "" && name != x.From {
			continue
		}
		n += countSent(d.prods[name].faults().Requests(), key, x.Kind != "", d.prefixed(x.TxnID))
	}
	return int64(n) == x.N, fmt.Sprintf("requests %d (counted on the producers' connections, the kinds the simulation has)", n), ""
}

func (d *driver) prefixed(txid string) string {
	if txid == "" {
		return ""
	}
	return d.prefix + txid
}

func matches(t engine.RequestTally, f engine.RequestFilter) bool {
	return (!f.KindSet || t.Kind == f.Kind) && (f.From == "" || t.From == f.From) && (f.TxnID == "" || t.TxnID == f.TxnID) && t.N > 0
}

// countSent counts the logged requests of the simulation's kinds,
// narrowed to key (when keyed) and to those serving txid (when set).
func countSent(log []wire.Sent, key kmsg.Key, keyed bool, txid string) int {
	n := 0
	for _, s := range log {
		if !simKind(s.Key) || (keyed && s.Key != key) || (txid != "" && !slices.Contains(s.TxnIDs, txid)) {
			continue
		}
		n++
	}
	return n
}

// simKind is whether the simulation has requests of key.
func simKind(key kmsg.Key) bool {
	for _, k := range keys {
		if k == key {
			return true
		}
	}
	return false
}
