package verify

import (
	"context"
	"fmt"
	"os"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
)

// The expert's transaction requests (inject InitProducerId,
// AddPartitionsToTxn, AddOffsetsToTxn, EndTxn) are what an operator's tool
// sends with exact fields; any client may send them, so they go raw
// (kmsg) on the expert client, to the coordinator of the (prefixed)
// transactional id, with the producer id translated to the broker's.
// expertClient caps their versions: EndTxn v5 under transaction.version 2
// and v4 under the classic protocol, as the simulation's expert sends it
// (a classic broker answers v5 UNSUPPORTED_VERSION); AddPartitionsToTxn
// v3, the last client version (v4 and up batch transactions for brokers,
// KIP-890 part 1).
// Their answers go to "expert" in the simulation, where nothing acts on
// them; here too: the facts compared are the coordinator's afterwards.

// expertTxn sends one expert transaction request; w is the simulation at
// the quiet point the request runs at (the world the file's later lines
// read), used to learn a producer id the broker hands out.
func (d *driver) expertTxn(ctx context.Context, a engine.Action, w *engine.World) {
	cl := d.expertClient()
	if cl == nil {
		return
	}
	var (
		req  kmsg.Request
		txid string
	)
	switch a := a.(type) {
	case engine.InjectInitProducerID:
		r := kmsg.NewPtrInitProducerIDRequest()
		txid = d.prefix + a.TransactionalID
		r.TransactionalID = &txid
		r.TransactionTimeoutMillis = int32(a.TimeoutMs)
		r.ProducerID, r.ProducerEpoch = d.expertPID(a.ProducerID), a.Epoch
		req = r
	case engine.InjectAddPartitions:
		r := kmsg.NewPtrAddPartitionsToTxnRequest()
		txid = d.prefix + a.TransactionalID
		r.TransactionalID, r.ProducerID, r.ProducerEpoch = txid, d.expertPID(a.ProducerID), a.Epoch
		d.partitionTopics(r, a.Partitions)
		req = r
	case engine.InjectAddOffsets:
		r := kmsg.NewPtrAddOffsetsToTxnRequest()
		txid = d.prefix + a.TransactionalID
		r.TransactionalID, r.ProducerID, r.ProducerEpoch, r.Group = txid, d.expertPID(a.ProducerID), a.Epoch, d.prefix+a.Group
		if g := d.prefix + a.Group; !containsStr(d.groups, g) {
			d.groups = append(d.groups, g)
		}
		req = r
	case engine.InjectEndTxn:
		r := kmsg.NewPtrEndTxnRequest()
		txid = d.prefix + a.TransactionalID
		r.TransactionalID, r.ProducerID, r.ProducerEpoch, r.Commit = txid, d.expertPID(a.ProducerID), a.Epoch, a.Commit
		req = r
	default:
		return
	}
	// The coordinator's answer, after kgo's own retries of a moving
	// coordinator; CONCURRENT_TRANSACTIONS is an answer here (the
	// simulation's expert does not retry either).
	resp, err := cl.Request(ctx, req)
	if debug {
		fmt.Fprintf(os.Stderr, "expert %s: %v %+v\n", kmsg.NameForKey(req.Key()), err, resp)
	}
	if ip, ok := resp.(*kmsg.InitProducerIDResponse); ok && err == nil && ip.ErrorCode == 0 && w != nil {
		if info := w.TxnInfo(txid[len(d.prefix):]); info.Found {
			d.pids[ip.ProducerID] = info.Meta.ProducerID
			d.rev[info.Meta.ProducerID] = revEntry{ip.ProducerID, txid}
		}
	}
}

// expertPID is the broker's id for a producer id the file names (-1 stays
// -1: none given).
func (d *driver) expertPID(pid int64) int64 {
	if pid < 0 {
		return pid
	}
	id, _ := d.brokerPID(pid)
	return id
}
