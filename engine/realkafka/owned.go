package realkafka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine/realkafka/wire"
)

// A cluster of several nodes is one its owner may break: crash a broker
// (SIGKILL), restart it and wait for it to rejoin, and lose or delay
// what brokers send each other. For the last, each broker has an
// INTERNAL listener, named by inter.broker.listener.name and advertised
// at a proxy of this process: every request one broker sends another
// travels through that proxy (replica fetches, and the coordinator's
// WriteTxnMarkers: TransactionMarkerChannelManager looks the leader up
// with metadataCache.getPartitionLeaderEndpoint(..., interBrokerListenerName)
// and sends on a NetworkClient of its own), and the proxy's connections
// to the broker are wrapped by package wire, so its rules apply there as
// on a client's connection. A single node, or a cluster with secured
// listeners, has none of this.

// Owner is what verify needs of a cluster it owns: a Cluster in this
// process, or a Control of the `eoslab kafka up` process that runs one.
type Owner interface {
	// Nodes lists the nodes: id, process, ports.
	Nodes() []NodeState
	// Crash ends node id's process with SIGKILL, as a power cut would.
	Crash(id int) error
	// Restart starts node id again on its data and ports and waits until
	// it is back in the metadata and in the ISR of every partition it
	// replicates (bounded).
	Restart(ctx context.Context, id int) error
	// Fault adds a rule on the requests other brokers send node id.
	Fault(id int, f FaultSpec) error
	// ClearFaults removes every rule and forgets the events.
	ClearFaults() error
	// FaultEvents are the faults applied on the way to node id so far.
	FaultEvents(id int) ([]wire.Event, error)
	// Held lists the messages a Hold rule (a Fault with wire.Hold) keeps
	// on the way to node id or back, oldest first.
	Held(id int) ([]wire.Held, error)
	// Release lets the held message with correlation id corr going dir
	// on (lose: drop it, which closes the connection); whether one was.
	Release(id int, dir wire.Direction, corr int32, lose bool) (bool, error)
	// ReleaseHolds lets every message held on the way to node id go on
	// and removes its Hold rules; other rules stay.
	ReleaseHolds(id int) error
	// Requests lists the requests other brokers (or node id itself:
	// a coordinator sends its own partitions' markers on the network
	// too) wrote to node id through its proxy, from the since-th on; n
	// is how many the proxy has seen in all.
	Requests(id, since int) (sent []wire.Sent, n int, err error)
}

// FaultSpec is a wire.Rule that travels: an api key, a direction, an
// action, a delay, how many to let pass first and how many to act on.
type FaultSpec struct {
	Key     int16 `json:"key"`
	Dir     int   `json:"dir"`
	Action  int   `json:"action"`
	DelayMs int64 `json:"delay_ms,omitempty"`
	Skip    int   `json:"skip,omitempty"`
	Times   int   `json:"times,omitempty"`
}

func (f FaultSpec) rule() wire.Rule {
	return wire.Rule{Key: kmsgKey(f.Key), Dir: wire.Direction(f.Dir), Action: wire.Action(f.Action),
		Delay: time.Duration(f.DelayMs) * time.Millisecond, Skip: f.Skip, Times: f.Times}
}

// NodeState is one node as the state file lists it.
type NodeState struct {
	ID             int  `json:"id"`
	PID            int  `json:"pid"`
	Port           int  `json:"port"`            // the client listener (PLAINTEXT)
	ControllerPort int  `json:"controller_port"` // CONTROLLER
	InterPort      int  `json:"inter_port"`      // INTERNAL, the broker's own
	ProxyPort      int  `json:"proxy_port"`      // INTERNAL as advertised: the proxy
	Crashed        bool `json:"crashed,omitempty"`
}

// State is the state file of a running owned cluster.
type State struct {
	UpPID     int         `json:"up_pid"`
	Bootstrap string      `json:"bootstrap"`
	Control   string      `json:"control"` // the control socket
	Nodes     []NodeState `json:"nodes"`
}

// StateFile is where `eoslab kafka up` keeps the State of a cluster of
// several nodes, inside its --dir.
func StateFile(dir string) string { return filepath.Join(dir, "cluster.json") }

func (c *Cluster) owned() bool { return c.opts.Brokers > 1 && len(c.opts.Security) == 0 }

// Owned reports whether the cluster has the controls of Owner.
func (c *Cluster) Owned() bool { return c.owned() }

// ownedLines are the server.properties lines of a node of an owned
// cluster; they come after eoslab's and override its listener lines.
func (c *Cluster) ownedLines(n *node) []string {
	if !c.owned() {
		return nil
	}
	rf := strconv.Itoa(c.opts.Brokers)
	return []string{
		fmt.Sprintf("listeners=PLAINTEXT://127.0.0.1:%d,INTERNAL://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", n.bport, n.iport, n.cport),
		fmt.Sprintf("advertised.listeners=PLAINTEXT://127.0.0.1:%d,INTERNAL://127.0.0.1:%d", n.bport, n.pport),
		"inter.broker.listener.name=INTERNAL",
		"listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT",
		// Replicated internal topics, so a coordinator or a group
		// coordinator fails over when its broker crashes; min ISR 1 so
		// they stay writable with one node left.
		"transaction.state.log.replication.factor=" + rf,
		"offsets.topic.replication.factor=" + rf,
		// The simulation's default partition count (engine.DefaultConfig):
		// verify places a coordinator by its transactional id's partition
		// (TransactionStateManager.partitionFor).
		"transaction.state.log.num.partitions=50",
		"offsets.topic.num.partitions=50",
		// A restarted broker does not take its partitions back: the
		// simulation's neither (leadership moves only when a leader dies);
		// Kafka's default moves them back within
		// leader.imbalance.check.interval.seconds (300).
		"auto.leader.rebalance.enable=false",
		// A crashed broker is fenced after its session times out (default
		// 9 s, heartbeats every 2 s): shorter, so a failover takes
		// seconds, not tens.
		"broker.heartbeat.interval.ms=500",
		"broker.session.timeout.ms=3000",
	}
}

// proxy forwards one node's INTERNAL listener through package wire.
type proxy struct {
	l      net.Listener
	target string
	faults *wire.Faults
	mu     sync.Mutex
	conns  map[net.Conn]bool
	wg     sync.WaitGroup
}

func (c *Cluster) startProxies() error {
	if !c.owned() {
		return nil
	}
	for _, n := range c.nodes {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", n.pport))
		if err != nil {
			return err
		}
		p := &proxy{l: l, target: fmt.Sprintf("127.0.0.1:%d", n.iport), faults: &wire.Faults{Lenient: true}, conns: map[net.Conn]bool{}}
		n.proxy = p
		p.wg.Add(1)
		go p.serve()
	}
	return nil
}

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		down, err := p.l.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go p.pipe(down)
	}
}

// pipe carries one broker-to-broker connection: requests from down are
// written to the wrapped connection to the broker, whose responses are
// read back through the wrapper. When either side ends, both close.
func (p *proxy) pipe(down net.Conn) {
	defer p.wg.Done()
	raw, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		down.Close()
		return
	}
	p.mu.Lock()
	faults := p.faults
	p.conns[down], p.conns[raw] = true, true
	p.mu.Unlock()
	up := faults.Wrap(raw)
	var once sync.Once
	end := func() {
		once.Do(func() {
			down.Close()
			up.Close()
			p.mu.Lock()
			delete(p.conns, down)
			delete(p.conns, raw)
			p.mu.Unlock()
		})
	}
	go func() {
		io.Copy(up, down)
		end()
	}()
	io.Copy(down, up)
	end()
}

func (p *proxy) close() {
	p.l.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (c *Cluster) stopProxies() {
	for _, n := range c.nodes {
		if n.proxy != nil {
			n.proxy.close()
			n.proxy = nil
		}
	}
}

func (c *Cluster) node(id int) (*node, error) {
	if !c.owned() {
		return nil, errors.New("kafka: only a cluster of several nodes started by eoslab (without --security) can crash, restart or fault its brokers")
	}
	if id < 1 || id > len(c.nodes) {
		return nil, fmt.Errorf("kafka: no node %d (the cluster has %d)", id, len(c.nodes))
	}
	return c.nodes[id-1], nil
}

// Nodes lists the nodes.
func (c *Cluster) Nodes() []NodeState {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []NodeState
	for _, n := range c.nodes {
		s := NodeState{ID: n.id, Port: n.bport, ControllerPort: n.cport, InterPort: n.iport, ProxyPort: n.pport, Crashed: n.crashing}
		if n.cmd != nil && n.cmd.Process != nil {
			s.PID = n.cmd.Process.Pid
		}
		out = append(out, s)
	}
	return out
}

// Crash kills node id's process group with SIGKILL and waits until the
// process is gone; the controller fences it after broker.session.timeout.ms.
func (c *Cluster) Crash(id int) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	c.mu.Lock()
	if n.crashing {
		c.mu.Unlock()
		return fmt.Errorf("kafka: node %d is already down", id)
	}
	n.crashing = true
	c.mu.Unlock()
	syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-n.done:
	case <-time.After(30 * time.Second):
		return fmt.Errorf("kafka: node %d did not end after SIGKILL", id)
	}
	return c.writePIDs()
}

// Restart starts a crashed node again and waits until it rejoined.
func (c *Cluster) Restart(ctx context.Context, id int) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	c.mu.Lock()
	down := n.crashing
	c.mu.Unlock()
	if !down {
		return fmt.Errorf("kafka: node %d is running", id)
	}
	if err := c.launch(n); err != nil {
		return err
	}
	if err := c.writePIDs(); err != nil {
		return err
	}
	return c.rejoined(ctx, n)
}

// rejoined waits until node n is in the metadata again and in the ISR of
// every partition it replicates: only then can another broker's crash
// leave a partition to it, as the simulation's restarted broker, which
// comes back with the log it had, can take one.
func (c *Cluster) rejoined(ctx context.Context, n *node) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(fmt.Sprintf("127.0.0.1:%d", n.bport)), kgo.RetryTimeout(time.Second))
	if err != nil {
		return err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	for {
		select {
		case <-n.done:
			return &StartError{Reason: fmt.Sprintf("node %d exited while restarting", n.id), Log: tailFile(n.log, 20)}
		default:
		}
		if c.inSync(ctx, adm, int32(n.id)) {
			return nil
		}
		select {
		case <-ctx.Done():
			return &StartError{Reason: fmt.Sprintf("node %d did not rejoin within 90 s", n.id), Log: tailFile(n.log, 20)}
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (c *Cluster) inSync(ctx context.Context, adm *kadm.Client, id int32) bool {
	rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	m, err := adm.Metadata(rctx)
	if err != nil {
		return false
	}
	found := false
	for _, b := range m.Brokers {
		found = found || b.NodeID == id
	}
	if !found {
		return false
	}
	for _, t := range m.Topics {
		for _, p := range t.Partitions {
			if p.Err != nil {
				return false
			}
			in := false
			for _, r := range p.ISR {
				in = in || r == id
			}
			for _, r := range p.Replicas {
				if r == id && !in {
					return false
				}
			}
		}
	}
	return true
}

// Fault adds a rule on the requests other brokers send node id.
func (c *Cluster) Fault(id int, f FaultSpec) error {
	n, err := c.node(id)
	if err != nil {
		return err
	}
	if f.Action < int(wire.Drop) || f.Action > int(wire.Hold) || f.Dir < 0 || f.Dir > 1 {
		return fmt.Errorf("kafka: fault: action %d, direction %d: want drop, delay, duplicate or hold of a request or response", f.Action, f.Dir)
	}
	n.proxy.mu.Lock()
	defer n.proxy.mu.Unlock()
	n.proxy.faults.Add(f.rule())
	return nil
}

// ClearFaults empties every proxy's rule set in place: a connection
// between brokers stays open across files (the coordinator's to a
// leader), and a rule added later must reach it.
func (c *Cluster) ClearFaults() error {
	if !c.owned() {
		return nil
	}
	for _, n := range c.nodes {
		n.proxy.faults.Reset()
	}
	return nil
}

// FaultEvents are the faults applied on the way to node id.
func (c *Cluster) FaultEvents(id int) ([]wire.Event, error) {
	n, err := c.node(id)
	if err != nil {
		return nil, err
	}
	n.proxy.mu.Lock()
	f := n.proxy.faults
	n.proxy.mu.Unlock()
	return f.Events(), nil
}

func (c *Cluster) faults(id int) (*wire.Faults, error) {
	n, err := c.node(id)
	if err != nil {
		return nil, err
	}
	n.proxy.mu.Lock()
	defer n.proxy.mu.Unlock()
	return n.proxy.faults, nil
}

// Held lists the messages held on the way to node id or back.
func (c *Cluster) Held(id int) ([]wire.Held, error) {
	f, err := c.faults(id)
	if err != nil {
		return nil, err
	}
	return f.Held(), nil
}

// Release lets one held message on the way to node id go on (or loses
// it): the frame the proxy kept is written as it was, correlation id
// and all.
func (c *Cluster) Release(id int, dir wire.Direction, corr int32, lose bool) (bool, error) {
	f, err := c.faults(id)
	if err != nil {
		return false, err
	}
	return f.ReleaseCorr(dir, corr, lose), nil
}

// ReleaseHolds lets every message held on the way to node id go on.
func (c *Cluster) ReleaseHolds(id int) error {
	f, err := c.faults(id)
	if err != nil {
		return err
	}
	f.ReleaseAll()
	return nil
}

// Requests lists the requests written to node id through its proxy,
// from the since-th on, and how many there were in all.
func (c *Cluster) Requests(id, since int) ([]wire.Sent, int, error) {
	f, err := c.faults(id)
	if err != nil {
		return nil, 0, err
	}
	all := f.Requests()
	return all[min(max(since, 0), len(all)):], len(all), nil
}

// writeState writes the state file (an owned cluster only).
func (c *Cluster) writeState() error {
	if !c.owned() {
		return nil
	}
	st := State{UpPID: os.Getpid(), Bootstrap: c.boot, Nodes: c.Nodes()}
	if c.ctl != nil {
		st.Control = c.ctl.path
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp := StateFile(c.opts.Dir) + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, StateFile(c.opts.Dir))
}

// ReadState reads the state file in dir.
func ReadState(dir string) (State, error) {
	var st State
	b, err := os.ReadFile(StateFile(dir))
	if errors.Is(err, os.ErrNotExist) {
		return st, &UsageError{fmt.Sprintf("%s: no such file: no cluster of several nodes runs there (start one with eoslab kafka up --dir %s --brokers 3)", StateFile(dir), dir)}
	}
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, &UsageError{fmt.Sprintf("%s: %v", StateFile(dir), err)}
	}
	if st.Control == "" || len(st.Nodes) < 2 {
		return st, &UsageError{fmt.Sprintf("%s: want a control socket and at least two nodes", StateFile(dir))}
	}
	return st, nil
}
