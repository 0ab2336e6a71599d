// Command eoslab is an interactive terminal lab for Apache Kafka's
// exactly-once semantics. Its command line is views/cli; main only wires
// it to the process.
package main

import (
	"os"

	"github.com/eoslab/eoslab/views/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
