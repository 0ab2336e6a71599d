package verify

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The selection of verify --needs against what a one-broker run reports.
// testdata/needs-tvN.txt is the selection over the real files, each line
// with the one-broker run's row that bears it out; -needs.runN FILE checks
// the selection against a one-broker run's output instead (CI does, right
// after its run), and with -update rewrites the record from it.
var (
	needsRun0 = flag.String("needs.run0", "", "a one-broker verify's output under transaction.version 0, to check verify --needs against")
	needsRun2 = flag.String("needs.run2", "", "the same under transaction.version 2")
	update    = flag.Bool("update", false, "rewrite testdata/needs-tvN.txt from -needs.runN")
)

// runRow is one row of a verify run's output.
type runRow struct {
	file    string
	line    int
	verdict string
	why     string
}

var rowRE = regexp.MustCompile(`^(\S+):(\d+): (agrees|differs|simulation-only|not played)(?: \(known difference\))?: (.*)$`)

func parseRun(text string) []runRow {
	var out []runRow
	for _, l := range strings.Split(text, "\n") {
		m := rowRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		r := runRow{file: m[1], line: n, verdict: m[3]}
		if r.verdict == "simulation-only" || r.verdict == "not played" {
			r.why = lastParens(m[4])
		}
		out = append(out, r)
	}
	return out
}

// lastParens is the parenthesis that closes s ("EXPECT (WHY)"): an
// expect line and a reason may both hold parentheses of their own.
func lastParens(s string) string {
	if !strings.HasSuffix(s, ")") {
		return ""
	}
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return s[i+1 : len(s)-1]
			}
		}
	}
	return ""
}

// stopLine is M of a reason "line M: ..." (0 if none): the driver
// stopped the file at line M.
func stopLine(why string) int {
	var n int
	if _, err := fmt.Sscanf(why, "line %d:", &n); err != nil {
		return 0
	}
	return n
}

// checkNeeds compares a selection with a one-broker run: each file with a
// row not played for a reason a cluster of kind need resolves is selected
// from that row's cause or before; each selected file has, at its first
// row from the selected line on, either such a row or one the run did not
// play for another reason (the one-broker run stopped earlier). It
// returns the record's lines and what disagrees.
func checkNeeds(run []runRow, sel []FileNeed, need Need) (record, problems []string) {
	byFile := map[string][]runRow{}
	for _, r := range run {
		byFile[r.file] = append(byFile[r.file], r)
	}
	selected := map[string]FileNeed{}
	for _, fn := range sel {
		selected[fn.File] = fn
	}
	for file, rows := range byFile {
		for _, r := range rows {
			if r.verdict == "not played" && needsOfReason(r.why) == need {
				fn, ok := selected[file]
				if !ok {
					problems = append(problems, fmt.Sprintf("%s:%d: not selected, and the one-broker run has: not played (%s)", file, r.line, r.why))
				} else if fn.Line > r.line {
					problems = append(problems, fmt.Sprintf("%s:%d: selected from line %d, and the one-broker run has: not played (%s)", file, r.line, fn.Line, r.why))
				}
				break
			}
		}
	}
	// From a selected line on, the run's rows until the first that
	// bears the selection out: one not played for the reason, or one
	// stopped at an earlier line for another (the run did not get
	// there). A row checked before either is a selection the run
	// contradicts; rows of a kind no broker shows, or not played for a
	// reason of their own, are passed over.
	for _, fn := range sel {
		said := ""
		for _, r := range byFile[fn.File] {
			if r.line < fn.Line {
				continue
			}
			switch {
			case r.verdict == "agrees" || r.verdict == "differs":
				problems = append(problems, fmt.Sprintf("%s:%d: selected (%s), and the one-broker run checked line %d: %s", fn.File, fn.Line, fn.Why, r.line, r.verdict))
				said = "-"
			case r.verdict == "not played" && needsOfReason(r.why) == need:
				said = fmt.Sprintf("one broker at line %d: not played (%s)", r.line, r.why)
			case stopLine(r.why) > 0 && stopLine(r.why) < fn.Line:
				said = fmt.Sprintf("one broker stopped before, at line %d: %s (%s)", r.line, r.verdict, r.why)
			}
			if said != "" {
				break
			}
		}
		switch said {
		case "":
			problems = append(problems, fmt.Sprintf("%s:%d: selected (%s), and no row of the one-broker run from there bears it out", fn.File, fn.Line, fn.Why))
		case "-":
		default:
			record = append(record, fmt.Sprintf("%s %s:%d: %s; %s", need, fn.File, fn.Line, fn.Why, said))
		}
	}
	return record, problems
}

// realFiles are the scenario and lesson files, named as CI names them
// (from the repository's root).
func realFiles(t *testing.T) ([]string, func(string) ([]byte, error)) {
	root := filepath.Join("..", "..", "..")
	var files []string
	for _, g := range []string{"engine/testdata/scenarios/*.scn", "lessons/content/*.lesson"} {
		m, err := filepath.Glob(filepath.Join(root, g))
		if err != nil || len(m) == 0 {
			t.Fatalf("no files %s: %v", g, err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			files = append(files, filepath.ToSlash(rel))
		}
	}
	return files, func(f string) ([]byte, error) { return os.ReadFile(filepath.Join(root, f)) }
}

func TestNeedsAgreeWithOneBrokerRuns(t *testing.T) {
	files, read := realFiles(t)
	for _, tv := range []int{0, 2} {
		runFile := map[int]string{0: *needsRun0, 2: *needsRun2}[tv]
		golden := filepath.Join("testdata", fmt.Sprintf("needs-tv%d.txt", tv))
		var lines []string
		bad := 0
		for _, need := range []Need{NeedOwned, NeedExpiry} {
			sel, err := Needs(files, read, tv, need)
			if err != nil {
				t.Fatal(err)
			}
			if runFile == "" {
				for _, fn := range sel {
					lines = append(lines, fmt.Sprintf("%s %s:%d:", need, fn.File, fn.Line))
				}
				continue
			}
			out, err := os.ReadFile(runFile)
			if err != nil {
				t.Fatal(err)
			}
			record, problems := checkNeeds(parseRun(string(out)), sel, need)
			bad += len(problems)
			for _, p := range problems {
				t.Errorf("transaction.version %d, --needs %s: %s", tv, need, p)
			}
			lines = append(lines, record...)
		}
		if runFile != "" {
			if *update && bad == 0 {
				text := fmt.Sprintf("# verify --needs owned|expiry --transaction-version %d over the scenarios and lessons, each file with\n# the one-broker run's row from its line on (go test -run TestNeedsAgreeWithOneBrokerRuns -needs.run%d RUN -update)\n", tv, tv)
				if err := os.WriteFile(golden, []byte(text+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, l := range strings.Split(string(want), "\n") {
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			// NEED FILE:LINE: ...: the selection's part.
			f := strings.Fields(l)
			keys = append(keys, f[0]+" "+f[1])
		}
		if !slices.Equal(lines, keys) {
			t.Errorf("transaction.version %d: verify --needs selects\n%s\nthe record (%s, checked against a one-broker run) has\n%s", tv, strings.Join(lines, "\n"), golden, strings.Join(keys, "\n"))
		}
	}
}

// TestNeedsOfReason reads the driver's reasons as the kinds of cluster
// that resolve them.
func TestNeedsOfReason(t *testing.T) {
	for why, want := range map[string]Need{
		"line 8: crashing a broker of a shared cluster is not done by verify (give --cluster-dir, the directory of eoslab kafka up --brokers 3)":                                  NeedOwned,
		"line 23: WriteTxnMarkers travels between brokers (broker-3); the wrapper sits on clients' connections only":                                                              NeedOwned,
		"the simulation has messages in flight here: a WriteTxnMarkersResponse between broker-1 and broker-1 is in flight; the wrapper holds only producers' messages to brokers": NeedOwned,
		"the simulation has messages in flight here: a ProduceResponse between broker-1 and P is in flight; the wrapper holds only producers' messages to brokers":                NeedNone,
		"requests brokers send each other are not on a client's connection, where the wrapper counts":                                                                             NeedOwned,
		"the simulation counts requests of broker-2, broker-3 here, which the wrapper on the producers' connections does not see":                                                 NeedOwned,
		"the simulation counts requests of C, broker-3 here, which the wrapper on the producers' connections does not see":                                                        NeedNone,
		"line 26: advance 3700000: the simulation expires transactional id payment-processor-1 here; the cluster's transactional.id.expiration.ms is 604800000 (a static setting); verify plays a transactional id expiry only on a cluster started with at most 30000, e.g. eoslab kafka up --broker-config transactional.id.expiration.ms=5000": NeedExpiry,
		"line 50: a transaction.version change is an operator's kafka-features update; verify does not change a shared cluster's features": NeedNone,
	} {
		if got := needsOfReason(why); got != want {
			t.Errorf("needsOfReason(%q) = %v, want %v", why, got, want)
		}
	}
}
