package adapt

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/model"
)

// Bounds on what one frame shows. The panels scroll, but a frame is rebuilt
// at every step, so each list keeps only its newest entries.
const (
	maxEvents  = 200    // event lines
	maxRows    = 500    // batches per partition
	maxRecords = 200    // records per consumer
	maxWrites  = 100    // __transaction_state records per transactional id
	maxArrows  = 400    // messages in the sequence diagram
	paraBreak  = "\n\n" // between paragraphs of narration
)

// build makes the frame of position pos, without its checkpoint. What the
// step to pos changed, as the engine noted it while running the step
// (lessons.Player.ChangesAt), is marked Changed; position 0, the setup,
// marks nothing.
func (s *Session) build(pos int) model.Frame {
	w := s.p.WorldAt(pos)
	ch := changes{pos: pos}
	if pos > 0 {
		ch.set = s.p.ChangesAt(pos)
	}
	l := s.p.Lesson()
	f := model.Frame{Step: pos, Steps: s.p.Len(), Kafka: l.Kafka}
	if l.Kafka != 0 {
		f.Protocol = w.Config().TransactionVersion
	}
	if st := s.p.StepAt(pos); st != nil {
		f.Title, f.Narration, f.Note = st.Title, st.Say, st.Note
		f.More, f.Source, f.Versions = st.More, st.Source, st.Versions
	} else {
		f.Narration = l.Title + paraBreak + l.Summary
		if l.Intro != "" {
			f.Narration += paraBreak + l.Intro
		}
	}
	f.Producers = producerViews(w, &ch)
	if s.countsCost(l) {
		f.Cost = costView(w, &ch)
	}
	f.Partitions = s.partitionViews(w, &ch)
	f.Coordinators = s.coordinatorViews(w, &ch)
	f.Consumers = consumerViews(w, &ch)
	f.Groups = groupViews(w, &ch)
	f.Timeline, f.Actors = s.hist.frame(s.p, w, pos)
	f.Events, f.NewEvents = s.eventLines(w, &ch)
	f.Violations = violations(w, &ch)
	if st := s.p.StepAt(pos); st != nil {
		f.Show = subjects(&f, st.Show)
		markNamedRows(&f, st)
	}
	for _, e := range s.p.ProblemsAt(pos) {
		f.Violations = append(f.Violations, model.Violation{Name: "lesson", Text: e.Error()})
	}
	return f
}

// changes is what the step to a position changed, as the engine noted it.
// At position 0 nothing is marked, and every event counts as new.
type changes struct {
	pos int
	set engine.ChangeSet
}

// client reports whether a client acted, which is when its state changed
// (engine.ChangeSet.Actors).
func (c *changes) client(name string) bool { return c.pos > 0 && c.set.Actor(name) }

// group reports whether a consumer group's members, generation or offsets
// changed.
func (c *changes) group(id string) bool { return c.pos > 0 && c.set.Group(id) }

// txnID reports whether a transactional id's coordinator entry changed.
func (c *changes) txnID(id string) bool { return c.pos > 0 && c.set.TxnID(id) }

// partition reports whether a partition changed, and the log end offset
// before the change: a row at or past it is new.
func (c *changes) partition(tp engine.TP) (fromLEO int64, ok bool) {
	if c.pos == 0 {
		return 0, false
	}
	return c.set.Partition(tp)
}

// received is how many records a consumer had returned before the step.
func (c *changes) received(x *engine.Consumer) int {
	if c.pos == 0 {
		return len(x.Received)
	}
	if from, ok := c.set.ReceivedFrom(x.Name); ok {
		return from
	}
	return len(x.Received)
}

// firstEvent and firstViolation index the step's first event and
// violation.
func (c *changes) firstEvent() int {
	if c.pos == 0 {
		return 0
	}
	return c.set.FirstEvent
}

func (c *changes) firstViolation() int {
	if c.pos == 0 {
		return 0
	}
	return c.set.FirstViolation
}

// eventLines returns the recent events, each once, in parts
// (trail), and how many of them are new.
func (s *Session) eventLines(w *engine.World, ch *changes) ([]model.EventLine, int) {
	n := w.EventCount()
	out := s.events.window(w, max(0, n-maxEvents), n)
	return out, min(n-min(ch.firstEvent(), n), len(out))
}

func violations(w *engine.World, ch *changes) []model.Violation {
	var out []model.Violation
	for _, v := range w.Violations()[min(ch.firstViolation(), len(w.Violations())):] {
		out = append(out, model.Violation{Name: v.Name, Text: v.Text()})
	}
	return out
}

func producerViews(w *engine.World, ch *changes) []model.ProducerView {
	ps := w.AllProducers()
	out := make([]model.ProducerView, len(ps))
	for i, p := range ps {
		v := model.ProducerView{Name: p.Name, TransactionalID: p.Config.TransactionalID, ProducerID: p.ProducerID,
			Epoch: p.Epoch, State: p.State.String(), StateTone: clientTone(p.State), InFlight: len(p.InFlight),
			Paused: p.Paused, Crashed: p.Crashed, Fenced: p.LastError == engine.ProducerFenced,
			NotIdempotent: !p.Config.Idempotence, Changed: ch.client(p.Name)}
		if p.LastError != engine.None {
			v.LastError, v.ErrorTone = p.LastError.String(), errorTone(p.LastError)
		}
		for _, ps := range p.Parts {
			v.NextSeq = append(v.NextSeq, model.PartitionSeq{Partition: ps.TP.String(), Seq: ps.NextSeq})
		}
		out[i] = v
	}
	return out
}

// countsCost reports whether a lesson counts what exactly-once costs: a
// step of it expects a number of requests. Such a lesson shows the cost
// table first in the Producers panel; the others (the capstone counts
// markers once, in passing) keep the panel's rows for the producers
// themselves, whose state is what they are about.
//
// A sandbox's lesson grows by a step an action, and a lesson's steps are
// only ever appended to (lessons.Player.Append; a fork is a new lesson),
// so the session remembers how far it has looked and reads only the new
// steps: a frame costs the same after 8,000 actions as after 1,000.
func (s *Session) countsCost(l *lessons.Lesson) bool {
	c := &s.cost
	if c.l != l || c.n > len(l.Steps) {
		*c = costScan{l: l}
	}
	for ; !c.found && c.n < len(l.Steps); c.n++ {
		for _, cmd := range l.Steps[c.n].Commands {
			if _, ok := cmd.Expect.(script.RequestsCheck); ok {
				c.found = true
			}
		}
	}
	return c.found
}

// costScan is how far countsCost has read a lesson's steps.
type costScan struct {
	l     *lessons.Lesson
	n     int // steps read
	found bool
}

// costView is the cost table: for each producer client, the requests it
// sent by kind and in all, and the WriteTxnMarkers sent and markers
// appended for its transactional id, read from the engine's cost
// counters (the ones `expect requests` and `expect markers` read).
func costView(w *engine.World, ch *changes) *model.CostView {
	ps := w.AllProducers()
	tallies := w.RequestTallies()
	marks := w.MarkerTallies()
	c := &model.CostView{Rows: make([]model.CostRow, len(ps))}
	for i, p := range ps {
		id := p.Config.TransactionalID
		r := model.CostRow{Client: p.Name, Transactional: id != ""}
		for _, t := range tallies {
			if id != "" && t.TxnID == id && t.Kind == engine.MsgWriteTxnMarkers {
				r.MarkerRequests += t.N
			}
			if t.From != p.Name {
				continue
			}
			r.Total += t.N
			switch t.Kind {
			case engine.MsgProduce:
				r.Produce += t.N
			case engine.MsgInitProducerID:
				r.Init += t.N
			case engine.MsgFindCoordinator:
				r.Find += t.N
			case engine.MsgAddPartitionsToTxn, engine.MsgAddOffsetsToTxn:
				r.Add += t.N
			case engine.MsgEndTxn:
				r.End += t.N
			case engine.MsgTxnOffsetCommit:
				r.TxnOffsets += t.N
			}
		}
		if id != "" {
			for _, m := range marks {
				if m.TxnID == id {
					r.Markers += m.N
				}
			}
		}
		r.Changed = ch.client(p.Name) || (id != "" && ch.txnID(id))
		c.Rows[i] = r
	}
	return c
}

func (s *Session) partitionViews(w *engine.World, ch *changes) []model.PartitionView {
	var out []model.PartitionView
	for _, tp := range w.SortedPartitions() {
		p := w.Partition(tp)
		if p.IsInternal() {
			continue
		}
		out = append(out, s.partitionView(p, ch))
	}
	return out
}

func (s *Session) partitionView(p *engine.PartitionLog, ch *changes) model.PartitionView {
	v := model.PartitionView{Name: p.TP.String(), HW: p.HW, LSO: p.LastStableOffset(), LEO: p.LEO}
	if p.Leader > 0 {
		v.Leader = engine.BrokerAddr(p.Leader)
	} else {
		v.Leader = "offline"
	}
	// A row is new if it lies at or past the log end before the step; an
	// older transactional row changed if the marker that decided it is new.
	prevLEO, changed := ch.partition(p.TP)
	if !changed {
		prevLEO = p.LEO
	}
	v.Rows = s.logRows(p, ch.pos, max(0, len(p.Batches)-maxRows), prevLEO)
	pids := make([]int64, 0, len(p.Producers))
	for pid := range p.Producers {
		pids = append(pids, pid)
	}
	sort.Slice(pids, func(i, j int) bool { return pids[i] < pids[j] })
	for _, pid := range pids {
		e := p.Producers[pid]
		v.Entries = append(v.Entries, model.ProducerEntry{PID: pid, Epoch: e.ProducerEpoch})
		for _, m := range e.Cached() {
			v.Cached = append(v.Cached, model.CachedBatch{PID: pid, Epoch: e.ProducerEpoch, FirstSeq: m.FirstSeq, LastSeq: m.LastSeq, Offset: m.FirstOffset})
		}
	}
	v.Changed = changed
	return v
}

// txnIDs lists the transactional ids of the lesson's clients, in
// declaration order.
func txnIDs(w *engine.World) []string {
	var out []string
	seen := map[string]bool{}
	ps := w.AllProducers()
	for _, p := range ps {
		if id := p.Config.TransactionalID; id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// txnStateNames are the engine's names of the coordinator states, in the
// order of their ids, as model.CoordinatorView.States wants them.
var txnStateNames = func() []string {
	out := make([]string, len(engine.TxnStates()))
	for i, s := range engine.TxnStates() {
		out[i] = s.String()
	}
	return out
}()

func (s *Session) coordinatorViews(w *engine.World, ch *changes) []model.CoordinatorView {
	var out []model.CoordinatorView
	for _, id := range txnIDs(w) {
		n := w.TxnPartitionFor(id)
		v := model.CoordinatorView{TxnID: id, Partition: engine.TxnStateTopic + "-" + strconv.Itoa(int(n)),
			States: txnStateNames, Current: -1, ProducerID: -1, Epoch: -1}
		// Read the maps directly: the engine's lookups create an entry on
		// first use, and a view must not change the world it shows.
		t := w.TxnStatePartition(n)
		if t == nil {
			out = append(out, v)
			continue
		}
		if t.Leader > 0 {
			v.Broker = engine.BrokerAddr(t.Leader)
		}
		v.Loading = t.Loading
		m, known := t.Meta[id]
		if known {
			v.Current, v.Tone, v.ProducerID, v.Epoch = int(m.State), txnTone(m.State), m.ProducerID, m.ProducerEpoch
			for _, tp := range m.Partitions {
				v.Partitions = append(v.Partitions, tp.String())
			}
		}
		v.Writes = s.writesOf(n, t.Log, id)
		for i := range t.Writes {
			if m := &t.Writes[i].Target; m.TransactionalID == id {
				v.Appending = append(v.Appending, pendingText(m))
			}
		}
		v.Changed = ch.txnID(id)
		out = append(out, v)
	}
	return out
}

// writesOf is the newest maxWrites records of id in the log of
// __transaction_state partition n, oldest first. Their texts are kept by
// log index, as the rows of a partition are.
func (s *Session) writesOf(n int32, log []engine.TxnLogRecord, id string) []string {
	texts := s.writes[n]
	if texts == nil {
		texts = newRing[writeStatic](4 * maxWrites)
		s.writes[n] = texts
	}
	var out []string
	for i := len(log) - 1; i >= 0 && len(out) < maxWrites; i-- {
		r := &log[i]
		if r.TransactionalID != id {
			continue
		}
		w, ok := texts.get(i)
		if !ok || w.offset != r.Offset || w.state != r.State || w.epoch != r.ProducerEpoch {
			w = writeStatic{offset: r.Offset, state: r.State, epoch: r.ProducerEpoch, text: writeText(r)}
			texts.put(i, w)
		}
		out = append(out, w.text)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// writeStatic is the text of one __transaction_state record, with what
// identifies the record it was made from.
type writeStatic struct {
	offset int64
	state  engine.TxnState
	epoch  int16
	text   string
}

// writeText is a __transaction_state record as the coordinator panel lists
// it: the engine's text without the transactional id, which the panel names
// above the list, and without an empty partition list, so that a record
// fits on one line of a narrow panel.
func writeText(r *engine.TxnLogRecord) string {
	off := "@" + strconv.FormatInt(r.Offset, 10) + " "
	if r.Tombstone {
		return off + "tombstone"
	}
	return off + recordText(r.State, r.ProducerID, r.ProducerEpoch, r.Partitions)
}

// recordText is a __transaction_state record without its offset.
func recordText(st engine.TxnState, pid int64, epoch int16, parts []engine.TP) string {
	s := st.String() + " pid=" + strconv.FormatInt(pid, 10) + " epoch=" + strconv.Itoa(int(epoch))
	if len(parts) > 0 {
		tps := make([]string, len(parts))
		for i, tp := range parts {
			tps[i] = tp.String()
		}
		s += " partitions=[" + strings.Join(tps, ",") + "]"
	}
	return s
}

// pendingText is a __transaction_state record being appended, which has
// no offset until it is written: "PrepareCommit pid=1000 epoch=0
// partitions=[...]".
func pendingText(m *engine.TxnMetadata) string {
	return recordText(m.State, m.ProducerID, m.ProducerEpoch, m.Partitions)
}

func consumerViews(w *engine.World, ch *changes) []model.ConsumerView {
	cs := w.AllConsumers()
	out := make([]model.ConsumerView, len(cs))
	for i, c := range cs {
		v := model.ConsumerView{Name: c.Name, Isolation: c.Isolation(), ReadCommitted: c.ReadCommitted, Group: c.GroupID,
			Changed: ch.client(c.Name)}
		seen := ch.received(c)
		from := max(0, len(c.Received)-maxRecords)
		if n := len(c.Received) - from; n > 0 {
			v.Records = make([]model.ConsumedRecord, 0, n)
		}
		// A consumer reads a few partitions: each one's name is made once.
		var names tpNames
		for j, r := range c.Received[from:] {
			v.Records = append(v.Records, model.ConsumedRecord{Partition: names.of(r.TP), Offset: r.Offset, Value: r.Value,
				Changed: from+j >= seen})
		}
		for _, p := range c.Positions {
			v.Positions = append(v.Positions, model.PartitionOffset{Partition: p.TP.String(), Offset: p.Offset})
		}
		out[i] = v
	}
	return out
}

// tpNames makes each of a few partitions' names once.
type tpNames []struct {
	tp   engine.TP
	name string
}

func (ns *tpNames) of(tp engine.TP) string {
	for _, n := range *ns {
		if n.tp == tp {
			return n.name
		}
	}
	name := tp.String()
	*ns = append(*ns, struct {
		tp   engine.TP
		name string
	}{tp, name})
	return name
}

// groupViews lists every group the group coordinator holds, by id, with
// its committed and pending transactional offsets.
func groupViews(w *engine.World, ch *changes) []model.GroupView {
	ids := w.GroupIDs()
	out := make([]model.GroupView, 0, len(ids))
	for _, id := range ids {
		g, ok := w.GroupInfo(id)
		if !ok {
			continue
		}
		v := model.GroupView{ID: id, Generation: g.Generation, Changed: ch.group(id)}
		for _, c := range g.Committed {
			v.Committed = append(v.Committed, model.PartitionOffset{Partition: c.TP.String(), Offset: c.Offset})
		}
		for _, p := range g.Pending {
			v.Pending = append(v.Pending, model.PendingOffset{Partition: p.TP.String(), Offset: p.Offset, ProducerID: p.ProducerID})
		}
		out = append(out, v)
	}
	return out
}

// subjects resolves a step's show: names against the frame: a bare name is
// a partition, a producer or a consumer (a processor is both; its records
// are what the step is about, so the consumer side wins only when there is
// no producer of that name).
// markNamedRows marks the log rows of the step's partitions (its show: line)
// whose values its text names (lessons.Step.Names): the step view keeps
// them on screen with the rows the step changed. The rows may be shared
// with an earlier frame (logRows), so a partition's are copied before any
// is marked.
func markNamedRows(f *model.Frame, st *lessons.Step) {
	for _, sub := range f.Show {
		if sub.Kind != model.SubjectPartition {
			continue
		}
		for i := range f.Partitions {
			pv := &f.Partitions[i]
			if pv.Name != sub.Name {
				continue
			}
			copied := false
			for j := range pv.Rows {
				if !slices.ContainsFunc(pv.Rows[j].Values, st.Names) {
					continue
				}
				if !copied {
					pv.Rows, copied = slices.Clone(pv.Rows), true
				}
				pv.Rows[j].Named = true
			}
		}
	}
}

func subjects(f *model.Frame, show []lessons.Subject) []model.Subject {
	var out []model.Subject
	for _, s := range show {
		k, ok := model.SubjectTxnLog, s.Kind == lessons.SubjectTxnLog
		if !ok {
			switch {
			case slices.ContainsFunc(f.Partitions, func(p model.PartitionView) bool { return p.Name == s.Name }):
				k, ok = model.SubjectPartition, true
			case slices.ContainsFunc(f.Consumers, func(c model.ConsumerView) bool { return c.Name == s.Name }):
				k, ok = model.SubjectConsumer, true
			case slices.ContainsFunc(f.Producers, func(p model.ProducerView) bool { return p.Name == s.Name }):
				k, ok = model.SubjectProducer, true
			}
		}
		if ok {
			out = append(out, model.Subject{Kind: k, Name: s.Name})
		}
	}
	return out
}
