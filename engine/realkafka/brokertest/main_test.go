package brokertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/eoslab/eoslab/engine/realkafka"
)

// The broker the tests share, started once in TestMain.
var (
	cluster *realkafka.Cluster
	profile realkafka.Options
)

const howTo = "eoslab: real-broker tests skipped (%s); to run them: eoslab kafka up --dir DIR once (Java 17+, Maven), then EOSLAB_KAFKA_DIR=DIR go test ./engine/realkafka/brokertest [EOSLAB_KAFKA_VERSION=4.1.2 EOSLAB_KAFKA_TV=0|1|2]"

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	cache := os.Getenv("EOSLAB_KAFKA_DIR")
	version := os.Getenv("EOSLAB_KAFKA_VERSION")
	if version == "" {
		version = realkafka.DefaultKafkaVersion
	}
	why := ""
	if cache == "" {
		why = "EOSLAB_KAFKA_DIR is not set"
	} else if _, _, err := realkafka.Tools(false); err != nil {
		why = "java is not on PATH"
	} else if _, err := os.Stat(filepath.Join(realkafka.LibDir(cache, version), ".complete")); err != nil {
		why = "no fetched classpath for Kafka " + version + " in EOSLAB_KAFKA_DIR"
	}
	if why != "" {
		skipped(fmt.Sprintf(howTo, why))
		return 0
	}
	tv := -1
	if s := os.Getenv("EOSLAB_KAFKA_TV"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			fmt.Fprintln(os.Stderr, "EOSLAB_KAFKA_TV:", err)
			return 2
		}
		tv = n
	}
	dir, err := os.MkdirTemp("", "eoslab-brokertest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	profile = realkafka.Options{Dir: dir, Cache: cache, KafkaVersion: version, TransactionVersion: tv}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cluster, err = realkafka.Start(ctx, profile, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer cluster.Stop()
	return m.Run()
}

// skipped tells the user, where go test's package-list mode would hide a
// passing package's output: the line goes to the controlling terminal
// when there is one, and to stdout (seen with -v); and the summary line
// reads "[no tests to run]", which go test adds when the binary says so.
func skipped(msg string) {
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		fmt.Fprintln(tty, msg)
		tty.Close()
	}
	fmt.Println(msg)
	fmt.Println("testing: warning: no tests to run")
}
