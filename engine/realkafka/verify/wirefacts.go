package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
)

// The facts a request or an answer on the wire carries, flattened to one
// row per partition (Produce) or one per message: the producer id, epoch
// and base sequence a request carried, the error code and base offset an
// answer gave.

// reqFact is one request's producer fields (for Produce, one partition's
// first batch).
type reqFact struct {
	key   kmsg.Key
	tp    string
	part  int32
	pid   int64
	epoch int16
	seq   int32
}

func (r reqFact) String(d *driver) string {
	s := r.key.Name()
	if r.tp != "" {
		s += fmt.Sprintf(" %s-%d", strings.TrimPrefix(r.tp, d.prefix), r.part)
	}
	if r.pid >= 0 {
		s += fmt.Sprintf(" pid=%s epoch=%d", d.simPID(r.pid), r.epoch)
	}
	if r.key == kmsg.Produce && r.pid >= 0 {
		s += fmt.Sprintf(" seq=%d", r.seq)
	}
	return s
}

// topicName names a topic a request or answer gives by id (Produce v13,
// KIP-516); "" when it gives none.
type topicName func(id [16]byte) string

func (n topicName) of(name string, id [16]byte) string {
	if name != "" || n == nil || id == ([16]byte{}) {
		return name
	}
	return n(id)
}

// requestFacts flattens a request.
func requestFacts(req kmsg.Request, names topicName) []reqFact {
	key := kmsg.Key(req.Key())
	switch r := req.(type) {
	case *kmsg.ProduceRequest:
		var out []reqFact
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				f := reqFact{key: key, tp: names.of(t.Topic, t.TopicID), part: p.Partition, pid: -1, seq: -1}
				var b kmsg.RecordBatch
				if err := b.ReadFrom(p.Records); err == nil {
					f.pid, f.epoch, f.seq = b.ProducerID, b.ProducerEpoch, b.FirstSequence
				}
				out = append(out, f)
			}
		}
		return out
	case *kmsg.InitProducerIDRequest:
		return []reqFact{{key: key, pid: r.ProducerID, epoch: r.ProducerEpoch, seq: -1}}
	case *kmsg.AddPartitionsToTxnRequest:
		if len(r.Transactions) > 0 { // v4+: batched by transaction
			return []reqFact{{key: key, pid: r.Transactions[0].ProducerID, epoch: r.Transactions[0].ProducerEpoch, seq: -1}}
		}
		return []reqFact{{key: key, pid: r.ProducerID, epoch: r.ProducerEpoch, seq: -1}}
	case *kmsg.AddOffsetsToTxnRequest:
		return []reqFact{{key: key, pid: r.ProducerID, epoch: r.ProducerEpoch, seq: -1}}
	case *kmsg.EndTxnRequest:
		return []reqFact{{key: key, pid: r.ProducerID, epoch: r.ProducerEpoch, seq: -1}}
	case *kmsg.TxnOffsetCommitRequest:
		return []reqFact{{key: key, pid: r.ProducerID, epoch: r.ProducerEpoch, seq: -1}}
	}
	return []reqFact{{key: key, pid: -1, seq: -1}}
}

// obsAnswer is one answer (for Produce, one partition of it) with the
// request fields it answers.
type obsAnswer struct {
	reqFact
	code       int16
	baseOffset int64
}

func (a obsAnswer) String(d *driver) string {
	s := a.reqFact.String(d) + " answered " + errName(kerr.ErrorForCode(a.code))
	if a.key == kmsg.Produce && a.code == 0 {
		s += fmt.Sprintf(" baseOffset=%d", a.baseOffset)
	}
	if a.key == kmsg.InitProducerID && a.code == 0 {
		s = fmt.Sprintf("InitProducerID answered pid=%s epoch=%d", d.simPID(a.pid), a.epoch)
	}
	return s
}

// answerFacts flattens an answer to req.
func answerFacts(req kmsg.Request, resp kmsg.Response, names topicName) []obsAnswer {
	reqs := requestFacts(req, names)
	one := func(code int16) []obsAnswer { return []obsAnswer{{reqFact: reqs[0], code: code}} }
	first := func(codes ...int16) int16 {
		for _, c := range codes {
			if c != 0 {
				return c
			}
		}
		return 0
	}
	switch r := resp.(type) {
	case *kmsg.ProduceResponse:
		var out []obsAnswer
		for _, t := range r.Topics {
			topic := names.of(t.Topic, t.TopicID)
			for _, p := range t.Partitions {
				a := obsAnswer{reqFact: reqFact{key: kmsg.Produce, tp: topic, part: p.Partition, pid: -1, seq: -1}, code: p.ErrorCode, baseOffset: p.BaseOffset}
				for _, q := range reqs {
					if q.tp == topic && q.part == p.Partition {
						a.reqFact = q
					}
				}
				out = append(out, a)
			}
		}
		return out
	case *kmsg.InitProducerIDResponse:
		a := obsAnswer{reqFact: reqFact{key: kmsg.InitProducerID, pid: r.ProducerID, epoch: r.ProducerEpoch, seq: -1}, code: r.ErrorCode}
		return []obsAnswer{a}
	case *kmsg.EndTxnResponse:
		return one(r.ErrorCode)
	case *kmsg.AddOffsetsToTxnResponse:
		return one(r.ErrorCode)
	case *kmsg.AddPartitionsToTxnResponse:
		var codes []int16
		codes = append(codes, r.ErrorCode)
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				codes = append(codes, p.ErrorCode)
			}
		}
		for _, tx := range r.Transactions {
			for _, t := range tx.Topics {
				for _, p := range t.Partitions {
					codes = append(codes, p.ErrorCode)
				}
			}
		}
		return one(first(codes...))
	case *kmsg.TxnOffsetCommitResponse:
		var codes []int16
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				codes = append(codes, p.ErrorCode)
			}
		}
		return one(first(codes...))
	case *kmsg.OffsetCommitResponse:
		var codes []int16
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				codes = append(codes, p.ErrorCode)
			}
		}
		return one(first(codes...))
	case *kmsg.FindCoordinatorResponse:
		codes := []int16{r.ErrorCode}
		for _, c := range r.Coordinators {
			codes = append(codes, c.ErrorCode)
		}
		return one(first(codes...))
	case *kmsg.OffsetFetchResponse:
		codes := []int16{r.ErrorCode}
		for _, g := range r.Groups {
			codes = append(codes, g.ErrorCode)
			for _, t := range g.Topics {
				for _, p := range t.Partitions {
					codes = append(codes, p.ErrorCode)
				}
			}
		}
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				codes = append(codes, p.ErrorCode)
			}
		}
		return one(first(codes...))
	case *kmsg.FetchResponse:
		codes := []int16{r.ErrorCode}
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				codes = append(codes, p.ErrorCode)
			}
		}
		return one(first(codes...))
	}
	return nil
}

// countAnswers counts the answers the broker run saw that pass pred:
// from any client when client is "", of any key when key < 0, on the file
// line scope when scope > 0. sent counts what the broker sent (a lost
// answer, an answer to a duplicate's copy); else what the client got.
func (d *driver) countAnswers(scope int, client string, key kmsg.Key, sent bool, pred func(*obsAnswer) bool) (int, string, string) {
	n := 0
	var shown []string
	for _, o := range d.obs.exchanges() {
		if o.x.Resp == nil || (client != "" && o.client != client) || (key >= 0 && kmsg.Key(o.x.Req.Key()) != key) || (scope > 0 && o.line != scope) {
			continue
		}
		if !sent && (o.x.Lost || o.x.Copy) {
			continue
		}
		for _, a := range answerFacts(o.x.Req, o.x.Resp, d.topicName) {
			if a.code == 0 && key < 0 {
				continue // "an answer with code C": the answers without one say nothing
			}
			shown = append(shown, a.String(d))
			if pred(&a) {
				n++
			}
		}
	}
	if len(shown) == 0 {
		return n, "no such answer on the wire", ""
	}
	return n, "wire: " + strings.Join(firstN(shown, 4), "; "), ""
}

// topicName names a topic of the run by its id (a Produce v13 request or
// answer names topics by id).
func (d *driver) topicName(id [16]byte) string {
	o := d.obs
	if n, ok := o.ids[id]; ok {
		return n
	}
	ctx, cancel := context.WithTimeout(d.ctx, 10*time.Second)
	defer cancel()
	td, err := d.adm.ListTopics(ctx, d.topics...)
	if err != nil {
		return ""
	}
	if o.ids == nil {
		o.ids = map[[16]byte]string{}
	}
	for _, t := range td {
		o.ids[t.ID] = t.Topic
	}
	return o.ids[id]
}

// answered are the requests that wait for an answer, counted for lost
// traffic; Fetch is left out, as a consumer's long poll is always out.
var answered = []kmsg.Key{kmsg.Produce, kmsg.InitProducerID, kmsg.AddPartitionsToTxn, kmsg.AddOffsetsToTxn, kmsg.EndTxn, kmsg.TxnOffsetCommit}

// lostWithConnection is the first client whose requests died with a
// connection the wrapper closed (a dropped request or a lost answer takes
// the connection and every request behind it on it: on TCP nothing is
// lost alone), with how many; "" when none. The simulation's network
// loses the one message only, so from there the two runs' traffic is not
// the same conversation.
func (d *driver) lostWithConnection() (string, int) {
	sent, got := map[string]int{}, map[string]int{}
	for _, o := range d.obs.exchanges() {
		if !slices.Contains(answered, kmsg.Key(o.x.Req.Key())) || o.x.Unanswered {
			continue
		}
		switch {
		case o.x.Resp != nil || o.x.Err != nil:
			got[o.client]++
		case !o.x.Dropped:
			sent[o.client]++
		}
	}
	var names []string
	for n := range sent {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if sent[n] > got[n] {
			return n, sent[n] - got[n]
		}
	}
	return "", 0
}

// conversationDiffers says where the broker run's wire traffic is not the
// simulation's: a client of the file sent a different number of requests
// of a kind than the simulated one (franz-go's batching, retries and
// pipelining are not the Java client's, and the driver runs each call
// whole), "" when every count agrees. A request or answer is compared
// only in the same conversation.
func (d *driver) conversationDiffers(w *engine.World) string {
	got := map[string]map[kmsg.Key]int{}
	xs := d.obs.exchanges()
	// A request the broker answered with "not ready" (a transaction log
	// or coordinator still loading on a new cluster) is retried by either
	// client as often as it takes; the simulation starts ready.
	notReady := map[kmsg.Request]bool{}
	for _, o := range xs {
		if o.x.Resp == nil {
			continue
		}
		for _, a := range answerFacts(o.x.Req, o.x.Resp, nil) {
			if slices.Contains(notReadyCodes, a.code) {
				notReady[o.x.Req] = true
			}
		}
	}
	for _, o := range xs {
		k := kmsg.Key(o.x.Req.Key())
		if o.x.Resp != nil || o.x.Err != nil || o.x.Copy || !slices.Contains(answered, k) || notReady[o.x.Req] {
			continue
		}
		if got[o.client] == nil {
			got[o.client] = map[kmsg.Key]int{}
		}
		got[o.client][k]++
	}
	names := d.clientNames()
	for _, n := range names {
		for _, k := range answered {
			kind, ok := engine.MsgKindByName(kafkaName(k))
			if !ok {
				continue
			}
			sim := w.RequestCount(engine.RequestFilter{From: n, Kind: kind, KindSet: true})
			if mirrored, ok := d.mirroredCount(n, kind); ok { // mirror.go
				if b := got[n][k]; b != mirrored {
					return fmt.Sprintf("the raw client of %s had %d %s requests answered on the broker run, of the %d the simulation delivered from the Java client", n, b, kafkaName(k), mirrored)
				}
				continue
			}
			if b := got[n][k]; b != sim {
				return fmt.Sprintf("%s sent %d %s requests on the broker run (franz-go), %d in the simulation (the Java client): the wire conversations differ", n, b, kafkaName(k), sim)
			}
		}
	}
	return ""
}

// notReadyCodes are COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
// NOT_COORDINATOR, and for a new partition UNKNOWN_TOPIC_OR_PARTITION and
// NOT_LEADER_OR_FOLLOWER.
var notReadyCodes = []int16{kerr.CoordinatorLoadInProgress.Code, kerr.CoordinatorNotAvailable.Code, kerr.NotCoordinator.Code,
	kerr.UnknownTopicOrPartition.Code, kerr.NotLeaderForPartition.Code}

// kafkaName is Kafka's name of a request (kmsg spells InitProducerID).
func kafkaName(k kmsg.Key) string {
	if k == kmsg.InitProducerID {
		return "InitProducerId"
	}
	return k.Name()
}

// clientNames are the file's producers and consumers, sorted.
func (d *driver) clientNames() []string {
	var names []string
	for n := range d.decls {
		names = append(names, n)
	}
	for n := range d.cdecls {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
