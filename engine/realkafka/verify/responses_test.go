package verify

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine/script"
)

// TestResponseHolds: an answer's error, base offset, producer id (mapped
// to the simulation's) and epoch are compared with the line's.
func TestResponseHolds(t *testing.T) {
	d := &driver{pids: map[int64]int64{7001: 1000}}
	produce := obsAnswer{reqFact: reqFact{key: kmsg.Produce, tp: "x-t", part: 0, pid: 7001, seq: 1}, code: 45}
	okProduce := obsAnswer{reqFact: reqFact{key: kmsg.Produce, tp: "x-t", part: 0, pid: 7001}, code: 0, baseOffset: 3}
	init := obsAnswer{reqFact: reqFact{key: kmsg.InitProducerID, pid: 7001, epoch: 2}}
	set := func(s string) script.Opt[string] { return script.Opt[string]{V: s, Set: true} }
	n := func(v int64) script.Opt[int64] { return script.Opt[int64]{V: v, Set: true} }
	for _, c := range []struct {
		name string
		x    script.ResponseCheck
		a    obsAnswer
		want bool
	}{
		{"error name", script.ResponseCheck{Error: set("OUT_OF_ORDER_SEQUENCE_NUMBER")}, produce, true},
		{"other error", script.ResponseCheck{Error: set("NONE")}, produce, false},
		{"base offset", script.ResponseCheck{Error: set("NONE"), BaseOffset: n(3)}, okProduce, true},
		{"wrong base offset", script.ResponseCheck{BaseOffset: n(4)}, okProduce, false},
		{"mapped pid and epoch", script.ResponseCheck{Error: set("NONE"), PID: n(1000), Epoch: n(2)}, init, true},
		{"broker pid is not the simulation's", script.ResponseCheck{PID: n(7001)}, init, false},
		{"wrong epoch", script.ResponseCheck{Epoch: n(1)}, init, false},
	} {
		if got := responseHolds(c.x, c.a, d); got != c.want {
			t.Errorf("%s: responseHolds = %v, want %v", c.name, got, c.want)
		}
	}
}
