package verify

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Event lines the simulation does not meet. A scenario that pins no
// protocol is written under transaction.version 1 and played under the
// cluster's; a line of the other protocol ("appends COMMIT marker
// pid=1000 epoch=0", "answers EndTxn(commit) with PRODUCER_FENCED(90)")
// finds no event here. Under the protocol the file was written for it
// does: there its events stand for a broker fact (claimOf, the same
// counterpart a met line is judged by). Under this protocol the line's
// absence is a fact too: the simulation has no event standing for that
// broker fact, and the broker run is looked at for it. Kafka shows none
// either -> agrees (neither has it); Kafka shows it -> differs.

// otherRun is the file played on the simulation under the other
// protocol, one command ahead of another as the lines ask for it.
type otherRun struct {
	r      *script.Runner
	tv     int
	next   int  // the index in the driver's cmds of the next command
	broken bool // the other protocol refused a line: no world from there
}

// underOther is the simulation's world under the other protocol at the
// expect line of d.cmds at line, when the line holds there; false when it
// does not, or the file pins its protocol (its lines are this protocol's)
// or is a lesson (whose lines are chosen per protocol).
func (d *driver) underOther(line int) (*engine.World, int, bool) {
	if d.other == nil {
		tv := 2
		if d.simTV == 2 {
			tv = 1
		}
		r := script.NewRunner()
		r.PinTransactionVersion(tv)
		d.other = &otherRun{r: r, tv: tv, broken: pinned(d.cmds) != 0}
		for _, c := range d.cmds {
			if strings.HasSuffix(c.File, ".lesson") {
				d.other.broken = true
			}
		}
	}
	o := d.other
	for !o.broken && o.next < len(d.cmds) {
		c := d.cmds[o.next]
		o.next++
		if c.Action == nil && c.Line == line {
			_, fail, err := o.r.Exec(c)
			return o.r.World, o.tv, err == nil && fail == nil
		}
		if c.Action == nil {
			continue
		}
		if _, _, err := o.r.Exec(c); err != nil {
			o.broken = true
		}
	}
	return nil, 0, false
}

// judgeUnmet judges an event line the simulation does not meet (fail) by
// the broker fact its event stands for under the other protocol: the
// simulation here has it or not (in other words than the line's, or not
// at all), and so has Kafka; the same agrees, another differs. The row
// stays not played where there is no such fact (the line is not met
// there either, or its event has no broker counterpart), or where a
// count= asks for a number of events the absence cannot give.
func (d *driver) judgeUnmet(row *Row, x script.EventCheck, fail *script.Failure, w *engine.World, line int) {
	row.Verdict, row.Why = NotPlayed, "the simulation does not meet the line ("+fail.Got+"): no event to look for on the broker"
	if x.Count.Set {
		return
	}
	ow, tv, ok := d.underOther(line)
	if !ok {
		return
	}
	var c claim
	first := -1
	for _, e := range script.Matching(ow, x) {
		if oc, so, ny := d.claimOf(ow, int(e.Seq)); so == "" && ny == "" {
			c, first = oc, int(e.Seq)
			break // the newest event with a counterpart decides, as on a met line
		}
	}
	if first < 0 {
		return
	}
	// k: the line's event stands for the k-th instance of the fact; n,
	// how many the simulation has here.
	k, n := 1, 0
	switch {
	case c.ans != nil:
		var known bool
		if k, known = d.simAnswerCount(ow, c.ans, x.InLast); !known {
			row.Why = "the simulation does not meet the line (" + fail.Got + "); its event under transaction.version " + strconv.Itoa(tv) + " stands for " + c.what + ", and a producer id of the simulation's answers has no broker counterpart to count them by"
			return
		}
		if n, known = d.simAnswerCount(w, c.ans, x.InLast); !known {
			row.Why = "the simulation does not meet the line (" + fail.Got + "); a producer id of the simulation's answers has no broker counterpart to count them by"
			return
		}
	case c.byKey:
		if c.wire {
			k = c.nth
			if k == 0 {
				k = d.ordinal(ow, first, c.what)
			}
			if x.InLast && c.nth == 0 {
				k = 1
			}
		} else if c.nth > 0 {
			k = c.nth
		}
		n = d.instances(w, c.key(), x.InLast)
	default:
		row.Why = "the simulation does not meet the line (" + fail.Got + "); its event under transaction.version " + strconv.Itoa(tv) + " stands for " + c.what + ", which the simulation's events here are not counted by"
		return
	}
	// has: the simulation here has the fact, in other words than the
	// line's (a narration of this protocol: "answers EndTxn v5(abort)"
	// where the line, of the other, says "answers EndTxn(abort)").
	has := n >= k
	if d.unplayable(row, w) {
		return
	}
	if c.wire {
		if why := d.wireDiffers(w); why != "" {
			row.Verdict, row.Why = NotPlayed, why
			return
		}
	}
	got, shown, why := c.check(d.scopeOf(x))
	if why != "" {
		row.Verdict, row.Why = NotPlayed, why
		return
	}
	want := c.what
	if k > 1 {
		want = fmt.Sprintf("%s, number %d of them", c.what, k)
		shown = fmt.Sprintf("%d of them: %s", got, shown)
	}
	switch {
	case has && got >= k:
		row.Verdict, row.Why = Agree, ""
		row.Neither = fmt.Sprintf("the line's words are transaction.version %d's (here: %s); what its event stands for there, %s on the broker, both sides have (the simulation %d such; Kafka: %s)", tv, fail.Got, want, n, shown)
	case has:
		row.Verdict = Differ
		row.Sim = fmt.Sprintf("has %s (%d such; the line's words are transaction.version %d's: here %s)", want, n, tv, fail.Got)
		row.Kafka = shown
	case got < k:
		row.Verdict, row.Why = Agree, ""
		row.Neither = fmt.Sprintf("neither: the line is met under transaction.version %d, where its event stands for %s on the broker; under this protocol neither side has it (the simulation %d such; Kafka: %s)", tv, want, n, shown)
	default:
		row.Verdict = Differ
		row.Sim = fmt.Sprintf("no event standing for %s (%d such; the line is met under transaction.version %d only: %s)", want, n, tv, fail.Got)
		row.Kafka = shown
	}
}

// instances is how many events of w (of its last command, inLast) stand
// for the broker fact key, counted per kind of event as a met line's
// ordinal is: the most of any kind.
func (d *driver) instances(w *engine.World, key string, inLast bool) int {
	from := 0
	if inLast {
		from = lastActionEvent(w)
	}
	byKind := map[engine.EventKind]int{}
	most := 0
	for j := from; j < w.EventCount(); j++ {
		if c, so, ny := d.claimOf(w, j); so == "" && ny == "" && c.key() == key {
			k := w.EventAt(j).Kind
			byKind[k]++
			most = max(most, byKind[k])
		}
	}
	return most
}

// lastActionEvent is the index of the first event of w's last command:
// the newest EvAction event (0 when none).
func lastActionEvent(w *engine.World) int {
	for j := w.EventCount() - 1; j >= 0; j-- {
		if w.EventAt(j).Kind == engine.EvAction {
			return j
		}
	}
	return 0
}

// simAnswerCount is how many of the simulation's answers (of its last
// command, inLast) pass the test a's claim counts the broker run's by:
// the answers to the file's clients (sent by the broker, or delivered,
// as a.sent says), each as the broker run's answer is observed (the
// request's producer id, epoch, partition and sequence, the answer's code
// and base offset). known is false where a producer id in them has no
// broker counterpart learned.
func (d *driver) simAnswerCount(w *engine.World, a *answerSpec, inLast bool) (n int, known bool) {
	from := 0
	if inLast {
		from = lastActionEvent(w)
	}
	kind := engine.EvDeliver
	if a.sent {
		kind = engine.EvSend
	}
	for j := from; j < w.EventCount(); j++ {
		e := w.EventAt(j)
		m := e.Message
		if e.Kind != kind || m == nil || !m.Kind.IsResponse() || (a.client != "" && m.To != a.client) {
			continue
		}
		if _, ok := d.decls[m.To]; !ok && m.To != "expert" {
			if _, ok := d.cdecls[m.To]; !ok {
				continue // an answer to a broker: not on a client's connection
			}
		}
		key, ok := keys[strings.TrimSuffix(m.Kind.String(), "Response")]
		code := int16(m.Code())
		if !ok || (a.key >= 0 && key != a.key) || (a.key < 0 && code == 0) {
			continue
		}
		x := obsAnswer{reqFact: reqFact{key: key, pid: -1, seq: -1}, code: code}
		if req := requestAnswered(w, j, m); req != nil {
			tp, pid, epoch, seq := requestOf(req)
			if tp != nil {
				x.tp, x.part = d.name(tp.Topic), tp.Partition
			}
			x.pid, x.epoch, x.seq = pid, epoch, seq
		}
		switch b := m.Body.(type) {
		case *engine.ProduceResponse:
			x.tp, x.part, x.baseOffset = d.name(b.TP.Topic), b.TP.Partition, b.BaseOffset
		case *engine.InitProducerIDResponse:
			x.pid, x.epoch = b.ProducerID, b.ProducerEpoch
		}
		if x.pid >= 0 {
			bp, ok := d.learnedPID(x.pid)
			if !ok {
				return 0, false
			}
			x.pid = bp
		}
		if a.pred(&x) {
			n++
		}
	}
	return n, true
}

// requestAnswered is the request answer m (event j) answers: the newest
// request before it its client sent with its correlation id.
func requestAnswered(w *engine.World, j int, m *engine.Message) *engine.Message {
	for i := j - 1; i >= 0; i-- {
		e := w.EventAt(i)
		if r := e.Message; e.Kind == engine.EvSend && r != nil && !r.Kind.IsResponse() && r.From == m.To && r.Corr == m.Corr {
			return r
		}
	}
	return nil
}

// learnedPID is a broker producer id the simulation's id sim stands for
// (simPID's inverse); false when the run learned none.
func (d *driver) learnedPID(sim int64) (int64, bool) {
	best, found := int64(0), false
	for b, s := range d.pids {
		if s == sim && (!found || b < best) {
			best, found = b, true
		}
	}
	return best, found
}
