// Package realkafka runs a real Apache Kafka cluster on 127.0.0.1 from
// Maven Central artifacts, with no Docker and no distribution tarball: it
// writes a small pom.xml into a directory, lets Maven copy the runtime
// closure of org.apache.kafka:kafka_2.13 there (once; later runs reuse it),
// formats KRaft storage with kafka.tools.StorageTool and starts kafka.Kafka
// with the settings that make transactions work on one node.
//
// It is an I/O edge, not the pure core: it execs java and mvn, opens
// sockets, writes files and sends signals. Package engine stays standard
// library only and never imports it.
package realkafka

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/assets"
)

// DefaultKafkaVersion is the broker line `eoslab kafka up` runs unless told.
const DefaultKafkaVersion = "4.1.2"

// dependencyPlugin is pinned: a bare `dependency:` prefix needs Maven's
// plugin-group metadata, and 3.8.1 runs on Maven 3.8.
const dependencyPlugin = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies"

// Options says which cluster to run and where.
type Options struct {
	// Dir holds the running cluster (run/, removed on stop), the pid file
	// and, unless Cache says otherwise, the classpath (libs-VERSION/, kept).
	Dir string
	// Cache, when set, holds the classpath instead of Dir.
	Cache string
	// KafkaVersion is the org.apache.kafka:kafka_2.13 version.
	KafkaVersion string
	// TransactionVersion is the transaction.version feature given at format
	// time (0, 1 or 2); -1 keeps the release's default (2 from Kafka 4.0, 0
	// before: 3.x knows no such feature).
	TransactionVersion int
	// Brokers is the number of nodes, each a combined broker and controller.
	Brokers int
	// StartTimeout bounds format plus start until the cluster answers.
	StartTimeout time.Duration
	// Extra server.properties lines, appended after eoslab's.
	Extra []string
	// Security adds secured client listeners: "sasl", "ssl" (security.go).
	Security []string
}

func (o *Options) defaults() error {
	if o.Dir == "" {
		return &UsageError{"kafka: --dir DIR is required"}
	}
	if o.Cache == "" {
		o.Cache = o.Dir
	}
	if o.KafkaVersion == "" {
		o.KafkaVersion = DefaultKafkaVersion
	}
	major, err := majorVersion(o.KafkaVersion)
	if err != nil {
		return err
	}
	if o.Brokers == 0 {
		o.Brokers = 1
	}
	if o.Brokers < 1 || o.Brokers > 5 {
		return &UsageError{fmt.Sprintf("kafka: --brokers %d: want 1 to 5", o.Brokers)}
	}
	if o.TransactionVersion < -1 || o.TransactionVersion > 2 {
		return &UsageError{fmt.Sprintf("kafka: --transaction-version %d: want 0, 1 or 2", o.TransactionVersion)}
	}
	if major < 4 && o.TransactionVersion > 0 {
		// 3.9's TransactionVersion.TV_1 and TV_2 need metadata.version
		// IBP_4_0_IV0, which 3.9 marks unstable.
		return &UsageError{fmt.Sprintf("kafka: Kafka %s has transaction.version 0 only (levels 1 and 2 came with Kafka 4.0)", o.KafkaVersion)}
	}
	if err := checkSecurity(o.Security); err != nil {
		return err
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = 90 * time.Second
	}
	return nil
}

func majorVersion(v string) (int, error) {
	head, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(head)
	if err != nil || n < 3 || strings.ContainsAny(v, "/\\ ") {
		return 0, &UsageError{fmt.Sprintf("kafka: --kafka-version %q: want a release such as 3.9.2 or 4.1.2", v)}
	}
	return n, nil
}

// UsageError is bad input: exit 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// MissingToolsError says which programs are not on PATH: exit 2.
type MissingToolsError struct{ Missing []string }

func (e *MissingToolsError) Error() string {
	return "kafka: not found on PATH: " + strings.Join(e.Missing, ", ") +
		"\n  a real broker needs a Java 17+ runtime (java) and Apache Maven 3.8+ (mvn)," +
		"\n  e.g. `apt-get install openjdk-17-jre-headless maven` or https://adoptium.net and https://maven.apache.org"
}

// StartError is a cluster that did not come up: exit 1. Log holds the last
// lines of the failing node's log.
type StartError struct {
	Reason string
	Log    []string
}

func (e *StartError) Error() string {
	var b strings.Builder
	b.WriteString("kafka: ")
	b.WriteString(e.Reason)
	if len(e.Log) > 0 {
		b.WriteString("\n  last log lines:")
		for _, l := range e.Log {
			b.WriteString("\n    ")
			b.WriteString(l)
		}
	}
	return b.String()
}

// Tools finds java and mvn; a missing one is a *MissingToolsError.
func Tools(needMaven bool) (java, mvn string, err error) {
	var missing []string
	java, jerr := exec.LookPath("java")
	if jerr != nil {
		missing = append(missing, "java")
	}
	if needMaven {
		var merr error
		mvn, merr = exec.LookPath("mvn")
		if merr != nil {
			missing = append(missing, "mvn")
		}
	}
	if len(missing) > 0 {
		return "", "", &MissingToolsError{missing}
	}
	return java, mvn, nil
}

// LibDir is where the classpath of a Kafka version lives inside dir.
func LibDir(dir, version string) string { return filepath.Join(dir, "libs-"+version) }

// complete marks a finished copy-dependencies, so an interrupted fetch is
// redone rather than run with half a classpath.
const complete = ".complete"

// Fetch makes sure dir holds the classpath of version, running Maven once.
// progress gets one line saying what happens (nil: silent).
func Fetch(ctx context.Context, dir, version string, progress io.Writer) (string, error) {
	major, err := majorVersion(version)
	if err != nil {
		return "", err
	}
	lib := LibDir(dir, version)
	if _, err := os.Stat(filepath.Join(lib, complete)); err == nil {
		return lib, nil
	}
	_, mvn, err := Tools(true)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	pom := filepath.Join(dir, "pom.xml")
	if err := os.WriteFile(pom, []byte(assets.KafkaPOM), 0o644); err != nil {
		return "", err
	}
	profile := "log-log4j2"
	if major < 4 {
		profile = "log-reload4j"
	}
	if progress != nil {
		fmt.Fprintf(progress, "kafka: fetching org.apache.kafka:kafka_2.13:%s with Maven into %s (once)\n", version, lib)
	}
	cmd := exec.CommandContext(ctx, mvn, "-B", "-q", "-f", pom, "-Dkafka.version="+version, "-P"+profile,
		dependencyPlugin, "-DincludeScope=runtime", "-DoutputDirectory="+lib)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", &StartError{Reason: fmt.Sprintf("mvn could not fetch Kafka %s: %v", version, err), Log: lastLines(string(out), 15)}
	}
	if err := os.WriteFile(filepath.Join(lib, complete), nil, 0o644); err != nil {
		return "", err
	}
	return lib, nil
}

// Cluster is a running cluster started by Start.
type Cluster struct {
	opts  Options
	lib   string
	run   string
	java  string
	nodes []*node
	boot  string
	sec   *Secured
	mu    sync.Mutex // node state a Crash or Restart changes
	// exited gets the id of a node whose process ended unasked (a
	// Crash is asked); owned.go.
	exited chan int
	ctl    *controlServer
}

type node struct {
	id                int
	bport, cport      int
	saslPort, sslPort int
	// iport is the inter-broker listener, pport the proxy in front of
	// it that the other brokers are told to use (owned.go); 0 on a
	// single node.
	iport, pport int
	proxy        *proxy
	crashing     bool
	dir          string
	cmd          *exec.Cmd
	done         chan struct{}
	log          string
}

// Bootstrap is the comma-separated list of broker addresses.
func (c *Cluster) Bootstrap() string { return c.boot }

// RunDir is the directory Stop removes.
func (c *Cluster) RunDir() string { return c.run }

// PIDFile is the file, inside Dir, that names the processes of a running
// cluster: the first line the `eoslab kafka up` process, then one java
// process (and process group) per node.
func PIDFile(dir string) string { return filepath.Join(dir, "kafka.pid") }

// Start fetches the classpath if needed, formats storage and starts the
// nodes, and returns once every broker answers (kadm ApiVersions and
// Metadata with all brokers). On failure nothing is left running.
func Start(ctx context.Context, opts Options, progress io.Writer) (*Cluster, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	_, cerr := os.Stat(filepath.Join(LibDir(opts.Cache, opts.KafkaVersion), complete))
	java, _, err := Tools(cerr != nil)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(PIDFile(opts.Dir)); err == nil {
		return nil, &UsageError{fmt.Sprintf("kafka: %s exists: a cluster is running there (eoslab kafka down --dir %s)", PIDFile(opts.Dir), opts.Dir)}
	}
	lib, err := Fetch(ctx, opts.Cache, opts.KafkaVersion, progress)
	if err != nil {
		return nil, err
	}
	c := &Cluster{opts: opts, lib: lib, java: java, run: filepath.Join(opts.Dir, "run"), exited: make(chan int, 8)}
	if err := os.RemoveAll(c.run); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			c.Stop()
		}
	}()
	if err := c.configure(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()
	cid, err := clusterID()
	if err != nil {
		return nil, err
	}
	for _, n := range c.nodes {
		if err := c.format(ctx, n, cid); err != nil {
			return nil, err
		}
	}
	if err := c.startProxies(); err != nil {
		return nil, err
	}
	for _, n := range c.nodes {
		if err := c.launch(n); err != nil {
			return nil, err
		}
	}
	if err := c.writePIDs(); err != nil {
		return nil, err
	}
	if err := c.wait(ctx); err != nil {
		return nil, err
	}
	ok = true
	return c, nil
}

// clusterID is 16 bytes, base64url without padding
// (org.apache.kafka.common.Uuid): the first six spell upMark, the rest are
// random. The mark is how verify tells a cluster `eoslab kafka up` made
// (and may reconfigure) from anyone else's (MadeByUp).
func clusterID() (string, error) {
	var b [16]byte
	mark, err := base64.RawURLEncoding.DecodeString(upMark)
	if err != nil || len(mark) != 6 {
		return "", fmt.Errorf("kafka: cluster id mark %q: %v", upMark, err)
	}
	copy(b[:], mark)
	if _, err := rand.Read(b[len(mark):]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// upMark begins the cluster id of every cluster `eoslab kafka up` formats:
// eight base64url characters, six bytes.
const upMark = "eoslabUp"

// MadeByUp reports whether a cluster id (MetadataResponse.ClusterID) is
// one `eoslab kafka up` formatted.
func MadeByUp(clusterID string) bool { return strings.HasPrefix(clusterID, upMark) }

// freePort asks the kernel for a free loopback port. The port is closed
// again before Kafka binds it; another process could take it in between,
// which shows as a node that does not start.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (c *Cluster) configure() error {
	var voters, boot []string
	for i := 1; i <= c.opts.Brokers; i++ {
		bp, err := freePort()
		if err != nil {
			return err
		}
		cp, err := freePort()
		if err != nil {
			return err
		}
		n := &node{id: i, bport: bp, cport: cp, dir: filepath.Join(c.run, fmt.Sprintf("node-%d", i))}
		if c.owned() {
			if n.iport, err = freePort(); err != nil {
				return err
			}
			if n.pport, err = freePort(); err != nil {
				return err
			}
		}
		n.log = filepath.Join(n.dir, "broker.log")
		c.nodes = append(c.nodes, n)
		voters = append(voters, fmt.Sprintf("%d@127.0.0.1:%d", i, cp))
		boot = append(boot, fmt.Sprintf("127.0.0.1:%d", bp))
	}
	c.boot = strings.Join(boot, ",")
	major, _ := majorVersion(c.opts.KafkaVersion)
	if err := c.secure(filepath.Join(c.run, "secrets")); err != nil {
		return err
	}
	logName, logText := "log4j2.properties", assets.KafkaLog4j2
	if major < 4 {
		logName, logText = "log4j.properties", assets.KafkaLog4j
	}
	for _, n := range c.nodes {
		if err := os.MkdirAll(n.dir, 0o755); err != nil {
			return err
		}
		extra := append(c.securityLines(n), c.ownedLines(n)...)
		props := serverProperties(n, strings.Join(voters, ","), major, append(extra, c.opts.Extra...))
		if err := os.WriteFile(filepath.Join(n.dir, "server.properties"), []byte(props), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(n.dir, logName), []byte(logText), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// serverProperties is one node's config: static voters (the same format
// command on 3.9 and 4.x, no --standalone), loopback listeners, and
// single-node transaction settings. The timer values are those of Kafka's
// own core/src/test/scala/integration/kafka/api/TransactionsTest.scala.
func serverProperties(n *node, voters string, major int, extra []string) string {
	lines := []string{
		"process.roles=broker,controller",
		fmt.Sprintf("node.id=%d", n.id),
		"controller.quorum.voters=" + voters,
		fmt.Sprintf("listeners=PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", n.bport, n.cport),
		fmt.Sprintf("advertised.listeners=PLAINTEXT://127.0.0.1:%d", n.bport),
		"controller.listener.names=CONTROLLER",
		"inter.broker.listener.name=PLAINTEXT",
		"listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
		"log.dirs=" + filepath.Join(n.dir, "data"),
		"num.partitions=1",
		"auto.create.topics.enable=false",
		"offsets.topic.replication.factor=1",
		// The simulation's partition count of both internal topics
		// (engine.DefaultConfig): a transactional id's coordinator is
		// partition abs(hashCode) % count (TransactionStateManager.
		// partitionFor), a group's likewise (GroupCoordinator.partitionFor),
		// so verify can compare the simulation's partition numbers.
		"offsets.topic.num.partitions=50",
		// Defaults 3 and 2: InitProducerId never completes on one node.
		"transaction.state.log.replication.factor=1",
		"transaction.state.log.min.isr=1",
		"transaction.state.log.num.partitions=50",
		"group.initial.rebalance.delay.ms=0",
		"transaction.abort.timed.out.transaction.cleanup.interval.ms=200",
		"transaction.remove.expired.transaction.cleanup.interval.ms=500",
		// Default 10 min; short so verify can play a producer state
		// expiry at scaled time (producer.id.expiration.ms is dynamic,
		// this check interval is not).
		"producer.id.expiration.check.interval.ms=500",
	}
	if major >= 4 {
		lines = append(lines,
			"share.coordinator.state.topic.replication.factor=1",
			"share.coordinator.state.topic.min.isr=1")
	}
	lines = append(lines, extra...)
	return strings.Join(lines, "\n") + "\n"
}

func (c *Cluster) logFlag(n *node) string {
	major, _ := majorVersion(c.opts.KafkaVersion)
	if major < 4 {
		return "-Dlog4j.configuration=file:" + filepath.Join(n.dir, "log4j.properties")
	}
	return "-Dlog4j2.configurationFile=" + filepath.Join(n.dir, "log4j2.properties")
}

// jvmFlags: a small heap and a quick JIT for a short-lived test broker
// (the scripts' default is -Xmx1G -Xms1G).
var jvmFlags = []string{"-Xms128m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"}

func (c *Cluster) format(ctx context.Context, n *node, cid string) error {
	args := append([]string{}, jvmFlags...)
	args = append(args, c.logFlag(n), "-cp", filepath.Join(c.lib, "*"), "kafka.tools.StorageTool", "format",
		"-t", cid, "-c", filepath.Join(n.dir, "server.properties"))
	if c.opts.TransactionVersion >= 0 {
		major, _ := majorVersion(c.opts.KafkaVersion)
		if major >= 4 {
			args = append(args, "--feature", fmt.Sprintf("transaction.version=%d", c.opts.TransactionVersion))
		}
	}
	args = append(args, c.formatArgs()...)
	cmd := exec.CommandContext(ctx, c.java, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return &StartError{Reason: fmt.Sprintf("node %d: kafka.tools.StorageTool format failed: %v", n.id, err), Log: lastLines(string(out), 15)}
	}
	return nil
}

func (c *Cluster) launch(n *node) error {
	// Appended: a restarted node's log follows its first life's.
	f, err := os.OpenFile(n.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	args := append([]string{}, jvmFlags...)
	args = append(args, c.logFlag(n), "-cp", filepath.Join(c.lib, "*"), "kafka.Kafka", filepath.Join(n.dir, "server.properties"))
	cmd := exec.Command(c.java, args...)
	cmd.Stdout, cmd.Stderr = f, f
	// Its own process group: a terminal's ^C goes to eoslab, which stops
	// the broker in order, and Down can signal the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		f.Close()
		return err
	}
	n.cmd = cmd
	n.crashing = false
	done := make(chan struct{})
	n.done = done
	go func() {
		cmd.Wait()
		f.Close()
		c.mu.Lock()
		asked := n.crashing
		c.mu.Unlock()
		close(done)
		if !asked {
			select {
			case c.exited <- n.id:
			default:
			}
		}
	}()
	return nil
}

func (c *Cluster) writePIDs() error {
	lines := []string{strconv.Itoa(os.Getpid())}
	for _, n := range c.nodes {
		lines = append(lines, strconv.Itoa(n.cmd.Process.Pid))
	}
	if err := os.WriteFile(PIDFile(c.opts.Dir), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return c.writeState()
}

// wait polls until every broker answers ApiVersions and Metadata lists
// them all, or a node exits, or ctx ends.
func (c *Cluster) wait(ctx context.Context) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(c.boot, ",")...), kgo.RetryTimeout(time.Second))
	if err != nil {
		return err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		for _, n := range c.nodes {
			select {
			case <-n.done:
				return &StartError{Reason: fmt.Sprintf("node %d exited while starting (%v)", n.id, n.cmd.ProcessState), Log: tailFile(n.log, 20)}
			default:
			}
		}
		if c.ready(ctx, adm) && c.coordinatorsLoaded(ctx, adm) {
			return nil
		}
		select {
		case <-ctx.Done():
			return &StartError{Reason: fmt.Sprintf("the cluster did not answer within %s", c.opts.StartTimeout), Log: tailFile(c.nodes[0].log, 20)}
		case <-tick.C:
		}
	}
}

func (c *Cluster) ready(ctx context.Context, adm *kadm.Client) bool {
	// A plain connect first: kgo backs off after a refused dial, which
	// would add seconds to every start.
	for _, n := range c.nodes {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", n.bport), time.Second)
		if err != nil {
			return false
		}
		conn.Close()
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	m, err := adm.BrokerMetadata(rctx)
	if err != nil || len(m.Brokers) < len(c.nodes) {
		return false
	}
	vs, err := adm.ApiVersions(rctx)
	if err != nil {
		return false
	}
	for _, v := range vs {
		if v.Err != nil {
			return false
		}
	}
	return len(vs) >= len(c.nodes)
}

// coordinatorsLoaded creates the internal topics (a FindCoordinator
// does, with their 50 partitions) and reports whether a transaction
// coordinator and a group coordinator answer as loaded: so a client's
// first transactional or group call does not pay for creating and loading
// them (seconds on a busy machine) inside its own timeout. A cluster with
// security settings is left to its first client, which authenticates.
func (c *Cluster) coordinatorsLoaded(ctx context.Context, adm *kadm.Client) bool {
	if len(c.opts.Security) > 0 {
		return true
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	const id = "eoslab-up-ready"
	ts, err := adm.DescribeTransactions(rctx, id)
	if err == nil {
		err = ts[id].Err
	}
	if !errors.Is(err, kerr.TransactionalIDNotFound) {
		return false
	}
	gs, err := adm.DescribeGroups(rctx, id)
	if err != nil {
		return false
	}
	err = gs[id].Err
	return err == nil || errors.Is(err, kerr.GroupIDNotFound)
}

// Stop ends every node (SIGTERM to its process group, SIGKILL after a
// bound) and removes the run directory and the pid file. The classpath
// stays for the next Start.
func (c *Cluster) Stop() error {
	c.closeControl()
	for _, n := range c.nodes {
		if n.cmd != nil {
			syscall.Kill(-n.cmd.Process.Pid, syscall.SIGTERM)
		}
	}
	for _, n := range c.nodes {
		if n.cmd == nil {
			continue
		}
		select {
		case <-n.done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
			<-n.done
		}
	}
	c.stopProxies()
	err := os.RemoveAll(c.run)
	os.Remove(StateFile(c.opts.Dir))
	if rerr := os.Remove(PIDFile(c.opts.Dir)); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}

// Exited gets the id of a node whose process ended unasked (Crash asks).
func (c *Cluster) Exited() <-chan int { return c.exited }

// Up is `eoslab kafka up`: Start, print BOOTSTRAP=ADDR on stdout, and run
// until ctx ends (a signal, or `eoslab kafka down`, which sends SIGTERM to
// this process) or a node dies; then stop everything and remove the data.
func Up(ctx context.Context, opts Options, stdout, stderr io.Writer) error {
	c, err := Start(ctx, opts, stderr)
	if err != nil {
		return err
	}
	if err := c.ServeControl(); err != nil {
		c.Stop()
		return err
	}
	fmt.Fprintf(stdout, "BOOTSTRAP=%s\n", c.Bootstrap())
	if c.sec != nil {
		fmt.Fprintln(stdout, strings.Join(c.sec.Lines(), "\n"))
	}
	if f, ok := stdout.(interface{ Sync() error }); ok {
		f.Sync()
	}
	select {
	case <-ctx.Done():
		return c.Stop()
	case id := <-c.Exited():
		tail := tailFile(c.nodes[id-1].log, 20)
		c.Stop()
		return &StartError{Reason: fmt.Sprintf("node %d exited", id), Log: tail}
	}
}

// Down is `eoslab kafka down --dir DIR`: it asks the `kafka up` process
// named in DIR's pid file to stop and waits for it; if that process is gone
// it stops the brokers' process groups itself. Either way it removes the
// run directory and the pid file. No pid file: nothing runs, nothing to do.
func Down(dir string, stderr io.Writer) error {
	if dir == "" {
		return &UsageError{"kafka down: --dir DIR is required"}
	}
	data, err := os.ReadFile(PIDFile(dir))
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "kafka down: no cluster runs in %s\n", dir)
		return os.RemoveAll(filepath.Join(dir, "run"))
	}
	if err != nil {
		return err
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		p, err := strconv.Atoi(f)
		if err != nil || p <= 1 {
			return &UsageError{fmt.Sprintf("kafka down: %s: %q is not a process id", PIDFile(dir), f)}
		}
		pids = append(pids, p)
	}
	if len(pids) < 2 {
		return &UsageError{fmt.Sprintf("kafka down: %s: want the up process and at least one broker", PIDFile(dir))}
	}
	up, brokers := pids[0], pids[1:]
	if alive(up) && up != os.Getpid() {
		syscall.Kill(up, syscall.SIGTERM)
		if waitGone(append([]int{up}, brokers...), 45*time.Second) {
			os.Remove(PIDFile(dir))
			os.Remove(StateFile(dir))
			return os.RemoveAll(filepath.Join(dir, "run"))
		}
	}
	for _, p := range brokers {
		syscall.Kill(-p, syscall.SIGTERM)
	}
	if !waitGone(brokers, 30*time.Second) {
		for _, p := range brokers {
			syscall.Kill(-p, syscall.SIGKILL)
		}
		waitGone(brokers, 10*time.Second)
	}
	os.Remove(PIDFile(dir))
	os.Remove(StateFile(dir))
	return os.RemoveAll(filepath.Join(dir, "run"))
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func waitGone(pids []int, bound time.Duration) bool {
	end := time.Now().Add(bound)
	for time.Now().Before(end) {
		any := false
		for _, p := range pids {
			if alive(p) {
				any = true
			}
		}
		if !any {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}

func tailFile(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ring []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		ring = append(ring, sc.Text())
		if len(ring) > n {
			ring = ring[1:]
		}
	}
	return ring
}

// TransactionVersion reads the finalized transaction.version from every
// broker's ApiVersions response (KIP-584 finalized features); a cluster
// that does not list the feature runs level 0. Brokers that disagree (a
// feature update in flight) are an error.
func TransactionVersion(ctx context.Context, adm *kadm.Client) (int, error) {
	vs, err := adm.ApiVersions(ctx)
	if err != nil {
		return 0, err
	}
	level := -1
	for _, v := range vs {
		if v.Err != nil {
			return 0, fmt.Errorf("broker %d: ApiVersions: %w", v.NodeID, v.Err)
		}
		l := 0
		for _, f := range v.Raw().FinalizedFeatures {
			if f.Name == "transaction.version" {
				l = int(f.MaxVersionLevel)
			}
		}
		if level >= 0 && l != level {
			return 0, fmt.Errorf("brokers disagree on transaction.version (%d and %d)", level, l)
		}
		level = l
	}
	if level < 0 {
		return 0, errors.New("no broker answered ApiVersions")
	}
	return level, nil
}

// ExitCode maps an error of this package to eoslab's exit codes: 2 for bad
// input or missing tools, 1 for a cluster that failed, 0 for nil.
func ExitCode(err error) int {
	var ue *UsageError
	var me *MissingToolsError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue), errors.As(err, &me):
		return 2
	}
	return 1
}
