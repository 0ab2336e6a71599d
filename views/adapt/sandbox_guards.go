package adapt

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// The safeguards bar: Kafka settings of the setup, and the teaching-only
// switches, each flipped by playing the branch again with the new value.

// guards is the state of the safeguards bar.
type guards struct {
	idempotence   bool
	readCommitted bool
	offsets       engine.OffsetsMode
	dedup, fence  bool
	lso           bool
}

// The teaching-only cluster settings (not Kafka settings: engine/teach.go).
var teachKeys = [model.NumGuards]engine.ConfigKey{
	model.GuardDedup:   engine.ConfigTeachDedup,
	model.GuardFencing: engine.ConfigTeachFencing,
	model.GuardLSO:     engine.ConfigTeachLSO,
}

// teachGuards are the switches of teachKeys, in the bar's order.
var teachGuards = []model.SafeguardID{model.GuardDedup, model.GuardFencing, model.GuardLSO}

// writtenGuards reads the safeguards a setup writes.
func writtenGuards(base []engine.Action) guards {
	g := guards{idempotence: true, readCommitted: true, dedup: true, fence: true, lso: true}
	sawConsumer := false
	for _, a := range base {
		switch a := a.(type) {
		case engine.DeclareProducer:
			if !a.Config.Idempotence {
				g.idempotence = false
			}
		case engine.DeclareConsumer:
			if !sawConsumer {
				g.readCommitted = a.Isolation == engine.ReadCommitted
				sawConsumer = true
			}
		case engine.DeclareProcessor:
			g.offsets = a.Offsets
		case engine.SetConfig:
			// A saved file writes a teaching switch that is off as a
			// config line of its setup (setupLines); reading it back
			// shows the switch as the file sets it.
			for _, st := range a.Settings {
				for _, id := range teachGuards {
					if st.Key == teachKeys[id] {
						g.setTeach(id, st.Value != 0)
					}
				}
			}
		}
	}
	return g
}

func (g *guards) setTeach(id model.SafeguardID, on bool) {
	switch id {
	case model.GuardDedup:
		g.dedup = on
	case model.GuardFencing:
		g.fence = on
	default:
		g.lso = on
	}
}

// withoutTeach is c without its teaching switches, which setupLines
// writes from the bar's state instead; ok is false when nothing is left.
func withoutTeach(c engine.SetConfig) (engine.SetConfig, bool) {
	var kept []engine.Setting
	for _, st := range c.Settings {
		teach := false
		for _, id := range teachGuards {
			if st.Key == teachKeys[id] {
				teach = true
			}
		}
		if !teach {
			kept = append(kept, st)
		}
	}
	return engine.SetConfig{Settings: kept}, len(kept) > 0
}

// setupLines is base with the safeguards g applied, where they differ from
// what base writes, as scenario lines.
func setupLines(base *setupBase, g guards) []string {
	w := base.written
	var out []string
	for _, a := range base.actions {
		switch d := a.(type) {
		case engine.DeclareProducer:
			if g.idempotence != w.idempotence {
				d.Config.Idempotence = g.idempotence
				d.Set = d.Set.With(engine.ProducerIdempotence)
				if !g.idempotence && d.Config.TransactionalID != "" {
					// Java refuses transactional.id without
					// idempotence (ConfigException from ProducerConfig.postProcessAndValidateIdempotenceConfigs): the
					// instance runs without transactions.
					d.Config.TransactionalID = ""
					d.Set &^= 1 << engine.ProducerTransactionalID
				}
			}
			a = d
		case engine.DeclareConsumer:
			if g.readCommitted != w.readCommitted {
				d.Isolation = engine.ReadUncommitted
				if g.readCommitted {
					d.Isolation = engine.ReadCommitted
				}
			}
			a = d
		case engine.DeclareProcessor:
			if g.offsets != w.offsets {
				d.Offsets = g.offsets
			}
			a = d
		case engine.SetConfig:
			var ok bool
			if a, ok = withoutTeach(d); !ok {
				continue
			}
		}
		out = append(out, a.String())
	}
	for _, id := range teachGuards {
		if !g.teach(id) {
			out = append(out, engine.SetTeaching(teachKeys[id], false).String())
		}
	}
	return out
}

func (g guards) teach(id model.SafeguardID) bool {
	switch id {
	case model.GuardDedup:
		return g.dedup
	case model.GuardFencing:
		return g.fence
	}
	return g.lso
}

// Safeguards are the bar's switches as they stand on the current branch.
func (x *Sandbox) Safeguards() []model.Safeguard {
	g := x.branch().g
	w := x.world()
	hasProducer, hasConsumer := false, len(w.Consumers()) > 0
	for _, a := range x.branch().base.actions {
		if _, ok := a.(engine.DeclareProducer); ok {
			hasProducer = true
		}
	}
	out := []model.Safeguard{
		{ID: model.GuardIdempotence, Key: "enable.idempotence", Value: strconv.FormatBool(g.idempotence), On: g.idempotence,
			Available: hasProducer, Why: "no producer"},
		{ID: model.GuardIsolation, Key: "isolation.level", Value: isolationWord(g.readCommitted), On: g.readCommitted,
			Available: hasConsumer, Why: "no consumer"},
		{ID: model.GuardOffsets, Key: "offsets", Value: g.offsets.String(), On: g.offsets == engine.OffsetsInTransaction,
			Available: len(w.Processors()) > 0, Why: "no processor"},
	}
	// A teaching switch may be set at any step (config eoslab.lso=false
	// after the first send), which the setup's guards do not know: the
	// bar shows the switch as the world has it at this position.
	for _, sw := range w.TeachingSwitches() {
		id := teachID(sw.Key)
		out = append(out, model.Safeguard{ID: id, Key: sw.Key.String(), Value: strconv.FormatBool(sw.On), On: sw.On, NotKafka: true,
			Available: true})
	}
	return out
}

// teachID is the bar's switch for a teaching key.
func teachID(k engine.ConfigKey) model.SafeguardID {
	for _, id := range teachGuards {
		if teachKeys[id] == k {
			return id
		}
	}
	return model.GuardLSO
}

// teachSetAt is the last step of b up to pos whose line sets the teaching
// switch id (a config line among the actions, not the setup); 0 when none
// does.
func teachSetAt(b *sbBranch, id model.SafeguardID, pos int) int {
	for k := pos; k >= 1; k-- {
		for _, c := range b.s.p.StepAt(k).Commands {
			if sc, ok := c.Action.(engine.SetConfig); ok && slices.ContainsFunc(sc.Settings, func(st engine.Setting) bool { return st.Key == teachKeys[id] }) {
				return k
			}
		}
	}
	return 0
}

// safeguard is the bar's switch id as it stands on the current branch.
func (x *Sandbox) safeguard(id model.SafeguardID) model.Safeguard {
	for _, s := range x.Safeguards() {
		if s.ID == id {
			return s
		}
	}
	return model.Safeguard{ID: id}
}

func isolationWord(rc bool) string {
	if rc {
		return engine.ReadCommitted.String()
	}
	return engine.ReadUncommitted.String()
}

// Toggle flips a safeguard: the branch's actions are played again on a
// world set up with the new value, as a new branch standing at the same
// position; the old branch is kept.
func (x *Sandbox) Toggle(id model.SafeguardID) (string, error) {
	if id >= model.NumGuards {
		return "", errors.New("no safeguard " + strconv.Itoa(int(id)+1) + "; the bar has " + strconv.Itoa(int(model.NumGuards)))
	}
	if s := x.safeguard(id); !s.Available {
		return "", errors.New(s.Key + " cannot be switched here: " + s.Why)
	}
	b := x.branch()
	if id >= model.GuardDedup {
		// A line of the branch that sets the switch wins over the
		// setup a replay would change.
		if k := teachSetAt(b, id, b.s.p.Pos()); k > 0 {
			return "", errors.New("step " + strconv.Itoa(k) + " sets " + teachKeys[id].String() + ": go back before it (←) to switch it")
		}
	}
	g := b.g
	switch id {
	case model.GuardIdempotence:
		g.idempotence = !g.idempotence
	case model.GuardIsolation:
		g.readCommitted = !g.readCommitted
	case model.GuardOffsets:
		g.offsets = (g.offsets + 1) % 3
	case model.GuardDedup:
		g.dedup = !g.dedup
	case model.GuardFencing:
		g.fence = !g.fence
	case model.GuardLSO:
		g.lso = !g.lso
	}
	pos := b.s.p.Pos()
	lines := b.lines()
	r, err := x.replayByRole(g, b)
	if err != nil {
		return "", err
	}
	nb, dropped := r.b, r.dropped
	kept := 0
	for _, at := range r.counterpart[:pos] {
		kept = max(kept, at)
	}
	nb.s.p.Seek(kept)
	x.branches = append(x.branches, nb)
	x.cur = len(x.branches) - 1
	s := x.safeguard(id)
	nb.name += " (" + s.Key + "=" + s.Value + ")"
	msg := s.Key + "=" + s.Value + ": the setup is played again with it"
	if len(lines) > 0 {
		msg += ", then your " + strconv.Itoa(len(lines)) + " action(s)"
	}
	if id == model.GuardIdempotence && !g.idempotence && x.hasTxnProducer() {
		msg += "; transactional producers lose transactional.id (Java refuses it without idempotence)"
	}
	if len(r.caught) > 0 {
		msg += "; their message comes later here: " + strings.Join(r.caught, ", ")
	}
	if len(dropped) > 0 {
		msg += "; left out: " + strings.Join(dropped, ", ")
	}
	return msg, nil
}

func (x *Sandbox) hasTxnProducer() bool {
	for _, a := range x.branch().base.actions {
		if d, ok := a.(engine.DeclareProducer); ok && d.Config.TransactionalID != "" {
			return true
		}
	}
	return false
}
