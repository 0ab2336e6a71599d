package engine

import "testing"

// causeSwitches is the teaching switches a duplicate's cause chain blames,
// for a producer with idempotence on or off and eoslab.broker.dedup off.
func causeSwitches(t *testing.T, idempotence bool) []string {
	t.Helper()
	w := New(DefaultConfig())
	for _, a := range []Action{
		CreateTopic{Name: "t", Partitions: 1},
		producerWith("P", func(c *ProducerConfig) { c.Idempotence, c.Acks = idempotence, -1 }, ProducerIdempotence, ProducerAcks),
		SetTeaching(ConfigTeachDedup, false),
		Send{Client: "P", TP: tp("t", 0), Values: []string{"first"}},
		Run{},
		Send{Client: "P", TP: tp("t", 0), Values: []string{"a"}},
		Deliver{Msg: Selector{Kind: MsgProduce}},
		Drop{Msg: Selector{Kind: MsgProduceResponse}},
		Advance{Ms: 40000},
		Run{},
	} {
		if _, err := w.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.violations) == 0 {
		t.Fatal("no violation")
	}
	var out []string
	for _, l := range w.Cause(w.violations[0]) {
		if l.Role == CauseSwitch {
			out = append(out, l.Text)
		}
	}
	return out
}

// A batch without a producer id (idempotence off) is never deduplicated,
// switch or not: the dedup switch did not decide its duplicate.
func TestCauseSwitchOnlyWhenItDecided(t *testing.T) {
	if got := causeSwitches(t, false); len(got) != 0 {
		t.Errorf("idempotence off: the chain blames %q", got)
	}
	if got := causeSwitches(t, true); len(got) != 1 {
		t.Errorf("idempotence on: the chain blames %q, want the dedup switch", got)
	}
}
