package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/assets"
	"github.com/eoslab/eoslab/engine/realkafka/conn"
	"github.com/eoslab/eoslab/engine/realkafka/preflight"
)

// addConnFlags defines the connection flags every command that talks to a
// cluster shares (inspect, verify, live, kafka preflight); conn.Flags.Build
// checks them. A SASL password comes from a file or the environment,
// never from a flag's value.
func addConnFlags(cmd *cobra.Command, f *conn.Flags) {
	fl := cmd.Flags()
	fl.StringVar(&f.Brokers, "brokers", "", "the cluster's bootstrap `HOST:PORT`, several separated by commas (required)")
	fl.BoolVar(&f.TLS, "tls", false, "connect with TLS (the system's CAs unless --tls-ca)")
	fl.StringVar(&f.CAFile, "tls-ca", "", "PEM `FILE` of the CA certificates to trust (implies --tls)")
	fl.StringVar(&f.CertFile, "tls-cert", "", "PEM `FILE` of a client certificate, with --tls-key (implies --tls)")
	fl.StringVar(&f.KeyFile, "tls-key", "", "PEM `FILE` of the client certificate's private key (implies --tls)")
	fl.StringVar(&f.ServerName, "tls-server-name", "", "the `NAME` the brokers' certificates must carry (default: the host dialled)")
	fl.StringVar(&f.SASLMechanism, "sasl-mechanism", "", "SASL `MECHANISM`: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512")
	fl.StringVar(&f.SASLUser, "sasl-user", "", "the SASL user `NAME`")
	fl.StringVar(&f.SASLPasswordFile, "sasl-password-file", "", "a `FILE` holding the SASL password (default: the environment variable "+conn.PasswordEnv+")")
	_ = cmd.RegisterFlagCompletionFunc("sasl-mechanism", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return conn.Mechanisms, cobra.ShellCompDirectiveNoFileComp
	})
}

// buildConn checks the connection flags: a bad one is exit 2.
func buildConn(cmd *cobra.Command, f conn.Flags) (*conn.Config, error) {
	c, err := f.Build(os.Getenv)
	if err != nil {
		return nil, invalid("%s %v (%s)", prefix(cmd), err, see(cmd))
	}
	return c, nil
}

// runPreflight runs preflight with a bound, printing nothing when every
// check passes and quiet; a cluster that does not answer or a refusal
// is exit 1.
func runPreflight(cmd *cobra.Command, cl *kgo.Client, c *conn.Config, need preflight.Need, timeout time.Duration, quiet bool) (preflight.Report, error) {
	need.Principal = c.User
	ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
	defer cancel()
	r, err := preflight.Run(ctx, cl, need)
	if err != nil {
		return r, failed(prefix(cmd) + " " + preflight.Words(strings.Join(c.Seeds, ","), err))
	}
	if !quiet || !r.OK() {
		fmt.Fprintf(cmd.OutOrStdout(), "preflight: %s\n%s", c.Describe(), r.Text())
	}
	if !r.OK() {
		return r, failed(prefix(cmd) + " preflight refused: the principal lacks a permission above (or see the line)")
	}
	return r, nil
}

func kafkaPreflightCommand() *cobra.Command {
	var f conn.Flags
	var topics []string
	var prefixName string
	timeout := 10 * time.Second
	cmd := &cobra.Command{
		Use:   "preflight --brokers HOST:PORT [--tls ...] [--sasl-mechanism M --sasl-user U] [--topic T]... [--prefix P]",
		Short: "ask a cluster, read only, whether eoslab can run there",
		Long: `Asks the cluster, writing nothing: the brokers' API versions (ApiVersions,
with a guess of each broker's release), the finalized transaction.version
feature (KIP-584, KIP-890), and whether the principal may describe the
cluster (DescribeCluster), transactional ids (DescribeTransactions),
the --topic topics' producers (DescribeProducers, KIP-664) and, with
--prefix, create topics under that prefix (CreateTopics validateOnly,
which creates nothing). A refusal is named by its error
(CLUSTER_AUTHORIZATION_FAILED, TOPIC_AUTHORIZATION_FAILED,
TRANSACTIONAL_ID_AUTHORIZATION_FAILED) with the kafka-acls.sh grant.
inspect and live run it before they start.

The SASL password is read from --sasl-password-file or the environment
variable ` + conn.PasswordEnv + `. Exit code 0 when every check passes, 1 when the
cluster does not answer, refuses the credentials or refuses a check,
2 on bad flags or an unreadable file.`,
		Example: "  eoslab kafka preflight --brokers 127.0.0.1:9092\n" +
			"  " + conn.PasswordEnv + "=... eoslab kafka preflight --brokers broker:9093 --tls-ca ca.pem --sasl-mechanism SCRAM-SHA-512 --sasl-user alice",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := buildConn(cmd, f)
			if err != nil {
				return err
			}
			_, err = preflightOn(cmd, c, preflight.Need{Topics: topics, Prefix: prefixName}, timeout, false)
			return err
		},
	}
	addConnFlags(cmd, &f)
	cmd.Flags().StringArrayVar(&topics, "topic", nil, "a `TOPIC` whose producers to describe (repeat for more)")
	cmd.Flags().StringVar(&prefixName, "prefix", "", "check that topics named `PREFIX`... can be created (validate only)")
	cmd.Flags().Var(durationValue{&timeout, 100 * time.Millisecond}, "timeout", "how long to wait for the cluster")
	return cmd
}

// quietPreflight is preflightOn printing only a refusal, within 10 s.
func quietPreflight(cmd *cobra.Command, c *conn.Config, need preflight.Need) (preflight.Report, error) {
	return preflightOn(cmd, c, need, 10*time.Second, true)
}

// preflightOn is runPreflight on a client of its own.
func preflightOn(cmd *cobra.Command, c *conn.Config, need preflight.Need, timeout time.Duration, quiet bool) (preflight.Report, error) {
	cl, err := kgo.NewClient(append(c.Opts(), kgo.ClientID("eoslab-preflight"))...)
	if err != nil {
		return preflight.Report{}, invalid("%s %v", prefix(cmd), err)
	}
	defer cl.Close()
	return runPreflight(cmd, cl, c, need, timeout, quiet)
}

// knownDifferences is the known-differences file's text: the shipped one,
// or the file given (unreadable: exit 2).
func knownDifferences(cmd *cobra.Command, file string) (string, error) {
	if file == "" {
		return assets.KafkaKnownDifferences, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", invalid("%s: %v", prefix(cmd), err)
	}
	return string(b), nil
}
