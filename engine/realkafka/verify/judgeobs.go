package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// judgeObserved judges the lines whose broker facts come from the
// observation log and the broker-side monitors: expect event, expect
// violations and expect group ... pending. It reports false for any
// other line, which judge handles.
func (d *driver) judgeObserved(row *Row, c script.Command, fail *script.Failure, w *engine.World) bool {
	switch x := c.Expect.(type) {
	case script.EventCheck:
		d.judgeEvent(row, x, fail, w)
	case script.ViolationCheck:
		d.judgeMonitors(row, x, fail, w)
	case script.TxnLogCheck:
		if d.unplayable(row, w) {
			return true
		}
		holds, fact, why, note := d.txnLogCheck(x, w)
		d.verdict(row, fail, holds, fact, why, note)
	case script.GroupCheck:
		if x.Field != script.GroupPending {
			return false
		}
		if d.unplayable(row, w) {
			return true
		}
		holds, fact, why := d.pending(x)
		d.verdict(row, fail, holds, fact, why, "")
	default:
		return false
	}
	return true
}

// unplayable sets the verdict of a line the broker run cannot look at
// here (the file stopped playing, or the simulation is mid-flight).
func (d *driver) unplayable(row *Row, w *engine.World) bool {
	if d.stopped != "" {
		row.Verdict = NotPlayed
		if d.simOnly {
			row.Verdict = SimOnly
		}
		row.Why = fmt.Sprintf("line %d: %s", d.stopAt, d.stopped)
		return true
	}
	if d.busy(w) {
		row.Verdict, row.Why = NotPlayed, "the simulation has messages in flight here; the broker run completes each call at once"
		return true
	}
	return false
}

// verdict compares the simulation's outcome (fail nil: it holds) with
// Kafka's; note is kept with an agreeing row and shown with a differing one.
func (d *driver) verdict(row *Row, fail *script.Failure, holds bool, fact, why, note string) {
	if why != "" {
		row.Verdict, row.Why = NotPlayed, why
		return
	}
	simHolds := fail == nil
	switch {
	case simHolds && holds:
		row.Verdict, row.Why = Agree, note
	case !simHolds && !holds:
		// Neither meets the line (a line written for the other protocol,
		// played under this one): whether they agree with each other is
		// not known from the line.
		row.Verdict, row.Why = NotPlayed, "neither the simulation ("+fail.Got+") nor Kafka ("+fact+") meets the line"
	default:
		row.Verdict = Differ
		row.Sim = "as the line says"
		if !simHolds {
			row.Sim = "found " + fail.Got
		}
		row.Kafka = fact
		if holds {
			row.Kafka = "as the line says"
		}
		if note != "" {
			row.Kafka += " (" + note + ")"
		}
	}
}

// judgeEvent: the events the simulation found for the line, each as the
// broker fact it stands for, looked up in the broker run.
func (d *driver) judgeEvent(row *Row, x script.EventCheck, fail *script.Failure, w *engine.World) {
	if x.No {
		d.judgeAbsence(row, x, fail, w)
		return
	}
	if fail != nil {
		// The simulation found no such event (a line of the other
		// protocol): what its event stands for there is looked for on
		// the broker (unmetevent.go).
		d.judgeUnmet(row, x, fail, w, row.Line)
		return
	}
	evs := script.Matching(w, x)
	type found struct {
		c     claim
		n     int // how many of the matched events stand for it
		first int // the newest of them
	}
	var claims []found
	byWhat := map[string]int{}
	var simOnly, notYet []string
	for _, e := range evs {
		c, so, ny := d.claimOf(w, int(e.Seq))
		if so == "" && ny == "" {
			ny = d.mirrorUnsent(e) // mirror.go
		}
		switch {
		case so != "":
			simOnly = append(simOnly, "kind "+e.Kind.String()+": "+so)
		case ny != "":
			notYet = append(notYet, "kind "+e.Kind.String()+": "+ny)
		default:
			if i, ok := byWhat[c.what]; ok {
				claims[i].n++
				continue
			}
			byWhat[c.what] = len(claims)
			claims = append(claims, found{c, 1, int(e.Seq)})
		}
		if !x.Count.Set && len(claims) > 0 {
			break // the newest event with a counterpart decides
		}
	}
	if len(claims) == 0 {
		if len(notYet) > 0 {
			row.Verdict, row.Why = NotPlayed, notYet[0]
			return
		}
		row.Verdict, row.Why = SimOnly, "no broker counterpart: "+strings.Join(dedupe(simOnly), "; ")
		return
	}
	if d.unplayable(row, w) {
		return
	}
	if x.Count.Set && len(simOnly)+len(notYet) > 0 {
		row.Verdict, row.Why = NotPlayed, "count= over events of which some have no broker counterpart ("+dedupe(append(simOnly, notYet...))[0]+")"
		return
	}
	if x.Window.Set && x.Count.Set {
		row.Verdict, row.Why = NotPlayed, "count= in a t= window of the simulation's virtual time, which the broker run does not keep"
		return
	}
	for _, f := range claims {
		if !f.c.wire {
			continue
		}
		if why := d.wireDiffers(w); why != "" {
			row.Verdict, row.Why = NotPlayed, why
			return
		}
		break
	}
	scope := d.scopeOf(x)
	holds := true
	var facts, wants []string
	for _, f := range claims {
		n, shown, why := f.c.check(scope)
		if why != "" {
			row.Verdict, row.Why = NotPlayed, why
			return
		}
		want := f.n
		ok := n >= 1
		if f.c.wire && !x.Count.Set {
			// The k-th such event of the run stands for the k-th such
			// request or answer.
			k := f.c.nth
			if k == 0 {
				k = d.ordinal(w, f.first, f.c.what)
			}
			if scope > 0 && f.c.nth == 0 {
				// in=last counts the last line's answers only: the
				// run's ordinal would ask for more than it holds.
				k = 1
			}
			ok = n >= k
			if k > 1 {
				shown = fmt.Sprintf("%d of them, want the %d-th: %s", n, k, shown)
			}
		}
		if x.Count.Set {
			ok = n == want
			shown = fmt.Sprintf("%d (%s)", n, shown)
		}
		holds = holds && ok
		wants = append(wants, f.c.what)
		facts = append(facts, shown)
	}
	note := "on the broker: " + strings.Join(wants, "; ")
	if x.Count.Set {
		note += fmt.Sprintf(" (%d of each)", claims[0].n)
	}
	fact := strings.Join(facts, "; ")
	if !holds {
		note = "looked for " + strings.Join(wants, "; ")
	}
	d.verdict(row, fail, holds, fact, "", note)
	if row.Verdict == Differ {
		row.Sim = "found the events standing for " + strings.Join(wants, "; ")
		row.Kafka = fact
	}
}

// wireDiffers says why the broker run's wire traffic is not the
// simulation's from here ("" when it is): a connection the wrapper closed
// took requests with it, or the two conversations differ.
func (d *driver) wireDiffers(w *engine.World) string {
	if client, n := d.lostWithConnection(); client != "" {
		return fmt.Sprintf("%d requests of %s died with a connection the wrapper closed (on TCP a lost message takes its connection and the requests behind it; the simulation's network loses the one message): the wire traffic is not the simulation's from there", n, client)
	}
	return d.conversationDiffers(w)
}

// scopeOf is the file line an event line's broker facts are looked for
// on: the last action's for in=last, else 0 (the whole run).
func (d *driver) scopeOf(x script.EventCheck) int {
	if x.InLast {
		return d.lastAction()
	}
	return 0
}

// lastAction is the file line of the last command the simulation ran
// (what in=last scopes to): the broker run's exchanges carry the line
// being played.
func (d *driver) lastAction() int {
	return int(d.obs.line.Load())
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// ordinal is how many events up to event i (of its kind) stand for the
// broker fact what.
func (d *driver) ordinal(w *engine.World, i int, what string) int {
	kind := w.EventAt(i).Kind
	k := 0
	for j := 0; j <= i; j++ {
		if w.EventAt(j).Kind != kind {
			continue
		}
		if c, so, ny := d.claimOf(w, j); so == "" && ny == "" && c.what == what {
			k++
		}
	}
	return k
}

// judgeAbsence judges "expect no event" where its filters name a broker
// fact: no request of a kind sent by one of the file's clients
// (kind=send actor=CLIENT msg=REQUEST), or no answer carrying an error
// code (error=CODE), over the run or its last command (in=last). Any
// other absence (of narration, or a text) names no broker fact.
func (d *driver) judgeAbsence(row *Row, x script.EventCheck, fail *script.Failure, w *engine.World) {
	plain := x.Text == "" && !x.Window.Set && !x.Count.Set && !x.TP.Set && x.TxnID == "" && !x.PID.Set && !x.Epoch.Set && x.Reason == engine.RuleNone && x.Rule == ""
	var c claim
	_, isProducer := d.decls[x.Actor]
	_, isConsumer := d.cdecls[x.Actor]
	switch {
	case plain && x.Kind == "send" && x.Error == "" && x.Msg.Set && x.Msg.V.ID == 0 && isRequestKey(x.Msg.V.Kind):
		if !isProducer && !isConsumer {
			row.Verdict, row.Why = SimOnly, "an absence of traffic the wire wrapper does not carry (it sits on the file's clients' connections)"
			return
		}
		if why := d.mirrorOwn(x.Actor, x.Msg.V.Kind); why != "" { // mirror.go
			row.Verdict, row.Why = NotPlayed, why
			return
		}
		c = d.requestClaim(x.Actor, x.Msg.V.Kind, &engine.Message{}, false)
	case plain && x.Kind == "" && x.Error == "" && x.Msg.Set && x.Msg.V.ID == 0 && isRequestKey(x.Msg.V.Kind) && (isProducer || isConsumer):
		// No event of a client's with that request: above all none of
		// its sends of it.
		c = d.requestClaim(x.Actor, x.Msg.V.Kind, &engine.Message{}, false)
	case x.Text != "" && isRequestKey(x.Text) && !x.Window.Set && !x.Count.Set && !x.TP.Set && x.TxnID == "" && !x.PID.Set && !x.Epoch.Set &&
		x.Reason == engine.RuleNone && x.Rule == "" && x.Error == "" && !x.Msg.Set && (x.Actor == "" || isProducer || isConsumer) && (x.Kind == "" || x.Kind == "send"):
		// No event (of the client's) names the request
		// ("AddPartitionsToTxn"): the client, or none of the file's
		// clients, sent one.
		c = d.anyClientRequest(x.Text)
		if x.Actor != "" {
			c = d.requestClaim(x.Actor, x.Text, &engine.Message{}, false)
		}
	case plain && x.Kind == "" && x.Actor == "" && !x.Msg.Set && x.Error != "":
		code, ok := engine.ErrorByName(x.Error)
		if !ok || !code.IsWire() {
			row.Verdict, row.Why = SimOnly, "an absence of a client-side error, which no broker answer carries"
			return
		}
		c = d.answerClaim("", "", code, true)
	default:
		row.Verdict, row.Why = SimOnly, "an absence in the simulation's event transcript: the line names no event whose broker counterpart could be looked for"
		return
	}
	if d.unplayable(row, w) {
		return
	}
	n, shown, why := c.check(d.scopeOf(x))
	if why != "" {
		row.Verdict, row.Why = NotPlayed, why
		return
	}
	d.verdict(row, fail, n == 0, shown, "", "on the broker: no "+c.what)
}

// isRequestKey: name is a request the wire mapping knows.
func isRequestKey(name string) bool {
	_, ok := keys[name]
	return ok
}

// anyClientRequest: a request of kind base from any of the file's
// clients (their requestClaims, counted together).
func (d *driver) anyClientRequest(base string) claim {
	names := d.clientNames()
	var cs []claim
	for _, n := range names {
		cs = append(cs, d.requestClaim(n, base, &engine.Message{}, false))
	}
	return claim{what: base + " from any of the file's clients", wire: true, check: func(scope int) (int, string, string) {
		total := 0
		var shown []string
		for _, c := range cs {
			n, s, why := c.check(scope)
			if why != "" {
				return 0, "", why
			}
			total += n
			shown = append(shown, s)
		}
		if len(shown) == 0 {
			return 0, "the file has no clients", ""
		}
		return total, strings.Join(shown, "; "), ""
	}}
}
