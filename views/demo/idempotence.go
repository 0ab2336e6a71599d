package demo

import "github.com/eoslab/eoslab/views/model"

func idempotenceOff() *script {
	w := &world{
		actors: []model.Actor{{Name: "p0"}, {Name: t0, Short: "L0"}, {Name: "c-ru", Short: "ru"}},
		prods:  []model.ProducerView{{Name: "p0", ProducerID: -1, Epoch: -1, State: "enable.idempotence=false"}},
		parts:  []model.PartitionView{{Name: "t-0", Leader: "broker-1"}},
		cons:   []model.ConsumerView{{Name: "c-ru", Isolation: "read_uncommitted", Positions: []model.PartitionOffset{{Partition: "t-0"}}}},
	}
	intro := "p0 runs with enable.idempotence=false, acks=all and retries on. It has no producerId, so its batches carry no sequence numbers. Press → to send."
	return build("A lost ACK without idempotence", w, intro, []step{
		{
			narration: "p0 sends a to t-0. The leader appends it at offset 0, but the answer is lost.",
			cp: &model.Checkpoint{
				Question: "p0 retries after request.timeout.ms. What does the leader do with the retry?",
				Choices:  []string{"Finds it in its cache and answers with offset 0", "Appends a again, at offset 1", "Rejects it with OUT_OF_ORDER_SEQUENCE_NUMBER (45)"},
				Correct:  2,
				Explanation: "Without a producerId and sequence numbers the leader has nothing to compare the retry with. " +
					"It is a new batch as far as the broker can tell, so a lands twice.",
			},
			do: func(w *world) {
				w.send("p0", t0, "Produce pid=-1 seq=-1 [a]")
				p := w.part("t-0")
				appendRow(p, model.LogRow{Kind: model.RowData, PID: -1, Epoch: -1, Seqs: "-1", Values: []string{"a"}, Status: model.StatusPlain})
				p.LSO = p.HW
				w.send(t0, "p0", "NONE baseOffset=0", reply, dropped)
				w.prod("p0").InFlight = 1
			},
		},
		{
			narration: "The retry is appended at offset 1. The application sent a once; the log now holds it twice.",
			do: func(w *world) {
				w.send("p0", t0, "Produce (retry) pid=-1 seq=-1 [a]")
				p := w.part("t-0")
				appendRow(p, model.LogRow{Kind: model.RowData, PID: -1, Epoch: -1, Seqs: "-1", Values: []string{"a"}, Status: model.StatusPlain})
				p.LSO = p.HW
				w.send(t0, "p0", "NONE baseOffset=1", reply)
				w.prod("p0").InFlight = 0
				w.viol = []model.Violation{{Name: "exactly-once", Text: "send #1 (a) appended twice to t-0, at offsets 0 and 1"}}
				w.violation("VIOLATION exactly-once: send #1 appended twice to t-0 (offsets 0, 1)")
			},
		},
		{
			narration: "c-ru reads both copies. With enable.idempotence=true (the default since Kafka 3.0) the retry would carry the same producerId and sequence, and the leader would answer with offset 0 instead of appending.",
			do: func(w *world) {
				w.send("c-ru", t0, "Fetch t-0 offset=0")
				w.send(t0, "c-ru", "2 records", reply)
				read(w.consumer("c-ru"), "t-0", 0, "a", "a")
			},
		},
	})
}
