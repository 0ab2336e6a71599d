package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStateDumpTransactionLog: `run --json` shows each transactional id's
// lastProducerEpoch and every __transaction_state record (ref 3.2).
func TestStateDumpTransactionLog(t *testing.T) {
	w := New(DefaultConfig())
	for _, l := range []Action{CreateTopic{Name: "t"}, txnProducer("A", "tx"), Call{Client: "A", Method: CallInitTransactions}, Run{},
		Call{Client: "A", Method: CallBeginTransaction}, Send{Client: "A", TP: TP{Topic: "t"}, Values: []string{"x"}},
		Call{Client: "A", Method: CallCommitTransaction}, Run{}} {
		if _, err := w.Apply(l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	s := w.State()
	if len(s.Coordinators) != 1 || s.Coordinators[0].LastProducerEpoch != NoProducerEpoch {
		t.Fatalf("transactions: %+v", s.Coordinators)
	}
	var states []string
	for _, r := range s.TxnLog {
		if r.TransactionalID != "tx" || r.Partition != s.Coordinators[0].Partition {
			t.Errorf("record %+v", r)
		}
		states = append(states, r.State)
	}
	if got := strings.Join(states, ","); got != "Empty,Ongoing,PrepareCommit,CompleteCommit" {
		t.Errorf("transaction log states %s", got)
	}
	if got := strings.Join(s.TxnLog[1].Partitions, ","); got != "t-0" || s.TxnLog[3].Partitions == nil {
		t.Errorf("partitions of the Ongoing record %q, of the CompleteCommit record %v", got, s.TxnLog[3].Partitions)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"lastProducerEpoch":-1`, `"transactionLog":[{"partition":"__transaction_state-`, `"state":"PrepareCommit"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the JSON state lacks %s", want)
		}
	}
}
