package brokertest

import (
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka/verify"
)

// TestVerifyGroupGeneration: a group's generation is the coordinator's
// JoinGroup answer to the file's members. One consumer that never polls
// joins raw at the first rebalance, in the generation the simulation's
// had after its declaration's join and that rebalance: the numbers are
// compared (a wrong one is met by neither). A static member's restart
// before the first rebalance is a generation of the simulation's the
// broker run does not have: not compared, saying why.
func TestVerifyGroupGeneration(t *testing.T) {
	one := `topic t
consumer m group.id=gen-one
rebalance gen-one
rebalance gen-one
expect group gen-one generation 3
`
	allAgree(t, "generation.scn", one, 1)
	s, out := verifyScenario(t, "generation-flipped.scn", strings.Replace(one, "generation 3", "generation 4", 1))
	if s.Count(verify.NotPlayed) != 1 || !strings.Contains(out, "Kafka (generation 3") {
		t.Errorf("a wrong generation: want neither meets it, Kafka with generation 3:\n%s", out)
	}
	two := `topic t
consumer a group.id=gen-two
consumer s group.id=gen-two group.instance.id=inst-1
restart s
rebalance gen-two
expect group gen-two generation 4
`
	s, out = verifyScenario(t, "generation-two.scn", two)
	if s.Count(verify.NotPlayed) != 1 || !strings.Contains(out, "the generation numbers are not the simulation's") {
		t.Errorf("a generation the broker run does not have is compared:\n%s", out)
	}
}
