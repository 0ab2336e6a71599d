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

// TestStateDumpTransactionVersion: `run --json` states the cluster's
// transaction.version and the one each transactional producer speaks.
func TestStateDumpTransactionVersion(t *testing.T) {
	w := New(DefaultConfig())
	for _, l := range []Action{CreateTopic{Name: "t"}, txnProducer("A", "tx"), producerWith("I", nil), Call{Client: "A", Method: CallInitTransactions}, Run{}} {
		if _, err := w.Apply(l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	b, _ := json.Marshal(w.State())
	if !strings.Contains(string(b), `"steps":`+itoa(int64(w.stepCount))+`,"transactionVersion":1,`) ||
		!strings.Contains(string(b), `"name":"A","transactionalId":"tx"`) || !strings.Contains(string(b), `"state":"READY","transactionVersion":1}`) {
		t.Errorf("TV1 state: %s", b)
	}
	w.Apply(SetConfig{Settings: []Setting{{Key: ConfigTransactionVersion, Value: 2}}})
	w.Apply(Restart{Target: Target{Client: "A"}})
	w.Apply(Call{Client: "A", Method: CallInitTransactions})
	w.Apply(Run{})
	s := w.State()
	if s.TransactionVersion != 2 || s.Producers[0].TransactionVersion != 2 || s.Producers[1].TransactionVersion != 0 {
		t.Errorf("TV2 state: cluster %d, A %d, I %d", s.TransactionVersion, s.Producers[0].TransactionVersion, s.Producers[1].TransactionVersion)
	}
}
