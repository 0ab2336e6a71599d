package demo

import (
	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// txnStates are the names of the eight coordinator states (TransactionState) in the
// order of their ids, as CoordinatorView.States wants them. The names, like
// those of the client states and error codes below, are the engine's, where
// each is defined once.
var txnStates = func() []string {
	out := make([]string, len(engine.TxnStates()))
	for i, s := range engine.TxnStates() {
		out[i] = s.String()
	}
	return out
}()

// setTxnState sets a coordinator entry's state. The tone is written by
// hand, like everything else the demo shows.
func setTxnState(c *model.CoordinatorView, s engine.TxnState, tone model.Tone) {
	c.Current, c.Tone = int(s), tone
}

// setClientState sets a producer's TransactionManager state and its tone.
func setClientState(p *model.ProducerView, s engine.ClientState, tone model.Tone) {
	p.State, p.StateTone = s.String(), tone
}

const (
	txnID  = "payment-processor-1" // abs(hashCode) % 50 = 3 (TransactionStateManager.partitionFor)
	coordA = "coordinator"
	t0     = "t-0 leader"
	t1     = "t-1 leader"
)

type step struct {
	narration, note string
	cp              *model.Checkpoint
	do              func(w *world)
}

func build(title string, w *world, intro string, steps []step) *script {
	s := &script{title: title, cps: map[int]model.Checkpoint{}}
	n := len(steps)
	s.frames = append(s.frames, w.frame(n, intro, ""))
	for i, st := range steps {
		w.begin()
		st.do(w)
		s.frames = append(s.frames, w.frame(n, st.narration, st.note))
		if st.cp != nil {
			s.cps[i+1] = *st.cp
		}
	}
	return s
}

func transactions() *script {
	w := &world{
		actors: []model.Actor{{Name: "p1"}, {Name: "p2"}, {Name: coordA, Short: "co"}, {Name: t0, Short: "L0"}, {Name: t1, Short: "L1"}},
		prods: []model.ProducerView{
			{Name: "p1", TransactionalID: txnID, ProducerID: -1, Epoch: -1, State: engine.Uninitialized.String(), StateTone: model.ToneIdle},
		},
		parts: []model.PartitionView{
			{Name: "t-0", Leader: "broker-1"},
			{Name: "t-1", Leader: "broker-3"},
		},
		cons: []model.ConsumerView{
			{Name: "c-rc", Isolation: "read_committed", ReadCommitted: true, Group: "audit", Positions: []model.PartitionOffset{{Partition: "t-0"}, {Partition: "t-1"}}},
			{Name: "c-ru", Isolation: "read_uncommitted", Group: "metrics", Positions: []model.PartitionOffset{{Partition: "t-0"}, {Partition: "t-1"}}},
		},
	}
	intro := "p1 is a transactional producer with transactional.id " + txnID + ". It will write a, b, c to t-0 and x, y to t-1 in one transaction. " +
		"Two consumers read topic t: c-rc with isolation.level=read_committed, and c-ru with read_uncommitted. Press → to take the first step."
	return build("Transactions: commit, markers and a zombie", w, intro, []step{
		{
			narration: "p1 calls initTransactions(). Its coordinator is the leader of __transaction_state-3, because abs(hashCode(\"" + txnID + "\")) % 50 = 3. " +
				"The coordinator gives p1 producerId 4000 with epoch 0, and writes that to its log before it answers.",
			note: "Articles often call the producer id random. A broker takes blocks of 1000 ids from the controller and hands them out in order.",
			do: func(w *world) {
				w.send("p1", coordA, "InitProducerId txnId="+txnID)
				w.coords = []model.CoordinatorView{{TxnID: txnID, Partition: "__transaction_state-3", Broker: "broker-2", States: txnStates, ProducerID: 4000, Epoch: 0}}
				c := w.coord()
				setTxnState(c, engine.Empty, model.TonePlain)
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append Empty pid=4000 epoch=0")
				w.send(coordA, "p1", "NONE pid=4000 epoch=0", reply)
				p := w.prod("p1")
				p.ProducerID, p.Epoch = 4000, 0
				setClientState(p, engine.Ready, model.TonePlain)
			},
		},
		{
			narration: "p1 begins a transaction and sends a, b, c to t-0. Before the first record goes to a partition, the producer registers it with the coordinator: AddPartitionsToTxn. The transaction is now Ongoing.",
			do: func(w *world) {
				w.send("p1", coordA, "AddPartitionsToTxn [t-0]")
				c := w.coord()
				setTxnState(c, engine.Ongoing, model.ToneOpen)
				c.Partitions = []string{"t-0"}
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append Ongoing [t-0]")
				w.send(coordA, "p1", "NONE", reply)
				setClientState(w.prod("p1"), engine.InTransaction, model.ToneOpen)
			},
		},
		{
			narration: "t-0's leader appends the batch at offsets 0..2 and remembers its sequence range. The high watermark moves to 3, but the last stable offset stays at 0: the transaction that starts at offset 0 is still open. " +
				"So c-ru already returns a, b, c, and c-rc returns nothing.",
			do: func(w *world) {
				w.send("p1", t0, "Produce pid=4000 ep=0 seq=0..2 [a b c]")
				p := w.part("t-0")
				appendRow(p, model.LogRow{Kind: model.RowData, PID: 4000, Epoch: 0, Seqs: "0..2", Values: []string{"a", "b", "c"}, Status: model.StatusOpen})
				p.Cached = append(p.Cached, model.CachedBatch{PID: 4000, Epoch: 0, FirstSeq: 0, LastSeq: 2, Offset: 0})
				w.send(t0, "p1", "NONE baseOffset=0", reply)
				setNextSeq(w.prod("p1"), "t-0", 3)
				read(w.consumer("c-ru"), "t-0", 0, "a", "b", "c")
			},
		},
		{
			narration: "p1 adds t-1 to the transaction and sends x, y. The leader appends them, but its answer is lost on the network. p1 cannot tell whether the write happened.",
			do: func(w *world) {
				w.send("p1", coordA, "AddPartitionsToTxn [t-1]")
				c := w.coord()
				c.Partitions = append(c.Partitions, "t-1")
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append Ongoing [t-0 t-1]")
				w.send(coordA, "p1", "NONE", reply)
				w.send("p1", t1, "Produce pid=4000 ep=0 seq=0..1 [x y]")
				p := w.part("t-1")
				appendRow(p, model.LogRow{Kind: model.RowData, PID: 4000, Epoch: 0, Seqs: "0..1", Values: []string{"x", "y"}, Status: model.StatusOpen})
				p.Cached = append(p.Cached, model.CachedBatch{PID: 4000, Epoch: 0, FirstSeq: 0, LastSeq: 1, Offset: 0})
				w.send(t1, "p1", "NONE baseOffset=0", reply, dropped)
				pr := w.prod("p1")
				pr.InFlight = 1
				setNextSeq(pr, "t-1", 2)
				read(w.consumer("c-ru"), "t-1", 0, "x", "y")
			},
		},
		{
			narration: "After request.timeout.ms, p1 sends the same batch again, with the same producerId, epoch and sequence numbers. " +
				"The leader finds seq 0..1 among the last five batches it keeps for pid 4000 and answers with the original offset. The log does not change: no duplicate.",
			note: "The seed article says the broker answers DUPLICATE_SEQUENCE_NUMBER. Since Kafka 2.0 it answers NONE with the original base offset (ProducerStateEntry.findDuplicateBatch).",
			do: func(w *world) {
				w.send("p1", t1, "Produce (retry) seq=0..1 [x y]")
				w.part("t-1")
				w.send(t1, "p1", "NONE baseOffset=0 (duplicate)", reply)
				w.prod("p1").InFlight = 0
			},
		},
		{
			narration: "p1 calls commitTransaction(). The EndTxn request is on its way to the coordinator.",
			cp: &model.Checkpoint{
				Question: "What does the coordinator do first?",
				Choices: []string{
					"Writes COMMIT markers to t-0 and t-1, then answers p1",
					"Appends PrepareCommit to __transaction_state-3, then answers p1",
					"Waits until c-rc has read a, b and c",
					"Bumps p1's epoch to 1, so no zombie can commit",
				},
				Correct: 2,
				Explanation: "The commit decision is durable once PrepareCommit is in the coordinator's log: from then on the transaction commits even if the coordinator crashes, because its successor reads PrepareCommit and finishes the job. " +
					"The coordinator answers p1 right after that write, before any marker exists (TransactionCoordinator.endTransaction).",
			},
			do: func(w *world) {
				w.send("p1", coordA, "EndTxn COMMIT pid=4000 ep=0")
				p := w.prod("p1")
				setClientState(p, engine.CommittingTransaction, model.ToneEnding)
				p.InFlight = 1
			},
		},
		{
			narration: "The coordinator writes PrepareCommit and answers p1 at once. commitTransaction() returns, yet no marker exists: c-rc still sees nothing.",
			do: func(w *world) {
				c := w.coord()
				setTxnState(c, engine.PrepareCommit, model.ToneEnding)
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append PrepareCommit [t-0 t-1]")
				w.send(coordA, "p1", "EndTxn NONE", reply)
				p := w.prod("p1")
				setClientState(p, engine.Ready, model.TonePlain)
				p.InFlight = 0
			},
		},
		{
			narration: "The COMMIT marker lands on t-0 at offset 3. t-0's LSO jumps to 4 and c-rc returns a, b, c. The marker for t-1 is still on its way, so for a moment c-rc has a, b, c but not x, y.",
			note:      "Articles often say a transaction becomes visible everywhere at once. It is atomic, not simultaneous: each partition shows it when its own marker lands (ProducerAppendInfo.appendEndTxnMarker).",
			do: func(w *world) {
				w.send(coordA, t0, "WriteTxnMarkers COMMIT pid=4000 ep=0")
				w.send(coordA, t1, "WriteTxnMarkers COMMIT pid=4000 ep=0")
				p := w.part("t-0")
				settle(p, 4000, model.StatusCommitted)
				appendRow(p, model.LogRow{Kind: model.RowCommit, PID: 4000, Epoch: 0, Seqs: "-1", Status: model.StatusCommitted})
				p.LSO = p.HW
				w.send(t0, coordA, "NONE", reply)
				read(w.consumer("c-rc"), "t-0", 0, "a", "b", "c")
				setPos(&w.cons[0], "t-0", 4)
				setPos(w.consumer("c-ru"), "t-0", 4)
			},
		},
		{
			narration: "t-1's marker lands at offset 2. Every partition now has its marker, so the coordinator writes CompleteCommit and forgets the partitions. c-rc has all five records, each exactly once.",
			do: func(w *world) {
				p := w.part("t-1")
				settle(p, 4000, model.StatusCommitted)
				appendRow(p, model.LogRow{Kind: model.RowCommit, PID: 4000, Epoch: 0, Seqs: "-1", Status: model.StatusCommitted})
				p.LSO = p.HW
				w.send(t1, coordA, "NONE", reply)
				c := w.coord()
				setTxnState(c, engine.CompleteCommit, model.ToneCommitted)
				c.Partitions = nil
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append CompleteCommit")
				read(w.consumer("c-rc"), "t-1", 0, "x", "y")
				setPos(&w.cons[0], "t-1", 3)
				setPos(w.consumer("c-ru"), "t-1", 3)
			},
		},
		{
			narration: "p1 starts a second transaction and writes d to t-0 at offset 4. Then it freezes in a long GC pause, with the transaction still open.",
			do: func(w *world) {
				w.send("p1", coordA, "AddPartitionsToTxn [t-0]")
				c := w.coord()
				setTxnState(c, engine.Ongoing, model.ToneOpen)
				c.Partitions = []string{"t-0"}
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append Ongoing [t-0]")
				w.send(coordA, "p1", "NONE", reply)
				w.send("p1", t0, "Produce pid=4000 ep=0 seq=3 [d]")
				p := w.part("t-0")
				appendRow(p, model.LogRow{Kind: model.RowData, PID: 4000, Epoch: 0, Seqs: "3", Values: []string{"d"}, Status: model.StatusOpen})
				p.Cached = append(p.Cached, model.CachedBatch{PID: 4000, Epoch: 0, FirstSeq: 3, LastSeq: 3, Offset: 4})
				w.send(t0, "p1", "NONE baseOffset=4", reply)
				pr := w.prod("p1")
				setClientState(pr, engine.InTransaction, model.ToneOpen)
				pr.Paused = true
				setNextSeq(pr, "t-0", 4)
				read(w.consumer("c-ru"), "t-0", 4, "d")
			},
		},
		{
			narration: "A new instance, p2, starts with the same transactional.id, as after a restart. The coordinator finds p1's transaction Ongoing. " +
				"It fences it: the epoch goes up to 1 and the transaction ends as an abort. p2 is told CONCURRENT_TRANSACTIONS and will retry.",
			note: "The seed article says the new producer gets the bumped epoch at once. In Kafka it gets CONCURRENT_TRANSACTIONS (51) first, and epoch 2 when it retries (TransactionMetadata.prepareFenceProducerEpoch).",
			do: func(w *world) {
				w.prods = append(w.prods, model.ProducerView{Name: "p2", TransactionalID: txnID, ProducerID: -1, Epoch: -1, State: engine.Initializing.String(), StateTone: model.TonePlain})
				w.prod("p2")
				w.send("p2", coordA, "InitProducerId txnId="+txnID)
				w.send(coordA, coordA, "PrepareEpochFence epoch 0 -> 1")
				c := w.coord()
				setTxnState(c, engine.PrepareAbort, model.ToneAborted)
				c.Epoch = 1
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append PrepareAbort epoch=1 [t-0]")
				w.send(coordA, "p2", engine.ConcurrentTransactions.String(), reply, failed)
			},
		},
		{
			narration: "The ABORT marker lands on t-0 at offset 5, with epoch 1. c-rc skips d for good; c-ru had already returned it. " +
				"The coordinator writes CompleteAbort, then answers p2's retry with epoch 2. t-0 drops its cached batches for pid 4000, because the epoch changed.",
			do: func(w *world) {
				w.send(coordA, t0, "WriteTxnMarkers ABORT pid=4000 ep=1")
				p := w.part("t-0")
				settle(p, 4000, model.StatusAborted)
				appendRow(p, model.LogRow{Kind: model.RowAbort, PID: 4000, Epoch: 1, Seqs: "-1", Status: model.StatusAborted})
				p.LSO = p.HW
				p.Cached = nil
				w.send(t0, coordA, "NONE", reply)
				c := w.coord()
				setTxnState(c, engine.CompleteAbort, model.ToneAborted)
				c.Partitions = nil
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append CompleteAbort")
				w.send("p2", coordA, "InitProducerId (retry)")
				setTxnState(c, engine.Empty, model.TonePlain)
				c.Epoch = 2
				c.Writes = append(c.Writes, txnWrite(c))
				w.send(coordA, coordA, "append Empty epoch=2")
				w.send(coordA, "p2", "NONE pid=4000 epoch=2", reply)
				p2 := w.prod("p2")
				p2.ProducerID, p2.Epoch = 4000, 2
				setClientState(p2, engine.Ready, model.TonePlain)
				setPos(w.consumer("c-rc"), "t-0", 6)
				setPos(w.consumer("c-ru"), "t-0", 6)
			},
		},
		{
			narration: "p1's pause ends. It knows nothing of p2, and sends e to t-0, still with epoch 0.",
			cp: &model.Checkpoint{
				Question: "What does t-0's leader answer?",
				Choices: []string{
					"NONE: e is appended at offset 6",
					"DUPLICATE_SEQUENCE_NUMBER (46)",
					"INVALID_PRODUCER_EPOCH (47): it has seen epoch 1 for pid 4000",
					"OUT_OF_ORDER_SEQUENCE_NUMBER (45): the cache was cleared",
				},
				Correct:     3,
				Explanation: "The ABORT marker carried epoch 1, so t-0's state for pid 4000 is at epoch 1. A produce with a lower epoch is refused with INVALID_PRODUCER_EPOCH (47) before sequence numbers are looked at: the zombie is fenced at the partition too (ProducerAppendInfo.checkProducerEpoch).",
			},
			do: func(w *world) {
				p := w.prod("p1")
				p.Paused, p.InFlight = false, 1
				w.send("p1", t0, "Produce pid=4000 ep=0 seq=4 [e]")
			},
		},
		{
			narration: "The leader refuses e with INVALID_PRODUCER_EPOCH (47). p1 tries to abort and the coordinator answers PRODUCER_FENCED (90), which is fatal: p1 must close. " +
				"The logs hold a, b, c, x, y committed and d aborted. Nothing was written twice, and the zombie wrote nothing.",
			note: "KIP-588 split the old meaning of 47: a produce still gets 47, which is abortable, while requests to the coordinator get 90, which is fatal (KIP-588).",
			do: func(w *world) {
				w.part("t-0")
				w.send(t0, "p1", engine.InvalidProducerEpoch.String(), reply, failed)
				w.send("p1", coordA, "EndTxn ABORT pid=4000 ep=0")
				w.send(coordA, "p1", engine.ProducerFenced.String(), reply, failed)
				p := w.prod("p1")
				setClientState(p, engine.FatalError, model.ToneAborted)
				p.InFlight, p.Fenced = 0, true
				p.LastError, p.ErrorTone = engine.ProducerFenced.String(), model.ToneFenced
			},
		},
	})
}
