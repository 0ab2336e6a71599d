package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// Which files need a cluster of their own. A shared cluster (`verify
// --brokers`) cannot play some of what the files do: a broker crashed or
// restarted, a WriteTxnMarkers lost, delayed or held between two brokers,
// the requests brokers send each other counted; those a cluster verify
// owns can (`verify --cluster-dir`, cluster.go). And a transactional id
// expires only on a cluster started with a short
// transactional.id.expiration.ms, a static setting (txnexpiry.go). Needs
// finds such files by playing them on the simulation alone, no broker,
// under one protocol: CI runs each selection on the cluster it needs.

// Need is a kind of cluster a file needs.
type Need int

const (
	NeedNone Need = iota
	// NeedOwned: a cluster of several nodes verify may break
	// (`eoslab kafka up --brokers 3`, then verify --cluster-dir).
	NeedOwned
	// NeedExpiry: a cluster started with a short
	// transactional.id.expiration.ms.
	NeedExpiry
)

var needWords = [...]string{"none", "owned", "expiry"}

func (n Need) String() string { return needWords[n] }

// ParseNeed reads owned or expiry.
func ParseNeed(s string) (Need, error) {
	switch s {
	case "owned":
		return NeedOwned, nil
	case "expiry":
		return NeedExpiry, nil
	}
	return NeedNone, fmt.Errorf("verify: --needs %q: want owned or expiry", s)
}

// FileNeed is what one file needs, from which line, and why.
type FileNeed struct {
	File string
	Need Need
	Line int    // the first line that needs it
	Why  string // what the line does
}

// Needs plays each file on the simulation under transaction.version tv
// (0 and 1 are the classic protocol, 2 KIP-890's) and lists, in the
// order given, the files that need a cluster of kind need: the files
// verify refuses under tv (they pin or are written for the other
// protocol) need none. A need counts only where an expect line follows
// it (the one-broker run has a row it cannot play there).
func Needs(files []string, read func(string) ([]byte, error), tv int, need Need) ([]FileNeed, error) {
	simTV := 1
	if tv >= 2 {
		simTV = 2
	}
	var out []FileNeed
	for _, f := range files {
		in, err := loadWith(read, f)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		if in.pins != 0 && in.pins != simTV {
			continue
		}
		if other, _ := writtenFor(in.cmds, simTV); other != 0 {
			continue
		}
		cmds, err := in.cmds(simTV)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		if fn := fileNeed(cmds, simTV, need); fn.Need != NeedNone {
			fn.File = f
			out = append(out, fn)
		}
	}
	return out, nil
}

// fileNeed is the first line of cmds that needs a cluster of kind need
// and has an expect line at or after it.
func fileNeed(cmds []script.Command, simTV int, need Need) FileNeed {
	r := script.NewRunner()
	r.PinTransactionVersion(simTV)
	producers := map[string]bool{}
	version := int64(-1)
	var first FileNeed
	for _, c := range cmds {
		if c.Action == nil {
			if first.Need == NeedNone && need == NeedOwned {
				if why := expectNeedsOwned(c, r.World, producers); why != "" {
					first = FileNeed{Need: NeedOwned, Line: c.Line, Why: why}
				}
			}
			if first.Need != NeedNone {
				return first
			}
			r.Exec(c)
			continue
		}
		if p, ok := c.Action.(engine.DeclareProducer); ok {
			producers[p.Name] = true
		}
		if first.Need == NeedNone && stopsEveryCluster(c, &version) {
			// The rest of the file is simulation-only or not played on
			// any cluster (driver.go's act).
			return FileNeed{}
		}
		before := r.World
		var sel resolved
		if first.Need == NeedNone {
			var d driver
			sel = d.resolve(c, before)
		}
		evs, _, err := r.Exec(c)
		if err != nil {
			// verify stops the file at a line the simulation refuses.
			return FileNeed{}
		}
		if first.Need != NeedNone {
			continue
		}
		why := ""
		switch need {
		case NeedOwned:
			why = actionNeedsOwned(c, sel)
		case NeedExpiry:
			if actionNeedsOwned(c, sel) != "" {
				// The expiry broker is a single one: verify stops the
				// file here (a broker crash, a marker fault).
				return FileNeed{}
			}
			// timescale.go plays an advance's expiry (txnexpiry.go).
			if a, ok := c.Action.(engine.Advance); ok && len(expiredTxnIDs(evs)) > 0 {
				why = fmt.Sprintf("advance %d: the simulation expires transactional id %s", a.Ms, strings.Join(expiredTxnIDs(evs), ", "))
			}
		}
		if why != "" {
			first = FileNeed{Need: need, Line: c.Line, Why: why}
		}
	}
	return FileNeed{}
}

// stopsEveryCluster: an action after which verify plays nothing more of
// the file on any cluster (driver.go's act): inject txnstate, a teaching
// switch that turns a safeguard off, a transaction.version change after
// the first (version: the one set first, -1 before).
func stopsEveryCluster(c script.Command, version *int64) bool {
	switch a := c.Action.(type) {
	case engine.InjectTxnState:
		return true
	case engine.SetConfig:
		for _, s := range a.Settings {
			switch s.Key {
			case engine.ConfigTransactionVersion:
				if *version >= 0 && s.Value != *version {
					return true
				}
				if *version < 0 {
					*version = s.Value
				}
			case engine.ConfigTeachDedup, engine.ConfigTeachFencing, engine.ConfigTeachLSO:
				if s.Value == 0 {
					return true
				}
			}
		}
	}
	return false
}

// actionNeedsOwned says what an action does that only an owned cluster
// plays ("" for nothing): sel is the message a fault line picks out
// (resolved before the line ran).
func actionNeedsOwned(c script.Command, sel resolved) string {
	switch a := c.Action.(type) {
	case engine.Crash:
		if a.Target.Broker > 0 {
			return "crashes " + a.Target.String()
		}
	case engine.Restart:
		if a.Target.Broker > 0 {
			return "restarts " + a.Target.String()
		}
	case engine.Drop, engine.Delay, engine.Duplicate:
		// faults.go: a WriteTxnMarkers (or its answer) between brokers
		// goes to markerFault, which only an owner plays.
		if sel.ok && strings.HasPrefix(sel.kind, "WriteTxnMarkers") && isNode(sel.client) {
			return fmt.Sprintf("%s a %s between brokers", strings.Fields(c.Text)[0], sel.kind)
		}
	}
	return ""
}

// expectNeedsOwned says why an expect line needs an owned cluster (""
// when it does not): a marker between brokers in flight at it, which an
// owned cluster holds on the leader's proxy (markerhold.go), or a
// request count that includes requests brokers send each other, which an
// owned cluster's proxies see (requests.go).
func expectNeedsOwned(c script.Command, w *engine.World, producers map[string]bool) string {
	if x, ok := c.Expect.(script.RequestsCheck); ok && brokersCounted(x, w, func(n string) bool { return producers[n] }) {
		return "counts requests brokers send each other"
	}
	// The lines judge.go brings to a hold (holdAt): not those judged
	// from the broker run's observations (judgeobs.go), nor a kind of
	// fact no broker exposes.
	switch x := c.Expect.(type) {
	case script.EventCheck, script.ViolationCheck, script.TxnLogCheck:
		return ""
	case script.GroupCheck:
		if x.Field == script.GroupPending {
			return ""
		}
	}
	if simOnlyWhy(c.Expect) != "" {
		return ""
	}
	for _, m := range w.InFlight() {
		name, _ := strings.CutSuffix(m.Kind.String(), "Response")
		if name == "WriteTxnMarkers" && isNode(m.From) && isNode(m.To) {
			return fmt.Sprintf("a %s between %s and %s is in flight", m.Kind, m.From, m.To)
		}
	}
	return ""
}

// brokersCounted is whether the simulation's count of x includes
// requests brokers send each other, and only brokers besides the file's
// producers (a consumer's requests are not counted on any cluster).
func brokersCounted(x script.RequestsCheck, w *engine.World, producer func(string) bool) bool {
	if x.Kind == "WriteTxnMarkers" || isNode(x.From) {
		return true
	}
	f := engine.RequestFilter{From: x.From, TxnID: x.TxnID}
	if x.Kind != "" {
		f.Kind, f.KindSet = engine.MsgKindByName(x.Kind)
	}
	brokers := false
	for _, t := range w.RequestTallies() {
		if producer(t.From) || !matches(t, f) {
			continue
		}
		if !isNode(t.From) {
			return false
		}
		brokers = true
	}
	return brokers
}

// needsOfReason is the kind of cluster that plays a row a run reported
// not played with reason why (NeedNone for any other reason): the words
// are those of the driver's reasons (cluster.go, faults.go, inflight.go,
// requests.go, txnexpiry.go).
func needsOfReason(why string) Need {
	switch {
	case strings.Contains(why, "a broker of a shared cluster is not done by verify"),
		strings.Contains(why, "WriteTxnMarkers travels between brokers"),
		strings.Contains(why, "WriteTxnMarkersResponse travels between brokers"),
		strings.Contains(why, "requests brokers send each other are not on a client's connection"),
		strings.Contains(why, "which the wrapper on the producers' connections does not see") && onlyBrokers(why),
		inFlightMarker(why):
		return NeedOwned
	case strings.Contains(why, "verify plays a transactional id expiry only on a cluster started with"):
		return NeedExpiry
	}
	return NeedNone
}

// inFlightMarker: the reason of an expect line at which the simulation
// has a marker between brokers in flight (inflight.go's holdPlan).
func inFlightMarker(why string) bool {
	for _, k := range []string{"WriteTxnMarkers", "WriteTxnMarkersResponse"} {
		if strings.Contains(why, "messages in flight here: a "+k+" between broker-") && strings.Contains(why, "the wrapper holds only producers' messages") {
			return true
		}
	}
	return false
}

// onlyBrokers: requests.go's "the simulation counts requests of A, B
// here" names brokers only.
func onlyBrokers(why string) bool {
	_, rest, ok := strings.Cut(why, "the simulation counts requests of ")
	if !ok {
		return false
	}
	names, _, _ := strings.Cut(rest, " here")
	return !slices.ContainsFunc(strings.Split(names, ", "), func(n string) bool { return !isNode(n) })
}
