// Package search finds the shortest schedule that breaks a guarantee: a
// bounded search over what a waiting world may do next (which message the
// network delivers, drops, duplicates or holds back, which client call
// comes next, a client crashing, restarting or pausing), from a world a
// scenario set up, until one of the engine's monitors (engine.Monitors)
// reports a violation.
//
// The search is iterative deepening: depth-first to a bound that grows by
// one, so the first schedule found is a shortest one, and memory holds one
// path of worlds plus a table of the states seen (engine.World.StateHash),
// which keeps any state from being explored twice at a depth it was
// already reached at. The worlds at the bound are checked and not put in
// the table, since none is explored further; so the table holds the
// states within bound-1 actions, and a bound whose table is no bigger
// than the last one's has found every reachable state. Each move is tried
// on a copy made into a world the search keeps per depth
// (engine.World.CloneForSearchInto), but a world's last move, which is
// tried on the world itself (no other move of it follows; the start
// excepted, which the search never changes). The order moves are tried in is fixed (messages in
// delivery order, then timers, then clients in declaration order), so the
// same start gives the same schedule on every run.
//
// The table (table.go) keeps each state's 64-bit hash and a byte of
// depth, 9 bytes a slot, some 19 to 24 bytes a state with its room to
// grow: Options.MaxStates bounds it, and with it the search's memory (the
// rest is one world per depth), and a search that fills it stops and says
// so (Result.Full). Two states with one hash are taken for one, a chance
// of about n*n/2^65 among n states (table).
//
// It imports the engine and the standard library only.
package search

import (
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// Options bound a search.
type Options struct {
	// Invariant is the monitor to break (engine.InvariantNames); ""
	// is any of them.
	Invariant string
	// Depth is the longest schedule tried, in actions.
	Depth int
	// MaxStates is the most distinct states kept in the table: the
	// search stops when it is full (Result.Full).
	MaxStates int
	// Sends is the most records each producer client sends (its values
	// are the client's name in lower case and a count: p1, p2).
	Sends int
	// Without are the kinds of fault the search leaves out (none: all).
	Without Faults
	// Done, if set, is told each bound searched in full and the states
	// seen within it (for a progress line: a deep search takes minutes).
	Done func(depth, states int)
	// countBound makes the search count the distinct states at the
	// bound too (Result.reached), hashing every world it checks there: a
	// benchmark's measure, which costs the search a fifth more.
	countBound bool
}

// Faults is a set of the kinds of fault a search may try.
type Faults uint8

// The kinds of fault.
const (
	FaultDrop      Faults = 1 << iota // the network loses a message
	FaultDuplicate                    // the network delivers a message twice
	FaultDelay                        // the network holds a message back past the next timer
	FaultCrash                        // a client crashes, and restarts
	FaultPause                        // a client stops (a long GC pause), and goes on
)

// FaultNames are the kinds' names, in order, as the CLI takes them.
// GCPercent is the garbage collector's pace a search runs at (eoslab
// break sets it, and the benchmarks measure under it): a search makes a
// copy of a world per move and keeps few, and at the default pace the
// collector's work was a quarter of the search's; a slower pace costs a
// few megabytes.
const GCPercent = 400

var FaultNames = []string{"drop", "duplicate", "delay", "crash", "pause"}

// FaultByName is the kind named n (FaultNames), 0 if none.
func FaultByName(n string) Faults {
	for i, f := range FaultNames {
		if f == n {
			return 1 << i
		}
	}
	return 0
}

// Result is what a search found.
type Result struct {
	// Found reports a schedule that breaks the invariant; Schedule is
	// it, shortest first found.
	Found    bool
	Schedule []engine.Action
	// States is the distinct states explored (in the bound that saw
	// the most), the ones short of the bound; Leaves the worlds checked
	// at the bound itself (not hashed, so some may be one state reached
	// twice). Depth is the deepest bound searched completely (or, when
	// Found, the schedule's length).
	States int
	Leaves int
	Depth  int
	// Tried is the moves tried, over every bound: each a copy of a
	// world stepped once (most lead to a state already seen).
	Tried int
	// Full reports that the table of states reached MaxStates before
	// the search was done: no schedule was found within what it saw.
	Full bool
	// reached is, with Options.countBound, the distinct states within
	// the last bound searched, the ones at the bound included.
	reached int
}

// Find searches from start, which it does not change.
func Find(start *engine.World, o Options) Result {
	s := &searcher{o: o, seen: newTable(), hasher: engine.NewStateHasher(), gen: newMoveGen(start, o)}
	if violations(start, o.Invariant) > 0 {
		return Result{Found: true, States: 1}
	}
	sends := s.initialSends(start)
	var res Result
	prevSeen := 0
	for bound := 1; bound <= o.Depth; bound++ {
		s.seen.reset()
		s.seen.put(mix(s.hasher.Hash(start), sends), 0)
		s.bound, s.leaves = bound, 0
		s.path = s.path[:0]
		if o.countBound {
			s.reached = map[uint64]struct{}{}
		}
		found := s.dfs(start, sends, 0)
		if o.countBound {
			s.seen.each(func(h uint64) { s.reached[key(h)] = struct{}{} })
			res.reached = len(s.reached)
		}
		// The table holds this bound's states; the last bound's may be
		// more when this one stopped early, at a schedule.
		if s.seen.len()+s.leaves > res.States+res.Leaves {
			res.States, res.Leaves = s.seen.len(), s.leaves
		}
		res.Tried = s.tried
		if found {
			res.Found, res.Depth = true, len(s.path)
			res.Schedule = append([]engine.Action(nil), s.path...)
			return res
		}
		if s.full {
			res.Full = true
			return res
		}
		res.Depth = bound
		if o.Done != nil {
			o.Done(bound, res.States)
		}
		if bound > 1 && s.seen.len() == prevSeen {
			// The table holds the states within bound-1 actions, the
			// last bound's those within bound-2: no new state is one
			// action further, so every state reachable has been
			// explored, and a deeper bound finds nothing new.
			res.Depth = o.Depth
			return res
		}
		prevSeen = s.seen.len()
	}
	return res
}

type searcher struct {
	o       Options
	seen    *table // state hash -> the shallowest depth it was reached at, this bound
	bound   int
	path    []engine.Action
	scratch engine.SearchScratch
	hasher  *engine.StateHasher
	full    bool
	tried   int
	leaves  int // worlds checked at the bound, this bound
	reached map[uint64]struct{}
	moves   [][]move
	gen     *moveGen
	// pool holds the world each depth's moves are tried on, one at a
	// time: the copy for a move at depth d is made into pool[d], which
	// the move before it (its subtree explored) no longer needs.
	pool []*engine.World
}

// violations counts the violations of inv, of every invariant when inv
// is "".
func violations(w *engine.World, inv string) int {
	if inv != "" {
		return w.ViolationCount(inv)
	}
	n := 0
	for _, name := range allInvariants {
		n += w.ViolationCount(name)
	}
	return n
}

// allInvariants are the invariants "" stands for.
var allInvariants = engine.InvariantNames()

// sendCounts are the sends each producer made on a path, indexed as
// engine.World.AllProducers: they name the next value, and bound the
// records a path may send (Options.Sends).
type sendCounts string

func (s *searcher) initialSends(w *engine.World) sendCounts {
	return sendCounts(make([]byte, len(w.AllProducers())))
}

// after is the counts after move m.
func (c sendCounts) after(m move) sendCounts {
	if m.Sender < 0 {
		return c
	}
	b := []byte(c)
	b[m.Sender]++
	return sendCounts(b)
}

func mix(h uint64, c sendCounts) uint64 {
	for i := 0; i < len(c); i++ {
		h ^= uint64(c[i]+1) << (8 * (i % 8))
		h *= 0x9E3779B97F4A7C15
	}
	return h
}

// dfs explores the moves from w at depth d; it reports whether one of
// them (or what follows it) breaks the invariant, with s.path the schedule.
func (s *searcher) dfs(w *engine.World, sends sendCounts, d int) bool {
	for len(s.moves) <= d {
		s.moves = append(s.moves, nil)
		s.pool = append(s.pool, nil)
	}
	s.moves[d] = s.gen.moves(w, sends, s.moves[d][:0])
	last := len(s.moves[d]) - 1
	for i, m := range s.moves[d] {
		s.tried++
		var c *engine.World
		if i == last && d > 0 {
			// The last move is tried on w itself, which is pool[d-1]: no
			// move of depth d-1 reads it after this one (the next is
			// copied into it anew). The start is never changed.
			c = w
		} else {
			c = w.CloneForSearchInto(s.pool[d], &s.scratch)
			s.pool[d] = c
		}
		if err := c.ApplyForSearch(m.Action); err != nil {
			continue // refused here: not a move of this world
		}
		s.path = append(s.path[:d], m.Action)
		if violations(c, s.o.Invariant) > 0 {
			return true
		}
		if d+1 == s.bound {
			// A world at the bound is checked (above) and not explored:
			// putting it in the table would save nothing this bound, and
			// the next bound clears the table. Hashing it cost a third
			// of the search.
			s.leaves++
			if s.o.countBound {
				s.reached[key(mix(s.hasher.Hash(c), sends.after(m)))] = struct{}{}
			}
			continue
		}
		next := sends.after(m)
		h := mix(s.hasher.Hash(c), next)
		at, ok := s.seen.get(h)
		if ok && int(at) <= d+1 {
			continue
		}
		if !ok && s.seen.len() >= s.o.MaxStates {
			s.full = true
			return false
		}
		s.seen.put(h, uint8(d+1))
		if s.dfs(c, next, d+1) {
			return true
		}
		if s.full {
			return false
		}
	}
	return false
}

// move is one choice of a waiting world: an action, and for a send the
// index of its producer (in Producers), -1 for any other.
type move struct {
	Action engine.Action
	Sender int
}

// moveGen lists the moves of the worlds of one search (moves): what is
// the same in all of them (the partitions, the values each send sends)
// is worked out once, and the lists it builds are reused.
type moveGen struct {
	o       Options
	scratch engine.SearchScratch
	pending []engine.PendingItem
	parts   []engine.TP
	// The actions, made once (an action put into the Action interface
	// was a tenth of the search's allocations): sends[i][k][j] is
	// producer i's send k+1 (AllProducers order) to partition j, calls[i]
	// client i's calls in the order moves lists them (producers, then
	// processors, then consumers), faults[i] its crash, restart, pause
	// and resume (producers, then processors); msgs[id] the delivery,
	// drop and duplicate of message id, made as ids come.
	sends  [][][]engine.Action
	calls  [][]engine.Action
	faults [][4]engine.Action
	msgs   map[int64]*[3]engine.Action
	// delays[{id, ms}] is the delay of message id by ms, made as they
	// come (a Delay made per world was a twentieth of the allocations).
	delays map[[2]int64]engine.Action
}

// newMoveGen makes the moveGen of the worlds a search makes from start:
// they have start's topics and clients (a search makes no declaration).
func newMoveGen(start *engine.World, o Options) *moveGen {
	g := &moveGen{o: o, msgs: map[int64]*[3]engine.Action{}, delays: map[[2]int64]engine.Action{}}
	for _, t := range start.Topics() {
		if strings.HasPrefix(t.Name, "__") {
			continue
		}
		for p := int32(0); p < t.Partitions; p++ {
			g.parts = append(g.parts, engine.TP{Topic: t.Name, Partition: p})
		}
	}
	producers, consumers, processors := start.SearchClients()
	for _, p := range producers {
		var sends [][]engine.Action
		for k := 1; k <= o.Sends; k++ {
			v := []string{strings.ToLower(p.Name) + strconv.Itoa(k)}
			var to []engine.Action
			for _, tp := range g.parts {
				to = append(to, engine.Send{Client: p.Name, TP: tp, Values: v})
			}
			sends = append(sends, to)
		}
		g.sends = append(g.sends, sends)
		var calls []engine.Action
		if p.Config.TransactionalID != "" {
			for _, m := range txnCalls {
				calls = append(calls, engine.Call{Client: p.Name, Method: m})
			}
		}
		g.calls = append(g.calls, calls)
	}
	for _, pr := range processors {
		g.calls = append(g.calls, []engine.Action{engine.Call{Client: pr.Name, Method: engine.CallProcess}})
	}
	for _, c := range consumers {
		g.calls = append(g.calls, []engine.Action{engine.Call{Client: c.Name, Method: engine.CallPoll}})
	}
	fault := func(name string) {
		t := engine.Target{Client: name}
		g.faults = append(g.faults, [4]engine.Action{engine.Crash{Target: t}, engine.Restart{Target: t},
			engine.Pause{Client: name}, engine.Resume{Client: name}})
	}
	for _, p := range producers {
		fault(p.Name)
	}
	for _, pr := range processors {
		fault(pr.Name)
	}
	return g
}

// msgMoves are the delivery, drop and duplicate of message id.
func (g *moveGen) msgMoves(id int64) *[3]engine.Action {
	a := g.msgs[id]
	if a == nil {
		sel := engine.Selector{ID: id}
		a = &[3]engine.Action{engine.Deliver{Msg: sel}, engine.Drop{Msg: sel}, engine.Duplicate{Msg: sel}}
		g.msgs[id] = a
	}
	return a
}

// delay is the delay of message id by ms.
func (g *moveGen) delay(id, ms int64) engine.Action {
	k := [2]int64{id, ms}
	a, ok := g.delays[k]
	if !ok {
		a = engine.Delay{Msg: engine.Selector{ID: id}, Ms: ms}
		g.delays[k] = a
	}
	return a
}

// moves appends the choices of w to dst, in the search's order: for each
// message in flight, in delivery order, deliver it now (ahead of any
// message before it), drop it, duplicate it, or hold it back until just
// after the next timer; then the next scheduled item (a timer, when one
// is first); then each producer's calls (a send to each partition while
// it has sends left of max, and the transaction calls of a transactional
// one), each processor's process, each consumer's poll; then each
// client's crash or restart, pause or resume. A move the engine refuses
// in w is dropped by the search when it tries it.
func (g *moveGen) moves(w *engine.World, sends sendCounts, dst []move) []move {
	o := g.o
	add := func(a engine.Action) { dst = append(dst, move{Action: a, Sender: -1}) }
	may := func(f Faults) bool { return o.Without&f == 0 }
	// The items in the order Step takes them; timerAt is the first
	// client timer's time (a request timeout, a retry backoff), past the
	// coordinator's periodic checks.
	all := w.PendingInto(g.pending[:0], &g.scratch)
	g.pending = all
	timerAt := int64(-1)
	for _, it := range all {
		if it.Msg == nil && it.Timer.Kind != engine.TimerAbortCheck && it.Timer.Kind != engine.TimerExpiryCheck {
			timerAt = it.At
			break
		}
	}
	for _, it := range all {
		m := it.Msg
		if m == nil {
			continue
		}
		acts := g.msgMoves(m.ID)
		add(acts[0])
		if may(FaultDrop) {
			add(acts[1])
		}
		if may(FaultDuplicate) {
			add(acts[2])
		}
		if may(FaultDelay) && timerAt >= 0 && it.At <= timerAt {
			add(g.delay(m.ID, timerAt-it.At+1))
		}
	}
	if len(all) > 0 && all[0].Msg == nil {
		// The next item is a timer (with a message first, step is the
		// delivery of that message, tried above).
		add(engine.Step{})
	}
	if len(all) > 0 {
		// Time passing to the next client timer (a request timeout, a
		// retry backoff): what is due before it happens on the way, the
		// coordinator's periodic checks included.
		if timerAt > w.Now() && all[0].At < timerAt {
			add(engine.Advance{Ms: timerAt - w.Now()})
		}
	}
	producers, _, processors := w.SearchClients()
	for i := range producers {
		if int(sends[i]) < o.Sends {
			for _, a := range g.sends[i][sends[i]] {
				dst = append(dst, move{Action: a, Sender: i})
			}
		}
		for _, a := range g.calls[i] {
			add(a)
		}
	}
	for _, calls := range g.calls[len(producers):] {
		for _, a := range calls {
			add(a)
		}
	}
	faults := func(i int, crashed, paused bool) {
		f := &g.faults[i]
		if crashed {
			if may(FaultCrash) {
				add(f[1])
			}
			return
		}
		if may(FaultCrash) {
			add(f[0])
		}
		if !may(FaultPause) {
			return
		}
		if paused {
			add(f[3])
		} else {
			add(f[2])
		}
	}
	for i, p := range producers {
		faults(i, p.Crashed, p.Paused)
	}
	for i, pr := range processors {
		faults(len(producers)+i, pr.Producer.Crashed, pr.Producer.Paused)
	}
	return dst
}

var txnCalls = []engine.Method{engine.CallInitTransactions, engine.CallBeginTransaction,
	engine.CallCommitTransaction, engine.CallAbortTransaction}
