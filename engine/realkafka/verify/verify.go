// Package verify plays eoslab's scenario and lesson files twice, on the
// simulation (engine/script) and on a real Kafka cluster, and compares
// every expect line: agrees, differs (both facts side by side),
// simulation-only (a fact no broker exposes, or an action no broker
// allows, with why), or not played (the broker driver does not map an
// action of the file yet: counted apart, never as agreement).
//
// It is an I/O edge like package realkafka: it talks to a cluster. Names
// on the cluster (topics, transactional ids, groups) carry a per-run
// prefix; verify refuses to start if a prefixed name exists and deletes
// every topic it created.
package verify

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/conn"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/lessons"
)

// Verdict is one expect line's outcome.
type Verdict int

const (
	Agree Verdict = iota
	Differ
	SimOnly
	NotPlayed
)

var verdictWords = [...]string{"agrees", "differs", "simulation-only", "not played"}

func (v Verdict) String() string { return verdictWords[v] }

// Row is one expect line's verdict.
type Row struct {
	File    string
	Line    int
	Expect  string
	Verdict Verdict
	Sim     string // differs: the simulation's fact
	Kafka   string // differs: Kafka's fact
	Why     string // simulation-only, not played: why; agrees: a note
	// Neither, on an agreeing row: the line as written is met by neither
	// side (a line of the other protocol), and this is what both show.
	Neither string
	Kind    string // the kind of fact, for the share by kind
	Known   bool   // differs, and listed in the known-differences file
	// Scaled says how time was scaled for the broker run ("" if not).
	Scaled string
	// StopLine, when not 0, is the line whose action the driver does not
	// play (not played, or simulation-only, from there on).
	StopLine int
}

// Options is one verify run.
type Options struct {
	Brokers string   // bootstrap addresses
	Files   []string // .scn and .lesson files
	// Known is the known-differences file's text ("" for none).
	Known string
	// Conn, when set, is how to connect (TLS, SASL); Brokers is then
	// only its description.
	Conn *conn.Config
	// Read, when set, reads a file instead of os.ReadFile (live mode
	// plays the built-in lessons by their file names).
	Read func(file string) ([]byte, error)
	// Pause, when set, is called before each line is played and once
	// after the last (pause.go); false stops the play there.
	Pause func(Pause) bool
	// Owner, when set, is the cluster's owner: verify may crash and
	// restart its brokers and fault what they send each other
	// (cluster.go); `verify --cluster-dir DIR`.
	Owner realkafka.Owner
}

// Summary is what a run found.
type Summary struct {
	Rows    []Row
	Files   int
	Refused []string // files not played: they pin the other protocol
	TV      int      // the cluster's transaction.version
}

// Count is the number of rows with verdict v.
func (s Summary) Count(v Verdict) int {
	n := 0
	for _, r := range s.Rows {
		if r.Verdict == v {
			n++
		}
	}
	return n
}

// UsageError is bad input: exit 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Run verifies the files against the cluster, writing one row per expect
// line and the summary to out. The error is nil when it ran; ExitCode
// says whether what it found passes.
func Run(ctx context.Context, o Options, out io.Writer) (Summary, error) {
	var s Summary
	ctx = withPause(ctx, o.Pause)
	if o.Brokers == "" {
		return s, &UsageError{"verify: --brokers ADDR is required"}
	}
	if len(o.Files) == 0 {
		return s, &UsageError{"verify: no files (give .scn scenario or .lesson files)"}
	}
	known, err := ParseKnown(o.Known)
	if err != nil {
		return s, &UsageError{err.Error()}
	}
	type input struct {
		file string
		cmds func(simTV int) ([]script.Command, error)
		pins int // the transaction.version a config line pins, 0 if none
	}
	var inputs []input
	for _, f := range o.Files {
		in, err := loadWith(o.Read, f)
		if err != nil {
			return s, &UsageError{err.Error()}
		}
		inputs = append(inputs, input{f, in.cmds, in.pins})
	}
	opts := []kgo.Opt{kgo.SeedBrokers(strings.Split(o.Brokers, ",")...)}
	if o.Conn != nil {
		opts = o.Conn.Opts()
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return s, &UsageError{fmt.Sprintf("verify: --brokers %s: %v", o.Brokers, err)}
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	tv, err := realkafka.TransactionVersion(ctx, adm)
	if err != nil {
		return s, fmt.Errorf("verify: %s: %w", o.Brokers, err)
	}
	s.TV = tv
	simTV := 1 // the classic protocol: the simulation's 1 is Kafka's 0 and 1
	if tv >= 2 {
		simTV = 2
	}
	fmt.Fprintf(out, "verify: cluster %s runs transaction.version=%d; playing the simulation under %d\n", o.Brokers, tv, simTV)
	for _, in := range inputs {
		if in.pins != 0 && in.pins != simTV {
			msg := fmt.Sprintf("%s: refused: it pins transaction.version=%d, the cluster runs %d (start one with eoslab kafka up --transaction-version %d)", in.file, in.pins, tv, map[int]int{1: 0, 2: 2}[in.pins])
			fmt.Fprintln(out, msg)
			s.Refused = append(s.Refused, in.file)
			continue
		}
		if other, why := writtenFor(in.cmds, simTV); other != 0 {
			fmt.Fprintf(out, "%s: refused: it is written for transaction.version %d, the cluster runs %d (%s; start one with eoslab kafka up --transaction-version %d)\n", in.file, map[int]int{1: 0, 2: 2}[other], tv, why, map[int]int{1: 0, 2: 2}[other])
			s.Refused = append(s.Refused, in.file)
			continue
		}
		cmds, err := in.cmds(simTV)
		if err != nil {
			return s, &UsageError{err.Error()}
		}
		fctx := ctx
		if o.Owner != nil {
			fctx, err = prepareOwned(withOwner(ctx, o.Owner), cl, adm, o.Owner, cmds)
			if err != nil {
				return s, err
			}
		} else {
			fctx = placeCoordinators(ctx, cmds) // coordplace.go
		}
		rows, err := playFile(fctx, cl, adm, in.file, cmds, simTV)
		for i := range rows {
			if rows[i].Verdict == Differ {
				rows[i].Known = known.has(filepath.Base(rows[i].File), rows[i].Expect)
			}
			writeRow(out, rows[i])
		}
		s.Rows = append(s.Rows, rows...)
		s.Files++
		if err != nil {
			return s, err
		}
	}
	np := s.Count(NotPlayed)
	if np > 0 {
		fmt.Fprintf(out, "verify: %d facts not played (an action before them has no broker mapping yet)\n", np)
	}
	if len(s.Refused) > 0 {
		fmt.Fprintf(out, "verify: %d files refused (they pin, or are written for, the other transaction.version)\n", len(s.Refused))
	}
	if s.Count(SimOnly) > 0 {
		fmt.Fprintf(out, "verify: simulation-only of the facts, by kind of expect line: %s\n", strings.Join(s.KindShare(), ", "))
	}
	fmt.Fprintf(out, "verify: %d agree, %d differ, %d simulation-only of %d facts in %d files\n",
		s.Count(Agree), s.Count(Differ), s.Count(SimOnly), len(s.Rows), s.Files)
	return s, nil
}

// ExitCode is 0 when nothing differs or every difference is known, 1
// otherwise.
func (s Summary) ExitCode() int {
	for _, r := range s.Rows {
		if r.Verdict == Differ && !r.Known {
			return 1
		}
	}
	return 0
}

func writeRow(out io.Writer, r Row) {
	where := fmt.Sprintf("%s:%d", r.File, r.Line)
	switch r.Verdict {
	case Agree:
		neither := ""
		if r.Neither != "" {
			neither = " (" + r.Neither + ")"
		}
		fmt.Fprintf(out, "%s: agrees: %s%s%s\n", where, r.Expect, neither, scaledSuffix(r))
	case Differ:
		known := ""
		if r.Known {
			known = " (known difference)"
		}
		fmt.Fprintf(out, "%s: differs%s: %s%s\n    eoslab: %s\n    kafka:  %s\n", where, known, r.Expect, scaledSuffix(r), r.Sim, r.Kafka)
	default:
		fmt.Fprintf(out, "%s: %s: %s (%s)\n", where, r.Verdict, r.Expect, r.Why)
	}
}

func scaledSuffix(r Row) string {
	if r.Scaled == "" {
		return ""
	}
	return " (" + r.Scaled + ")"
}

type loaded struct {
	cmds func(simTV int) ([]script.Command, error)
	pins int
}

// load reads a scenario or lesson file; a lesson plays its setup and every
// step's commands (its checkpoints' choices are what-ifs, not played).
func load(file string) (loaded, error) { return loadWith(nil, file) }

func loadWith(read func(string) ([]byte, error), file string) (loaded, error) {
	if read == nil {
		read = os.ReadFile
	}
	src, err := read(file)
	if err != nil {
		return loaded{}, fmt.Errorf("verify: %v", err)
	}
	if strings.HasSuffix(file, ".lesson") {
		l, err := lessons.Parse(file, src)
		if err != nil {
			return loaded{}, err
		}
		cmds := func(simTV int) ([]script.Command, error) {
			k := 3
			if simTV == 2 {
				k = 4
			}
			v := l.ForKafka(k)
			cmds := append([]script.Command(nil), v.Setup...)
			for _, st := range v.Steps {
				cmds = append(cmds, st.Commands...)
			}
			return cmds, nil
		}
		// A lesson's config line pins the protocol as a scenario's does
		// (13-kafka-3-vs-4 starts on the classic one).
		c3, _ := cmds(1)
		return loaded{cmds: cmds, pins: pinned(c3)}, nil
	}
	cmds, err := script.Parse(file, src)
	if err != nil {
		return loaded{}, err
	}
	return loaded{cmds: func(int) ([]script.Command, error) { return cmds, nil }, pins: pinned(cmds)}, nil
}

// pinned is the transaction.version the file's first config line sets (0
// if none).
func pinned(cmds []script.Command) int {
	for _, c := range cmds {
		if sc, ok := c.Action.(engine.SetConfig); ok {
			for _, st := range sc.Settings {
				if st.Key == engine.ConfigTransactionVersion {
					return int(st.Value)
				}
			}
		}
	}
	return 0
}

// prefix is this run's name prefix on the cluster.
func prefix() string {
	var b [4]byte
	rand.Read(b[:])
	return "eoslab-verify-" + hex.EncodeToString(b[:]) + "-"
}

// Known is the known-differences file: one entry per difference.
type Known struct{ entries map[string]bool }

func (k Known) has(file, expect string) bool { return k.entries[file+"\x00"+expect] }

// ParseKnown reads the known-differences file: entries separated by blank
// lines, each with the keys scenario, expect, kafka, eoslab, source and
// decision ("key: value" lines; # starts a comment line).
func ParseKnown(text string) (Known, error) {
	k := Known{entries: map[string]bool{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	cur := map[string]string{}
	n, start := 0, 0
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		for _, key := range []string{"scenario", "expect", "kafka", "eoslab", "source", "decision"} {
			if cur[key] == "" {
				return fmt.Errorf("known differences:%d: entry without the key %s", start, key)
			}
		}
		k.entries[cur["scenario"]+"\x00"+cur["expect"]] = true
		cur = map[string]string{}
		return nil
	}
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			if err := flush(); err != nil {
				return k, err
			}
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return k, fmt.Errorf("known differences:%d: want key: value", n)
		}
		if len(cur) == 0 {
			start = n
		}
		cur[strings.TrimSpace(key)] = strings.TrimSpace(val)
	}
	return k, flush()
}

// KindShare is the simulation-only count by kind of fact.
func (s Summary) KindShare() []string {
	by := map[string][2]int{}
	for _, r := range s.Rows {
		c := by[r.Kind]
		c[1]++
		if r.Verdict == SimOnly {
			c[0]++
		}
		by[r.Kind] = c
	}
	var keys []string
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s %d/%d", k, by[k][0], by[k][1]))
	}
	return out
}
