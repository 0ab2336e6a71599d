package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/conn"
	"github.com/eoslab/eoslab/engine/realkafka/inspect"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/lessons"
)

// Session is one lesson played on the cluster step by step, for the
// player: Open plays the setup, Step(i) plays the steps up to i and
// returns what the cluster shows after it. The play is the verify
// driver's (its prefixed names, its refusal of names that exist, its
// clean-up at Close); the cluster is read with inspect's readers
// (ListTransactions, DescribeTransactions, DescribeProducers, ListOffsets)
// and realkafka.FetchLog for every partition's batches.
//
// Step and Close block (a step's calls take the cluster's time): call
// them from a goroutine of their own (a tea.Cmd); they are serialised.
type Session struct {
	mu     sync.Mutex
	lesson *lessons.Lesson // the lesson as the cluster's protocol plays it
	known  verify.Known
	boot   string

	pauses chan pauseAt
	resume chan bool
	done   chan struct{}
	sum    verify.Summary
	runErr error

	setup *Snapshot
	snaps []*Snapshot // by step, nil until played
	seen  int         // rows already given to a snapshot
	// gone, once set, is why the session cannot go on (the cluster
	// stopped answering); every later Step returns it.
	gone    error
	waiting bool        // the driver waits in a pause for resume
	client  *kgo.Client // the driver's, while it waits
	prefix  string      // the run's name prefix
	// made are the names the driver had made by its last pause (with
	// the prefix): what Close checks are gone.
	made     made
	conn     *conn.Config
	closed   bool
	closeErr error
}

// made is what a run made on the cluster, by kind.
type made struct{ topics, groups, txnIDs []string }

// pauseAt is the driver stopped after the steps up to Upto (-1: the
// setup).
type pauseAt struct {
	p    verify.Pause
	upto int
}

// Snapshot is the cluster's side after a step: each partition's log with
// its batch headers and markers, its high watermark and last stable
// offset and who holds the latter, the partition leaders' producer state,
// the coordinators' transactions, the consumers' positions, and the facts
// of the step as verify judged them. Names are the lesson's (the run's
// prefix taken off); producer ids are the broker's, SimPID maps them.
type Snapshot struct {
	// Step is the step played, -1 for the setup.
	Step int
	// Partitions in topic, partition order.
	Partitions []Partition
	// Txns are the run's transactional ids as their coordinators
	// describe them.
	Txns []inspect.Txn
	// Consumers are the lesson's consumers, by name.
	Consumers []Consumer
	// Groups are the committed offsets of the run's groups.
	Groups []Group
	// Facts are the step's expect lines as verify judged them.
	Facts []Fact
	// Reveal is the verdict on the checkpoint of the step before, whose
	// answer this step reveals; nil when that step asks nothing.
	Reveal *Verdict
	// Played is false when the driver did not play the step on the
	// cluster (from StopLine on, or the whole step); Why says why.
	// SimOnly: no broker can play it (an action no broker allows); else
	// the driver does not map it yet.
	Played   bool
	SimOnly  bool
	Why      string
	StopLine int
	// Behind: some of the step's calls wait for the simulation's
	// messages in flight to land (the driver plays calls at the
	// simulation's quiet points), so the cluster does not show them yet.
	Behind bool
	// PIDs maps the broker's producer ids to the simulation's.
	PIDs map[int64]int64
	// Problems are the reads that failed (an ACL, a partition without a
	// leader), in words.
	Problems []string
}

// Partition is one partition of the run's topics.
type Partition struct {
	Topic     string
	Partition int32
	// Log is the partition as a raw Fetch shows it; Batches are its
	// batches with their fates.
	Log     realkafka.Log
	Batches []Batch
	HW, LSO int64
	// Holder is the producer whose open transaction starts at the LSO
	// (the one read_committed consumers wait for), nil when none.
	Holder    *inspect.Producer
	Producers []inspect.Producer
	Err       string
}

// Batch is a batch header and its fate.
type Batch struct {
	realkafka.Batch
	Fate Fate
}

// Fate is what became of a batch, as the log shows it.
type Fate int

const (
	// FatePlain: a data batch outside any transaction.
	FatePlain Fate = iota
	// FateOpen: a transactional data batch with no marker after it from
	// its producer yet.
	FateOpen
	// FateCommitted: its transaction's COMMIT marker is after it; for a
	// control batch, a COMMIT marker.
	FateCommitted
	// FateAborted: likewise with ABORT.
	FateAborted
)

// fates are the log's batches with what became of each.
func fates(l realkafka.Log) []Batch {
	marker := func(b realkafka.Batch) Fate {
		if b.Marker == "COMMIT" {
			return FateCommitted
		}
		return FateAborted
	}
	out := make([]Batch, len(l.Batches))
	for i, b := range l.Batches {
		out[i] = Batch{Batch: b, Fate: FatePlain}
		switch {
		case b.Control:
			out[i].Fate = marker(b)
		case b.Transactional:
			out[i].Fate = FateOpen
			for _, m := range l.Batches[i+1:] {
				if m.Control && m.ProducerID == b.ProducerID {
					out[i].Fate = marker(m)
					break
				}
			}
		}
	}
	return out
}

// Consumer is one consumer client's positions as it keeps them.
type Consumer struct {
	Name      string
	Positions []Position
}

// Group is a group's committed offsets.
type Group struct {
	ID        string
	Committed []Position
	Err       string
}

// Position is an offset on a partition.
type Position struct {
	Topic     string
	Partition int32
	Offset    int64
	// Fetched: a consumer's position before it took a record there, the
	// offset its last Fetch asked for.
	Fetched bool
}

// Fact is one expect line of the step.
type Fact struct {
	verify.Row
	// What is the fact the line expects (the line without its
	// "expect"), and Words the row in live's words (Words).
	What, Words string
}

// VerdictKind is what Kafka said of a checkpoint's reveal.
type VerdictKind int

const (
	// Agreed: every fact of the reveal that is compared agrees.
	Agreed VerdictKind = iota
	// Otherwise: Kafka did otherwise on at least one fact.
	Otherwise
	// SimulationOnly: no fact of the reveal is played on Kafka.
	SimulationOnly
	// NoFacts: the reveal has no expect line to compare.
	NoFacts
)

// Verdict is what Kafka said of one checkpoint, after its reveal.
type Verdict struct {
	// Asked is the step whose checkpoint it is.
	Asked int
	Kind  VerdictKind
	// Words is the verdict in a line: "Kafka agreed", "Kafka did
	// otherwise on 1 of 3 facts: ...", "simulation only: ...".
	Words string
}

// SimPID is the simulation's producer id for a broker's, if mapped.
func (s *Snapshot) SimPID(pid int64) (int64, bool) {
	v, ok := s.PIDs[pid]
	return v, ok
}

// Open starts playing the lesson name on the cluster and plays its setup.
// o.TV must be the cluster's transaction.version (preflight's): the
// lesson is read for that protocol.
func Open(ctx context.Context, o Options, name string) (*Session, error) {
	if err := o.checkKafka(); err != nil {
		return nil, err
	}
	if o.Conn == nil {
		return nil, &UsageError{"live: no cluster to connect to (--brokers ADDR)"}
	}
	file, err := fileOf(name)
	if err != nil {
		return nil, err
	}
	l, err := lessons.Load(name)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	known, err := verify.ParseKnown(o.Known)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	k := 3
	if o.TV >= 2 {
		k = 4
	}
	s := &Session{lesson: l.ForKafka(k), known: known, boot: o.Conn.Describe(), conn: o.Conn,
		pauses: make(chan pauseAt), resume: make(chan bool), done: make(chan struct{})}
	s.snaps = make([]*Snapshot, len(s.lesson.Steps))
	vo := verify.Options{Brokers: strings.Join(o.Conn.Seeds, ","), Files: []string{file}, Known: o.Known, Conn: o.Conn, Read: read, Pause: s.hook()}
	go func() {
		defer close(s.done)
		s.sum, s.runErr = verify.Run(ctx, vo, io.Discard)
	}()
	pa, err := s.next()
	if err != nil {
		return nil, err
	}
	snap, err := s.collect(pa)
	if err != nil {
		s.gone = err
		s.Close()
		return nil, err
	}
	s.setup = snap
	return s, nil
}

// hook is the driver's pause function: it stops at each step's first
// line and at the end, and waits there for Step (or Close).
func (s *Session) hook() func(verify.Pause) bool {
	at := -1
	return func(p verify.Pause) bool {
		upto := len(s.lesson.Steps) - 1
		if p.Line != 0 {
			j := stepOf(s.lesson, p.Line)
			if j <= at {
				return true
			}
			upto, at = j-1, j
		}
		s.pauses <- pauseAt{p, upto}
		return <-s.resume
	}
}

// next waits for the driver's next pause; an error is a run that ended
// without one.
func (s *Session) next() (pauseAt, error) {
	select {
	case pa := <-s.pauses:
		s.waiting, s.client, s.prefix = true, pa.p.Client, pa.p.Prefix
		s.made = made{pa.p.Topics, pa.p.Groups, pa.p.TxnIDs}
		return pa, nil
	case <-s.done:
		if s.runErr != nil {
			var ue *verify.UsageError
			if errors.As(s.runErr, &ue) {
				return pauseAt{}, &UsageError{ue.Msg}
			}
			return pauseAt{}, s.unreachable(s.runErr)
		}
		if len(s.sum.Refused) > 0 {
			other := "2"
			if s.sum.TV >= 2 {
				other = "0"
			}
			return pauseAt{}, &UsageError{fmt.Sprintf("live: --lesson %s is written for the other transaction.version than the cluster's %d; start a cluster with eoslab kafka up --transaction-version %s", s.lesson.Name, s.sum.TV, other)}
		}
		return pauseAt{}, errors.New("live: the lesson ended before the step was played")
	}
}

// Lesson is the lesson as played (read for the cluster's protocol).
func (s *Session) Lesson() *lessons.Lesson { return s.lesson }

// Setup is the cluster after the setup.
func (s *Session) Setup() *Snapshot { return s.setup }

// Step plays the steps up to i on the cluster (steps already played are
// not played again: a step played before returns its snapshot) and
// returns the cluster after step i. An error is bad input (a UsageError)
// or a cluster that stopped answering, in words; the session cannot go
// on after the latter.
func (s *Session) Step(i int) (*Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.snaps) {
		return nil, &UsageError{fmt.Sprintf("live: step %d: the lesson %s has steps 1 to %d", i+1, s.lesson.Name, len(s.snaps))}
	}
	if s.snaps[i] != nil {
		return s.snaps[i], nil
	}
	if s.gone != nil {
		return nil, s.gone
	}
	if s.closed {
		return nil, errors.New("live: the session is closed")
	}
	for s.snaps[i] == nil {
		// A cluster that stopped since the last step is found here, in
		// a few seconds, rather than by each of the step's calls timing
		// out in the driver.
		if err := s.probe(); err != nil {
			s.gone = err
			return nil, err
		}
		s.waiting = false
		s.resume <- true
		pa, err := s.next()
		if err != nil {
			s.gone = err
			return nil, err
		}
		snap, err := s.collect(pa)
		if err != nil {
			s.gone = err
			return nil, err
		}
		for j := 0; j <= pa.upto; j++ {
			if s.snaps[j] == nil {
				c := *snap
				c.Step = j
				c.Facts, c.Reveal = s.factsOf(pa.p, j), nil
				s.verdicts(&c)
				s.played(&c, pa.p)
				s.snaps[j] = &c
			}
		}
		s.seen = len(pa.p.Rows)
	}
	return s.snaps[i], nil
}

// Summary is the run's rows once it ended (after Close); before, none.
func (s *Session) Summary() verify.Summary {
	select {
	case <-s.done:
		return s.sum
	default:
		return verify.Summary{}
	}
}

// Close ends the session: the driver stops playing, closes its clients
// and deletes the topics and groups it made. Close then deletes again
// what the cluster still lists under the run's prefix (a delete of a
// name gone is answered UNKNOWN_TOPIC_OR_PARTITION or
// GROUP_ID_NOT_FOUND, which counts as gone), so that a delete the
// driver could not make is found: the error names every topic and group
// left on the cluster. It never waits longer than closeWait (goneWait
// when the cluster is known to be gone) for the driver and sweepWait for
// the check. A second Close returns the first's error.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.closeErr
	}
	s.closed = true
	// A cluster gone since the last step is found here in a few
	// seconds, rather than by each of the driver's deletes waiting out
	// its timeout.
	if s.gone == nil && s.waiting {
		if err := s.probe(); err != nil {
			s.gone = err
		}
	}
	wait := closeWait
	if s.gone != nil {
		wait = goneWait
	}
	bound := time.After(wait)
	var errs []error
wait:
	for {
		if s.waiting {
			s.waiting = false
			s.resume <- false
		}
		select {
		case <-s.done:
			if s.runErr != nil && s.gone == nil {
				errs = append(errs, s.unreachable(s.runErr))
			}
			break wait
		case <-s.pauses:
			s.waiting = true
		case <-bound:
			break wait
		}
	}
	sw := sweepWait
	if s.gone != nil {
		sw = probeTimeout // the cluster did not answer a moment ago
	}
	ctx, cancel := context.WithTimeout(context.Background(), sw)
	defer cancel()
	if err := s.sweep(ctx); err != nil {
		errs = append(errs, err)
	}
	s.closeErr = errors.Join(errs...)
	return s.closeErr
}

// closeWait bounds Close's wait for the driver's clean-up (its deletes
// have 30 s of their own); goneWait bounds it on a cluster known to be
// gone, whose deletes would each wait out their timeout; sweepWait
// bounds the check after.
var (
	closeWait = 45 * time.Second
	goneWait  = 10 * time.Second
	sweepWait = 10 * time.Second
)

// sweep deletes what is left of the run on the cluster: the names the
// driver made by its last pause and whatever the cluster lists under the
// run's prefix (the driver refused to start on a prefix that named
// anything, so they are the run's). An error names what is left.
func (s *Session) sweep(ctx context.Context) error {
	if s.prefix == "" || s.conn == nil {
		return nil // the driver never paused: it made nothing
	}
	topics, groups := slices.Clone(s.made.topics), slices.Clone(s.made.groups)
	var why error
	var left []string
	cl, err := kgo.NewClient(s.conn.Opts()...)
	if err != nil {
		why = err
	} else {
		defer cl.Close()
		adm := kadm.NewClient(cl)
		// A cluster that does not list its topics is gone: what the
		// driver made is left, as far as Close can tell.
		td, err := adm.ListTopics(ctx)
		if err != nil {
			why = err
		} else {
			for t := range td {
				if strings.HasPrefix(t, s.prefix) && !slices.Contains(topics, t) {
					topics = append(topics, t)
				}
			}
			if gs, err := adm.ListGroups(ctx); err == nil {
				for _, g := range gs.Groups() {
					if strings.HasPrefix(g, s.prefix) && !slices.Contains(groups, g) {
						groups = append(groups, g)
					}
				}
			}
			if left, err = deleteLeft(ctx, adm, topics, groups); err != nil {
				why = err
			}
		}
	}
	if why != nil {
		left = nil
		for _, t := range topics {
			left = append(left, "topic "+t)
		}
		for _, g := range groups {
			left = append(left, "group "+g)
		}
	}
	if len(left) == 0 {
		return nil
	}
	sort.Strings(left)
	msg := "live: the run's clean-up did not finish"
	if why != nil {
		msg = fmt.Sprintf("live: the cluster at %s did not answer the run's clean-up (%v)", s.boot, why)
	}
	msg += "; left on the cluster, to delete once it answers: " + strings.Join(left, ", ")
	if len(s.made.txnIDs) > 0 {
		msg += fmt.Sprintf(" (the transactional ids %s cannot be deleted: the broker expires them after transactional.id.expiration.ms)", strings.Join(s.made.txnIDs, ", "))
	}
	return errors.New(msg)
}

// deleteLeft deletes the topics and groups; left is each one the
// cluster still has, with why. A name already gone is not left.
func deleteLeft(ctx context.Context, adm *kadm.Client, topics, groups []string) (left []string, err error) {
	if len(topics) > 0 {
		rs, err := adm.DeleteTopics(ctx, topics...)
		if err != nil {
			return nil, err
		}
		for _, r := range rs.Sorted() {
			if r.Err != nil && !errors.Is(r.Err, kerr.UnknownTopicOrPartition) && !errors.Is(r.Err, kerr.UnknownTopicID) {
				left = append(left, fmt.Sprintf("topic %s (%v)", r.Topic, r.Err))
			}
		}
	}
	if len(groups) > 0 {
		rs, err := adm.DeleteGroups(ctx, groups...)
		if err != nil {
			return nil, err
		}
		for _, r := range rs.Sorted() {
			if r.Err != nil && !errors.Is(r.Err, kerr.GroupIDNotFound) {
				left = append(left, fmt.Sprintf("group %s (%v)", r.Group, r.Err))
			}
		}
	}
	return left, nil
}

func (s *Session) unreachable(err error) error {
	return fmt.Errorf("live: %s", inspect.Unreachable(s.boot, err))
}

// factsOf is the rows of step j among those the pause brought.
func (s *Session) factsOf(p verify.Pause, j int) []Fact {
	var out []Fact
	for _, r := range p.Rows[s.seen:] {
		if stepOf(s.lesson, r.Line) != j {
			continue
		}
		if r.Verdict == verify.Differ {
			r.Known = s.known.Has(filepath.Base(r.File), r.Expect)
		}
		out = append(out, Fact{Row: r, What: strings.TrimPrefix(r.Expect, "expect "), Words: Words(r)})
	}
	return out
}

// verdicts sets the reveal of the step before's checkpoint.
func (s *Session) verdicts(c *Snapshot) {
	if c.Step == 0 || s.lesson.Steps[c.Step-1].Ask == nil {
		return
	}
	rows := make([]verify.Row, len(c.Facts))
	for i, f := range c.Facts {
		rows[i] = f.Row
	}
	c.Reveal = reveal(c.Step-1, rows)
}

// reveal is the verdict on step asked's checkpoint from the facts of the
// step that reveals its answer.
func reveal(asked int, rows []verify.Row) *Verdict {
	v := &Verdict{Asked: asked}
	var differ, known, agree, simOnly int
	var why, simWhy, otherWhy string
	for _, r := range rows {
		switch r.Verdict {
		case verify.Agree:
			agree++
		case verify.Differ:
			differ++
			if r.Known {
				known++
			}
			if differ == 1 {
				why = fmt.Sprintf("%s: simulation %s; Kafka %s", r.Expect, r.Sim, r.Kafka)
			}
		case verify.SimOnly:
			simOnly++
			if simWhy == "" {
				simWhy = r.Why
			}
		default:
			if otherWhy == "" {
				otherWhy = r.Why
			}
		}
	}
	switch {
	case len(rows) == 0:
		v.Kind, v.Words = NoFacts, "the step has no fact to compare"
	case differ > 0:
		if known == differ {
			why += " (a known difference, listed with its reason in the known-differences file)"
		}
		v.Kind, v.Words = Otherwise, fmt.Sprintf("Kafka did otherwise on %d of %d facts: %s", differ, len(rows), why)
	case agree == 0 && simOnly > 0:
		v.Kind, v.Words = SimulationOnly, "simulation only: "+simWhy
	case agree == 0:
		v.Kind, v.Words = NoFacts, "not compared on Kafka: "+otherWhy
	case agree < len(rows):
		v.Kind, v.Words = Agreed, fmt.Sprintf("Kafka agreed on %d facts, %d not compared", agree, len(rows)-agree)
	default:
		v.Kind, v.Words = Agreed, "Kafka agreed"
	}
	return v
}

// played says whether the driver played step c.Step on the cluster.
func (s *Session) played(c *Snapshot, p verify.Pause) {
	c.Played = true
	if p.Stopped == "" {
		return
	}
	end := 0 // the step's last line + 1; 0: the file's end
	if c.Step+1 < len(s.lesson.Steps) {
		end = s.lesson.Steps[c.Step+1].Line
	}
	if end != 0 && p.StopLine >= end {
		return
	}
	c.Played, c.SimOnly, c.Why, c.StopLine = false, p.SimOnly, p.Stopped, p.StopLine
}

// probeTimeout bounds the check that the cluster still answers.
const probeTimeout = 5 * time.Second

// probe asks the cluster for its brokers (Metadata) with the driver's
// client, which waits in a pause.
func (s *Session) probe() error {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	if _, err := kadm.NewClient(s.client).ListBrokers(ctx); err != nil {
		return s.unreachable(err)
	}
	return nil
}

// readTimeout bounds one snapshot's reads: a cluster that does not answer
// within it has stopped.
const readTimeout = 15 * time.Second

// collect reads the cluster at a pause.
func (s *Session) collect(pa pauseAt) (*Snapshot, error) {
	p := pa.p
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	snap := &Snapshot{Step: pa.upto, PIDs: p.PIDs, Played: true}
	strip := func(n string) string { return strings.TrimPrefix(n, p.Prefix) }
	// Without a topic inspect would read every topic of the cluster.
	if len(p.Topics) > 0 {
		is, err := inspect.Collect(ctx, p.Client, inspect.Options{Bootstrap: s.boot, Topics: p.Topics, TxnIDs: p.TxnIDs})
		if err != nil {
			return nil, s.unreachable(err)
		}
		snap.Problems = is.Problems
		for _, t := range is.Txns {
			t.ID = strip(t.ID)
			for i := range t.Partitions {
				t.Partitions[i].Topic = strip(t.Partitions[i].Topic)
			}
			snap.Txns = append(snap.Txns, t)
		}
		for _, ip := range is.Partitions {
			part := Partition{Topic: strip(ip.Topic), Partition: ip.Partition, HW: ip.HW, LSO: ip.LSO, Producers: ip.Producers, Holder: ip.Holder(), Err: ip.Err}
			// Collect read one partition's log; the others are read here.
			l, err := realkafka.Log{}, error(nil)
			if is.LogOf == ip.TP && is.Log != nil {
				l = *is.Log
			} else {
				l, err = realkafka.FetchLog(ctx, p.Client, ip.Topic, ip.Partition)
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil, s.unreachable(err)
				}
				part.Err = err.Error()
			} else {
				part.Log, part.Batches = l, fates(l)
			}
			snap.Partitions = append(snap.Partitions, part)
		}
	}
	adm := kadm.NewClient(p.Client)
	for _, g := range p.Groups {
		grp := Group{ID: strip(g)}
		os, err := adm.FetchOffsets(ctx, g)
		if err != nil {
			if ctx.Err() != nil {
				return nil, s.unreachable(err)
			}
			grp.Err = err.Error()
		}
		os.Each(func(o kadm.OffsetResponse) {
			if o.Err == nil && o.At >= 0 {
				grp.Committed = append(grp.Committed, Position{Topic: strip(o.Topic), Partition: o.Partition, Offset: o.At})
			}
		})
		sortPositions(grp.Committed)
		snap.Groups = append(snap.Groups, grp)
	}
	for _, n := range p.Consumers {
		c := Consumer{Name: n}
		for _, part := range snap.Partitions {
			o, fetched, ok := p.Position(n, engine.TP{Topic: part.Topic, Partition: part.Partition})
			if ok {
				c.Positions = append(c.Positions, Position{part.Topic, part.Partition, o, fetched})
			}
		}
		snap.Consumers = append(snap.Consumers, c)
	}
	snap.Behind = p.Pending > 0
	if pa.upto == -1 {
		snap.Facts = s.factsOf(p, -1)
		s.seen = len(p.Rows)
	}
	return snap, nil
}

func sortPositions(ps []Position) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Topic != ps[j].Topic {
			return ps[i].Topic < ps[j].Topic
		}
		return ps[i].Partition < ps[j].Partition
	})
}
