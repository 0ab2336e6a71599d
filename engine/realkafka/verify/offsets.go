package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// sendOffsets plays sendOffsetsToTransaction as the Java producer sends it
// (TransactionManager.sendOffsetsToTransaction): AddOffsetsToTxn to the
// transaction coordinator, then TxnOffsetCommit to the group coordinator;
// under transaction.version 2 TxnOffsetCommit v5 alone, which adds the
// __consumer_offsets partition to the transaction on the broker (KIP-890
// part 2). kgo sends these only from a GroupTransactSession, whose producer
// is also the group's consumer; a file's producer and consumer are two
// clients, so the requests go raw on the producer's client (through its
// fault wrapper), with the producer id and epoch kgo holds.
func (d *driver) sendOffsets(ctx context.Context, p *producer, a engine.SendOffsets) {
	if p.cl == nil || p.closed {
		return
	}
	if p.txid == "" {
		p.lastErr = &clientOnly{errors.New("sendOffsetsToTransaction on a producer without transactional.id")}
		return
	}
	id, epoch, err := p.cl.ProducerID(ctx)
	if err != nil {
		p.setErr(err)
		return
	}
	group := d.prefix + a.Group
	if d.simTV < 2 {
		req := kmsg.NewPtrAddOffsetsToTxnRequest()
		req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Group = p.txid, id, epoch, group
		err := retryTxn(ctx, func() error {
			resp, err := req.RequestWith(ctx, p.cl)
			if err != nil {
				return err
			}
			return kerr.ErrorForCode(resp.ErrorCode)
		})
		if err != nil {
			p.setErr(err)
			return
		}
		// The coordinator added the offsets partition to the
		// transaction: it ends with EndTxn even if TxnOffsetCommit
		// fails (the Java client's transactionStarted).
		p.rawOffsets = true
	}
	req := kmsg.NewPtrTxnOffsetCommitRequest()
	req.TransactionalID, req.Group, req.ProducerID, req.ProducerEpoch = p.txid, group, id, epoch
	req.Generation, req.MemberID = -1, ""
	if a.Consumer != "" {
		// KIP-447: the consumer's group metadata.
		if cs, ok := d.cons[a.Consumer]; ok && cs.cl != nil {
			req.MemberID, req.Generation = cs.cl.GroupMetadata()
		} else if ok && cs.raw != nil {
			req.MemberID, req.Generation = cs.raw.id, cs.raw.gen
		}
	}
	if a.Generation != -1 {
		req.Generation = a.Generation
	}
	if a.Member != "" {
		req.MemberID = a.Member
	}
	if a.Instance != "" {
		inst := a.Instance
		req.InstanceID = &inst
	}
	d.offsetTopics(req, a.Offsets)
	if d.simTV >= 2 {
		// KIP-890 part 2: the Java client counts the transaction
		// started when it sends TxnOffsetCommit v5, whatever the answer
		// (TransactionManager.sendOffsetsToTransaction sets
		// transactionStarted): its commit or abort sends EndTxn, and the
		// group coordinator added the offsets partition before it
		// checked the generation.
		p.rawOffsets = true
	}
	err = retryTxn(ctx, func() error {
		resp, err := req.RequestWith(ctx, p.cl)
		if debug {
			fmt.Fprintf(os.Stderr, "txnoffsetcommit %v %+v\n", err, resp)
		}
		if err != nil {
			return err
		}
		for _, t := range resp.Topics {
			for _, pp := range t.Partitions {
				if ke := kerr.ErrorForCode(pp.ErrorCode); ke != nil {
					return ke
				}
			}
		}
		return nil
	})
	if err != nil {
		p.setErr(err)
		return
	}
	p.rawOffsets = true
}

// retryTxn retries what the Java client retries on these requests
// (AddOffsetsToTxnHandler and TxnOffsetCommitHandler.handleResponse:
// CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS, and the
// coordinator moving, which kgo's Request already follows), bounded.
func retryTxn(ctx context.Context, f func() error) error {
	end := time.Now().Add(20 * time.Second)
	for {
		err := f()
		if !errors.Is(err, kerr.ConcurrentTransactions) && !errors.Is(err, kerr.CoordinatorLoadInProgress) &&
			!errors.Is(err, kerr.CoordinatorNotAvailable) && !errors.Is(err, kerr.NotCoordinator) && !errors.Is(err, kerr.UnknownTopicOrPartition) {
			return err
		}
		if time.Now().After(end) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// endRaw sends the EndTxn kgo does not send for a transaction that holds
// only offsets sent raw (kgo's EndTransaction sees nothing added). Under
// the classic protocol EndTxn keeps the epoch, so kgo's state stays true.
func (d *driver) endRaw(ctx context.Context, p *producer, commit bool) error {
	id, epoch, err := p.cl.ProducerID(ctx)
	if err != nil {
		return err
	}
	req := kmsg.NewPtrEndTxnRequest()
	req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Commit = p.txid, id, epoch, commit
	return retryTxn(ctx, func() error {
		resp, err := req.RequestWith(ctx, p.cl)
		if debug {
			fmt.Fprintf(os.Stderr, "endRaw %v %+v\n", err, resp)
		}
		if err != nil {
			return err
		}
		if resp.ErrorCode == 0 && resp.Version >= 5 {
			// The Java client takes the bumped epoch from the answer
			// (TransactionManager.EndTxnHandler); kgo does not see it.
			p.rawEnd = resp
		}
		return kerr.ErrorForCode(resp.ErrorCode)
	})
}

// kgoBehind stops the file at a later action of a producer whose epoch
// a raw EndTxn v5 bumped (p.behindAt): kgo would go on with the epoch
// before the bump, which the broker fences.
func (d *driver) kgoBehind(c script.Command, p *producer) bool {
	if p.behindAt == 0 {
		return false
	}
	d.stop(c, fmt.Sprintf("line %d ended a transaction of offsets alone with a raw EndTxn v5 (franz-go sends no EndTxn for it), which bumped the producer's epoch on the broker; franz-go's producer still holds the old one and cannot go on", p.behindAt), false)
	return true
}

// rawEndFact compares a producer's id or epoch with the answer to the
// raw EndTxn v5 that bumped it (done false when there is none): that is
// where the Java client takes them from, kgo's are stale.
func (d *driver) rawEndFact(p *producer, x script.ProducerCheck) (holds bool, fact string, done bool) {
	if p.rawEnd == nil || p.behindAt == 0 {
		return false, "", false
	}
	if x.Field == script.ClientPID {
		got := d.simPID(p.rawEnd.ProducerID)
		return got == strconv.FormatInt(x.N, 10), "pid " + got + " (the broker's answer to the raw EndTxn v5)", true
	}
	e := p.rawEnd.ProducerEpoch
	return int64(e) == x.N, fmt.Sprintf("epoch %d (the broker's answer to the raw EndTxn v5)", e), true
}

// topicSlot is the index of topic in a request's topic list, which names
// each topic once: a new one is added with add at index n.
func topicSlot(seen map[string]int, topic string, n int, add func()) int {
	if i, ok := seen[topic]; ok {
		return i
	}
	seen[topic] = n
	add()
	return n
}

// offsetTopics fills a TxnOffsetCommit's topics with offsets.
func (d *driver) offsetTopics(req *kmsg.TxnOffsetCommitRequest, offsets []engine.TPOffset) {
	topics := map[string]int{}
	for _, o := range offsets {
		t := d.name(o.TP.Topic)
		i := topicSlot(topics, t, len(req.Topics), func() {
			rt := kmsg.NewTxnOffsetCommitRequestTopic()
			rt.Topic = t
			req.Topics = append(req.Topics, rt)
		})
		rp := kmsg.NewTxnOffsetCommitRequestTopicPartition()
		rp.Partition, rp.Offset, rp.LeaderEpoch = o.TP.Partition, o.Offset, -1
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, rp)
	}
}

// partitionTopics fills an AddPartitionsToTxn's topics with tps.
func (d *driver) partitionTopics(r *kmsg.AddPartitionsToTxnRequest, tps []engine.TP) {
	topics := map[string]int{}
	for _, tp := range tps {
		t := d.name(tp.Topic)
		i := topicSlot(topics, t, len(r.Topics), func() {
			rt := kmsg.NewAddPartitionsToTxnRequestTopic()
			rt.Topic = t
			r.Topics = append(r.Topics, rt)
		})
		r.Topics[i].Partitions = append(r.Topics[i].Partitions, tp.Partition)
	}
}
