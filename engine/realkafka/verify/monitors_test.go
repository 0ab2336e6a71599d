package verify

import (
	"strconv"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
)

func TestEvalMonitors(t *testing.T) {
	tp := engine.TP{Topic: "t", Partition: 0}
	pid := func(id int64) string { return strconv.FormatInt(id, 10) }
	// A transaction at 0..1 aborted by the marker at 2, a committed one
	// at 3 (marker 4), an open one at 5.
	clean := realkafka.Log{HighWatermark: 6, LastStable: 5, Batches: []realkafka.Batch{
		{BaseOffset: 0, LastOffset: 1, ProducerID: 7, BaseSequence: 0, Records: 2, Transactional: true},
		{BaseOffset: 2, LastOffset: 2, ProducerID: 7, Control: true, Marker: "ABORT"},
		{BaseOffset: 3, LastOffset: 3, ProducerID: 8, BaseSequence: 0, Records: 1, Transactional: true},
		{BaseOffset: 4, LastOffset: 4, ProducerID: 8, Control: true, Marker: "COMMIT"},
		{BaseOffset: 5, LastOffset: 5, ProducerID: 7, BaseSequence: 2, Records: 1, Transactional: true},
	}}
	legal := []txnRecord{{TxnID: "a", State: "Empty"}, {TxnID: "a", State: "Ongoing"}, {TxnID: "a", State: "PrepareCommit"}, {TxnID: "a", State: "CompleteCommit"}}
	ok := map[string][]engine.TPOffset{"rc": {{TP: tp, Offset: 3}}}
	if got := evalMonitors(map[engine.TP]realkafka.Log{tp: clean}, ok, legal, pid, false); len(got) != 0 {
		t.Errorf("a clean run: %v", got)
	}
	for _, tc := range []struct {
		name  string
		logs  realkafka.Log
		taken map[string][]engine.TPOffset
		recs  []txnRecord
		want  string
	}{
		{"an aborted record handed out", clean, map[string][]engine.TPOffset{"rc": {{TP: tp, Offset: 1}}}, legal, engine.InvUncommittedRead},
		{"an open record handed out", clean, map[string][]engine.TPOffset{"rc": {{TP: tp, Offset: 5}}}, legal, engine.InvUncommittedRead},
		{"a batch twice", realkafka.Log{HighWatermark: 2, LastStable: 2, Batches: []realkafka.Batch{
			{BaseOffset: 0, ProducerID: 9, BaseSequence: 0, Records: 1}, {BaseOffset: 1, LastOffset: 1, ProducerID: 9, BaseSequence: 0, Records: 1}}}, nil, nil, engine.InvDuplicateSequence},
		{"LSO past the high watermark", realkafka.Log{HighWatermark: 1, LastStable: 2}, nil, nil, engine.InvWatermarks},
		{"Empty to PrepareCommit", clean, nil, []txnRecord{{TxnID: "a", State: "Empty"}, {TxnID: "a", State: "PrepareCommit"}}, engine.InvIllegalTransition},
	} {
		got := evalMonitors(map[engine.TP]realkafka.Log{tp: tc.logs}, tc.taken, tc.recs, pid, false)
		if len(got) != 1 || got[tc.want] == "" {
			t.Errorf("%s: %v, want %s", tc.name, got, tc.want)
		}
	}
}

// An empty abort under transaction.version 2 writes PrepareAbort after
// CompleteAbort (TransactionState.PREPARE_ABORT's previous states); the
// classic protocol has no such transition.
func TestEvalMonitorsEmptyAbortTV2(t *testing.T) {
	recs := []txnRecord{{TxnID: "a", State: "CompleteAbort"}, {TxnID: "a", State: "PrepareAbort"}, {TxnID: "a", State: "CompleteAbort"}}
	pid := func(id int64) string { return strconv.FormatInt(id, 10) }
	if got := evalMonitors(nil, nil, recs, pid, true); len(got) != 0 {
		t.Errorf("tv2: %v", got)
	}
	if got := evalMonitors(nil, nil, recs, pid, false); got[engine.InvIllegalTransition] == "" {
		t.Errorf("classic: %v, want %s", got, engine.InvIllegalTransition)
	}
}

func TestCollapseOngoing(t *testing.T) {
	got := strings.Join(collapseOngoing([]string{"Empty", "Ongoing", "Ongoing", "PrepareCommit", "CompleteCommit", "Ongoing"}), ",")
	if got != "Empty,Ongoing,PrepareCommit,CompleteCommit,Ongoing" {
		t.Errorf("collapsed %s", got)
	}
	if !samePartitions([]string{"t-1", "__consumer_offsets-0"}, []string{"__consumer_offsets-14", "t-1"}) || samePartitions([]string{"t-1"}, []string{"t-0"}) {
		t.Error("samePartitions")
	}
}
