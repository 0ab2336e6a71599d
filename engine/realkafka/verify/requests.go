package verify

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
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
// does not, as the simulation counts one per send. Requests brokers send
// each other (WriteTxnMarkers, the leader's AddPartitionsToTxn
// verification of KIP-890) are counted on a cluster verify owns, whose
// inter-broker proxies see them (brokerRequests); on a shared cluster
// they are not played. A consumer's are not played on any: its fetch
// loop and group protocol are franz-go's own.
func (d *driver) requests(x script.RequestsCheck, w *engine.World) (bool, string, string) {
	owned := ownerOf(d.ctx) != nil && brokersCounted(x, w, d.isProducer) // needs.go
	if !owned && (x.Kind == "WriteTxnMarkers" || strings.HasPrefix(x.From, "broker-")) {
		return false, "", "requests brokers send each other are not on a client's connection, where the wrapper counts"
	}
	var key kmsg.Key
	if x.Kind != "" {
		k, ok := keys[x.Kind]
		if owned && x.Kind == "WriteTxnMarkers" {
			k, ok = kmsg.WriteTxnMarkers, true
		}
		if !ok {
			return false, "", x.Kind + " has no wire mapping"
		}
		key = k
	}
	if x.From != "" && !(owned && isNode(x.From)) {
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
	if len(others) > 0 && !owned {
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
	if owned {
		if why := concurrentAdds(x, w); why != "" {
			return false, "", why
		}
		b, err := d.brokerRequests(x, key)
		if err != nil {
			return false, "", "reading the inter-broker proxies' requests: " + err.Error()
		}
		return int64(n+b) == x.N, fmt.Sprintf("requests %d (%d on the producers' connections, %d brokers sent each other through the inter-broker proxies)", n+b, n, b), ""
	}
	return int64(n) == x.N, fmt.Sprintf("requests %d (counted on the producers' connections, the kinds the simulation has)", n), ""
}

func (d *driver) isProducer(name string) bool { _, ok := d.decls[name]; return ok }

// interBrokerKinds are the requests the simulation's brokers send each
// other: a coordinator's WriteTxnMarkers to a partition's leader
// (TransactionMarkerChannelManager) and a leader's AddPartitionsToTxn to
// the coordinator, verifying a transactional produce (KIP-890,
// AddPartitionsToTxnManager). Replication has no requests in the
// simulation, so the replica fetches on the same proxies are not counted.
var interBrokerKinds = []kmsg.Key{kmsg.WriteTxnMarkers, kmsg.AddPartitionsToTxn}

// concurrentAdds says why a count of the leaders' AddPartitionsToTxn is
// not compared ("" when it is): the simulation's coordinator answered a
// leader CONCURRENT_TRANSACTIONS(51) while it still wrote another
// leader's add (TransactionCoordinator.handleAddPartitionsToTransaction,
// a pending transition), and the leader retried. Those retries come from
// the leaders' adds overlapping, which the broker run does not
// reproduce: it sends the file's send lines one after the other, each
// answered before the next.
func concurrentAdds(x script.RequestsCheck, w *engine.World) string {
	if x.Kind != "" && x.Kind != "AddPartitionsToTxn" {
		return ""
	}
	for _, e := range w.EventsSince(0) {
		m := e.Message
		if e.Kind != engine.EvDeliver || m == nil || m.Kind != engine.MsgAddPartitionsToTxnResponse || !isNode(m.To) {
			continue
		}
		if r, ok := m.Body.(*engine.AddPartitionsToTxnResponse); ok && slices.ContainsFunc(r.Results, func(c engine.TPCode) bool { return c.Code == engine.ConcurrentTransactions }) {
			return fmt.Sprintf("the simulation's coordinator answered %s's AddPartitionsToTxn CONCURRENT_TRANSACTIONS(51) while it wrote another leader's add, and the leader retried; the broker run sends the file's send lines one after the other, so its leaders' adds do not overlap", m.To)
		}
	}
	return ""
}

type reqBaseKey struct{}

// requestBase is how many requests each node's proxy had seen when the
// file began (prepareOwned): a count is of the file's own.
func requestBase(o realkafka.Owner) (map[int]int, error) {
	base := map[int]int{}
	for _, n := range o.Nodes() {
		_, seen, err := o.Requests(n.ID, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		base[n.ID] = seen
	}
	return base, nil
}

// brokerRequests counts the requests brokers wrote each other since the
// file began that x counts: of its kind, from its broker (the request
// header's client id names the sender), for its transaction (a
// WriteTxnMarkers names producer ids, mapped back to the file's
// transactional ids).
func (d *driver) brokerRequests(x script.RequestsCheck, key kmsg.Key) (int, error) {
	o := ownerOf(d.ctx)
	base, _ := d.ctx.Value(reqBaseKey{}).(map[int]int)
	n := 0
	for _, node := range o.Nodes() {
		sent, _, err := o.Requests(node.ID, base[node.ID])
		if err != nil {
			return 0, err
		}
		for _, s := range sent {
			if !slices.Contains(interBrokerKinds, s.Key) || (x.Kind != "" && s.Key != key) {
				continue
			}
			if x.From != "" && senderOf(s.ClientID) != x.From {
				continue
			}
			if x.TxnID != "" && !slices.Contains(d.servedTxnIDs(s), d.prefixed(x.TxnID)) {
				continue
			}
			n++
		}
	}
	return n, nil
}

// servedTxnIDs are the transactional ids a request between brokers
// serves: those it names, or a marker's producer's.
func (d *driver) servedTxnIDs(s wire.Sent) []string {
	ids := s.TxnIDs
	for _, pid := range s.PIDs {
		for _, r := range d.rev {
			if r.pid == pid && r.txid != "" {
				ids = append(ids, r.txid)
			}
		}
	}
	return ids
}

// senderOf is the broker ("broker-N") that a request between brokers
// came from, by its client id: "broker-N-txn-marker-sender"
// (TransactionMarkerChannelManager), "AddPartitionsManager-client-N"
// (NetworkUtils.buildNetworkClient); "" for another.
func senderOf(clientID string) string {
	var n int
	if _, err := fmt.Sscanf(clientID, "broker-%d-", &n); err == nil {
		return fmt.Sprintf("broker-%d", n)
	}
	if i := strings.LastIndex(clientID, "-client-"); i >= 0 {
		if _, err := fmt.Sscanf(clientID[i+len("-client-"):], "%d", &n); err == nil {
			return fmt.Sprintf("broker-%d", n)
		}
	}
	return ""
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
