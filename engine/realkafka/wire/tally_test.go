package wire

import (
	"errors"
	"os"
	"slices"
	"syscall"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestTxnIDs: each request names the transactional ids it serves; a
// group's FindCoordinator and a plain Produce serve none.
func TestTxnIDs(t *testing.T) {
	tx := "tx"
	txnProduce := produce(9, -1).(*kmsg.ProduceRequest)
	txnProduce.TransactionID = &tx
	v5 := withVersion(&kmsg.AddPartitionsToTxnRequest{Transactions: []kmsg.AddPartitionsToTxnRequestTransaction{{TransactionalID: "a"}, {TransactionalID: "b"}}}, 5)
	cases := []struct {
		req  kmsg.Request
		want []string
	}{
		{produce(9, -1), nil},
		{txnProduce, []string{"tx"}},
		{withVersion(&kmsg.InitProducerIDRequest{}, 4), nil},
		{withVersion(&kmsg.InitProducerIDRequest{TransactionalID: &tx}, 4), []string{"tx"}},
		{withVersion(&kmsg.AddPartitionsToTxnRequest{TransactionalID: "tx"}, 3), []string{"tx"}},
		{v5, []string{"a", "b"}},
		{withVersion(&kmsg.AddOffsetsToTxnRequest{TransactionalID: "tx"}, 3), []string{"tx"}},
		{withVersion(&kmsg.EndTxnRequest{TransactionalID: "tx"}, 5), []string{"tx"}},
		{withVersion(&kmsg.TxnOffsetCommitRequest{TransactionalID: "tx"}, 3), []string{"tx"}},
		{withVersion(&kmsg.FindCoordinatorRequest{CoordinatorKey: "tx", CoordinatorType: 1}, 3), []string{"tx"}},
		{withVersion(&kmsg.FindCoordinatorRequest{CoordinatorKeys: []string{"tx"}, CoordinatorType: 1}, 4), []string{"tx"}},
		{withVersion(&kmsg.FindCoordinatorRequest{CoordinatorKeys: []string{"g"}}, 4), nil},
		{withVersion(kmsg.NewPtrFetchRequest(), 12), nil},
	}
	for _, c := range cases {
		if got := TxnIDs(c.req); !slices.Equal(got, c.want) {
			t.Errorf("%s v%d: serves %v, want %v", kmsg.NameForKey(c.req.Key()), c.req.GetVersion(), got, c.want)
		}
	}
}

// TestRequestsLog: the log has every request written in order, a dropped
// one included and a duplicate's copy not, with the ids parsed from the
// frame on the wire.
func TestRequestsLog(t *testing.T) {
	b := newFakeBroker(t)
	f := &Faults{}
	f.Add(Rule{Key: kmsg.EndTxn, Dir: Request, Action: Duplicate})
	c := dial(t, f, b)
	tx := "tx"
	for i, r := range []kmsg.Request{
		withVersion(&kmsg.InitProducerIDRequest{TransactionalID: &tx}, 4),
		withVersion(&kmsg.EndTxnRequest{TransactionalID: "tx"}, 3),
		produce(9, 0),
		withVersion(&kmsg.WriteTxnMarkersRequest{Markers: []kmsg.WriteTxnMarkersRequestMarker{{ProducerID: 7}, {ProducerID: 8}}}, 1),
	} {
		if _, err := c.Write(frameOf(r, int32(i+1))); err != nil {
			t.Fatal(err)
		}
	}
	b.waitFrames(t, 5) // the EndTxn's copy too
	got := f.Requests()
	// The sender's client id from the header (frameOf's "eoslab"), and
	// the producer ids of a WriteTxnMarkers, which names no transaction.
	want := []Sent{{Key: kmsg.InitProducerID, TxnIDs: []string{"tx"}}, {Key: kmsg.EndTxn, TxnIDs: []string{"tx"}}, {Key: kmsg.Produce},
		{Key: kmsg.WriteTxnMarkers, PIDs: []int64{7, 8}}}
	if len(got) != len(want) {
		t.Fatalf("logged %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Key != want[i].Key || !slices.Equal(got[i].TxnIDs, want[i].TxnIDs) || !slices.Equal(got[i].PIDs, want[i].PIDs) || got[i].ClientID != "eoslab" {
			t.Errorf("request %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestDroppedIsAReset: a lost answer reads as a reset connection (an
// os.SyscallError of ECONNRESET), which clients retry, not as an error of
// the wrapper's own.
func TestDroppedIsAReset(t *testing.T) {
	var se *os.SyscallError
	if !errors.As(ErrDropped, &se) || !errors.Is(ErrDropped, syscall.ECONNRESET) {
		t.Fatalf("ErrDropped %v does not unwrap to a reset connection", ErrDropped)
	}
}
