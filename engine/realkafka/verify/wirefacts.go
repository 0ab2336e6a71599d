package verify

import (
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
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

// requestFacts flattens a request.
func requestFacts(req kmsg.Request) []reqFact {
	key := kmsg.Key(req.Key())
	switch r := req.(type) {
	case *kmsg.ProduceRequest:
		var out []reqFact
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				f := reqFact{key: key, tp: t.Topic, part: p.Partition, pid: -1, seq: -1}
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
func answerFacts(req kmsg.Request, resp kmsg.Response) []obsAnswer {
	reqs := requestFacts(req)
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
			for _, p := range t.Partitions {
				a := obsAnswer{reqFact: reqFact{key: kmsg.Produce, tp: t.Topic, part: p.Partition, pid: -1, seq: -1}, code: p.ErrorCode, baseOffset: p.BaseOffset}
				for _, q := range reqs {
					if q.tp == t.Topic && q.part == p.Partition {
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
		for _, a := range answerFacts(o.x.Req, o.x.Resp) {
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
