package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/eoslab/eoslab/engine"
)

// version is what --version prints: the module version from the build
// info ("(devel)" for a build from a checkout, the tag for
// 'go install ...@vX'), and the Kafka versions the engine follows.
func version() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("eoslab %s\nfollows Apache Kafka 3.x (transaction.version=1, the classic protocol)\n"+
		"    and Kafka 4.x (transaction.version=2, KIP-890), with Kafka %s's details where 4.x releases differ\n",
		v, engine.DefaultConfig().TV2.Name)
}
