package verify

import (
	"context"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
)

// consumerRun is a driver whose broker run's consumer c took values at
// offsets 0.. of t-0 (position after them) and saw the exchanges.
func consumerRun(pos int64, values []string, xs ...wire.Exchange) *driver {
	d := &driver{ctx: context.Background(), prefix: "x-", decls: map[string]engine.DeclareProducer{},
		cdecls: map[string]engine.DeclareConsumer{}, pids: map[int64]int64{}, obs: &observer{}, cons: map[string]*consumer{}}
	cs := &consumer{pos: map[engine.TP]int64{}}
	tp := engine.TP{Topic: "t", Partition: 0}
	for i, v := range values {
		cs.values = append(cs.values, v)
		cs.offsets = append(cs.offsets, int64(i))
		cs.taken = append(cs.taken, engine.TPOffset{TP: tp, Offset: int64(i)})
	}
	if pos >= 0 {
		cs.pos[tp] = pos
	}
	d.cons["c"] = cs
	for _, x := range xs {
		d.obs.seen = append(d.obs.seen, observed{client: "c", x: x})
	}
	return d
}

func listOffsetsAnswer(off int64) wire.Exchange {
	resp := &kmsg.ListOffsetsResponse{}
	t := kmsg.NewListOffsetsResponseTopic()
	t.Topic = "x-t"
	p := kmsg.NewListOffsetsResponseTopicPartition()
	p.Offset = off
	t.Partitions = append(t.Partitions, p)
	resp.Topics = append(resp.Topics, t)
	return wire.Exchange{Req: &kmsg.ListOffsetsRequest{}, Resp: resp}
}

// A fetch's consume event is judged on the records (offsets and values)
// and the position the broker run's consumer got; a reset on its
// ListOffsets answer.
func TestJudgeConsumeEvents(t *testing.T) {
	fetch := `topic t
producer p
consumer c auto.offset.reset=earliest
p send t-0 a
p send t-0 b
run
c poll
run
expect event "(read_uncommitted) receives t-0"
`
	judgeAgainst(t, fetch,
		verdictCase{"same records", consumerRun(2, []string{"a", "b"}), Agree},
		verdictCase{"another value", consumerRun(2, []string{"a", "x"}), Differ},
		verdictCase{"one record fewer", consumerRun(1, []string{"a"}), Differ},
		verdictCase{"another position", consumerRun(3, []string{"a", "b"}), Differ},
	)
	reset := `topic t
producer p
consumer c
p send t-0 a
p send t-0 b
run
c poll
run
expect event "resets t-0 to offset 2"
`
	judgeAgainst(t, reset,
		verdictCase{"ListOffsets 2", consumerRun(-1, nil, listOffsetsAnswer(2)), Agree},
		verdictCase{"ListOffsets 0", consumerRun(-1, nil, listOffsetsAnswer(0)), Differ},
		verdictCase{"no ListOffsets", consumerRun(-1, nil), NotPlayed},
	)
}

// A consume event of a consumer the broker run never polled is not
// played, not simulation-only.
func TestJudgeConsumeNeverPolled(t *testing.T) {
	d := consumerRun(2, nil)
	delete(d.cons, "c")
	judgeAgainst(t, `topic t
producer p
consumer c auto.offset.reset=earliest
p send t-0 a
run
c poll
run
expect event "(read_uncommitted) receives t-0"
`, verdictCase{"never polled", d, NotPlayed})
}

// A read_uncommitted consumer's records of an aborted transaction, and a
// read_committed one's nothing new below an open transaction, are judged
// on the offsets the broker run's consumer took.
func TestJudgeUndecidedAndNothingNew(t *testing.T) {
	head := `topic t
producer tx transactional.id=app-1
consumer c auto.offset.reset=earliest%s
tx initTransactions
run
tx beginTransaction
tx send t-0 a
tx send t-0 b
run
%s
c poll
run
`
	aborted := fmt.Sprintf(head, "", "tx abortTransaction\nrun") + `expect event "returned t-0 offsets 1 of an aborted transaction"` + "\n"
	judgeAgainst(t, aborted,
		verdictCase{"took 0 and 1", consumerRun(3, []string{"a", "b"}), Agree},
		verdictCase{"took 0 only", consumerRun(1, []string{"a"}), Differ},
	)
	open := fmt.Sprintf(head, " isolation.level=read_committed", "") + `expect event "gets nothing new from t-0 at 0"` + "\n"
	judgeAgainst(t, open,
		verdictCase{"took nothing", consumerRun(-1, nil), Agree},
		verdictCase{"took the open records", consumerRun(2, []string{"a", "b"}), Differ},
	)
}
