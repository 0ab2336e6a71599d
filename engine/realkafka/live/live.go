// Package live plays eoslab's built-in lessons on the simulation and on a
// real Kafka cluster side by side, headless: one row per expect line of
// each step, saying whether Kafka agreed with the simulation, what Kafka
// did instead, or why the fact is the simulation's only. The play is the
// verify driver's (engine/realkafka/verify): its per-run prefixed topics,
// transactional ids and groups, its refusal to start when a prefixed name
// exists and its cleanup; this package adds the lesson view (steps,
// checkpoints) and the list of lessons that can be played live.
//
// It is an I/O edge: it talks to a cluster. It imports no view.
package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/eoslab/eoslab/engine/realkafka/conn"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/lessons"
)

// Options is one live run.
type Options struct {
	Conn *conn.Config
	// Kafka is the protocol asked for, 3 (classic) or 4 (KIP-890); 0
	// takes the cluster's.
	Kafka int
	// TV is the cluster's finalized transaction.version (preflight's).
	TV int
	// Known is the known-differences file's text.
	Known string
}

// UsageError is bad input: exit 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// checkKafka refuses a --kafka the cluster does not run: the simulation
// plays under the cluster's protocol, so the sides compare like with like.
func (o Options) checkKafka() error {
	k := 3
	if o.TV >= 2 {
		k = 4
	}
	if o.Kafka != 0 && o.Kafka != k {
		want := map[int]string{3: "0", 4: "2"}[o.Kafka]
		return &UsageError{fmt.Sprintf("live: --kafka %d: the cluster runs transaction.version=%d, Kafka %d's protocol; start a cluster with eoslab kafka up --transaction-version %s, or drop --kafka", o.Kafka, o.TV, k, want)}
	}
	return nil
}

func fileOf(name string) (string, error) {
	file, _, err := lessons.Source(name)
	if err != nil {
		return "", &UsageError{fmt.Sprintf("live: --lesson %s: %v", name, err)}
	}
	return file, nil
}

// read serves the built-in lessons to the driver by file name.
func read(file string) ([]byte, error) {
	for _, m := range lessons.All() {
		f, src, err := lessons.Source(m.Name)
		if err == nil && f == file {
			return src, nil
		}
	}
	return nil, fmt.Errorf("no built-in lesson file %s", file)
}

// Play plays one lesson with a Session and writes its rows step by step,
// as each step is played, then a count.
func Play(ctx context.Context, o Options, name string, out io.Writer) (verify.Summary, error) {
	s, err := Open(ctx, o, name)
	if err != nil {
		return verify.Summary{}, err
	}
	l := s.Lesson()
	fmt.Fprintf(out, "live: %s (%s) on a cluster with transaction.version=%d\n", l.Name, l.Title, o.TV)
	if fs := s.Setup().Facts; len(fs) > 0 {
		fmt.Fprintln(out, "setup:")
		writeFacts(out, l, fs)
	}
	for i, st := range l.Steps {
		snap, err := s.Step(i)
		if err != nil {
			// What the run could not delete is said with the step's
			// error: the user has it to clean up.
			return s.Summary(), errors.Join(err, s.Close())
		}
		ask := ""
		if v := snap.Reveal; v != nil {
			// A checkpoint's answer is revealed by the next step: its
			// facts are what Kafka says of it.
			ask = fmt.Sprintf("; the checkpoint of step %d, after the reveal: %s", v.Asked+1, v.Words)
		}
		fmt.Fprintf(out, "step %d: %s%s\n", i+1, st.Title, ask)
		writeFacts(out, l, snap.Facts)
	}
	if err := s.Close(); err != nil {
		return s.Summary(), err
	}
	sum := s.Summary()
	fmt.Fprintf(out, "live: %d agreed, %d Kafka did otherwise (%d known), %d simulation only, %d not played, of %d facts\n",
		sum.Count(verify.Agree), sum.Count(verify.Differ), known(sum), sum.Count(verify.SimOnly), sum.Count(verify.NotPlayed), len(sum.Rows))
	return sum, nil
}

func writeFacts(out io.Writer, l *lessons.Lesson, fs []Fact) {
	for _, f := range fs {
		fmt.Fprintf(out, "  %s:%d %s\n    %s\n", l.Name, f.Line, f.Expect, f.Words)
	}
}

func run(ctx context.Context, o Options, file string) (verify.Summary, error) {
	vo := verify.Options{Brokers: strings.Join(o.Conn.Seeds, ","), Files: []string{file}, Known: o.Known, Conn: o.Conn, Read: read}
	s, err := verify.Run(ctx, vo, io.Discard)
	var ue *verify.UsageError
	if err != nil && asUsage(err, &ue) {
		return s, &UsageError{ue.Msg}
	}
	return s, err
}

func asUsage(err error, ue **verify.UsageError) bool {
	u, ok := err.(*verify.UsageError)
	if ok {
		*ue = u
	}
	return ok
}

// stepOf is the index of the step a line belongs to, -1 for setup.
func stepOf(l *lessons.Lesson, line int) int {
	at := -1
	for i, st := range l.Steps {
		if st.Line <= line {
			at = i
		}
	}
	return at
}

// Words is a row in live's words.
func Words(r verify.Row) string {
	switch r.Verdict {
	case verify.Agree:
		return "Kafka agreed"
	case verify.Differ:
		known := ""
		if r.Known {
			known = " (a known difference, listed with its reason in the known-differences file)"
		}
		return fmt.Sprintf("Kafka did otherwise%s: simulation %s; Kafka %s", known, r.Sim, r.Kafka)
	case verify.SimOnly:
		return "simulation only: " + r.Why
	}
	return "not played on Kafka: " + r.Why
}

func known(s verify.Summary) int {
	n := 0
	for _, r := range s.Rows {
		if r.Verdict == verify.Differ && r.Known {
			n++
		}
	}
	return n
}

// Playable is one built-in lesson's answer to "can it be played live?".
type Playable struct {
	Name, Title string
	OK          bool
	Why         string // not OK: the first line the driver does not play, and why
	Rows        int
	Agree       int
}

// List plays every built-in lesson on the cluster (each under its own
// prefix, cleaned up) and says which play to the end: a lesson can be
// played live when every action has a broker mapping, which only the
// driver knows (some refusals depend on the state reached). progress,
// when set, gets a line per lesson as it finishes.
func List(ctx context.Context, o Options, progress io.Writer) ([]Playable, error) {
	if err := o.checkKafka(); err != nil {
		return nil, err
	}
	var out []Playable
	for _, m := range lessons.All() {
		file, err := fileOf(m.Name)
		if err != nil {
			return out, err
		}
		s, err := run(ctx, o, file)
		if err != nil {
			return out, fmt.Errorf("%s: %w", m.Name, err)
		}
		p := Playable{Name: m.Name, Title: m.Title, OK: true, Rows: len(s.Rows), Agree: s.Count(verify.Agree)}
		var whys []string
		for _, r := range s.Rows {
			// A fact not compared because the simulation has messages in
			// flight there is no action left unplayed; a stop is.
			if r.StopLine != 0 {
				p.OK = false
				whys = append(whys, r.Why)
			}
		}
		if len(s.Refused) > 0 {
			p.OK, whys = false, append(whys, "it pins the other transaction.version")
		}
		if !p.OK {
			p.Why = whys[0] // rows are in file order: the first stop
		}
		if progress != nil {
			fmt.Fprintln(progress, ListLine(p))
		}
		out = append(out, p)
	}
	return out, nil
}

// ListLine is one lesson of List.
func ListLine(p Playable) string {
	if p.OK {
		return fmt.Sprintf("  live   %-28s %s (%d facts, %d agree on Kafka)", p.Name, p.Title, p.Rows, p.Agree)
	}
	return fmt.Sprintf("  no     %-28s %s: %s", p.Name, p.Title, p.Why)
}
