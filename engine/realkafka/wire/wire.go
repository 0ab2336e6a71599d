// Package wire injects the scenario language's network faults into a real
// Kafka client's connections: a net.Conn wrapper, installed with
// kgo.Dialer, that parses Kafka's framing (a 4-byte size, then the request
// header: api key, api version, correlation id, client id) and can drop,
// delay or duplicate requests and lose or delay responses. Like package
// realkafka it is an I/O edge, not the pure core.
//
// Requests are buffered until a whole frame is in, so a request split over
// several writes (or several requests in one) parse the same. Responses
// arrive in request order on one connection (Kafka answers a connection's
// requests in order), so the wrapper keeps a FIFO of the requests in
// flight, each with its correlation id, and checks every response against
// its head. Produce with acks=0 gets no response and is not queued.
//
// A dropped request or a lost response also closes the connection: on TCP
// a message is not lost without the connection failing, and that failure
// is what makes a client retry on a new one (a lost produce ACK retried
// with the same producer id, epoch and sequence). The exception is an
// acks=0 Produce, which awaits no answer: it vanishes and the connection
// stays up.
package wire

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Direction is which way a faulted message travels.
type Direction int

const (
	Request Direction = iota
	Response
)

func (d Direction) String() string {
	if d == Request {
		return "request"
	}
	return "response"
}

// Action is what a rule does to a message it matches.
type Action int

const (
	// Drop swallows a request (it never reaches the broker) or loses a
	// response (the broker acted, the client never hears); either way the
	// connection is then closed.
	Drop Action = iota + 1
	// Delay holds the message for Rule.Delay before passing it on.
	Delay
	// Duplicate sends a request twice; the copy carries a correlation id
	// of the wrapper's own, and its response is swallowed, so the client
	// sees one answer with the id it sent. Requests only.
	Duplicate
	// Hold stops the message until Faults.Release (hold.go).
	Hold
)

func (a Action) String() string {
	switch a {
	case Drop:
		return "drop"
	case Delay:
		return "delay"
	case Duplicate:
		return "duplicate"
	case Hold:
		return "hold"
	}
	return fmt.Sprintf("action(%d)", int(a))
}

// Rule matches messages of one api key in one direction.
type Rule struct {
	Key    kmsg.Key // kmsg.Produce, kmsg.EndTxn, ...
	Dir    Direction
	Action Action
	Delay  time.Duration // for Delay
	// Skip lets the first Skip matching messages pass; Times is how many
	// after them the rule acts on (0 means 1; -1 means every one).
	Skip, Times int
	// Match, when set, must also hold: it sees the parsed request (for a
	// response, the request it answers).
	Match func(kmsg.Request) bool
	// HoldCopy, for Duplicate: the copy is held until released
	// (latecopy.go), the network's late copy.
	HoldCopy bool

	seen, done int
}

// Event is one fault the wrapper applied, for a transcript.
type Event struct {
	Action Action
	Dir    Direction
	Key    kmsg.Key
	CorrID int32
}

func (e Event) String() string {
	return fmt.Sprintf("%s %s %s correlation=%d", e.Action, e.Key.Name(), e.Dir, e.CorrID)
}

// Faults is a set of rules shared by the connections it dials.
type Faults struct {
	mu     sync.Mutex
	rules  []*Rule
	events []Event
	paused chan struct{} // non-nil while paused: closed on Resume
	nextID int32
	sent   map[kmsg.Key]int
	log    []Sent // every request written, for Requests
	holds  []*held
	copies int // held copies not yet answered (latecopy.go)
	// Sleep waits for a Delay (time.Sleep when nil); tests set it so that
	// no test depends on a wall-clock deadline.
	Sleep func(time.Duration)
	// Observe, when set, sees every request the client wrote and every
	// response the broker sent (see Exchange); it runs on the connection's
	// goroutine and must not block.
	Observe func(Exchange)
	// Lenient passes a request frame the wrapper cannot parse (an api
	// key or version newer than kmsg's) on unjudged instead of failing
	// the connection: a proxy between brokers (realkafka's owned
	// cluster) must not break replication for a request no rule names.
	Lenient bool
}

// Add installs a rule; rules are tried in the order added.
func (f *Faults) Add(r Rule) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Times == 0 {
		r.Times = 1
	}
	f.rules = append(f.rules, &r)
}

// Clear removes every rule: they act no more, on any connection.
func (f *Faults) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = nil
}

// Sent is how many requests of key the client wrote (a dropped one
// included, a duplicate's copy not): whether a call reached the wire.
func (f *Faults) Sent(key kmsg.Key) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent[key]
}

func (f *Faults) count(key kmsg.Key, req kmsg.Request, clientID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sent == nil {
		f.sent = map[kmsg.Key]int{}
	}
	f.sent[key]++
	f.log = append(f.log, Sent{Key: key, TxnIDs: TxnIDs(req), ClientID: clientID, PIDs: markerPIDs(req)})
}

// Events is what was applied so far.
func (f *Faults) Events() []Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Event(nil), f.events...)
}

// Pause blocks every request write until Resume: a paused client (a long
// GC pause, a stopped process) whose requests have not left it yet.
func (f *Faults) Pause() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.paused == nil {
		f.paused = make(chan struct{})
	}
}

// Resume lets paused writes go.
func (f *Faults) Resume() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.paused != nil {
		close(f.paused)
		f.paused = nil
	}
}

func (f *Faults) gate() {
	f.mu.Lock()
	p := f.paused
	f.mu.Unlock()
	if p != nil {
		<-p
	}
}

// match finds the rule acting on this message, counting it as seen.
func (f *Faults) match(dir Direction, key kmsg.Key, req kmsg.Request, corr int32) *Rule {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if r.Dir != dir || r.Key != key || (r.Match != nil && (req == nil || !r.Match(req))) {
			continue
		}
		if r.Times >= 0 && r.done >= r.Times {
			continue
		}
		r.seen++
		if r.seen <= r.Skip {
			continue
		}
		r.done++
		f.events = append(f.events, Event{r.Action, dir, key, corr})
		return r
	}
	return nil
}

func (f *Faults) sleep(d time.Duration) {
	if f.Sleep != nil {
		f.Sleep(d)
		return
	}
	time.Sleep(d)
}

// fabricated correlation ids for duplicates count down from the top, far
// from a client's, which count up from 0.
func (f *Faults) fabricate() int32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	return 1<<31 - 1 - f.nextID
}

// Dialer wraps dial (a net.Dialer's DialContext when nil) for
// kgo.Dialer.
func (f *Faults) Dialer(dial func(ctx context.Context, network, host string) (net.Conn, error)) func(ctx context.Context, network, host string) (net.Conn, error) {
	if dial == nil {
		dial = (&net.Dialer{Timeout: 10 * time.Second}).DialContext
	}
	return func(ctx context.Context, network, host string) (net.Conn, error) {
		c, err := dial(ctx, network, host)
		if err != nil {
			return nil, err
		}
		return f.Wrap(c), nil
	}
}

// Wrap puts the rules on one connection.
func (f *Faults) Wrap(c net.Conn) net.Conn { return &Conn{Conn: c, f: f} }

// ErrDropped is what a client reads on a connection whose response the
// wrapper lost. It unwraps to the error a reset TCP connection gives (an
// os.SyscallError of ECONNRESET), as a message lost on a real network
// shows to a client: franz-go retries that as a broken connection
// (pkg/kgo/errors.go, isRetryableBrokerErr), as the Java client does any
// disconnect (NetworkClient.handleDisconnections), where an error of the
// wrapper's own it would treat as fatal.
var ErrDropped error = droppedError{}

type droppedError struct{}

func (droppedError) Error() string { return "wire: connection reset by an injected fault" }

func (droppedError) Unwrap() error { return os.NewSyscallError("read", syscall.ECONNRESET) }

// Conn is a connection under Faults.
type Conn struct {
	net.Conn
	f *Faults

	wmu  sync.Mutex
	wbuf []byte // request bytes not yet a whole frame

	qmu     sync.Mutex
	pending []inflight // requests awaiting a response, in order

	rmu    sync.Mutex // one reader of the broker's responses at a time
	rbuf   []byte     // response bytes ready for the client
	broken bool
}

type inflight struct {
	corr    int32
	key     int16
	version int16
	req     kmsg.Request
	swallow bool // the response to a duplicate: the client never asked
}

// header is a parsed request header.
type header struct {
	key, version int16
	corr         int32
	clientID     string
	bodyAt       int // offset of the body in the frame (after the size)
}

// maxFrame bounds a frame's size so a garbled stream cannot make the
// wrapper allocate without limit (Kafka's socket.request.max.bytes
// default is 100 MiB).
const maxFrame = 100 << 20

// parseHeader reads a request header (v1 or, for a flexible version, v2
// with tagged fields) from frame, which excludes the 4-byte size.
func parseHeader(frame []byte) (header, error) {
	var h header
	if len(frame) < 10 {
		return h, errors.New("wire: request shorter than its header")
	}
	h.key = int16(binary.BigEndian.Uint16(frame[0:]))
	h.version = int16(binary.BigEndian.Uint16(frame[2:]))
	h.corr = int32(binary.BigEndian.Uint32(frame[4:]))
	n := int(int16(binary.BigEndian.Uint16(frame[8:])))
	at := 10
	if n > 0 {
		at += n
	}
	if at > len(frame) {
		return h, errors.New("wire: client id runs past the request")
	}
	if n > 0 {
		h.clientID = string(frame[10:at])
	}
	req := kmsg.RequestForKey(h.key)
	if req == nil {
		return h, fmt.Errorf("wire: unknown api key %d", h.key)
	}
	req.SetVersion(h.version)
	if req.IsFlexible() {
		end, err := skipTags(frame, at)
		if err != nil {
			return h, err
		}
		at = end
	}
	h.bodyAt = at
	return h, nil
}

// skipTags skips a tagged-field section (KIP-482) at b[at:].
func skipTags(b []byte, at int) (int, error) {
	count, n := binary.Uvarint(b[at:])
	if n <= 0 {
		return 0, errors.New("wire: bad tag count")
	}
	at += n
	for ; count > 0; count-- {
		_, n := binary.Uvarint(b[at:])
		if n <= 0 {
			return 0, errors.New("wire: bad tag")
		}
		at += n
		size, n := binary.Uvarint(b[at:])
		if n <= 0 || size > uint64(len(b)-at-n) {
			return 0, errors.New("wire: bad tag size")
		}
		at += n + int(size)
	}
	return at, nil
}

// Write buffers p and passes on every whole request frame it completes,
// applying the rules; it reports all of p written unless the connection
// failed.
func (c *Conn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = append(c.wbuf, p...)
	for len(c.wbuf) >= 4 {
		size := int(int32(binary.BigEndian.Uint32(c.wbuf)))
		if size < 0 || size > maxFrame {
			return 0, fmt.Errorf("wire: request frame size %d", size)
		}
		if len(c.wbuf) < 4+size {
			break
		}
		frame := append([]byte(nil), c.wbuf[:4+size]...)
		c.wbuf = c.wbuf[4+size:]
		if err := c.request(frame); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (c *Conn) request(frame []byte) error {
	h, err := parseHeader(frame[4:])
	if err != nil {
		return c.unparsed(frame, err)
	}
	req := kmsg.RequestForKey(h.key)
	req.SetVersion(h.version)
	if err := req.ReadFrom(frame[4+h.bodyAt:]); err != nil {
		return c.unparsed(frame, fmt.Errorf("wire: %s v%d: %w", kmsg.NameForKey(h.key), h.version, err))
	}
	c.f.gate()
	c.f.count(kmsg.Key(h.key), req, h.clientID)
	answered := true
	if p, ok := req.(*kmsg.ProduceRequest); ok && p.Acks == 0 {
		answered = false
	}
	rule := c.f.match(Request, kmsg.Key(h.key), req, h.corr)
	c.f.observeRequest(req, rule, answered)
	if rule != nil {
		switch rule.Action {
		case Drop:
			// An acks=0 Produce has no answer whose absence a client
			// could notice: it is gone and the connection goes on, so
			// the next send travels as the simulation's does. A lost
			// request that awaits an answer fails the connection.
			if answered {
				c.Conn.Close()
			}
			return nil
		case Delay:
			c.f.sleep(rule.Delay)
		case Hold:
			lose, dup := c.f.hold(Request, kmsg.Key(h.key), h.corr)
			if lose {
				c.Conn.Close()
				return nil
			}
			if dup {
				rule = &Rule{Key: kmsg.Key(h.key), Dir: Request, Action: Duplicate, HoldCopy: true}
				c.f.mu.Lock()
				c.f.events = append(c.f.events, Event{Duplicate, Request, kmsg.Key(h.key), h.corr})
				c.f.mu.Unlock()
			}
		}
	}
	if answered {
		c.enqueue(inflight{corr: h.corr, key: h.key, version: h.version, req: req})
	}
	if _, err := c.Conn.Write(frame); err != nil {
		return err
	}
	if rule != nil && rule.Action == Duplicate {
		dup, id := c.f.fabricateCopy(frame)
		if rule.HoldCopy {
			c.holdCopy(dup, id, h, req, answered)
			return nil
		}
		if answered {
			c.enqueue(inflight{corr: id, key: h.key, version: h.version, req: req, swallow: true})
		}
		if _, err := c.Conn.Write(dup); err != nil {
			return err
		}
	}
	return nil
}

// unparsed fails the connection on a request that does not parse, or,
// Lenient, passes it on unjudged (a frame of at least the header's first
// 8 bytes: api key, version, correlation id).
func (c *Conn) unparsed(frame []byte, err error) error {
	if !c.f.Lenient || len(frame) < 12 {
		return err
	}
	key := int16(binary.BigEndian.Uint16(frame[4:]))
	version := int16(binary.BigEndian.Uint16(frame[6:]))
	corr := int32(binary.BigEndian.Uint32(frame[8:]))
	c.enqueue(inflight{corr: corr, key: key, version: version})
	_, werr := c.Conn.Write(frame)
	return werr
}

func (c *Conn) enqueue(q inflight) {
	c.qmu.Lock()
	c.pending = append(c.pending, q)
	c.qmu.Unlock()
}

// Read hands the client response bytes, reading and judging one whole
// response frame from the broker whenever it has none ready.
func (c *Conn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	for len(c.rbuf) == 0 {
		if c.broken {
			return 0, ErrDropped
		}
		if err := c.response(); err != nil {
			return 0, err
		}
	}
	n := copy(p, c.rbuf)
	c.rbuf = c.rbuf[n:]
	return n, nil
}

func (c *Conn) response() error {
	var size [4]byte
	if _, err := io.ReadFull(c.Conn, size[:]); err != nil {
		return err
	}
	n := int(int32(binary.BigEndian.Uint32(size[:])))
	if n < 4 || n > maxFrame {
		return fmt.Errorf("wire: response frame size %d", n)
	}
	frame := make([]byte, 4+n)
	copy(frame, size[:])
	if _, err := io.ReadFull(c.Conn, frame[4:]); err != nil {
		return err
	}
	corr := int32(binary.BigEndian.Uint32(frame[4:]))
	c.qmu.Lock()
	if len(c.pending) == 0 {
		c.qmu.Unlock()
		return fmt.Errorf("wire: response with correlation id %d to no request", corr)
	}
	head := c.pending[0]
	c.pending = c.pending[1:]
	c.qmu.Unlock()
	if head.corr != corr {
		return fmt.Errorf("wire: response correlation id %d, want %d (%s)", corr, head.corr, kmsg.NameForKey(head.key))
	}
	if head.swallow {
		c.f.observeResponse(head.req, frame, nil, true)
		return nil
	}
	rule := c.f.match(Response, kmsg.Key(head.key), head.req, corr)
	c.f.observeResponse(head.req, frame, rule, false)
	if rule != nil {
		switch rule.Action {
		case Drop:
			c.broken = true
			c.Conn.Close()
			return nil
		case Delay:
			c.f.sleep(rule.Delay)
		case Hold:
			if lose, _ := c.f.hold(Response, kmsg.Key(head.key), corr); lose {
				c.broken = true
				c.Conn.Close()
				return nil
			}
		}
	}
	c.rbuf = frame
	return nil
}
