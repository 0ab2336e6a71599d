package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine/realkafka/conn"
	data "github.com/eoslab/eoslab/engine/realkafka/inspect"
	"github.com/eoslab/eoslab/engine/realkafka/preflight"
	"github.com/eoslab/eoslab/views/inspect"
	"github.com/eoslab/eoslab/views/theme"
)

// inspectFlags are inspect's flags.
type inspectFlags struct {
	conn           conn.Flags
	partition      string
	topics, txns   []string
	once           bool
	every, timeout time.Duration
	tui            tuiFlags
}

func inspectCommand() *cobra.Command {
	o := inspectFlags{every: 2 * time.Second, timeout: 5 * time.Second}
	cmd := &cobra.Command{
		Use:   "inspect --brokers HOST:PORT[,...] [--topic T]... [--txn ID]... [--once]",
		Short: "a real cluster's transactions, producers, LSO and hanging transactions",
		Long: `A real Kafka cluster's transactions, read only. It shows the coordinators'
transactions (ListTransactions, DescribeTransactions: state, producer id and
epoch, partitions, age against transaction.timeout.ms), each partition
leader's producers (DescribeProducers, KIP-664: epoch, last sequence, the
open transaction's first offset), the high watermark and the last stable
offset (ListOffsets read_uncommitted and read_committed) and which producer
holds the LSO, one partition's log by raw Fetch (batch headers and
COMMIT/ABORT markers), and the hanging transactions: open on a partition
with no open transaction for it at a coordinator (the rule of
kafka-transactions.sh find-hanging), or open at the coordinator longer than
their timeout. Each comes with the kafka-transactions.sh command that would
abort it; inspect runs none. The screen refreshes on r and every --every;
--once prints one snapshot as text. Exit code 1 when the cluster does not
answer, 2 on bad flags.`,
		Example:           "  eoslab inspect --brokers 127.0.0.1:9092\n  eoslab inspect --brokers 127.0.0.1:9092 --topic orders --once",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return inspectCmd(cmd, o, cmd.OutOrStdout())
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&o.topics, "topic", nil, "a `TOPIC` to look at (repeat for more; default: every topic but the internal ones)")
	fl.StringArrayVar(&o.txns, "txn", nil, "a transactional `ID` to list (repeat for more; default: all)")
	fl.StringVar(&o.partition, "partition", "", "the partition whose log to show, `TOPIC:N` (default: a hanging one, else one whose LSO is held, else the first)")
	fl.BoolVar(&o.once, "once", false, "print one snapshot as text and exit")
	fl.Var(durationValue{&o.every, 500 * time.Millisecond}, "every", "refresh the screen this often")
	fl.Var(durationValue{&o.timeout, 100 * time.Millisecond}, "timeout", "how long one refresh waits for the cluster")
	addConnFlags(cmd, &o.conn)
	addTUIFlags(cmd, &o.tui)
	return cmd
}

func inspectCmd(cmd *cobra.Command, o inspectFlags, stdout io.Writer) error {
	p := prefix(cmd)
	c, err := buildConn(cmd, o.conn)
	if err != nil {
		return err
	}
	seeds := c.Seeds
	var log data.TP
	if o.partition != "" {
		i := strings.LastIndexByte(o.partition, ':')
		n, err := strconv.ParseInt(o.partition[i+1:], 10, 32)
		if i <= 0 || err != nil || n < 0 {
			return invalid("%s --partition %q: want TOPIC:N, such as orders:0", p, o.partition)
		}
		log = data.TP{Topic: o.partition[:i], Partition: int32(n)}
	}
	for _, list := range [][]string{o.topics, o.txns} {
		for _, s := range list {
			if strings.TrimSpace(s) == "" {
				return invalid("%s --topic and --txn take a non-empty name", p)
			}
		}
	}
	cl, err := kgo.NewClient(append(c.Opts(), kgo.ClientID("eoslab-inspect"))...)
	if err != nil {
		return invalid("%s %v", p, err)
	}
	defer cl.Close()
	// Read only, before the first screen: a refused permission is named
	// with its grant instead of showing as an empty panel.
	if _, err := runPreflight(cmd, cl, c, preflight.Need{Topics: o.topics}, o.timeout*2, true); err != nil {
		return err
	}
	bootstrap := seeds[0]
	fetch := func(ctx context.Context, tp data.TP) (*data.Snapshot, error) {
		return data.Collect(ctx, cl, data.Options{Bootstrap: bootstrap, Topics: o.topics, TxnIDs: o.txns, Log: tp})
	}
	if o.once {
		ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
		defer cancel()
		s, err := fetch(ctx, log)
		if err != nil {
			return failed(p + " " + data.Unreachable(bootstrap, err))
		}
		_, err = fmt.Fprint(stdout, data.Text(s))
		return err
	}
	noColor := o.tui.noColor || os.Getenv("NO_COLOR") != ""
	m := inspect.New(inspect.Options{
		Bootstrap: bootstrap, Fetch: fetch, Every: o.every, Timeout: o.timeout, Log: log,
		Theme: theme.New(theme.Options{NoColor: noColor, ASCII: o.tui.ascii}),
	})
	return runTUI(m)
}
