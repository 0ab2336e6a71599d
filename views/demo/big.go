package demo

import (
	"fmt"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// Big returns a session whose every frame holds long logs: a partition of
// rows batches, events event lines and a long timeline. It is for
// benchmarks and stress tests of the views, not for learners.
func Big(rows, events int) model.Session {
	f := model.Frame{Narration: "A long run: thousands of batches, hundreds of events.", Actors: []model.Actor{{Name: "p1"}, {Name: "p2"}, {Name: "p3"}, {Name: coordA, Short: "co"}, {Name: t0, Short: "L0"}, {Name: t1, Short: "L1"}}}
	for i := range 3 {
		f.Producers = append(f.Producers, model.ProducerView{Name: fmt.Sprintf("p%d", i+1), TransactionalID: fmt.Sprintf("tx-%d", i), ProducerID: int64(4000 + i), State: engine.InTransaction.String(), StateTone: model.ToneOpen,
			NextSeq: []model.PartitionSeq{{Partition: "t-0", Seq: int32(rows)}}, InFlight: i})
	}
	p := model.PartitionView{Name: "t-0", Leader: "broker-1"}
	for i := range rows {
		pid := int64(4000 + i%3)
		if i%10 == 9 {
			appendRow(&p, model.LogRow{Kind: model.RowCommit, PID: pid, Seqs: "-1", Status: model.StatusCommitted})
			continue
		}
		st := model.StatusCommitted
		if i > rows-20 {
			st = model.StatusOpen
		}
		appendRow(&p, model.LogRow{Kind: model.RowData, PID: pid, Seqs: fmt.Sprintf("%d..%d", 3*i, 3*i+2), Values: []string{fmt.Sprintf("value-%d", i), "x", "y"}, Status: st})
	}
	for i := range p.Rows {
		p.Rows[i].Changed = i == len(p.Rows)-1
	}
	p.LSO = p.HW - 40
	for i := range 5 {
		p.Cached = append(p.Cached, model.CachedBatch{PID: 4000, FirstSeq: int32(i * 3), LastSeq: int32(i*3 + 2), Offset: int64(i * 3)})
	}
	f.Partitions = []model.PartitionView{p, {Name: "t-1", Leader: "broker-3"}, {Name: "out-0", Leader: "broker-2"}}
	f.Coordinators = []model.CoordinatorView{{TxnID: "tx-0", Partition: "__transaction_state-3", Broker: "broker-2", States: txnStates, Current: int(engine.Ongoing), Tone: model.ToneOpen, ProducerID: 4000}}
	for i := range 50 {
		f.Coordinators[0].Writes = append(f.Coordinators[0].Writes, fmt.Sprintf("@%d Ongoing pid=4000 epoch=0 partitions=[t-0]", i))
	}
	c := model.ConsumerView{Name: "c-ru", Isolation: "read_uncommitted"}
	for i := range rows {
		c.Records = append(c.Records, model.ConsumedRecord{Partition: "t-0", Offset: int64(i), Value: fmt.Sprintf("value-%d", i)})
	}
	f.Consumers = []model.ConsumerView{c, {Name: "c-rc", Isolation: "read_committed", ReadCommitted: true}}
	for i := range events {
		f.Events = append(f.Events, model.EventLine{Text: fmt.Sprintf("t=%d deliver p%d->t-0 leader Produce pid=%d ep=0 seq=%d..%d records=3 a fairly long canonical event line", i*5, i%3+1, 4000+i%3, 3*i, 3*i+2)})
		if i%3 == 0 {
			f.Timeline = append(f.Timeline, model.Arrow{From: fmt.Sprintf("p%d", i%3+1), To: t0, Label: fmt.Sprintf("Produce seq=%d", i), Step: i / 3, State: model.ArrowDelivered})
			f.Timeline = append(f.Timeline, model.Arrow{From: t0, To: fmt.Sprintf("p%d", i%3+1), Label: "NONE", Reply: true, Step: i / 3, State: model.ArrowDelivered})
		}
	}
	f.NewEvents = 3
	return &bigSession{f: f, n: 1000}
}

type bigSession struct {
	f   model.Frame
	n   int
	pos int
}

func (b *bigSession) Title() string { return "Big session" }
func (b *bigSession) Len() int      { return b.n }
func (b *bigSession) Pos() int      { return b.pos }
func (b *bigSession) Next() bool {
	if b.pos >= b.n {
		return false
	}
	b.pos++
	return true
}
func (b *bigSession) Back() bool {
	if b.pos == 0 {
		return false
	}
	b.pos--
	return true
}
func (b *bigSession) Restart()                { b.pos = 0 }
func (b *bigSession) Answer(int) (bool, bool) { return false, false }
func (b *bigSession) Frame() model.Frame {
	f := b.f
	f.Step, f.Steps = b.pos, b.n
	f.Key = uint64(b.pos) + 1
	return f
}
