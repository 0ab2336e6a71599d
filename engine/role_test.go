package engine

import (
	"strings"
	"testing"
)

// Every message gets a role that names it by what it is for: a client's
// second EndTxn is its 2nd, an answer names its request, a copy the
// network made (and the answer to it) is a copy, a request sent again is
// the next one.
func TestMessageRoles(t *testing.T) {
	w := New(DefaultConfig())
	cfg := DefaultProducerConfig()
	cfg.TransactionalID = "app"
	applyAll(t, w, CreateTopic{Name: "t", Partitions: 1, RF: 1}, DeclareProducer{Name: "A", Config: cfg},
		call("A", CallInitTransactions), Run{},
		call("A", CallBeginTransaction), Send{Client: "A", TP: TP{Topic: "t"}, Values: []string{"a1"}}, call("A", CallCommitTransaction), Run{},
		call("A", CallBeginTransaction), Send{Client: "A", TP: TP{Topic: "t"}, Values: []string{"a2"}}, call("A", CallCommitTransaction))
	for w.Busy() {
		if m := w.InFlight(); len(m) > 0 && m[0].Kind == MsgEndTxn {
			applyAll(t, w, Duplicate{Msg: Selector{ID: m[0].ID}})
			break
		}
		applyAll(t, w, Step{})
	}
	applyAll(t, w, Run{})
	var got []string
	for _, e := range w.EventsSince(0) {
		if m := e.Message; m != nil && (m.Kind == MsgEndTxn || m.Kind == MsgEndTxnResponse) && (e.Kind == EvSend || e.Fault == FaultDuplicated) {
			got = append(got, w.MessageRoles()[m.ID].String())
		}
	}
	want := []string{"A's EndTxn commit", "EndTxnResponse to A's EndTxn commit",
		"A's EndTxn commit (2nd)", "A's EndTxn commit (2nd), copy 1",
		"EndTxnResponse to A's EndTxn commit (2nd)", "EndTxnResponse to A's EndTxn commit (2nd), copy 1",
		// The copy's answer finds the transaction ending and says so;
		// the client sends EndTxn again: the next one.
		"A's EndTxn commit (3rd)", "EndTxnResponse to A's EndTxn commit (3rd)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("roles:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	produce := Role{Kind: MsgProduce, Client: "A", About: "of a2 to t-0", N: 1}
	if produce.String() != "A's Produce of a2 to t-0" {
		t.Fatalf("%s", produce)
	}
}
