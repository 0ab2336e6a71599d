package wire

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestLateCopy: a duplicate with HoldCopy sends the original at once and
// holds the copy, under a correlation id of the wrapper's own; released,
// the copy reaches the broker and its answer is read and swallowed even
// with no client read outstanding, and the client's next request is
// answered with its own id.
func TestLateCopy(t *testing.T) {
	for _, key := range []kmsg.Key{kmsg.EndTxn, kmsg.AddOffsetsToTxn, kmsg.TxnOffsetCommit, kmsg.InitProducerID} {
		var copies, sent []Exchange
		var mu sync.Mutex
		f := &Faults{Observe: func(e Exchange) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case e.Copy && e.Resp != nil:
				copies = append(copies, e)
			case e.Copy:
				sent = append(sent, e)
			}
		}}
		f.Add(Rule{Key: key, Dir: Request, Action: Duplicate, HoldCopy: true})
		b := newFakeBroker(t)
		c := dial(t, f, b)
		target := answeredRequest(key)
		first := frameOf(target, 7)
		if _, err := c.Write(first); err != nil {
			t.Fatal(err)
		}
		if corr, err := readResponse(t, c); err != nil || corr != 7 {
			t.Fatalf("%s: answer %d, %v; want the original's, 7", key.Name(), corr, err)
		}
		h := f.Held()
		if len(h) != 1 || h[0].Key != key || h[0].Dir != Request || h[0].CorrID == 7 || !h[0].Copy {
			t.Fatalf("%s: held %v, want the copy under an id of its own", key.Name(), h)
		}
		mu.Lock()
		early := len(sent)
		mu.Unlock()
		if early != 0 {
			t.Errorf("%s: the held copy was observed as sent before its release", key.Name())
		}
		if n := len(b.seen()); n != 1 || f.CopiesPending() != 1 {
			t.Fatalf("%s: the broker saw %d frames, %d copies pending, before the copy's release", key.Name(), n, f.CopiesPending())
		}
		if !f.ReleaseCorr(Request, h[0].CorrID, false) {
			t.Fatalf("%s: the copy was not released", key.Name())
		}
		for f.CopiesPending() > 0 {
			runtime.Gosched()
		}
		got := b.seen()
		if len(got) != 2 {
			t.Fatalf("%s: the broker saw %d frames, want the original and the copy", key.Name(), len(got))
		}
		dup := append([]byte(nil), got[1]...)
		if id := int32(binary.BigEndian.Uint32(dup[8:])); id != h[0].CorrID {
			t.Errorf("%s: the copy went with correlation id %d, held as %d", key.Name(), id, h[0].CorrID)
		}
		copy(dup[8:12], first[8:12])
		if !bytes.Equal(dup, first) {
			t.Errorf("%s: the copy is not the request under another id", key.Name())
		}
		mu.Lock()
		nc, ns := len(copies), len(sent)
		mu.Unlock()
		if nc != 1 || ns != 1 {
			t.Errorf("%s: copy observed sent %d times and answered %d times, want 1 and 1", key.Name(), ns, nc)
		}
		if _, err := c.Write(frameOf(withVersion(kmsg.NewPtrApiVersionsRequest(), 3), 8)); err != nil {
			t.Fatal(err)
		}
		if corr, err := readResponse(t, c); err != nil || corr != 8 {
			t.Fatalf("%s: next answer %d, %v; want 8 (the copy's swallowed)", key.Name(), corr, err)
		}
	}
}

// TestLateCopyLost: a copy lost from the hold never reaches the broker.
func TestLateCopyLost(t *testing.T) {
	f := &Faults{}
	f.Add(Rule{Key: kmsg.EndTxn, Dir: Request, Action: Duplicate, HoldCopy: true})
	b := newFakeBroker(t)
	c := dial(t, f, b)
	if _, err := c.Write(frameOf(withVersion(&kmsg.EndTxnRequest{TransactionalID: "tx"}, 3), 3)); err != nil {
		t.Fatal(err)
	}
	if corr, err := readResponse(t, c); err != nil || corr != 3 {
		t.Fatalf("answer %d, %v", corr, err)
	}
	f.Release(Request, kmsg.EndTxn, true)
	for f.CopiesPending() > 0 {
		runtime.Gosched()
	}
	if _, err := c.Write(frameOf(withVersion(kmsg.NewPtrApiVersionsRequest(), 3), 4)); err != nil {
		t.Fatal(err)
	}
	if corr, err := readResponse(t, c); err != nil || corr != 4 {
		t.Fatalf("next answer %d, %v", corr, err)
	}
	if n := len(b.seen()); n != 2 {
		t.Errorf("the broker saw %d frames, want 2 (the lost copy never left)", n)
	}
}

// TestCopyOnRelease: a held request marked CopyOnRelease goes on when
// let go and leaves a late copy held, which reaches the broker only when
// released, its answer swallowed.
func TestCopyOnRelease(t *testing.T) {
	f, b, c := holding(t, kmsg.Produce, Request)
	done := make(chan error, 1)
	go func() {
		_, err := c.Write(frameOf(produce(9, -1), 5))
		done <- err
	}()
	h := waitHeld(t, f, 1)
	if f.CopyOnRelease(99) {
		t.Error("CopyOnRelease of a correlation id not held: reported held")
	}
	if !f.CopyOnRelease(h[0].CorrID) {
		t.Fatal("CopyOnRelease of the held request: not held")
	}
	f.Unhold(Request, kmsg.Produce)
	f.ReleaseCorr(Request, h[0].CorrID, false)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if corr, err := readResponse(t, c); err != nil || corr != 5 {
		t.Fatalf("answer %d, %v; want the original's, 5", corr, err)
	}
	copies := f.Held()
	if len(copies) != 1 || !copies[0].Copy || copies[0].CorrID == 5 || f.CopiesPending() != 1 {
		t.Fatalf("held after the release %v (%d copies pending), want one late copy under an id of its own", copies, f.CopiesPending())
	}
	if n := len(b.seen()); n != 1 {
		t.Fatalf("the broker saw %d frames before the copy's release, want 1", n)
	}
	f.ReleaseCorr(Request, copies[0].CorrID, false)
	for f.CopiesPending() > 0 {
		runtime.Gosched()
	}
	if n := len(b.seen()); n != 2 {
		t.Errorf("the broker saw %d frames, want the original and its copy", n)
	}
	if _, err := c.Write(frameOf(withVersion(kmsg.NewPtrApiVersionsRequest(), 3), 6)); err != nil {
		t.Fatal(err)
	}
	if corr, err := readResponse(t, c); err != nil || corr != 6 {
		t.Fatalf("next answer %d, %v; want 6 (the copy's swallowed)", corr, err)
	}
}
