package adapt

import (
	"testing"

	"github.com/eoslab/eoslab/engine"
)

// Every message kind's shorter names are shorter than its name, a
// response's end as responses do, and the one the issue names reads
// AddPartitions.
func TestShortKinds(t *testing.T) {
	for k := range shortKinds {
		kind := engine.MsgKind(k)
		name := kind.String()
		for _, s := range shortKinds[k] {
			if s != "" && len(s) >= len(name) {
				t.Errorf("%s: short form %q is not shorter", name, s)
			}
		}
		if kind.IsResponse() && shortKinds[k][1] == "" {
			t.Errorf("%s: no Resp form", name)
		}
	}
	if got := shortKinds[engine.MsgAddPartitionsToTxn][0]; got != "AddPartitions" {
		t.Errorf("AddPartitionsToTxn: %q", got)
	}
	if got := shortKinds[engine.MsgInitProducerIDResponse]; got != [2]string{"InitPidResponse", "InitPidResp"} {
		t.Errorf("InitProducerIdResponse: %q", got)
	}
}
