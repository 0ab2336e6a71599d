package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// fakeBroker answers every request it reads with an empty response of the
// same key and version (none for acks=0 Produce), and keeps the frames.
type fakeBroker struct {
	ln     net.Listener
	mu     sync.Mutex
	frames [][]byte
	got    chan struct{}
}

func newFakeBroker(t *testing.T) *fakeBroker {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &fakeBroker{ln: ln, got: make(chan struct{}, 100)}
	t.Cleanup(func() { ln.Close() })
	go b.serve()
	return b
}

func (b *fakeBroker) serve() {
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		go b.conn(c)
	}
}

func (b *fakeBroker) conn(c net.Conn) {
	defer c.Close()
	for {
		var size [4]byte
		if _, err := io.ReadFull(c, size[:]); err != nil {
			return
		}
		frame := make([]byte, 4+binary.BigEndian.Uint32(size[:]))
		copy(frame, size[:])
		if _, err := io.ReadFull(c, frame[4:]); err != nil {
			return
		}
		b.mu.Lock()
		b.frames = append(b.frames, frame)
		b.mu.Unlock()
		b.got <- struct{}{}
		h, err := parseHeader(frame[4:])
		if err != nil {
			return
		}
		req := kmsg.RequestForKey(h.key)
		req.SetVersion(h.version)
		if err := req.ReadFrom(frame[4+h.bodyAt:]); err != nil {
			return
		}
		if p, ok := req.(*kmsg.ProduceRequest); ok && p.Acks == 0 {
			continue
		}
		resp := req.ResponseKind()
		resp.SetVersion(h.version)
		body := binary.BigEndian.AppendUint32(nil, uint32(h.corr))
		if resp.IsFlexible() && h.key != 18 { // ApiVersions keeps header v0
			body = append(body, 0)
		}
		body = resp.AppendTo(body)
		out := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
		if _, err := c.Write(append(out, body...)); err != nil {
			return
		}
	}
}

func (b *fakeBroker) seen() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([][]byte(nil), b.frames...)
}

// waitFrames blocks until the broker has read n frames.
func (b *fakeBroker) waitFrames(t *testing.T, n int) {
	t.Helper()
	for len(b.seen()) < n {
		<-b.got
	}
}

func dial(t *testing.T, f *Faults, b *fakeBroker) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", b.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	w := f.Wrap(c)
	t.Cleanup(func() { w.Close() })
	return w
}

type sent struct {
	req      kmsg.Request
	corr     int32
	answered bool
}

func produce(version int16, acks int16) kmsg.Request {
	r := kmsg.NewPtrProduceRequest()
	r.SetVersion(version)
	r.Acks = acks
	r.TimeoutMillis = 1000
	t := kmsg.NewProduceRequestTopic()
	t.Topic = "t"
	p := kmsg.NewProduceRequestTopicPartition()
	p.Records = []byte{1, 2, 3}
	t.Partitions = append(t.Partitions, p)
	r.Topics = append(r.Topics, t)
	return r
}

func withVersion(r kmsg.Request, v int16) kmsg.Request {
	r.SetVersion(v)
	return r
}

// theRequests covers the keys the faults are for, flexible and not, and
// acks=0.
func theRequests() []sent {
	txid := "tx"
	list := []kmsg.Request{
		produce(3, -1), produce(9, -1), produce(11, 1), produce(8, 0), produce(12, -1),
		withVersion(kmsg.NewPtrFetchRequest(), 4), withVersion(kmsg.NewPtrFetchRequest(), 12),
		withVersion(&kmsg.EndTxnRequest{TransactionalID: txid, Commit: true}, 3),
		withVersion(&kmsg.EndTxnRequest{TransactionalID: txid}, 5),
		withVersion(&kmsg.AddPartitionsToTxnRequest{TransactionalID: txid}, 3),
		withVersion(&kmsg.AddOffsetsToTxnRequest{TransactionalID: txid, Group: "g"}, 3),
		withVersion(&kmsg.TxnOffsetCommitRequest{TransactionalID: txid, Group: "g"}, 3),
		withVersion(&kmsg.InitProducerIDRequest{TransactionalID: &txid}, 4),
		withVersion(kmsg.NewPtrApiVersionsRequest(), 3),
	}
	var out []sent
	for i, r := range list {
		p, isProduce := r.(*kmsg.ProduceRequest)
		out = append(out, sent{req: r, corr: int32(i + 1), answered: !isProduce || p.Acks != 0})
	}
	return out
}

func frameOf(r kmsg.Request, corr int32) []byte {
	return kmsg.NewRequestFormatter(kmsg.FormatterClientID("eoslab")).AppendRequest(nil, r, corr)
}

func readResponse(t *testing.T, c net.Conn) (int32, error) {
	t.Helper()
	var size [4]byte
	if _, err := io.ReadFull(c, size[:]); err != nil {
		return 0, err
	}
	body := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(c, body); err != nil {
		return 0, err
	}
	return int32(binary.BigEndian.Uint32(body)), nil
}

// TestRoundTrip: every frame reaches the broker byte for byte, whether it
// came in one write, split over many, or several in one; every answered
// request gets its response with its correlation id, in order, and acks=0
// Produce gets none.
func TestRoundTrip(t *testing.T) {
	for _, chunk := range []int{0, 1, 7, 1 << 20} { // 0: one write per frame
		reqs := theRequests()
		var stream []byte
		var frames [][]byte
		for _, s := range reqs {
			f := frameOf(s.req, s.corr)
			frames = append(frames, f)
			stream = append(stream, f...)
		}
		b := newFakeBroker(t)
		c := dial(t, &Faults{}, b)
		if chunk == 0 {
			for _, f := range frames {
				if _, err := c.Write(f); err != nil {
					t.Fatal(err)
				}
			}
		} else {
			for at := 0; at < len(stream); at += chunk {
				end := min(at+chunk, len(stream))
				if n, err := c.Write(stream[at:end]); err != nil || n != end-at {
					t.Fatalf("chunk %d: Write = %d, %v", chunk, n, err)
				}
			}
		}
		for _, s := range reqs {
			if !s.answered {
				continue
			}
			corr, err := readResponse(t, c)
			if err != nil {
				t.Fatalf("chunk %d: reading the response to %d: %v", chunk, s.corr, err)
			}
			if corr != s.corr {
				t.Fatalf("chunk %d: response correlation id %d, want %d", chunk, corr, s.corr)
			}
		}
		b.waitFrames(t, len(frames))
		got := b.seen()
		for i := range frames {
			if !bytes.Equal(got[i], frames[i]) {
				t.Errorf("chunk %d: frame %d (%s) changed on the way", chunk, i, kmsg.NameForKey(reqs[i].req.Key()))
			}
		}
	}
}

// answeredRequest is the first of theRequests with key that gets an
// answer.
func answeredRequest(key kmsg.Key) kmsg.Request {
	for _, s := range theRequests() {
		if s.req.Key() == int16(key) && s.answered {
			return s.req
		}
	}
	return nil
}

// TestDuplicate: the broker gets the request twice, the copy with another
// correlation id; the client gets one response, with its own id, and the
// next request's response still matches.
func TestDuplicate(t *testing.T) {
	for _, key := range []kmsg.Key{kmsg.Produce, kmsg.EndTxn, kmsg.AddPartitionsToTxn, kmsg.AddOffsetsToTxn, kmsg.TxnOffsetCommit, kmsg.InitProducerID, kmsg.Fetch} {
		f := &Faults{}
		f.Add(Rule{Key: key, Dir: Request, Action: Duplicate})
		b := newFakeBroker(t)
		c := dial(t, f, b)
		target := answeredRequest(key)
		first := frameOf(target, 41)
		next := frameOf(withVersion(kmsg.NewPtrApiVersionsRequest(), 3), 42)
		if _, err := c.Write(append(append([]byte(nil), first...), next...)); err != nil {
			t.Fatal(err)
		}
		for _, want := range []int32{41, 42} {
			corr, err := readResponse(t, c)
			if err != nil || corr != want {
				t.Fatalf("%s: response = %d, %v; want correlation id %d", key.Name(), corr, err, want)
			}
		}
		b.waitFrames(t, 3)
		got := b.seen()
		if !bytes.Equal(got[0], first) {
			t.Errorf("%s: the original changed on the way", key.Name())
		}
		dup := append([]byte(nil), got[1]...)
		dupID := int32(binary.BigEndian.Uint32(dup[8:]))
		copy(dup[8:12], first[8:12])
		if dupID == 41 || !bytes.Equal(dup, first) {
			t.Errorf("%s: the copy (correlation id %d) is not the request under another id", key.Name(), dupID)
		}
		if ev := f.Events(); len(ev) != 1 || ev[0].Action != Duplicate || ev[0].CorrID != 41 {
			t.Errorf("%s: events %v", key.Name(), ev)
		}
	}
}

// TestDropRequest: the broker never sees it and the client's connection
// fails; the requests before it were answered.
func TestDropRequest(t *testing.T) {
	f := &Faults{}
	f.Add(Rule{Key: kmsg.EndTxn, Dir: Request, Action: Drop})
	b := newFakeBroker(t)
	c := dial(t, f, b)
	if _, err := c.Write(frameOf(withVersion(kmsg.NewPtrApiVersionsRequest(), 3), 1)); err != nil {
		t.Fatal(err)
	}
	if corr, err := readResponse(t, c); err != nil || corr != 1 {
		t.Fatalf("response before the drop = %d, %v", corr, err)
	}
	c.Write(frameOf(withVersion(&kmsg.EndTxnRequest{TransactionalID: "tx"}, 3), 2))
	if _, err := readResponse(t, c); err == nil {
		t.Fatal("read a response to a dropped request")
	}
	if n := len(b.seen()); n != 1 {
		t.Errorf("broker saw %d frames, want 1 (the dropped EndTxn never left)", n)
	}
}

// TestLoseResponse: the broker acted, the client's read fails, and a rule
// with Skip lets the first match through.
func TestLoseResponse(t *testing.T) {
	f := &Faults{}
	f.Add(Rule{Key: kmsg.Produce, Dir: Response, Action: Drop, Skip: 1})
	b := newFakeBroker(t)
	c := dial(t, f, b)
	c.Write(frameOf(produce(9, -1), 7))
	if corr, err := readResponse(t, c); err != nil || corr != 7 {
		t.Fatalf("the skipped match: %d, %v", corr, err)
	}
	c.Write(frameOf(produce(9, -1), 8))
	if _, err := readResponse(t, c); !errors.Is(err, ErrDropped) && err == nil {
		t.Fatal("read a lost response")
	}
	b.waitFrames(t, 2)
	if ev := f.Events(); len(ev) != 1 || ev[0].CorrID != 8 || ev[0].Dir != Response {
		t.Errorf("events %v, want one lost response to correlation id 8", ev)
	}
}

// TestDelay: a delayed request and a delayed response pass unchanged, the
// waits going through the Sleep hook (no wall clock in the test).
func TestDelay(t *testing.T) {
	var waits []time.Duration
	f := &Faults{Sleep: func(d time.Duration) { waits = append(waits, d) }}
	f.Add(Rule{Key: kmsg.InitProducerID, Dir: Request, Action: Delay, Delay: 3 * time.Second})
	f.Add(Rule{Key: kmsg.Fetch, Dir: Response, Action: Delay, Delay: 5 * time.Second})
	b := newFakeBroker(t)
	c := dial(t, f, b)
	tx := "tx"
	c.Write(frameOf(withVersion(&kmsg.InitProducerIDRequest{TransactionalID: &tx}, 4), 1))
	c.Write(frameOf(withVersion(kmsg.NewPtrFetchRequest(), 12), 2))
	for _, want := range []int32{1, 2} {
		if corr, err := readResponse(t, c); err != nil || corr != want {
			t.Fatalf("response %d, %v; want %d", corr, err, want)
		}
	}
	if len(waits) != 2 || waits[0] != 3*time.Second || waits[1] != 5*time.Second {
		t.Errorf("waits %v, want [3s 5s]", waits)
	}
}

// TestAcksZeroNotQueued: a duplicate of an acks=0 Produce queues no
// response either, so the next request's response still matches.
func TestAcksZeroNotQueued(t *testing.T) {
	f := &Faults{}
	f.Add(Rule{Key: kmsg.Produce, Dir: Request, Action: Duplicate})
	b := newFakeBroker(t)
	c := dial(t, f, b)
	c.Write(frameOf(produce(8, 0), 1))
	c.Write(frameOf(produce(8, -1), 2))
	if corr, err := readResponse(t, c); err != nil || corr != 2 {
		t.Fatalf("response %d, %v; want 2", corr, err)
	}
}

// TestBadFrames: garbage is an error, never a panic or a hang.
func TestBadFrames(t *testing.T) {
	for _, bad := range [][]byte{
		{0xff, 0xff, 0xff, 0xff},
		{0, 0, 0, 3, 1, 2, 3},
		{0, 0, 0, 10, 0x7f, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0},
		{0, 0, 0, 10, 0, 0, 0, 9, 0, 0, 0, 1, 0x7f, 0},
	} {
		b := newFakeBroker(t)
		c := dial(t, &Faults{}, b)
		if _, err := c.Write(bad); err == nil {
			t.Errorf("Write(% x) = nil error", bad)
		}
	}
}

// TestLenient: a frame the wrapper cannot parse (an api key kmsg does
// not know) fails the connection, unless Lenient, which passes it on byte
// for byte (the proxy between brokers).
func TestLenient(t *testing.T) {
	unknown := []byte{0, 0, 0, 10, 0x7f, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0}
	b := newFakeBroker(t)
	c := dial(t, &Faults{}, b)
	if _, err := c.Write(unknown); err == nil {
		t.Fatal("strict: an unknown api key written without error")
	}
	b = newFakeBroker(t)
	c = dial(t, &Faults{Lenient: true}, b)
	if _, err := c.Write(unknown); err != nil {
		t.Fatalf("lenient: %v", err)
	}
	b.waitFrames(t, 1)
	if got := b.seen()[0]; !bytes.Equal(got, unknown) {
		t.Errorf("lenient: the broker read % x, want % x", got, unknown)
	}
}
