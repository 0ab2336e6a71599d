package engine

// Monitors are the invariants as a learner reads them: one plain sentence
// per guarantee, shown with a tick while it holds and a cross once it is
// broken. MonitorStatus is what the sandbox draws every frame, so it reads
// counts kept as violations happen (monitorViolated) and never the history.

// Monitor is one guarantee the engine watches.
type Monitor struct {
	// Invariant is the invariant's name (InvDuplicateRecord, ...).
	Invariant string
	// Holds is the guarantee as a plain sentence, true while no violation
	// of the invariant happened: "no record was written twice".
	Holds string
	// Broken is the sentence once it has been violated.
	Broken string
}

// Monitors lists the guarantees, in the order of InvariantNames.
var Monitors = []Monitor{
	{Invariant: InvDuplicateSequence, Holds: "no batch was appended twice with the same producer id, epoch and sequence",
		Broken: "a batch was appended twice with the same producer id, epoch and sequence"},
	{Invariant: InvDuplicateRecord, Holds: "no record was written twice",
		Broken: "a record sent once was written twice"},
	{Invariant: InvUncommittedRead, Holds: "read_committed never returned aborted or open data",
		Broken: "a read_committed consumer returned aborted or open transactional data"},
	{Invariant: InvWatermarks, Holds: "LSO <= high watermark <= log end offset on every partition",
		Broken: "a partition's LSO, high watermark and log end offset are out of order"},
	{Invariant: InvFencedWrite, Holds: "no write from a fenced producer was accepted",
		Broken: "a write from a fenced producer was accepted"},
	{Invariant: InvAtomicVisibility, Holds: "a transaction committed on all its partitions or none",
		Broken: "a transaction committed on some partitions and aborted on others"},
	{Invariant: InvOffsetsAtomic, Holds: "outputs and input offsets committed together",
		Broken: "input offsets were committed without their outputs, or with two"},
	{Invariant: InvIllegalTransition, Holds: "every state machine kept to its transitions",
		Broken: "a state machine made a transition its table does not allow"},
}

// MonitorState is a monitor and what became of it.
type MonitorState struct {
	Monitor
	// Broken reports whether the invariant has been violated; Count is
	// how many times.
	Broken bool
	Count  int
	// First is the first violation (the zero Violation when none), and
	// FirstIndex its index in the violation list (-1 when none): the
	// argument of Cause.
	First      Violation
	FirstIndex int
}

// monitorCount is one invariant's count and first violation (its index
// in Violations, plus one: 0 when none). World holds one per invariant in
// a fixed array, which Clone copies with the world.
type monitorCount struct {
	count int32
	first int32
}

// invariantIndex is the invariant's position in InvariantNames, -1 if none.
func invariantIndex(name string) int {
	for i, n := range InvariantNames {
		if n == name {
			return i
		}
	}
	return -1
}

// monitorViolated counts violation i.
func (w *World) monitorViolated(i int) {
	k := invariantIndex(w.Violations[i].Name)
	if k < 0 {
		return
	}
	m := &w.monitors[k]
	if m.first == 0 {
		m.first = int32(i) + 1
	}
	m.count++
}

// MonitorStatus is every monitor's state, in the order of Monitors. It
// reads the counts kept as violations happen: its cost does not grow with
// the history. MonitorStatusInto reuses a slice.
func (w *World) MonitorStatus() []MonitorState {
	return w.MonitorStatusInto(make([]MonitorState, 0, len(Monitors)))
}

// MonitorStatusInto appends every monitor's state to dst[:0] and returns
// it: with a dst of len(Monitors) capacity it allocates nothing.
func (w *World) MonitorStatusInto(dst []MonitorState) []MonitorState {
	dst = dst[:0]
	for _, m := range Monitors {
		s := MonitorState{Monitor: m, FirstIndex: -1}
		if k := invariantIndex(m.Invariant); k >= 0 {
			c := w.monitors[k]
			s.Count = int(c.count)
			if c.first > 0 && int(c.first) <= len(w.Violations) {
				s.Broken = true
				s.FirstIndex = int(c.first) - 1
				s.First = w.Violations[s.FirstIndex]
			}
		}
		dst = append(dst, s)
	}
	return dst
}
