package wire

import (
	"errors"
	"net"
	"runtime"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// waitHeld blocks until f holds n messages (the client's goroutine got
// there), without a wall-clock deadline: the test's own timeout bounds it.
func waitHeld(t *testing.T, f *Faults, n int) []Held {
	t.Helper()
	for {
		if h := f.Held(); len(h) >= n {
			return h
		}
		runtime.Gosched() // let the client's goroutine get there
	}
}

// holding is a connection to a fake broker whose messages of key going
// dir are held.
func holding(t *testing.T, key kmsg.Key, dir Direction) (*Faults, *fakeBroker, net.Conn) {
	t.Helper()
	f := &Faults{}
	f.Add(Rule{Key: key, Dir: dir, Action: Hold, Times: -1})
	b := newFakeBroker(t)
	return f, b, dial(t, f, b)
}

// TestHoldRequest: a held request does not reach the broker until it is
// released; released, it goes on with its correlation id and is answered.
func TestHoldRequest(t *testing.T) {
	f, b, c := holding(t, kmsg.EndTxn, Request)
	done := make(chan error, 1)
	go func() {
		_, err := c.Write(frameOf(withVersion(&kmsg.EndTxnRequest{TransactionalID: "tx"}, 3), 5))
		done <- err
	}()
	h := waitHeld(t, f, 1)
	if h[0].Key != kmsg.EndTxn || h[0].Dir != Request || h[0].CorrID != 5 {
		t.Fatalf("held %v, want the EndTxn request 5", h)
	}
	if n := len(b.seen()); n != 0 {
		t.Fatalf("the broker saw %d frames of a held request", n)
	}
	if !f.Release(Request, kmsg.EndTxn, false) {
		t.Fatal("nothing released")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if corr, err := readResponse(t, c); err != nil || corr != 5 {
		t.Fatalf("answer %d, %v; want correlation id 5", corr, err)
	}
	if f.Release(Request, kmsg.EndTxn, false) {
		t.Error("released a second message that was never held")
	}
}

// TestHoldResponse: the broker acted and answered; the client reads the
// answer only once it is released, and a lost one fails its read.
func TestHoldResponse(t *testing.T) {
	f, b, c := holding(t, kmsg.Produce, Response)
	c.Write(frameOf(produce(9, -1), 3))
	got := make(chan int32, 1)
	go func() {
		corr, _ := readResponse(t, c)
		got <- corr
	}()
	waitHeld(t, f, 1)
	b.waitFrames(t, 1)
	select {
	case corr := <-got:
		t.Fatalf("the client read held response %d", corr)
	default:
	}
	f.Release(Response, kmsg.Produce, false)
	if corr := <-got; corr != 3 {
		t.Fatalf("released answer %d, want 3", corr)
	}

	c.Write(frameOf(produce(9, -1), 4))
	errc := make(chan error, 1)
	go func() {
		_, err := readResponse(t, c)
		errc <- err
	}()
	waitHeld(t, f, 1)
	f.Release(Response, kmsg.Produce, true)
	if err := <-errc; !errors.Is(err, ErrDropped) {
		t.Fatalf("a lost held answer reads %v, want ErrDropped", err)
	}
}

// TestReleaseAll: every held message goes on and the Hold rules go, so
// later messages pass.
func TestReleaseAll(t *testing.T) {
	f, _, c := holding(t, kmsg.Produce, Response)
	c.Write(frameOf(produce(9, -1), 1))
	got := make(chan int32, 2)
	go func() {
		for range 2 {
			corr, _ := readResponse(t, c)
			got <- corr
		}
	}()
	waitHeld(t, f, 1)
	f.ReleaseAll()
	if corr := <-got; corr != 1 {
		t.Fatalf("answer %d, want 1", corr)
	}
	c.Write(frameOf(produce(9, -1), 2))
	if corr := <-got; corr != 2 {
		t.Fatalf("answer %d after ReleaseAll, want 2 (not held)", corr)
	}
}

// TestDropAcksZero: a dropped acks=0 Produce never reaches the broker and
// the connection stays up: the next request goes on it and is answered.
func TestDropAcksZero(t *testing.T) {
	f := &Faults{}
	f.Add(Rule{Key: kmsg.Produce, Dir: Request, Action: Drop})
	b := newFakeBroker(t)
	c := dial(t, f, b)
	if _, err := c.Write(frameOf(produce(8, 0), 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(frameOf(withVersion(kmsg.NewPtrApiVersionsRequest(), 3), 2)); err != nil {
		t.Fatalf("the write after a dropped acks=0 Produce: %v", err)
	}
	if corr, err := readResponse(t, c); err != nil || corr != 2 {
		t.Fatalf("answer %d, %v; want 2 on the same connection", corr, err)
	}
	if n := len(b.seen()); n != 1 {
		t.Errorf("the broker saw %d frames, want 1 (the dropped Produce never left)", n)
	}
}
