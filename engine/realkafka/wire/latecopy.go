package wire

import (
	"encoding/binary"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// A late copy is the scenario language's duplicate followed by a delay of
// the same request: the network delivers the request twice and holds one
// copy up. With Rule.HoldCopy a Duplicate writes the original at once and
// holds the copy (Held lists it, with the copy's own correlation id, and
// Release, ReleaseCorr or ReleaseAll let it go, as any held message); let
// go, the copy is written to the broker then and its answer is read and
// swallowed, so the broker acts on it whether or not the client has a
// request of its own outstanding.

// holdCopy parks the copy dup (a whole frame carrying correlation id id)
// of a request on c until it is released.
func (c *Conn) holdCopy(dup []byte, id int32, h header, req kmsg.Request, answered bool) {
	hd := &held{Held: Held{Key: kmsg.Key(h.key), Dir: Request, CorrID: id, Copy: true}, release: make(chan bool, 1)}
	c.f.mu.Lock()
	c.f.holds = append(c.f.holds, hd)
	c.f.copies++
	c.f.mu.Unlock()
	go func() {
		lose := <-hd.release
		defer c.f.copyDone()
		if lose {
			return
		}
		c.wmu.Lock()
		if answered {
			c.enqueue(inflight{corr: id, key: h.key, version: h.version, req: req, swallow: true})
		}
		_, err := c.Conn.Write(dup)
		c.wmu.Unlock()
		if err != nil {
			return
		}
		if c.f.Observe != nil {
			c.f.Observe(Exchange{Req: req, Copy: true, Unanswered: !answered})
		}
		if !answered {
			return
		}
		c.readCopy(id)
	}()
}

// readCopy reads the broker's answer to the copy with correlation id id
// when it is next on the connection; a client read that comes first
// swallows it as well. It gives up when the connection fails.
func (c *Conn) readCopy(id int32) {
	for {
		c.rmu.Lock()
		c.qmu.Lock()
		at := -1
		for i, q := range c.pending {
			if q.corr == id {
				at = i
				break
			}
		}
		c.qmu.Unlock()
		switch {
		case at < 0 || c.broken:
			c.rmu.Unlock()
			return
		case at == 0 && len(c.rbuf) == 0:
			err := c.response()
			c.rmu.Unlock()
			if err != nil {
				return
			}
			continue
		}
		c.rmu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
}

func (f *Faults) copyDone() {
	f.mu.Lock()
	f.copies--
	f.mu.Unlock()
}

// CopiesPending is how many held copies were not released yet or whose
// answer was not read yet: 0 once the broker answered every copy let go.
func (f *Faults) CopiesPending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.copies
}

// fabricateCopy is the copy of frame under a correlation id of the
// wrapper's own.
func (f *Faults) fabricateCopy(frame []byte) ([]byte, int32) {
	dup := append([]byte(nil), frame...)
	id := f.fabricate()
	binary.BigEndian.PutUint32(dup[4+4:], uint32(id))
	return dup, id
}
