package serve

import (
	"crypto/rand"
	"sync"
	"time"
)

// limiter holds back an address after a burst of failed logins: a token
// bucket per address that only failures drain. A class behind one NAT
// shares an address, and its students log in with the right code, so
// they are never held back by it; a guesser is, after burst tries, to one
// try every refill.
type limiter struct {
	mu     sync.Mutex
	burst  int
	refill time.Duration
	now    func() time.Time
	seen   map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxAddrs bounds the table: when it is full, the addresses whose bucket
// has refilled go, and if that frees nothing, the table starts afresh.
const maxAddrs = 4096

func newLimiter(burst int, refill time.Duration) *limiter {
	return &limiter{burst: burst, refill: refill, now: time.Now, seen: map[string]*bucket{}}
}

func (l *limiter) level(ip string) *bucket {
	now := l.now()
	b := l.seen[ip]
	if b == nil {
		if len(l.seen) >= maxAddrs {
			for k, o := range l.seen {
				if now.Sub(o.at) > time.Duration(l.burst)*l.refill {
					delete(l.seen, k)
				}
			}
			if len(l.seen) >= maxAddrs {
				clear(l.seen)
			}
		}
		b = &bucket{tokens: float64(l.burst), at: now}
		l.seen[ip] = b
		return b
	}
	b.tokens = min(float64(l.burst), b.tokens+float64(now.Sub(b.at))/float64(l.refill))
	b.at = now
	return b
}

// allow reports whether ip may try to log in now.
func (l *limiter) allow(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.level(ip).tokens >= 1
}

// fail counts a failed login from ip.
func (l *limiter) fail(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.level(ip)
	b.tokens = max(b.tokens-1, 0)
}

// NewCode makes up a code of n letters and digits for the class or the
// presenter, without look-alikes (0/o, 1/l/i).
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
