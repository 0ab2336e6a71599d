package cli

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/engine/realkafka"
)

// kafkaCommand is `eoslab kafka up|down`: a real Apache Kafka cluster on
// 127.0.0.1, run from Maven Central artifacts; the work is in
// engine/realkafka.
func kafkaCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kafka up|down|preflight",
		Short: "run a real Apache Kafka cluster on 127.0.0.1 (needs Java 17+ and Maven)",
		Long: `eoslab kafka up fetches a Kafka broker's classpath with Maven into DIR (once;
later runs reuse it; the jars are Apache Kafka's, org.apache.kafka:kafka_2.13),
formats KRaft storage, starts a cluster of --brokers nodes on 127.0.0.1 with
free ports and the settings that make transactions work on one node
(transaction.state.log replication factor and min ISR 1, abort cleanup every
200 ms), waits until it answers, prints BOOTSTRAP=127.0.0.1:PORT on standard
output, and runs until eoslab kafka down --dir DIR, ^C or SIGTERM; then it
stops the brokers and removes their data. --transaction-version picks the
transaction protocol at format time (0 classic, 2 KIP-890; Kafka 4.x only;
default: the release's). --cache keeps the classpath elsewhere than DIR.
--broker-config KEY=VALUE (repeatable) adds a broker setting to every node.
--security sasl,ssl adds secured listeners beside PLAINTEXT (SASL_PLAINTEXT
with PLAIN and SCRAM, SSL with client certificates, StandardAuthorizer with
the super user eoslab and the user learner, who has no ACL) and prints their
BOOTSTRAP_SASL=, BOOTSTRAP_SSL= and credential files after BOOTSTRAP=.
With --brokers N (2 to 5, no --security) the cluster is one eoslab verify
--cluster-dir DIR may break: each broker's inter-broker listener (INTERNAL,
inter.broker.listener.name) is advertised through a proxy of this process,
the internal topics are replicated on every node with 50 partitions, and
DIR/cluster.json lists each node's process and ports and the control
socket through which verify crashes (SIGKILL) and restarts brokers and
loses or delays WriteTxnMarkers between them.
eoslab kafka preflight asks a cluster, read only, whether eoslab can run
there.

Exit codes: 2 without java or mvn (the message says what to install) or on
bad flags (a --broker-config not KEY=VALUE); 1 when the cluster does not
come up, e.g. a --broker-config value the broker rejects (with its last log
lines).`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return invalid("%s unknown command %s; want up, down or preflight (%s)", prefix(cmd), quote(args[0]), see(cmd))
			}
			return invalid("%s want up, down or preflight (%s)", prefix(cmd), see(cmd))
		},
	}
	cmd.AddCommand(kafkaUpCommand(), kafkaDownCommand(), kafkaPreflightCommand())
	return cmd
}

func kafkaUpCommand() *cobra.Command {
	var o realkafka.Options
	var brokerConfig []string
	cmd := &cobra.Command{
		Use:   "up --dir DIR [--kafka-version V] [--transaction-version 0|1|2] [--brokers N] [--cache DIR] [--security sasl,ssl] [--broker-config KEY=VALUE]...",
		Short: "start a real Kafka cluster and print its bootstrap address",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			extra, err := brokerConfigLines(brokerConfig)
			if err != nil {
				return err
			}
			o.Extra = append(o.Extra, extra...)
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return kafkaErr(realkafka.Up(ctx, o, cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	cmd.Flags().StringVar(&o.Dir, "dir", "", "the cluster's directory (its classpath too, unless --cache)")
	cmd.Flags().StringVar(&o.Cache, "cache", "", "where the classpath is kept (default: --dir)")
	cmd.Flags().StringVar(&o.KafkaVersion, "kafka-version", realkafka.DefaultKafkaVersion, "org.apache.kafka:kafka_2.13 version")
	cmd.Flags().IntVar(&o.TransactionVersion, "transaction-version", -1, "transaction.version at format time: 0, 1 or 2 (default: the release's)")
	cmd.Flags().IntVar(&o.Brokers, "brokers", 1, "number of nodes, each broker and controller")
	cmd.Flags().StringArrayVar(&brokerConfig, "broker-config", nil, "a broker setting `KEY=VALUE` for every node's server.properties, after eoslab's (repeatable), e.g. transactional.id.expiration.ms=5000 for verify to play transactional id expiry")
	cmd.Flags().StringSliceVar(&o.Security, "security", nil, "secured client listeners beside PLAINTEXT: `sasl` (PLAIN, SCRAM-SHA-256/512), ssl (client certificates), or sasl,ssl; their addresses and credential files are printed after BOOTSTRAP=")
	return cmd
}

func kafkaDownCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "down --dir DIR",
		Short: "stop the cluster eoslab kafka up runs in DIR and remove its data",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return kafkaErr(realkafka.Down(dir, cmd.ErrOrStderr()))
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the directory given to kafka up")
	return cmd
}

func kafkaErr(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: realkafka.ExitCode(err), msg: err.Error()}
}

// brokerConfigLines checks --broker-config values (KEY=VALUE, one
// server.properties line each) and returns them as lines.
func brokerConfigLines(kvs []string) ([]string, error) {
	var lines []string
	for _, kv := range kvs {
		key, value, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		switch {
		case !ok || key == "":
			return nil, invalid("kafka up: --broker-config %s: want KEY=VALUE, e.g. transactional.id.expiration.ms=5000", quote(kv))
		case strings.ContainsAny(kv, "\r\n"):
			return nil, invalid("kafka up: --broker-config %s: a setting is one line", quote(kv))
		case strings.ContainsAny(key, " \t:#!\\"):
			return nil, invalid("kafka up: --broker-config %s: %s is not a broker setting name (letters, digits, dots, dashes)", quote(kv), quote(key))
		}
		lines = append(lines, key+"="+strings.TrimSpace(value))
	}
	return lines, nil
}
