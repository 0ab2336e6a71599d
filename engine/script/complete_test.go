package script

import (
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	d := NewDecls()
	for i, l := range []string{"brokers 2", "topic t partitions=2", "producer A transactional.id=x", "consumer C group.id=g", "processor P input=t output=t group.id=h transactional.id=y"} {
		if _, err := ParseLine("s", i+1, l, d); err != nil {
			t.Fatal(err)
		}
	}
	msgs := []string{"m3", "m12"}
	for _, c := range []struct{ line, want string }{
		{"ste", "step"},
		{"dr", "drop"},
		{"A ", "A initTransactions,A beginTransaction,A send,A sendOffsetsToTransaction,A commitTransaction,A abortTransaction,A flush,A close"},
		{"A com", "A commitTransaction"},
		{"A comitTransaction", "A commitTransaction"},
		{"C ", "C poll,C commitSync"},
		{"P ", "P process"},
		{"A send ", "A send t-0,A send t-1"},
		{"A sendOffsetsToTransaction ", "A sendOffsetsToTransaction g,A sendOffsetsToTransaction h"},
		{"drop ", "drop m3,drop m12"},
		{"drop m1", "drop m12"},
		{"reorder m3 ", "reorder m3 m3,reorder m3 m12"},
		{"crash ", "crash broker-1,crash broker-2,crash A,crash C,crash P"},
		{"pause ", "pause A,pause C,pause P"},
		{"rebalance ", "rebalance g,rebalance h"},
		{"step 3 ", ""},
		// expect and until: the forms' literals, then what their checks accept.
		{"expect tx", "expect txn,expect txnlog"},
		{"until txn ", "until txn x,until txn y"},
		{"until txn x state Prep", "until txn x state PrepareCommit,until txn x state PrepareAbort,until txn x state PrepareEpochFence"},
		{"expect producer ", "expect producer A,expect producer P"},
		{"expect consumer C po", "expect consumer C position"},
		{"expect violation dup", "expect violation duplicate-sequence,expect violation duplicate-record"},
		{"until event kind=mar", "until event kind=marker"},
		{"until event error=PRODUCER_F", "until event error=PRODUCER_FENCED"},
		{"until no ", "until no event"},
		{"until markers ", ""},
		{"zzzzzz", ""},
	} {
		if got := strings.Join(Complete(c.line, d, msgs), ","); got != c.want {
			t.Errorf("Complete(%q) = %q, want %q", c.line, got, c.want)
		}
	}
	if got := Complete("", nil, nil); len(got) == 0 || got[0] != "brokers" {
		t.Errorf("Complete(\"\") starts %q", got)
	}
}
