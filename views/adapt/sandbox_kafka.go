package adapt

import (
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// The sandbox's v: the current branch played again under the other Kafka
// transaction protocol, by role, as a new branch. Kafka 4 is
// transaction.version=2 (KIP-890 part 2: the epoch bumped on every
// EndTxn, the partition added by the leader); Kafka 3 is version 1.

// Kafka is the Kafka the current branch plays: 4 under
// transaction.version=2 from its setup, else 3.
func (x *Sandbox) Kafka() int { return kafkaOf(x.branch().base) }

func kafkaOf(b *setupBase) int {
	v := int64(1)
	for _, a := range b.actions {
		if c, ok := a.(engine.SetConfig); ok {
			for _, st := range c.Settings {
				if st.Key == engine.ConfigTransactionVersion {
					v = st.Value
				}
			}
		}
	}
	if v >= 2 {
		return 4
	}
	return 3
}

// otherKafka is base under the other protocol: Kafka 4's setup begins
// with config transaction.version=2 (as OpenSandboxKafka writes it), and
// Kafka 3's has no transaction.version line.
func otherKafka(b *setupBase) *setupBase {
	to4 := kafkaOf(b) == 3
	nb := &setupBase{written: b.written}
	if to4 {
		nb.actions = append(nb.actions, engine.SetConfig{Settings: []engine.Setting{{Key: engine.ConfigTransactionVersion, Value: 2}}})
	}
	for _, a := range b.actions {
		if c, ok := a.(engine.SetConfig); ok {
			var kept []engine.Setting
			for _, st := range c.Settings {
				if st.Key != engine.ConfigTransactionVersion {
					kept = append(kept, st)
				}
			}
			if len(kept) == 0 {
				continue
			}
			a = engine.SetConfig{Settings: kept}
		}
		nb.actions = append(nb.actions, a)
	}
	return nb
}

// SwitchKafka plays the current branch again under the other Kafka, as a
// new branch standing where the learner stood; the old branch is kept. An
// action with no counterpart there (a message of a role that protocol
// never sends) is left out, and the answer says which.
func (x *Sandbox) SwitchKafka() (string, error) {
	b := x.branch()
	base := otherKafka(b.base)
	pos := b.s.p.Pos()
	r, err := x.replayOn(base, b.g, b)
	if err != nil {
		return "", err
	}
	nb := r.b
	kept := 0
	for _, at := range r.counterpart[:pos] {
		kept = max(kept, at)
	}
	nb.s.p.Seek(kept)
	k := kafkaOf(base)
	tv := "transaction.version=1"
	if k == 4 {
		tv = "transaction.version=2"
	}
	nb.name += " (Kafka " + strconv.Itoa(k) + ")"
	x.branches = append(x.branches, nb)
	x.cur = len(x.branches) - 1
	// The words that matter first: the status line is one row.
	msg := "Kafka " + strconv.Itoa(k) + " (" + tv + "): setup replayed"
	if n := b.s.p.Len(); n > 0 {
		msg = "Kafka " + strconv.Itoa(k) + " (" + tv + "): " + strconv.Itoa(n) + " action(s) replayed"
	}
	if len(r.caught) > 0 {
		msg += "; their message comes later here: " + strings.Join(r.caught, ", ")
	}
	if len(r.dropped) > 0 {
		msg += "; no counterpart, left out: " + strings.Join(r.dropped, ", ")
	}
	return msg, nil
}
