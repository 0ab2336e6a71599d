package script

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// preamble declares what the one-line cases below use. Each case is parsed as
// line 9 of a file that starts with it, so errors read "f.scn:9: ...".
const preamble = `brokers 3
config transaction.state.log.num.partitions=4
topic t partitions=2
topic out
producer A transactional.id=tx
producer I enable.idempotence=true
consumer C group.id=g topics=out
processor P input=t output=out group.id=app transactional.id=ptx
`

// describe renders a command's meaning for the tables: its kind, the type
// of its action or expectation and its canonical text.
// TestTypedActions pins the actions' fields.
func describe(c Command) string {
	if c.Action == nil {
		return fmt.Sprintf("%v %T %s", c.Kind(), c.Expect, c.Expect)
	}
	return fmt.Sprintf("%v %T %s", c.Kind(), c.Action, c.Action)
}

// TestGoodLines covers every verb, every call, every option and every expect
// and inject form with a line that must parse, and pins down the action it
// becomes (by type and canonical text) or the words of an expectation.
func TestGoodLines(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"config latency.ms=5 transaction.version=1", "setup engine.SetConfig config latency.ms=5 transaction.version=1"},
		{"config transaction.version=2", "setup engine.SetConfig config transaction.version=2"},
		{"config transaction.partition.verification.enable=false transaction.max.timeout.ms=900000", "setup engine.SetConfig config transaction.partition.verification.enable=false transaction.max.timeout.ms=900000"},
		{"config transactional.id.expiration.ms=604800000 producer.id.expiration.ms=86400000", "setup engine.SetConfig config transactional.id.expiration.ms=604800000 producer.id.expiration.ms=86400000"},
		{"config transaction.abort.timed.out.transaction.cleanup.interval.ms=10000", "setup engine.SetConfig config transaction.abort.timed.out.transaction.cleanup.interval.ms=10000"},
		{"topic u partitions=3 rf=2", "setup engine.CreateTopic topic u partitions=3 rf=2"},
		{"topic orders-2", "setup engine.CreateTopic topic orders-2"},
		{"producer Z transactional.id=\"my app\" enable.idempotence=true acks=-1 retries=3", "setup engine.DeclareProducer producer Z transactional.id=\"my app\" enable.idempotence=true acks=all retries=3"},
		{"producer Y max.in.flight.requests.per.connection=6 transaction.timeout.ms=0 request.timeout.ms=30000 retry.backoff.ms=100 delivery.timeout.ms=120000", "setup engine.DeclareProducer producer Y max.in.flight.requests.per.connection=6 transaction.timeout.ms=0 request.timeout.ms=30000 retry.backoff.ms=100 delivery.timeout.ms=120000"},
		{"consumer Z2 isolation.level=read_uncommitted group.id=g2 topics=t,out group.instance.id=i-1", "setup engine.DeclareConsumer consumer Z2 isolation.level=read_uncommitted group.id=g2 topics=t,out group.instance.id=i-1"},
		{"processor Q input=t output=out group.id=app2 transactional.id=qtx offsets=before", "setup engine.DeclareProcessor processor Q input=t output=out group.id=app2 transactional.id=qtx offsets=before"},
		{"A initTransactions", "call engine.Call A initTransactions"},
		{"A beginTransaction", "call engine.Call A beginTransaction"},
		{"A send t-1 hello \"two words\" \"k=v\"", "call engine.Send A send t-1 hello \"two words\" \"k=v\""},
		{"A sendOffsetsToTransaction g t-0=5 t-1=0 generation=2 member=m-1 instance=i-1", "call engine.SendOffsets A sendOffsetsToTransaction g t-0=5 t-1=0 generation=2 member=m-1 instance=i-1"},
		{"A sendOffsetsToTransaction newgroup out-0=1 consumer=C", "call engine.SendOffsets A sendOffsetsToTransaction newgroup out-0=1 consumer=C"},
		{"A commitTransaction", "call engine.Call A commitTransaction"},
		{"A abortTransaction", "call engine.Call A abortTransaction"},
		{"A flush", "call engine.Call A flush"},
		{"A close", "call engine.Call A close"},
		{"C poll", "call engine.Call C poll"},
		{"C commitSync out-0=3", "call engine.CommitSync C commitSync out-0=3"},
		{"P process", "call engine.Call P process"},
		{"step", "step engine.Step step"},
		{"step 10", "step engine.Step step 10"},
		{"deliver m12", "step engine.Deliver deliver m12"},
		{"deliver FindCoordinatorResponse to=A from=broker-2", "step engine.Deliver deliver FindCoordinatorResponse to=A from=broker-2"},
		{"run", "step engine.Run run"},
		{"run max=10", "step engine.Run run max=10"},
		{"advance 0", "step engine.Advance advance 0"},
		{"drop EndTxnResponse to=expert", "fault engine.Drop drop EndTxnResponse to=expert"},
		{"drop ProduceResponse to=A", "fault engine.Drop drop ProduceResponse to=A"},
		{"duplicate Fetch from=C partition=out-0", "fault engine.Duplicate duplicate Fetch from=C partition=out-0"},
		{"delay m4 100", "fault engine.Delay delay m4 100"},
		{"delay EndTxn to=broker-1 50", "fault engine.Delay delay EndTxn 50 to=broker-1"},
		{"reorder m4 m5", "fault engine.Reorder reorder m4 m5"},
		{"reorder Produce partition=t-0 Produce partition=t-1", "fault engine.Reorder reorder Produce partition=t-0 Produce partition=t-1"},
		{"crash broker-3", "fault engine.Crash crash broker-3"},
		{"crash P", "fault engine.Crash crash P"},
		{"restart broker-3", "fault engine.Restart restart broker-3"},
		{"restart P", "fault engine.Restart restart P"},
		{"pause C", "fault engine.Pause pause C"},
		{"resume C", "fault engine.Resume resume C"},
		{"rebalance app", "fault engine.Rebalance rebalance app"},
		{"inject batch t-0 pid=1000 epoch=0 seq=0", "inject engine.InjectBatch inject batch t-0 pid=1000 epoch=0 seq=0"},
		{"inject batch t-1 pid=-1 epoch=-1 seq=-1 count=2 values=a,b transactional control copies=3", "inject engine.InjectBatch inject batch t-1 transactional control pid=-1 epoch=-1 seq=-1 count=2 copies=3 values=a,b"},
		{"inject marker t-0 pid=1000 epoch=0 result=abort coordinatorEpoch=2", "inject engine.InjectMarker inject marker t-0 pid=1000 epoch=0 result=abort coordinatorEpoch=2"},
		{"expect partition t-0 leo 3", "expect script.PartitionCheck expect partition t-0 leo 3"},
		{"expect partition t-0 hw 3", "expect script.PartitionCheck expect partition t-0 hw 3"},
		{"expect partition t-0 lso 0", "expect script.PartitionCheck expect partition t-0 lso 0"},
		{"expect partition t-0 logstart 0", "expect script.PartitionCheck expect partition t-0 logstart 0"},
		{"expect partition t-0 batch 0 pid=1000 epoch=0 seq=0 count=1 txn=no status=plain values=x", "expect script.BatchCheck expect partition t-0 batch 0 pid=1000 epoch=0 seq=0 count=1 txn=no status=plain values=x"},
		{"expect partition t-0 batch 2 seq=2147483647..0", "expect script.BatchCheck expect partition t-0 batch 2 seq=2147483647..0"},
		{"expect partition t-0 marker 2 abort pid=1000 epoch=0 coordinatorEpoch=0", "expect script.BatchCheck expect partition t-0 marker 2 abort pid=1000 epoch=0 coordinatorEpoch=0"},
		{"expect partition t-0 aborted pid=1000 first=0 last=2 lso=0", "expect script.AbortedCheck expect partition t-0 aborted pid=1000 first=0 last=2 lso=0"},
		{"expect partition t-0 producer 1000 epoch=0 lastseq=-1 cached=0 txnfirst=-1 coordinatorEpoch=0", "expect script.ProducerStateCheck expect partition t-0 producer 1000 epoch=0 lastseq=-1 cached=0 txnfirst=-1 coordinatorEpoch=0"},
		{"expect partition t-0 records 0", "expect script.PartitionCheck expect partition t-0 records 0"},
		{"expect producer A state FATAL_ERROR", "expect script.ProducerCheck expect producer A state FATAL_ERROR"},
		{"expect producer A error TimeoutException", "expect script.ProducerCheck expect producer A error TimeoutException"},
		{"expect producer A error NONE", "expect script.ProducerCheck expect producer A error none"},
		{"expect producer A pid -1", "expect script.ProducerCheck expect producer A pid -1"},
		{"expect producer A epoch -1", "expect script.ProducerCheck expect producer A epoch -1"},
		{"expect producer A idempotent false", "expect script.ProducerCheck expect producer A idempotent false"},
		{"expect producer A nextseq t-1 0", "expect script.ProducerCheck expect producer A nextseq t-1 0"},
		{"expect producer A offset -1", "expect script.ProducerCheck expect producer A offset -1"},
		{"expect producer P error none", "expect script.ProducerCheck expect producer P error none"},
		{"expect txn tx state PrepareEpochFence", "expect script.TxnCheck expect txn tx state PrepareEpochFence"},
		{"expect txn ptx epoch 32767", "expect script.TxnCheck expect txn ptx epoch 32767"},
		{"expect txn tx pid 0", "expect script.TxnCheck expect txn tx pid 0"},
		{"expect txn tx partitions none", "expect script.TxnCheck expect txn tx partitions none"},
		{"expect txn tx coordinator __transaction_state-0", "expect script.TxnCheck expect txn tx coordinator __transaction_state-0"},
		{"expect consumer C values none", "expect script.ConsumerCheck expect consumer C values none"},
		{"expect consumer P offsets 0,1,2", "expect script.ConsumerCheck expect consumer P offsets 0,1,2"},
		{"expect consumer C position out-0 0", "expect script.ConsumerCheck expect consumer C position out-0 0"},
		{"expect consumer C error UNSTABLE_OFFSET_COMMIT(88)", "expect script.ConsumerCheck expect consumer C error UNSTABLE_OFFSET_COMMIT"},
		{"expect group g offset out-0 4", "expect script.GroupCheck expect group g offset out-0 4"},
		{"expect group app pending t-0 none", "expect script.GroupCheck expect group app pending t-0 none"},
		{"expect group g generation 0", "expect script.GroupCheck expect group g generation 0"},
		{"expect violation illegal-transition", "expect script.ViolationCheck expect violation illegal-transition"},
		{"expect violations none", "expect script.ViolationCheck expect violations none"},
		{"expect requests 0", "expect script.RequestsCheck expect requests 0"},
		{"expect requests 7 txn=tx kind=WriteTxnMarkers from=broker-2", "expect script.RequestsCheck expect requests 7 kind=WriteTxnMarkers from=broker-2 txn=tx"},
		{"expect requests 1 from=expert kind=EndTxn", "expect script.RequestsCheck expect requests 1 kind=EndTxn from=expert"},
		{"expect markers 3", "expect script.MarkersCheck expect markers 3"},
		{"expect markers 2 txn=ptx", "expect script.MarkersCheck expect markers 2 txn=ptx"},
		{"expect event \"appends values=a\"", "expect script.EventCheck expect event \"appends values=a\""},
		{"expect event appends", "expect script.EventCheck expect event appends"},
		{"inject marker t-0 pid=1000 epoch=0 result=commit", "inject engine.InjectMarker inject marker t-0 pid=1000 epoch=0 result=commit coordinatorEpoch=0"},
		{"inject txnstate tx pid=1000 epoch=5 state=CompleteAbort", "inject engine.InjectTxnState inject txnstate tx pid=1000 epoch=5 state=CompleteAbort"},
		{"inject InitProducerId tx", "inject engine.InjectInitProducerID inject InitProducerId tx pid=-1 epoch=-1 timeout=60000"},
		{"inject InitProducerId someone-else pid=1000 epoch=3 timeout=0", "inject engine.InjectInitProducerID inject InitProducerId someone-else pid=1000 epoch=3 timeout=0"},
		{"inject AddPartitionsToTxn tx pid=1000 epoch=0 partitions=t-1,__consumer_offsets-2", "inject engine.InjectAddPartitions inject AddPartitionsToTxn tx pid=1000 epoch=0 partitions=t-1,__consumer_offsets-2"},
		{"inject AddOffsetsToTxn tx pid=1000 epoch=0 group=g", "inject engine.InjectAddOffsets inject AddOffsetsToTxn tx pid=1000 epoch=0 group=g"},
		{"inject EndTxn \"an id\" pid=1000 epoch=0 result=commit", "inject engine.InjectEndTxn inject EndTxn \"an id\" pid=1000 epoch=0 result=commit"},
		{"A send t-0 x # a comment", "call engine.Send A send t-0 x"},
		{"expect txn tx lastProducerEpoch -1", "expect script.TxnCheck expect txn tx lastProducerEpoch -1"},
		{"expect txnlog tx states Empty,Ongoing,tombstone", "expect script.TxnLogCheck expect txnlog tx states Empty,Ongoing,tombstone"},
		{"expect txnlog ptx record last state=PrepareAbort pid=1000 prevPid=-1 epoch=1 partitions=t-0,__consumer_offsets-2 timeout=60000 coordinatorEpoch=0", "expect script.TxnLogCheck expect txnlog ptx record last state=PrepareAbort pid=1000 prevPid=-1 epoch=1 partitions=t-0,__consumer_offsets-2 timeout=60000 coordinatorEpoch=0"},
		{"expect txnlog tx record 3 partitions=none", "expect script.TxnLogCheck expect txnlog tx record 3 partitions=none"},
		{"expect event kind=fence actor=coordinator(broker-2) count=2 in=last", "expect script.EventCheck expect event kind=fence actor=coordinator(broker-2) count=2 in=last"},
		{"expect event \"PRODUCER_FENCED\" msg=EndTxnResponse error=PRODUCER_FENCED(90) reason=endtxn t=0..", "expect script.EventCheck expect event PRODUCER_FENCED msg=EndTxnResponse error=PRODUCER_FENCED reason=endtxn t=0.."},
		{"expect no event actor=t-0 msg=m3 t=5..10", "expect script.EventCheck expect no event actor=t-0 msg=m3 t=5..10"},
		{"expect no event \"fences\" actor=group(g)", "expect script.EventCheck expect no event fences actor=group(g)"},
		{"expect response ProduceResponse to=A partition=t-1 error=NONE baseOffset=3", "expect script.ResponseCheck expect response ProduceResponse to=A partition=t-1 error=NONE baseOffset=3"},
		{"expect response InitProducerIdResponse from=broker-1 pid=1000 epoch=0", "expect script.ResponseCheck expect response InitProducerIdResponse from=broker-1 pid=1000 epoch=0"},
		{"expect response m12 error=none baseOffset=-1", "expect script.ResponseCheck expect response m12 error=NONE baseOffset=-1"},
	} {
		cmds, err := Parse("f.scn", []byte(preamble+tc.line))
		if err != nil {
			t.Errorf("%q: unexpected error: %v", tc.line, err)
			continue
		}
		if got := describe(cmds[len(cmds)-1]); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.line, got, tc.want)
		}
	}
}

// TestTypedActions pins the fields of the actions the parser builds, for a
// line of every family: what the engine receives, so it never reads text.
func TestTypedActions(t *testing.T) {
	tp := func(topic string, p int32) engine.TP { return engine.TP{Topic: topic, Partition: p} }
	producer := func(name string, edit func(c *engine.ProducerConfig), keys ...engine.ProducerKey) engine.DeclareProducer {
		a := engine.DeclareProducer{Name: name, Config: engine.DefaultProducerConfig()}
		edit(&a.Config)
		for _, k := range keys {
			a.Set = a.Set.With(k)
		}
		return a
	}
	for _, tc := range []struct {
		line string
		want engine.Action
	}{
		{"config transaction.partition.verification.enable=false latency.ms=7", engine.SetConfig{Settings: []engine.Setting{
			{Key: engine.ConfigVerification, Value: 0}, {Key: engine.ConfigLatencyMs, Value: 7}}}},
		{"topic u partitions=3", engine.CreateTopic{Name: "u", Partitions: 3}},
		{"producer Z acks=1 transactional.id=z retries=0", producer("Z", func(c *engine.ProducerConfig) {
			c.Acks, c.TransactionalID, c.Retries = 1, "z", 0
		}, engine.ProducerAcks, engine.ProducerTransactionalID, engine.ProducerRetries)},
		{"producer Y acks=-1 enable.idempotence=false", producer("Y", func(c *engine.ProducerConfig) {
			c.Acks, c.Idempotence = -1, false
		}, engine.ProducerAcks, engine.ProducerIdempotence)},
		{"consumer Z2 topics=t,out isolation.level=read_committed", engine.DeclareConsumer{Name: "Z2",
			Isolation: engine.ReadCommitted, Topics: []string{"t", "out"}}},
		{"processor Q input=t output=out group.id=a transactional.id=q", engine.DeclareProcessor{Name: "Q",
			Input: "t", Output: "out", GroupID: "a", TransactionalID: "q", Offsets: engine.OffsetsInTransaction}},
		{"A commitTransaction", engine.Call{Client: "A", Method: engine.CallCommitTransaction}},
		{"P process", engine.Call{Client: "P", Method: engine.CallProcess}},
		{"C commitSync out-0=3", engine.CommitSync{Client: "C", Offsets: []engine.TPOffset{{TP: tp("out", 0), Offset: 3}}}},
		{"A sendOffsetsToTransaction g t-1=4 consumer=C", engine.SendOffsets{Client: "A", Group: "g",
			Offsets: []engine.TPOffset{{TP: tp("t", 1), Offset: 4}}, Generation: -1, Consumer: "C"}},
		{"step 3", engine.Step{N: 3}},
		{"run", engine.Run{}},
		{"advance 250", engine.Advance{Ms: 250}},
		{"crash broker-2", engine.Crash{Target: engine.Target{Broker: 2}}},
		{"restart A", engine.Restart{Target: engine.Target{Client: "A"}}},
		{"pause C", engine.Pause{Client: "C"}},
		{"rebalance app", engine.Rebalance{Group: "app"}},
		{"deliver InitProducerIdResponse to=expert", engine.Deliver{Msg: engine.Selector{Kind: engine.MsgInitProducerIDResponse, To: "expert"}}},
		{"inject batch t-1 pid=7 epoch=2 seq=5 control values=a,b", engine.InjectBatch{TP: tp("t", 1), ProducerID: 7, Epoch: 2, Seq: 5,
			Values: []string{"a", "b"}, Control: true}},
		{"inject marker t-0 pid=7 epoch=2 result=commit", engine.InjectMarker{TP: tp("t", 0), ProducerID: 7, Epoch: 2, Result: engine.MarkerCommit}},
		{"inject txnstate tx pid=7 epoch=3 state=CompleteAbort", engine.InjectTxnState{TransactionalID: "tx", ProducerID: 7, Epoch: 3,
			State: engine.CompleteAbort}},
		{"inject InitProducerId fresh", engine.InjectInitProducerID{TransactionalID: "fresh", ProducerID: -1, Epoch: -1, TimeoutMs: 60000}},
		{"inject InitProducerId tx pid=7 epoch=3 timeout=-5", engine.InjectInitProducerID{TransactionalID: "tx", ProducerID: 7, Epoch: 3, TimeoutMs: -5}},
		{"inject AddPartitionsToTxn tx pid=7 epoch=3 partitions=t-1,t-0", engine.InjectAddPartitions{TransactionalID: "tx", ProducerID: 7, Epoch: 3,
			Partitions: []engine.TP{tp("t", 1), tp("t", 0)}}},
		{"inject AddOffsetsToTxn tx pid=7 epoch=3 group=g", engine.InjectAddOffsets{TransactionalID: "tx", ProducerID: 7, Epoch: 3, Group: "g"}},
		{"inject EndTxn tx pid=7 epoch=3 result=abort", engine.InjectEndTxn{TransactionalID: "tx", ProducerID: 7, Epoch: 3}},
	} {
		cmds, err := Parse("f.scn", []byte(preamble+tc.line))
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if got := cmds[len(cmds)-1].Action; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %#v\nwant %#v", tc.line, got, tc.want)
		}
	}
}

// eventUsage is the usage of expect event, as messages quote it.
const eventUsage = `expect event ["TEXT"] [kind=KIND] [actor=NAME] [msg=MSG] [error=ERROR] [tp=TP] [txn=ID] [pid=N] [epoch=N] [reason=REASON] [rule=TEXT] [count=N] [in=last] [t=A..B]`

// TestBadLines pins down the exact message for each kind of mistake.
func TestBadLines(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"brokers 4", "f.scn:9: brokers: the number of brokers is already set on line 1"},
		{"expect requests 1 kind=ProduceResponse", "f.scn:9: expect requests: kind=ProduceResponse: ProduceResponse is a response; requests counts requests (each has one answer): Produce"},
		{"expect requests 1 kind=Produc", "f.scn:9: expect requests: kind=Produc: expected a request kind like Produce or EndTxn; did you mean Produce?"},
		{"expect requests 1 from=Z", "f.scn:9: expect requests: from=Z: expected a broker (broker-1..broker-3), a declared client or expert"},
		{"expect markers 1 txn=nope", "f.scn:9: expect markers: txn=nope: no producer or processor has this transactional.id"},
		{"expect markers -1", "f.scn:9: expect markers: -1: expected a whole number from 0 to 2147483647"},
		{"brokers", "f.scn:9: brokers needs the number of brokers: \"brokers N\""},
		{"config offsets.topic.num.partitions=3", "f.scn:9: config: offsets.topic.num.partitions=3: must be set before every client (producer A is declared on line 5)"},
		{"config seed=1", "f.scn:9: config: unknown option seed; expected transaction.version, transaction.partition.verification.enable, transaction.max.timeout.ms, transactional.id.expiration.ms, producer.id.expiration.ms, latency.ms, transaction.state.log.num.partitions, offsets.topic.num.partitions, transaction.abort.timed.out.transaction.cleanup.interval.ms, eoslab.broker.dedup, eoslab.epoch.fencing or eoslab.lso"},
		{"config latency.ms=0", "f.scn:9: config: latency.ms=0: expected a whole number from 1 to 2147483647"},
		{"config transaction.version=3", "f.scn:9: config: transaction.version=3: expected 1 or 2"},
		{"config foo=1", "f.scn:9: config: unknown option foo; expected transaction.version, transaction.partition.verification.enable, transaction.max.timeout.ms, transactional.id.expiration.ms, producer.id.expiration.ms, latency.ms, transaction.state.log.num.partitions, offsets.topic.num.partitions, transaction.abort.timed.out.transaction.cleanup.interval.ms, eoslab.broker.dedup, eoslab.epoch.fencing or eoslab.lso"},
		{"config verbose", "f.scn:9: config: unexpected verbose; config takes only KEY=VALUE settings: \"config KEY=VALUE...\""},
		{"config transaction.partition.verification.enable=yes", "f.scn:9: config: transaction.partition.verification.enable=yes: expected true or false"},
		{"topic __x", "f.scn:9: topic: __x: names starting with __ are reserved for Kafka's internal topics"},
		{"topic t", "f.scn:9: topic: t: already declared on line 3"},
		{"topic u partitions=0", "f.scn:9: topic u: partitions=0: expected a whole number from 1 to 64"},
		{"topic u partitions=65", "f.scn:9: topic u: partitions=65: expected a whole number from 1 to 64"},
		{"topic u rf=4", "f.scn:9: topic u: rf=4: expected a whole number from 1 to 3 (the number of brokers)"},
		{"topic u-1 partitions=2 partitions=3", "f.scn:9: topic u-1: partitions= is given twice"},
		{"topic \"a b\"", "f.scn:9: topic: \"a b\": expected a topic name of letters, digits, . _ - (at most 249)"},
		{"topic", "f.scn:9: topic needs a topic name: \"topic NAME [partitions=N] [rf=N]\""},
		{"producer A", "f.scn:9: producer: A: already declared as a producer on line 5"},
		{"producer send", "f.scn:9: producer: send: a word of the language; it cannot name a client"},
		{"producer broker-1", "f.scn:9: producer: broker-1: names a broker; it cannot name a client"},
		{"producer m3", "f.scn:9: producer: m3: looks like a message id; it cannot name a client"},
		{"producer 9x", "f.scn:9: producer: 9x: expected a name of letters, digits, _ . - that starts with a letter (at most 64)"},
		{"producer Z acks=2", "f.scn:9: producer Z: acks=2: expected 0, 1, all or -1"},
		{"producer Z retries=-1", "f.scn:9: producer Z: retries=-1: expected a whole number from 0 to 2147483647"},
		{"producer Z enable.idempotence=1", "f.scn:9: producer Z: enable.idempotence=1: expected true or false"},
		{"producer Z transactional.id=", "f.scn:9: producer Z: transactional.id= needs a value"},
		{"producer Z foo", "f.scn:9: producer Z: unexpected foo; producer Z takes only KEY=VALUE options after the name: \"producer NAME [KEY=VALUE...]\""},
		{"producer Z ackss=all", "f.scn:9: producer Z: unknown option ackss; expected transactional.id, enable.idempotence, acks, retries, max.in.flight.requests.per.connection, transaction.timeout.ms, request.timeout.ms, retry.backoff.ms or delivery.timeout.ms; did you mean acks?"},
		{"consumer Z isolation.level=read_comitted", "f.scn:9: consumer Z: isolation.level=read_comitted: expected read_committed or read_uncommitted; did you mean read_committed?"},
		{"consumer Z topics=t,x", "f.scn:9: consumer Z: topics=t,x: x: topic x is not declared"},
		{"consumer Z topics=t,,out", "f.scn:9: consumer Z: topics=t,,out: expected a comma-separated list of topics with no empty items"},
		{"consumer Z topics=t-0", "f.scn:9: consumer Z: topics=t-0: t-0: expected a topic, not a partition"},
		{"processor Z input=t output=out group.id=g", "f.scn:9: processor Z needs transactional.id=ID: \"processor NAME input=TOPIC output=TOPIC group.id=G transactional.id=ID [offsets=transaction|before|after]\""},
		{"processor Z input=x output=out group.id=g transactional.id=z", "f.scn:9: processor Z: input=x: topic x is not declared"},
		{"processor Z input=t output=out group.id=g transactional.id=z offsets=never", "f.scn:9: processor Z: offsets=never: expected transaction, before or after"},
		{"A", "f.scn:9: A is a producer; write one of its calls after the name: initTransactions, beginTransaction, send, sendOffsetsToTransaction, commitTransaction, abortTransaction, flush or close"},
		{"A acks=1", "f.scn:9: A is a producer; write one of its calls after the name: initTransactions, beginTransaction, send, sendOffsetsToTransaction, commitTransaction, abortTransaction, flush or close"},
		{"A commit", "f.scn:9: unknown producer call commit; did you mean commitTransaction?"},
		{"A initTransactions now", "f.scn:9: initTransactions: unexpected now; initTransactions takes no arguments: \"A initTransactions\""},
		{"A send t-9 x", "f.scn:9: send: t-9: topic t has 2 partitions (t-0..t-1)"},
		{"A send t-0", "f.scn:9: send needs a partition and at least one value: \"A send TP VALUE...\""},
		{"A send x-0 v", "f.scn:9: send: x-0: topic x is not declared"},
		{"A send t-0 k=v", "f.scn:9: send: k=v is not an option; to send a value that contains '=', quote it: \"k=v\""},
		{"A send t 1", "f.scn:9: send: t: expected a partition like t-0, not a topic"},
		{"A send t-0 a,b", "f.scn:9: send: a,b: a value may not contain a comma (expect lists values with commas)"},
		{"A send t-0 \"\"", "f.scn:9: send: \"\": expected a non-empty value"},
		{"A sendOffsetsToTransaction g", "f.scn:9: sendOffsetsToTransaction needs a group and at least one TP=OFFSET: \"A sendOffsetsToTransaction GROUP TP=OFFSET... [generation=N] [member=ID] [instance=ID] [consumer=NAME]\""},
		{"A sendOffsetsToTransaction t-0=5", "f.scn:9: sendOffsetsToTransaction needs a group and at least one TP=OFFSET: \"A sendOffsetsToTransaction GROUP TP=OFFSET... [generation=N] [member=ID] [instance=ID] [consumer=NAME]\""},
		{"A sendOffsetsToTransaction g t-0=-1", "f.scn:9: sendOffsetsToTransaction: t-0=-1: expected a whole number, at least 0"},
		{"A sendOffsetsToTransaction g t-0=1 t-0=2", "f.scn:9: sendOffsetsToTransaction: t-0= is given twice"},
		{"A sendOffsetsToTransaction g t-0=1 consumer=A", "f.scn:9: sendOffsetsToTransaction: consumer=A: a producer (line 5), not a consumer"},
		{"A sendOffsetsToTransaction g t-0=1 generation=x", "f.scn:9: sendOffsetsToTransaction: generation=x: expected a whole number from -1 to 2147483647"},
		{"A sendOffsetsToTransaction g foo=1", "f.scn:9: sendOffsetsToTransaction: unknown option foo; expected generation, member, instance, consumer or TP=OFFSET"},
		{"A poll", "f.scn:9: A is a producer (line 5) and has no poll call; a producer's calls are initTransactions, beginTransaction, send, sendOffsetsToTransaction, commitTransaction, abortTransaction, flush or close"},
		{"C send t-0 x", "f.scn:9: C is a consumer (line 7) and has no send call; a consumer's calls are poll or commitSync"},
		{"C commitSync", "f.scn:9: commitSync needs at least one TP=OFFSET: \"C commitSync TP=OFFSET...\""},
		{"C commitSync t-0=x", "f.scn:9: commitSync: t-0=x: expected a whole number, at least 0"},
		{"P send t-0 x", "f.scn:9: P is a processor (line 8) and has no send call; a processor's calls are process"},
		{"P process now", "f.scn:9: process: unexpected now; process takes no arguments: \"P process\""},
		{"B send t-0 x", "f.scn:9: B is not declared; declare it before its first use, e.g. \"producer B\""},
		{"send t-0 x", "f.scn:9: send is a client call; write the client's name first: \"NAME send TP VALUE...\""},
		{"stpe", "f.scn:9: unknown verb stpe; did you mean step?"},
		{"CommitTransaction", "f.scn:9: unknown verb CommitTransaction; did you mean \"NAME commitTransaction\"? Calls follow the client's name"},
		{"x=1", "f.scn:9: a line starts with a verb or a client's name, not x=1"},
		{"step 0", "f.scn:9: step: 0: expected a whole number from 1 to 1000000"},
		{"step 1 2", "f.scn:9: step: unexpected 2; step takes at most one number: \"step [N]\""},
		{"step x", "f.scn:9: step: x: expected a whole number from 1 to 1000000"},
		{"deliver", "f.scn:9: deliver needs one message: \"deliver MSG\""},
		{"deliver m0", "f.scn:9: deliver: m0: expected a message id from m1 up"},
		{"deliver Produc", "f.scn:9: deliver: Produc: expected a message id like m12 or a kind like ProduceResponse; did you mean Produce?"},
		{"deliver m3 to=A", "f.scn:9: deliver: to=A: m3 already names one message; filters narrow a kind"},
		{"deliver to=A Produce", "f.scn:9: deliver: to=A: a filter follows the message kind it narrows, e.g. \"deliver ProduceResponse to=A\""},
		{"deliver Produce to=Q", "f.scn:9: deliver: to=Q: expected a broker (broker-1..broker-3), a declared client or expert"},
		{"deliver Produce from=broker-7", "f.scn:9: deliver: from=broker-7: the cluster has 3 brokers (broker-1..broker-3)"},
		{"producer expert", "f.scn:9: producer: expert: is the network address of the expert actions; it cannot name a client"},
		{"deliver Produce to=A to=C", "f.scn:9: deliver: to= is given twice for Produce"},
		{"deliver Produce partition=t-5", "f.scn:9: deliver: partition=t-5: topic t has 2 partitions (t-0..t-1)"},
		{"deliver Produce foo=1", "f.scn:9: deliver: unknown option foo; expected to, from or partition"},
		{"run 5", "f.scn:9: run: unexpected 5; run takes no arguments: \"run [max=N]\""},
		{"run max=0", "f.scn:9: run: max=0: expected a whole number from 1 to 1000000"},
		{"advance", "f.scn:9: advance needs a number of milliseconds: \"advance MS\""},
		{"advance -1", "f.scn:9: advance: -1: expected a whole number from 0 to 2147483647"},
		{"drop", "f.scn:9: drop needs one message: \"drop MSG\""},
		{"duplicate m1 m2", "f.scn:9: duplicate: unexpected m2; duplicate takes one message: \"duplicate MSG\""},
		{"delay m1", "f.scn:9: delay needs a message and a number of milliseconds: \"delay MSG MS\""},
		{"delay m1 0", "f.scn:9: delay: 0: expected a whole number from 1 to 2147483647"},
		{"reorder m1", "f.scn:9: reorder needs two messages: \"reorder MSG MSG\""},
		{"reorder m1 m1", "f.scn:9: reorder: both selectors pick the same message; name two different ones, e.g. \"reorder m3 m4\""},
		{"crash broker-4", "f.scn:9: crash: broker-4: the cluster has 3 brokers (broker-1..broker-3)"},
		{"Zed sned t-0 x", "f.scn:9: unknown verb Zed; if Zed is a client, declare it first (\"producer Zed\" or \"consumer Zed\") and check the call: did you mean send?"},
		{"crash broker-0", "f.scn:9: crash: broker-0: the cluster has 3 brokers (broker-1..broker-3)"},
		{"crash Q", "f.scn:9: crash: Q: expected a broker (broker-1..broker-3) or a declared client"},
		{"restart", "f.scn:9: restart needs a broker or a client: \"restart broker-N|NAME\""},
		{"pause broker-1", "f.scn:9: pause: broker-1: not a declared producer, consumer or processor"},
		{"resume Q", "f.scn:9: resume: Q: not a declared producer, consumer or processor"},
		{"rebalance nog", "f.scn:9: rebalance: nog: no consumer or processor joins this group"},
		{"inject", "f.scn:9: inject needs a kind: batch, marker, txnstate, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn or EndTxn: \"inject KIND ...\""},
		{"inject packet t-0", "f.scn:9: inject: packet: expected batch, marker, txnstate, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn or EndTxn"},
		{"inject EndTxns tx", "f.scn:9: inject: EndTxns: expected batch, marker, txnstate, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn or EndTxn; did you mean EndTxn?"},
		{"inject EndTxn", "f.scn:9: inject EndTxn needs a transactional id: \"inject EndTxn ID pid=N epoch=N result=commit|abort\""},
		{"inject EndTxn tx pid=1000 epoch=0", "f.scn:9: inject EndTxn needs result=commit|abort: \"inject EndTxn ID pid=N epoch=N result=commit|abort\""},
		{"inject EndTxn tx pid=1000 result=commit", "f.scn:9: inject EndTxn needs epoch=N: \"inject EndTxn ID pid=N epoch=N result=commit|abort\""},
		{"inject InitProducerId tx epoch=32768", "f.scn:9: inject InitProducerId: epoch=32768: expected a whole number from -1 to 32767"},
		{"inject InitProducerId tx timeout=x", "f.scn:9: inject InitProducerId: timeout=x: expected a whole number from -2147483648 to 2147483647"},
		{"inject AddPartitionsToTxn tx pid=1 epoch=0", "f.scn:9: inject AddPartitionsToTxn needs partitions=TP,TP: \"inject AddPartitionsToTxn ID pid=N epoch=N partitions=TP,TP\""},
		{"inject AddPartitionsToTxn tx pid=1 epoch=0 partitions=t-0,x-0", "f.scn:9: inject AddPartitionsToTxn: partitions=t-0,x-0: x-0: topic x is not declared"},
		{"inject AddOffsetsToTxn tx pid=1 epoch=0", "f.scn:9: inject AddOffsetsToTxn needs group=G: \"inject AddOffsetsToTxn ID pid=N epoch=N group=G\""},
		{"inject AddOffsetsToTxn tx pid=1 epoch=0 group=g t-0", "f.scn:9: inject AddOffsetsToTxn: unexpected t-0; inject AddOffsetsToTxn takes a transactional id: \"inject AddOffsetsToTxn ID pid=N epoch=N group=G\""},
		{"inject batch t-0", "f.scn:9: inject batch needs pid=N: \"inject batch TP pid=N epoch=N seq=N [count=N] [transactional] [control] [copies=N] [values=a,b]\""},
		{"inject batch t-0 pid=1 epoch=0", "f.scn:9: inject batch needs seq=N: \"inject batch TP pid=N epoch=N seq=N [count=N] [transactional] [control] [copies=N] [values=a,b]\""},
		{"inject batch t-0 pid=1 epoch=0 seq=0 count=3 values=a,b", "f.scn:9: inject batch: count=3 but values has 2; give one, or make them agree"},
		{"inject batch t-0 pid=1 epoch=0 seq=0 transactional transactional", "f.scn:9: inject batch: transactional is given twice"},
		{"inject batch t-0 pid=1 epoch=0 seq=0 flag", "f.scn:9: inject batch: flag: expected transactional or control"},
		{"inject batch t-0 pid=1 epoch=40000 seq=0", "f.scn:9: inject batch: epoch=40000: expected a whole number from -1 to 32767"},
		{"inject marker t-0 pid=1 epoch=0", "f.scn:9: inject marker needs result=commit|abort: \"inject marker TP pid=N epoch=N result=commit|abort [coordinatorEpoch=N]\""},
		{"inject marker t-0 pid=1 epoch=0 result=maybe", "f.scn:9: inject marker: result=maybe: expected commit or abort"},
		{"expect", "f.scn:9: expect needs a subject: partition, producer, txn, txnlog, consumer, group, response, requests, markers, violation, violations, event or no: \"expect SUBJECT ...\""},
		{"expect partiton t-0 leo 1", "f.scn:9: expect: partiton: expected partition, producer, txn, txnlog, consumer, group, response, requests, markers, violation, violations, event or no; did you mean partition?"},
		{"expect partition t-0", "f.scn:9: expect partition needs a field: leo, hw, lso, logstart, batch, marker, aborted, producer or records: \"expect partition TP FIELD ...\""},
		{"expect partition t-0 lox 3", "f.scn:9: expect partition: lox: expected leo, hw, lso, logstart, batch, marker, aborted, producer or records"},
		{"expect partition leo 3", "f.scn:9: expect partition needs TP before leo: \"expect partition TP leo N\""},
		{"expect partition t-0 leo", "f.scn:9: expect partition leo needs a partition and an offset: \"expect partition TP leo N\""},
		{"expect partition t-0 leo x", "f.scn:9: expect partition leo: x: expected a whole number, at least 0"},
		{"expect partition t-0 leo 1 2", "f.scn:9: expect partition leo: unexpected 2; expect partition leo takes a partition and an offset: \"expect partition TP leo N\""},
		{"expect partition t-0 batch 0 seq=x", "f.scn:9: expect partition batch: seq=x: expected a sequence number or range like 0..4"},
		{"expect partition t-0 batch 0 status=done", "f.scn:9: expect partition batch: status=done: expected committed, aborted, open or plain"},
		{"expect partition t-0 batch 0 txn=true", "f.scn:9: expect partition batch: txn=true: expected yes or no"},
		{"expect partition t-0 marker 3 maybe", "f.scn:9: expect partition marker: maybe: expected commit or abort"},
		{"expect partition t-0 aborted pid=1 first=0", "f.scn:9: expect partition aborted needs last=N: \"expect partition TP aborted pid=N first=N last=N [lso=N]\""},
		{"expect partition t-0 producer 1 cached=6", "f.scn:9: expect partition producer: cached=6: expected a whole number from 0 to 5"},
		{"expect producer C state READY", "f.scn:9: expect producer state: C: a consumer (line 7), not a producer or processor"},
		{"expect producer A state Ready", "f.scn:9: expect producer state: Ready: expected UNINITIALIZED, INITIALIZING, READY, IN_TRANSACTION, COMMITTING_TRANSACTION, ABORTING_TRANSACTION, ABORTABLE_ERROR or FATAL_ERROR; did you mean READY?"},
		{"expect producer A error 45", "f.scn:9: expect producer error: 45: expected an error name, not a code: OUT_OF_ORDER_SEQUENCE_NUMBER"},
		{"expect producer A error OUT_OF_ORDER", "f.scn:9: expect producer error: OUT_OF_ORDER: expected a Kafka error name like OUT_OF_ORDER_SEQUENCE_NUMBER, or none; did you mean OUT_OF_ORDER_SEQUENCE_NUMBER?"},
		{"expect producer A error PRODUCER_FENCED(47)", "f.scn:9: expect producer error: PRODUCER_FENCED(47): expected a Kafka error name like OUT_OF_ORDER_SEQUENCE_NUMBER, or none"},
		{"expect producer A idempotent yes", "f.scn:9: expect producer idempotent: yes: expected true or false"},
		{"expect producer A nextseq t-0", "f.scn:9: expect producer nextseq needs a producer, a partition and a sequence number: \"expect producer NAME nextseq TP N\""},
		{"expect txn nope state Empty", "f.scn:9: expect txn state: nope: no producer or processor has this transactional.id"},
		{"expect txn tx state Ongoin", "f.scn:9: expect txn state: Ongoin: expected Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead or PrepareEpochFence; did you mean Ongoing?"},
		{"expect txn tx partitions t-0,t-9", "f.scn:9: expect txn partitions: t-0,t-9: t-9: topic t has 2 partitions (t-0..t-1)"},
		{"expect txn tx coordinator __transaction_state-4", "f.scn:9: expect txn coordinator: __transaction_state-4: topic __transaction_state has 4 partitions (__transaction_state-0..__transaction_state-3)"},
		{"expect txn tx coordinator t-0", "f.scn:9: expect txn coordinator: t-0: expected a partition like __transaction_state-12"},
		{"expect consumer A values a", "f.scn:9: expect consumer values: A: a producer (line 5), not a consumer or processor"},
		{"expect consumer C values a,,b", "f.scn:9: expect consumer values: a,,b: expected a comma-separated list of values with no empty items, or none"},
		{"expect consumer C offsets 1,x", "f.scn:9: expect consumer offsets: 1,x: x: expected a whole number, at least 0"},
		{"expect group nog generation 1", "f.scn:9: expect group generation: nog: no consumer, processor or sendOffsetsToTransaction names this group"},
		{"expect group g offset t-0 x", "f.scn:9: expect group offset: x: expected a whole number, at least 0, or none"},
		{"expect violation dupes", "f.scn:9: expect violation: dupes: expected duplicate-sequence, duplicate-record, uncommitted-read, watermarks, fenced-write, atomic-visibility, offsets-atomic or illegal-transition"},
		{"expect violations 0", "f.scn:9: expect violations: 0: expected none"},
		{"expect event", "f.scn:9: expect event: give a text or a filter (kind=, actor=, msg=, error=, tp=, txn=, pid=, epoch=, reason=, rule=): \"" + eventUsage + "\""},
		{"expect event two words", "f.scn:9: expect event: unexpected words; expect event takes one text (quote it if it has spaces): \"" + eventUsage + "\""},
		{"expect event count=2", "f.scn:9: expect event: give a text or a filter (kind=, actor=, msg=, error=, tp=, txn=, pid=, epoch=, reason=, rule=): \"" + eventUsage + "\""},
		{"expect event x count=0", "f.scn:9: expect event: count=0: to say there is none, write \"expect no event ...\""},
		{"expect no event x count=1", "f.scn:9: expect no event: unknown option count; expected kind, actor, msg, error, code, tp, txn, pid, epoch, reason, rule, in or t"},
		{"expect no evnt x", "f.scn:9: expect no: evnt: expected event; did you mean event?"},
		{"expect event x kind=fenced", "f.scn:9: expect event: kind=fenced: expected send, deliver, seqcheck, append, marker, watermark, txnstate, txnlog, epoch, fence, clientstate, clienterror, consume, offsets, fault, timer, violation, info, hazard or switch; did you mean fence?"},
		{"expect event x actor=brokr-1", "f.scn:9: expect event: actor=brokr-1: expected who acted, as the transcript names it: broker-N, a client, coordinator(broker-N), group(G), a partition, network, expert or clock"},
		{"expect event x actor=coordinator(broker-4)", "f.scn:9: expect event: actor=coordinator(broker-4): the cluster has 3 brokers (broker-1..broker-3)"},
		{"expect event x actor=group(nog)", "f.scn:9: expect event: actor=group(nog): no consumer, processor or sendOffsetsToTransaction names this group"},
		{"expect event x in=step", "f.scn:9: expect event: in=step: expected last"},
		{"expect event x t=5..1", "f.scn:9: expect event: t=5..1: the window ends before it starts"},
		{"expect event x t=5", "f.scn:9: expect event: t=5: expected a time window like 100..250 or 100.. (virtual milliseconds, both ends included)"},
		{"expect event x msg=Produc", "f.scn:9: expect event: msg=Produc: expected a message id like m12 or a kind like ProduceResponse; did you mean Produce?"},
		{"expect response Produce", "f.scn:9: expect response: Produce: expected a message id like m12 or a response kind like ProduceResponse; did you mean ProduceResponse?"},
		{"expect response EndTxnResponse baseOffset=3", "f.scn:9: expect response: baseOffset= is a field of ProduceResponse, not of EndTxnResponse"},
		{"expect response ProduceResponse epoch=0", "f.scn:9: expect response: epoch= is a field of InitProducerIdResponse or EndTxnResponse, not of ProduceResponse"},
		{"expect response EndTxnResponse partition=t-0", "f.scn:9: expect response: EndTxnResponse is about no partition; partition= cannot narrow it"},
		{"expect response m3 partition=t-0", "f.scn:9: expect response: partition=t-0: m3 already names one message; filters narrow a kind"},
		{"expect response ProduceResponse error=FENCED", "f.scn:9: expect response: error=FENCED: expected a Kafka error name like OUT_OF_ORDER_SEQUENCE_NUMBER, or none; did you mean FENCED_INSTANCE_ID?"},
		{"expect txn tx lastProducerEpoch x", "f.scn:9: expect txn lastProducerEpoch: x: expected a whole number from -1 to 32767"},
		{"expect txnlog tx states Empty,Gone", "f.scn:9: expect txnlog states: Empty,Gone: Gone: expected Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence or tombstone"},
		{"expect txnlog tx record first", "f.scn:9: expect txnlog record: first: expected an offset of the transaction log, or last"},
		{"expect txnlog tx record 0 partitions=t-5", "f.scn:9: expect txnlog record: partitions=t-5: t-5: topic t has 2 partitions (t-0..t-1)"},
		{"expect txnlog nope states none", "f.scn:9: expect txnlog states: nope: no producer or processor has this transactional.id"},
		{"expect event \"\"", "f.scn:9: expect event: \"\": expected a non-empty value"},
		{"A send t-0 \"unterminated", "f.scn:9:12: unterminated quote: this \" is never closed"},
	} {
		_, err := Parse("f.scn", []byte(preamble+tc.line))
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.line, tc.want)
			continue
		}
		if got := err.Error(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.line, got, tc.want)
		}
	}
}
