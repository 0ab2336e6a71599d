package realkafka

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine/realkafka/wire"
)

// The control socket: `eoslab kafka up --brokers N` runs the cluster and
// its inter-broker proxies, so another process (eoslab verify
// --cluster-dir DIR) breaks it by asking that process, over a Unix socket
// inside DIR (only the user who ran kafka up can reach it: mode 0600).
// One JSON request per line, one JSON answer per line.

type controlRequest struct {
	Op    string    `json:"op"` // nodes, crash, restart, fault, clear, events, held, release, releaseholds, requests
	Node  int       `json:"node,omitempty"`
	Fault FaultSpec `json:"fault,omitempty"`
	// release: which held message, and whether it is lost.
	Dir  int   `json:"dir,omitempty"`
	Corr int32 `json:"corr,omitempty"`
	Lose bool  `json:"lose,omitempty"`
	// requests: from which one on.
	Since int `json:"since,omitempty"`
}

type controlAnswer struct {
	Err    string       `json:"err,omitempty"`
	Nodes  []NodeState  `json:"nodes,omitempty"`
	Events []wire.Event `json:"events,omitempty"`
	Held   []wire.Held  `json:"held,omitempty"`
	Found  bool         `json:"found,omitempty"`
	Sent   []wire.Sent  `json:"sent,omitempty"`
	N      int          `json:"n,omitempty"`
}

type controlServer struct {
	path string
	l    net.Listener
	wg   sync.WaitGroup
}

func kmsgKey(k int16) kmsg.Key { return kmsg.Key(k) }

// ServeControl opens the control socket of an owned cluster (Up does) and rewrites
// the state file to name it.
func (c *Cluster) ServeControl() error {
	if !c.owned() {
		return nil
	}
	path := filepath.Join(c.run, "control.sock")
	if len(path) > 100 {
		// sockaddr_un holds 108 bytes.
		return &UsageError{fmt.Sprintf("kafka: --dir %s is too long a path for the control socket (want under 80 characters)", c.opts.Dir)}
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	os.Chmod(path, 0o600)
	c.ctl = &controlServer{path: path, l: l}
	c.ctl.wg.Add(1)
	go c.acceptControl()
	return c.writeState()
}

func (c *Cluster) acceptControl() {
	defer c.ctl.wg.Done()
	for {
		conn, err := c.ctl.l.Accept()
		if err != nil {
			return
		}
		c.ctl.wg.Add(1)
		go func() {
			defer c.ctl.wg.Done()
			defer conn.Close()
			sc := bufio.NewScanner(conn)
			enc := json.NewEncoder(conn)
			for sc.Scan() {
				var req controlRequest
				var ans controlAnswer
				if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
					ans.Err = "control: " + err.Error()
				} else if err := c.control(req, &ans); err != nil {
					ans.Err = err.Error()
				}
				if enc.Encode(ans) != nil {
					return
				}
			}
		}()
	}
}

func (c *Cluster) control(req controlRequest, ans *controlAnswer) error {
	switch req.Op {
	case "nodes":
		ans.Nodes = c.Nodes()
		return nil
	case "crash":
		return c.Crash(req.Node)
	case "restart":
		return c.Restart(context.Background(), req.Node)
	case "fault":
		return c.Fault(req.Node, req.Fault)
	case "clear":
		return c.ClearFaults()
	case "events":
		evs, err := c.FaultEvents(req.Node)
		ans.Events = evs
		return err
	case "held":
		hs, err := c.Held(req.Node)
		ans.Held = hs
		return err
	case "release":
		found, err := c.Release(req.Node, wire.Direction(req.Dir), req.Corr, req.Lose)
		ans.Found = found
		return err
	case "releaseholds":
		return c.ReleaseHolds(req.Node)
	case "requests":
		sent, n, err := c.Requests(req.Node, req.Since)
		ans.Sent, ans.N = sent, n
		return err
	}
	return fmt.Errorf("control: unknown op %q", req.Op)
}

func (c *Cluster) closeControl() {
	if c.ctl == nil {
		return
	}
	c.ctl.l.Close()
	c.ctl = nil
}

// Control is an Owner reached through the control socket of the
// `eoslab kafka up` process named in a directory's state file.
type Control struct {
	State State
	mu    sync.Mutex
	conn  net.Conn
	sc    *bufio.Scanner
}

// DialControl connects to the cluster `eoslab kafka up --brokers N` runs
// in dir.
func DialControl(dir string) (*Control, error) {
	st, err := ReadState(dir)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("unix", st.Control, 5*time.Second)
	if err != nil {
		return nil, &UsageError{fmt.Sprintf("kafka: %s: the cluster's control socket does not answer (%v); is eoslab kafka up --dir %s still running?", StateFile(dir), err, dir)}
	}
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	return &Control{State: st, conn: conn, sc: sc}, nil
}

// Close closes the connection; the cluster runs on.
func (k *Control) Close() error { return k.conn.Close() }

func (k *Control) call(req controlRequest) (controlAnswer, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var ans controlAnswer
	b, err := json.Marshal(req)
	if err != nil {
		return ans, err
	}
	if _, err := k.conn.Write(append(b, '\n')); err != nil {
		return ans, err
	}
	if !k.sc.Scan() {
		if err := k.sc.Err(); err != nil {
			return ans, err
		}
		return ans, errors.New("kafka: the control socket closed")
	}
	if err := json.Unmarshal(k.sc.Bytes(), &ans); err != nil {
		return ans, err
	}
	if ans.Err != "" {
		return ans, errors.New(ans.Err)
	}
	return ans, nil
}

// Nodes asks for the nodes (the state file's on an error).
func (k *Control) Nodes() []NodeState {
	ans, err := k.call(controlRequest{Op: "nodes"})
	if err != nil {
		return k.State.Nodes
	}
	return ans.Nodes
}

// Crash asks the up process to SIGKILL node id.
func (k *Control) Crash(id int) error {
	_, err := k.call(controlRequest{Op: "crash", Node: id})
	return err
}

// Restart asks the up process to start node id again; it answers once
// the node rejoined.
func (k *Control) Restart(_ context.Context, id int) error {
	_, err := k.call(controlRequest{Op: "restart", Node: id})
	return err
}

// Fault adds a rule on the way to node id.
func (k *Control) Fault(id int, f FaultSpec) error {
	_, err := k.call(controlRequest{Op: "fault", Node: id, Fault: f})
	return err
}

// ClearFaults removes every rule.
func (k *Control) ClearFaults() error {
	_, err := k.call(controlRequest{Op: "clear"})
	return err
}

// FaultEvents are the faults applied on the way to node id.
func (k *Control) FaultEvents(id int) ([]wire.Event, error) {
	ans, err := k.call(controlRequest{Op: "events", Node: id})
	return ans.Events, err
}

// Held lists the messages held on the way to node id or back.
func (k *Control) Held(id int) ([]wire.Held, error) {
	ans, err := k.call(controlRequest{Op: "held", Node: id})
	return ans.Held, err
}

// Release lets one held message on the way to node id go on (or loses
// it).
func (k *Control) Release(id int, dir wire.Direction, corr int32, lose bool) (bool, error) {
	ans, err := k.call(controlRequest{Op: "release", Node: id, Dir: int(dir), Corr: corr, Lose: lose})
	return ans.Found, err
}

// ReleaseHolds lets every message held on the way to node id go on.
func (k *Control) ReleaseHolds(id int) error {
	_, err := k.call(controlRequest{Op: "releaseholds", Node: id})
	return err
}

// Requests lists the requests written to node id through its proxy,
// from the since-th on, and how many there were in all.
func (k *Control) Requests(id, since int) ([]wire.Sent, int, error) {
	ans, err := k.call(controlRequest{Op: "requests", Node: id, Since: since})
	return ans.Sent, ans.N, err
}
