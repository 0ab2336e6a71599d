package verify

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// The expert actions that a broker takes from any client: a raw Produce of
// a hand-built batch, and WriteTxnMarkers (a ClusterAction request, open on
// an unsecured cluster). They go as the simulation's do: Produce v12 under
// transaction.version 2, v11 (classic) otherwise.

// expertClient is a client whose Produce version follows the protocol.
func (d *driver) expertClient() *kgo.Client {
	if d.expert != nil {
		return d.expert
	}
	// v13 names topics by id (KIP-516); v12 is KIP-890's.
	vs := kversion.Stable()
	vs.SetMaxKeyVersion(int16(kmsg.Produce), 12)
	vs.SetMaxKeyVersion(int16(kmsg.AddPartitionsToTxn), 3)
	if d.simTV < 2 {
		vs.SetMaxKeyVersion(int16(kmsg.Produce), 11)
		vs.SetMaxKeyVersion(int16(kmsg.EndTxn), 4)
	}
	// Its connections are observed as the file's clients' are: the
	// answers to what it injects are broker facts.
	d.expertWorker.start()
	d.watch("expert", &d.expertWorker)
	cl, err := kgo.NewClient(append(d.sasl(), kgo.SeedBrokers(d.seed...), kgo.MaxVersions(vs), kgo.Dialer(d.expertWorker.faults().Dialer(d.dial())))...)
	if err != nil {
		return nil
	}
	d.expert = cl
	return cl
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// buildBatch writes a RecordBatch v2 (KIP-98) with the fields as given.
func buildBatch(a engine.InjectBatch) []byte {
	n := int(a.Count)
	if n == 0 {
		n = max(len(a.Values), 1)
	}
	var recs []byte
	for i := range n {
		v := []byte("x")
		if i < len(a.Values) {
			v = []byte(a.Values[i])
		}
		var body []byte
		body = append(body, 0)                     // attributes
		body = binary.AppendVarint(body, 0)        // timestamp delta
		body = binary.AppendVarint(body, int64(i)) // offset delta
		body = binary.AppendVarint(body, -1)       // no key
		body = binary.AppendVarint(body, int64(len(v)))
		body = append(body, v...)
		body = binary.AppendVarint(body, 0) // no headers
		recs = binary.AppendVarint(recs, int64(len(body)))
		recs = append(recs, body...)
	}
	var attrs int16
	if a.Transactional {
		attrs |= 0x10
	}
	if a.Control {
		attrs |= 0x20
	}
	now := time.Now().UnixMilli()
	b := binary.BigEndian.AppendUint64(nil, 0) // base offset
	b = binary.BigEndian.AppendUint32(b, 0)    // length, below
	b = binary.BigEndian.AppendUint32(b, 0)    // partition leader epoch
	b = append(b, 2)                           // magic
	b = binary.BigEndian.AppendUint32(b, 0)    // crc, below
	b = binary.BigEndian.AppendUint16(b, uint16(attrs))
	b = binary.BigEndian.AppendUint32(b, uint32(n-1))
	b = binary.BigEndian.AppendUint64(b, uint64(now))
	b = binary.BigEndian.AppendUint64(b, uint64(now))
	b = binary.BigEndian.AppendUint64(b, uint64(a.ProducerID))
	b = binary.BigEndian.AppendUint16(b, uint16(a.Epoch))
	b = binary.BigEndian.AppendUint32(b, uint32(a.Seq))
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = append(b, recs...)
	binary.BigEndian.PutUint32(b[8:], uint32(len(b)-12))
	binary.BigEndian.PutUint32(b[17:], crc32.Checksum(b[21:], castagnoli))
	return b
}

// brokerPID is the broker's id for a simulation producer id that a real
// producer of the file holds, else the id itself, and its transactional id.
func (d *driver) brokerPID(pid int64) (int64, *string) {
	if r, ok := d.rev[pid]; ok {
		var txid *string
		if r.txid != "" {
			txid = &r.txid
		}
		return r.pid, txid
	}
	d.identity(pid)
	return pid, nil
}

func (d *driver) injectBatch(ctx context.Context, a engine.InjectBatch) {
	cl := d.expertClient()
	if cl == nil {
		return
	}
	var txid *string
	a.ProducerID, txid = d.brokerPID(a.ProducerID)
	if a.Transactional && txid == nil {
		// A Produce with transactional records and no transactional id
		// is refused whole with TRANSACTIONAL_ID_AUTHORIZATION_FAILED(53)
		// (KafkaApis.handleProduceRequest); the simulation's expert
		// names no id, and no coordinator knows its pid either way, so
		// the broker run names one of the run's own.
		expert := d.prefix + "expert"
		txid = &expert
	}
	one := buildBatch(a)
	var records []byte
	for range max(a.Copies, 1) {
		records = append(records, one...)
	}
	req := kmsg.NewPtrProduceRequest()
	if a.Transactional {
		// The leader verifies a transactional batch with the coordinator
		// of the request's transactional id (KIP-890 part 1).
		req.TransactionID = txid
	}
	req.Acks = -1
	req.TimeoutMillis = 10000
	t := kmsg.NewProduceRequestTopic()
	t.Topic = d.name(a.TP.Topic)
	p := kmsg.NewProduceRequestTopicPartition()
	p.Partition = a.TP.Partition
	p.Records = records
	t.Partitions = append(t.Partitions, p)
	req.Topics = append(req.Topics, t)
	// The answer goes to "expert" in the simulation, where nothing acts
	// on it; here too. franz-go sends a raw Produce to any broker (it
	// shards only the requests Client.Request lists): on a cluster of
	// several, to the partition's leader, or another would answer
	// NOT_LEADER_OR_FOLLOWER.
	resp, err := d.leaderOf(ctx, cl, a.TP).Request(ctx, req)
	if debug {
		fmt.Fprintf(os.Stderr, "inject: %v %+v\n", err, resp)
	}
	d.identity(a.ProducerID)
}

func (d *driver) injectMarker(ctx context.Context, a engine.InjectMarker) {
	pid, _ := d.brokerPID(a.ProducerID)
	m := kadm.TxnMarkers{ProducerID: pid, ProducerEpoch: a.Epoch, Commit: a.Result == engine.MarkerCommit,
		CoordinatorEpoch: a.CoordinatorEpoch, Topics: kadm.TopicsSet{d.name(a.TP.Topic): {a.TP.Partition: {}}}}
	d.adm.WriteTxnMarkers(ctx, m)
}

// identity maps an injected producer id to itself, unless a real
// producer's id already maps there.
func (d *driver) identity(pid int64) {
	if pid < 0 {
		return
	}
	if _, ok := d.pids[pid]; !ok {
		d.pids[pid] = pid
	}
}

// An inject while the simulation has messages in flight is played where
// the broker run holds every one of them (inflight.go, markerhold.go):
// the expert's request then reaches the broker at the simulation's point,
// before any held message moves, as the simulation's does when its
// answer reaches the expert before it delivers any of them to a broker.
// (A held answer that reaches a client first changes nothing the broker
// holds; the client's next request, sent only then, would.) Where the
// simulation moves a held message first, the broker run's inject, sent
// whole, went before it: the file stops there, saying so.

// heldInject is an inject played under a hold: the simulation's
// messages in flight at its line, which its answer must precede.
type heldInject struct {
	line int
	held map[int64]bool
}

// injectHeld reports whether the inject at c can be played under the
// hold the broker run keeps now (w is the simulation after the line).
func (d *driver) injectHeld(c script.Command, w *engine.World) bool {
	if !d.holding || len(d.early) > 0 || d.inject != nil || len(d.queue) > 0 {
		return false
	}
	hi := &heldInject{line: c.Line, held: map[int64]bool{}}
	for _, m := range w.InFlight() {
		if m.From != "expert" {
			hi.held[m.ID] = true
		}
	}
	d.inject = hi
	return true
}

// injectOrder follows a held inject after each line: done when the
// simulation delivered its answer to the expert; the file stops when the
// simulation delivered a message held at the inject's line, or a
// client's new request, to a broker before that.
func (d *driver) injectOrder(c script.Command) {
	hi := d.inject
	if hi == nil {
		return
	}
	if c.Line == hi.line {
		// Sent now, while the rest is held: a later line may let the
		// hold go before a quiet point would run the queue.
		for _, q := range d.queue {
			d.submit(q)
		}
		d.queue = nil
		return
	}
	for _, e := range d.lineEvents {
		m := e.Message
		if e.Kind != engine.EvDeliver || m == nil {
			continue
		}
		if m.To == "expert" && m.Kind.IsResponse() {
			d.inject = nil
			return
		}
		if d.injectRaces(hi, m) {
			d.inject = nil
			d.letGo(c)
			d.stop(c, fmt.Sprintf("the simulation delivers %s before the answer to line %d's inject: the broker run sent the inject whole, while the rest was held, so it went before", m.Kind, hi.line), false)
			return
		}
	}
}

// injectRaces: m, delivered before the held inject's answer, changes
// what a broker holds where the broker run's inject went first: a
// message held at the inject's line, or a client's request sent since,
// reaching a broker.
func (d *driver) injectRaces(hi *heldInject, m *engine.Message) bool {
	if !isNode(m.To) {
		return false
	}
	if hi.held[m.ID] {
		return true
	}
	_, prod := d.decls[m.From]
	_, cons := d.cdecls[m.From]
	return prod || cons
}

// ofInject reports whether m, in flight in the simulation, is of the
// held inject's own exchange (to or from the expert, or between brokers
// on its behalf: a leader's verification with the coordinator), which
// the broker run sent whole at the inject's line: a hold keeps on past
// it, and an expect line waits for its end (injectInFlight).
func (d *driver) ofInject(m *engine.Message) bool {
	hi := d.inject
	if hi == nil || hi.held[m.ID] {
		return false
	}
	if m.From == "expert" || m.To == "expert" {
		return true
	}
	if !isNode(m.From) || !isNode(m.To) {
		return false
	}
	name, _ := strings.CutSuffix(m.Kind.String(), "Response")
	return name != "WriteTxnMarkers"
}

// injectInFlight says why an expect line cannot be compared while the
// simulation has the held inject's exchange in flight ("" if it has
// none).
func (d *driver) injectInFlight(w *engine.World) string {
	for _, m := range w.InFlight() {
		if d.ofInject(m) {
			return fmt.Sprintf("the inject of line %d is under way in the simulation (%s from %s to %s); the broker run sent it whole", d.inject.line, m.Kind, m.From, m.To)
		}
	}
	return ""
}

// requester is a client or one broker of it.
type requester interface {
	Request(context.Context, kmsg.Request) (kmsg.Response, error)
}

// leaderOf is tp's leader among cl's brokers, or cl itself when the
// metadata does not name one.
func (d *driver) leaderOf(ctx context.Context, cl *kgo.Client, tp engine.TP) requester {
	return d.leaderNamed(ctx, cl, d.name(tp.Topic), int32(tp.Partition))
}

// leaderNamed is leaderOf for a topic's broker-side (prefixed) name.
func (d *driver) leaderNamed(ctx context.Context, cl *kgo.Client, topic string, part int32) requester {
	td, err := d.adm.ListTopics(ctx, topic)
	if err != nil {
		return cl
	}
	p, ok := td[topic].Partitions[part]
	if !ok || p.Leader < 0 {
		return cl
	}
	return cl.Broker(int(p.Leader))
}
