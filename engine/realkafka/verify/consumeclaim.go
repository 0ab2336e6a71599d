package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
)

// A consumer's consume event (engine.Event.Consumed) stands for what the
// broker run's consumer got: a fetch's records are the offsets and values
// franz-go's fetches handed out on the partition, and the position after
// it (compared when no later consume event of the consumer moved it); a
// reset is the consumer's ListOffsets answer for the partition
// (SubscriptionState.resetInitializingPositions: earliest, latest, or the
// LSO for read_committed); a start at the committed offset is its
// OffsetFetch answer.

// consumeClaim is the broker fact consume event i stands for.
func (d *driver) consumeClaim(w *engine.World, i int) (claim, bool) {
	e := w.EventAt(i)
	k, recs, pos, ok := e.Consumed()
	if !ok {
		return claim{}, false
	}
	tp := e.TP
	switch k {
	case engine.ConsumeReset:
		return d.offsetAnswerClaim(e.Actor, tp, pos, "resets %s to offset %d", "ListOffsets", listOffsetsOf), true
	case engine.ConsumeCommitted:
		return d.offsetAnswerClaim(e.Actor, tp, pos, "starts %s at committed offset %d", "OffsetFetch", offsetFetchOf), true
	}
	if k == engine.ConsumeUndecided {
		return d.undecidedClaim(e.Actor, tp, recs), true
	}
	latest := true
	for j := i + 1; j < w.EventCount(); j++ {
		n := w.EventAt(j)
		if n.Kind == engine.EvConsume && n.Actor == e.Actor && n.TP == tp {
			if _, _, _, ok := n.Consumed(); ok {
				latest = false
				break
			}
		}
	}
	var want []string
	for _, r := range recs {
		want = append(want, fmt.Sprintf("%d=%s", r.Offset, r.Value))
	}
	what := fmt.Sprintf("%s takes %s records %s", e.Actor, tp, strings.Join(want, ","))
	if k == engine.ConsumeNothingNew {
		if !latest {
			return claim{}, false
		}
		what = fmt.Sprintf("%s takes nothing of %s at or past %d", e.Actor, tp, pos)
	}
	if latest {
		what += fmt.Sprintf(", position %d", pos)
	}
	return claim{what: what, check: func(int) (int, string, string) {
		cs, ok := d.cons[e.Actor]
		if !ok {
			return 0, "", "the broker run's consumer " + e.Actor + " never polled"
		}
		var took []string
		for j, t := range cs.taken {
			if t.TP == tp && j < len(cs.values) {
				took = append(took, fmt.Sprintf("%d=%s", t.Offset, cs.values[j]))
			}
		}
		n := 1
		for _, x := range want {
			if !slices.Contains(took, x) {
				n = 0
			}
		}
		if k == engine.ConsumeNothingNew {
			for _, t := range cs.taken {
				if t.TP == tp && t.Offset >= pos {
					n = 0
				}
			}
			if p, ok := cs.pos[tp]; ok && p != pos {
				n = 0
			}
			return n, shown(took, tp) + fmt.Sprintf(", position %s", posText(cs.pos, tp)), ""
		}
		shown := shown(took, tp)
		if latest {
			p, ok := cs.pos[tp]
			if !ok {
				if len(want) == 0 {
					return 0, "", fmt.Sprintf("the broker run's consumer %s keeps no position for %s (it took no record or marker there)", e.Actor, tp)
				}
				p = -1
			}
			if p != pos {
				n = 0
			}
			shown += fmt.Sprintf(", position %d", p)
		}
		return n, shown, ""
	}}, true
}

// offsetAnswerClaim: consumer actor's answer to request api gave pos for
// tp (said is the claim's words, of the answer's reader).
func (d *driver) offsetAnswerClaim(actor string, tp engine.TP, pos int64, said, api string, of func(kmsg.Response, string, int32) (int64, bool)) claim {
	return claim{what: actor + " " + fmt.Sprintf(said, tp, pos) + " (its " + api + " answer)", check: func(int) (int, string, string) {
		got := d.answeredOffsets(actor, tp, of)
		if len(got) == 0 {
			return 0, "", fmt.Sprintf("%s got no %s answer for %s", actor, api, tp)
		}
		return countInt(got, pos), fmt.Sprintf("%s answered %s offset %s", api, tp, joinInts(got)), ""
	}}
}

func shown(took []string, tp engine.TP) string {
	if len(took) == 0 {
		return "took no record of " + tp.String()
	}
	return "took " + tp.String() + " records " + strings.Join(took, ",")
}

func posText(pos map[engine.TP]int64, tp engine.TP) string {
	if p, ok := pos[tp]; ok {
		return fmt.Sprint(p)
	}
	return "not set (no record or marker taken)"
}

// undecidedClaim: a read_uncommitted consumer handed out the offsets of
// an aborted or open transaction's batch; the broker run's consumer took
// the same offsets (the values are compared by the fetch's own event).
func (d *driver) undecidedClaim(actor string, tp engine.TP, recs []engine.ConsumedRecord) claim {
	var want []int64
	for _, r := range recs {
		want = append(want, r.Offset)
	}
	return claim{what: fmt.Sprintf("%s takes %s offsets %s", actor, tp, joinInts(want)), check: func(int) (int, string, string) {
		cs, ok := d.cons[actor]
		if !ok {
			return 0, "", "the broker run's consumer " + actor + " never polled"
		}
		var took []int64
		for _, t := range cs.taken {
			if t.TP == tp {
				took = append(took, t.Offset)
			}
		}
		n := 1
		for _, o := range want {
			if !slices.Contains(took, o) {
				n = 0
			}
		}
		return n, fmt.Sprintf("took %s offsets %s", tp, joinInts(took)), ""
	}}
}

func countInt(xs []int64, x int64) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

func joinInts(xs []int64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// answeredOffsets are the offsets the answers to client's requests gave
// for tp, as of reads them.
func (d *driver) answeredOffsets(client string, tp engine.TP, of func(kmsg.Response, string, int32) (int64, bool)) []int64 {
	if d.obs == nil {
		return nil
	}
	var out []int64
	for _, o := range d.obs.exchanges() {
		if o.client != client || o.x.Resp == nil {
			continue
		}
		if off, ok := of(o.x.Resp, d.prefix+tp.Topic, tp.Partition); ok {
			out = append(out, off)
		}
	}
	return out
}

func listOffsetsOf(r kmsg.Response, topic string, p int32) (int64, bool) {
	resp, ok := r.(*kmsg.ListOffsetsResponse)
	if !ok {
		return 0, false
	}
	for _, t := range resp.Topics {
		for _, rp := range t.Partitions {
			if t.Topic == topic && rp.Partition == p && rp.ErrorCode == 0 {
				return rp.Offset, true
			}
		}
	}
	return 0, false
}

// offsetFetchOf reads an OffsetFetch answer: v8 and later (Kafka 3.0 on,
// what franz-go asks of the brokers verify runs on) answer per group.
func offsetFetchOf(r kmsg.Response, topic string, p int32) (int64, bool) {
	resp, ok := r.(*kmsg.OffsetFetchResponse)
	if !ok {
		return 0, false
	}
	for _, g := range resp.Groups {
		for _, t := range g.Topics {
			for _, rp := range t.Partitions {
				if t.Topic == topic && rp.Partition == p && rp.ErrorCode == 0 {
					return rp.Offset, true
				}
			}
		}
	}
	return 0, false
}
