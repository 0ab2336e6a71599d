package serve

import (
	"container/list"
	"crypto/rand"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// limiter slows wrong codes down rather than refusing anyone. A wrong try
// waits before its answer, longer with each wrong try of its connection
// and with the recent wrong tries of its seat name (a token bucket per
// name that only failures drain). The right code is never refused or held
// back: a class behind one NAT shares an address, and one student's typos
// must not keep the others out. Guessing stays slow all the same: a
// connection has x/crypto's MaxAuthTries (6) tries, the gate bounds the
// connections an address may have logging in, and each wrong try waits.
type limiter struct {
	mu     sync.Mutex
	burst  int
	refill time.Duration
	step   time.Duration
	now    func() time.Time
	seen   map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxNames bounds the table: when it is full, the names whose bucket has
// refilled go, and if that frees nothing, the table starts afresh.
const maxNames = 4096

// maxFailDelay is the longest a wrong try waits.
const maxFailDelay = 3 * time.Second

func newLimiter(burst int, refill, step time.Duration) *limiter {
	return &limiter{burst: burst, refill: refill, step: step, now: time.Now, seen: map[string]*bucket{}}
}

// nameKey is a seat name as the limiter counts it: folded, and cut, so a
// long name costs no more than a short one.
func nameKey(seat string) string {
	if len(seat) > 64 {
		seat = seat[:64]
	}
	return strings.ToLower(seat)
}

func (l *limiter) level(seat string) *bucket {
	now := l.now()
	k := nameKey(seat)
	b := l.seen[k]
	if b == nil {
		if len(l.seen) >= maxNames {
			for k, o := range l.seen {
				if now.Sub(o.at) > time.Duration(l.burst)*l.refill {
					delete(l.seen, k)
				}
			}
			if len(l.seen) >= maxNames {
				clear(l.seen)
			}
		}
		b = &bucket{tokens: float64(l.burst), at: now}
		l.seen[k] = b
		return b
	}
	b.tokens = min(float64(l.burst), b.tokens+float64(now.Sub(b.at))/float64(l.refill))
	b.at = now
	return b
}

// fail counts a wrong try at seat.
func (l *limiter) fail(seat string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.level(seat)
	b.tokens = max(b.tokens-1, 0)
}

// delay is how long a wrong try waits: a step for each earlier wrong try
// of its connection (connFails counts this one) or each recent one of its
// seat name, whichever is more, up to maxFailDelay.
func (l *limiter) delay(seat string, connFails int) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := max(connFails-1, int(float64(l.burst)-l.level(seat).tokens))
	return min(time.Duration(n)*l.step, maxFailDelay)
}

// gate bounds the connections that have not opened a session yet, per
// address and in all. A new connection is always let in: when a bound is
// reached, the oldest waiting connection that has not sent a byte goes
// (else the oldest), so a flood of idle connections cannot keep the
// presenter or a student out, and a student typing the code is not the
// first to go.
type gate struct {
	mu      sync.Mutex
	perAddr int
	total   int
	pending list.List // of *gated, oldest first
	byAddr  map[string]int
}

type gated struct {
	net.Conn
	g        *gate
	addr     string
	el       *list.Element
	spoke    atomic.Bool
	login    time.Duration
	once     sync.Once
	released atomic.Bool
}

func newGate(perAddr, total int) *gate {
	return &gate{perAddr: perAddr, total: total, byAddr: map[string]int{}}
}

// admit registers c, making room for it; the connections made to go are
// closed.
func (g *gate) admit(c net.Conn, addr string, login time.Duration) *gated {
	x := &gated{Conn: c, g: g, addr: addr, login: login}
	var out []*gated
	g.mu.Lock()
	if g.byAddr[addr] >= g.perAddr {
		out = append(out, g.evict(addr))
	}
	if g.pending.Len() >= g.total {
		out = append(out, g.evict(""))
	}
	x.el = g.pending.PushBack(x)
	g.byAddr[addr]++
	g.mu.Unlock()
	for _, o := range out {
		if o != nil {
			o.Conn.Close()
		}
	}
	return x
}

// evict takes the oldest silent waiting connection of addr ("": of any
// address) off the list, else the oldest; g.mu is held.
func (g *gate) evict(addr string) *gated {
	var first *gated
	for e := g.pending.Front(); e != nil; e = e.Next() {
		o := e.Value.(*gated)
		if addr != "" && o.addr != addr {
			continue
		}
		if !o.spoke.Load() {
			g.remove(o)
			return o
		}
		if first == nil {
			first = o
		}
	}
	if first != nil {
		g.remove(first)
	}
	return first
}

func (g *gate) remove(x *gated) {
	if x.el == nil {
		return
	}
	g.pending.Remove(x.el)
	x.el = nil
	if g.byAddr[x.addr]--; g.byAddr[x.addr] <= 0 {
		delete(g.byAddr, x.addr)
	}
}

// done takes x off the waiting list: it opened its session, or closed.
func (x *gated) done() {
	x.g.mu.Lock()
	x.g.remove(x)
	x.g.mu.Unlock()
}

// Read notes the first byte: the client has started SSH, and has the
// login deadline from now instead of the short first one.
func (x *gated) Read(b []byte) (int, error) {
	n, err := x.Conn.Read(b)
	if n > 0 && !x.spoke.Load() {
		x.spoke.Store(true)
		if !x.released.Load() {
			_ = x.Conn.SetDeadline(time.Now().Add(x.login))
		}
	}
	return n, err
}

// release ends the deadlines: the session is open.
func (x *gated) release() {
	x.released.Store(true)
	_ = x.Conn.SetDeadline(time.Time{})
	x.done()
}

func (x *gated) Close() error {
	x.once.Do(x.done)
	return x.Conn.Close()
}

// inputCap bounds what one session's program reads: a burst, then a
// typist's pace. Past it, input is dropped before Bubble Tea parses it, so
// a client sending garbage as fast as it can costs the server the
// decryption only.
type inputCap struct {
	burst, rate float64 // bytes, bytes a second
	tokens      float64
	at          time.Time
	now         func() time.Time
}

// keep is how many of n bytes read at once go to the program: all or
// none.
func (c *inputCap) keep(n int) int {
	now := c.now()
	if c.at.IsZero() {
		c.tokens = c.burst
	} else {
		c.tokens = min(c.burst, c.tokens+now.Sub(c.at).Seconds()*c.rate)
	}
	c.at = now
	// A read goes whole or not at all: a cut one would end inside an
	// escape sequence and make up keys.
	if float64(n) > c.tokens {
		return 0
	}
	c.tokens -= float64(n)
	return n
}

// NewCode makes up a code of n letters and digits for the class, the
// presenter or a seat, without look-alikes (0/o, 1/l/i).
func NewCode(n int) string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	out := make([]byte, 0, n)
	b := make([]byte, 1)
	for len(out) < n {
		if _, err := rand.Read(b); err != nil {
			panic("eoslab: no randomness for a code: " + err.Error())
		}
		// Bytes past the last whole multiple of the alphabet would
		// favour its first letters.
		if int(b[0]) < 256-256%len(alphabet) {
			out = append(out, alphabet[int(b[0])%len(alphabet)])
		}
	}
	return string(out)
}
