package wire

import "github.com/twmb/franz-go/pkg/kmsg"

// Sent is one request the client wrote, with the transactional ids its
// body names: what `expect requests` counts by kind and by transaction.
// ClientID is the request header's: between brokers it names the sender
// (Kafka's "broker-N-txn-marker-sender" of TransactionMarkerChannelManager,
// "AddPartitionsManager-client-N" of NetworkUtils.buildNetworkClient).
// PIDs are the producer ids a WriteTxnMarkers names, which carries no
// transactional id.
type Sent struct {
	Key      kmsg.Key `json:"key"`
	TxnIDs   []string `json:"txn_ids,omitempty"`
	ClientID string   `json:"client_id,omitempty"`
	PIDs     []int64  `json:"pids,omitempty"`
}

// markerPIDs are the producer ids of a WriteTxnMarkers request's markers.
func markerPIDs(req kmsg.Request) []int64 {
	r, ok := req.(*kmsg.WriteTxnMarkersRequest)
	if !ok {
		return nil
	}
	var out []int64
	for _, m := range r.Markers {
		out = append(out, m.ProducerID)
	}
	return out
}

// Requests lists, in order, every request the client wrote (a dropped one
// included, a duplicate's copy not, as Sent counts).
func (f *Faults) Requests() []Sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Sent(nil), f.log...)
}

// TxnIDs are the transactional ids a request serves: those its body
// names. FindCoordinator serves an id only when it asks for a transaction
// coordinator (CoordinatorType 1, FindCoordinatorRequest.json); a group's
// lookup serves none. AddPartitionsToTxn v4+ (KIP-890) can carry several
// transactions, each named.
func TxnIDs(req kmsg.Request) []string {
	switch r := req.(type) {
	case *kmsg.ProduceRequest:
		if r.TransactionID != nil {
			return []string{*r.TransactionID}
		}
	case *kmsg.InitProducerIDRequest:
		if r.TransactionalID != nil {
			return []string{*r.TransactionalID}
		}
	case *kmsg.AddPartitionsToTxnRequest:
		if r.Version <= 3 {
			return []string{r.TransactionalID}
		}
		var ids []string
		for _, t := range r.Transactions {
			ids = append(ids, t.TransactionalID)
		}
		return ids
	case *kmsg.AddOffsetsToTxnRequest:
		return []string{r.TransactionalID}
	case *kmsg.EndTxnRequest:
		return []string{r.TransactionalID}
	case *kmsg.TxnOffsetCommitRequest:
		return []string{r.TransactionalID}
	case *kmsg.FindCoordinatorRequest:
		if r.CoordinatorType != 1 {
			return nil
		}
		if r.Version <= 3 {
			return []string{r.CoordinatorKey}
		}
		return append([]string(nil), r.CoordinatorKeys...)
	}
	return nil
}
