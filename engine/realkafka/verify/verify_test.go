package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/assets"
	"github.com/eoslab/eoslab/engine/script"
)

func TestKnownDifferences(t *testing.T) {
	k, err := ParseKnown(assets.KafkaKnownDifferences)
	if err != nil {
		t.Fatalf("the shipped known-differences file: %v", err)
	}
	_ = k
	text := "# c\nscenario: a.scn\nexpect: expect partition t-0 leo 1\nkafka: leo 2\neoslab: leo 1\nsource: KAFKA-1\ndecision: keep\n"
	k, err = ParseKnown(text)
	if err != nil {
		t.Fatal(err)
	}
	row := Row{File: "dir/a.scn", Expect: "expect partition t-0 leo 1", Verdict: Differ}
	row.Known = k.has(filepath.Base(row.File), row.Expect)
	if !row.Known || (Summary{Rows: []Row{row}}).ExitCode() != 0 {
		t.Error("a listed difference is not known, or fails the run")
	}
	row.Known = k.has("b.scn", row.Expect)
	if row.Known || (Summary{Rows: []Row{row}}).ExitCode() != 1 {
		t.Error("an unlisted difference passes the run")
	}
	if _, err := ParseKnown("scenario: a.scn\nexpect: x\n"); err == nil || !strings.Contains(err.Error(), "kafka") {
		t.Errorf("an entry without kafka/eoslab/source/decision: %v", err)
	}
}

func TestRunBadInput(t *testing.T) {
	if _, err := Run(context.Background(), Options{Files: []string{"x.scn"}}, &strings.Builder{}); err == nil {
		t.Error("no --brokers accepted")
	}
	if _, err := Run(context.Background(), Options{Brokers: "127.0.0.1:1"}, &strings.Builder{}); err == nil {
		t.Error("no files accepted")
	}
	missing := filepath.Join(t.TempDir(), "none.scn")
	if _, err := Run(context.Background(), Options{Brokers: "127.0.0.1:1", Files: []string{missing}}, &strings.Builder{}); err == nil {
		t.Error("a missing file accepted")
	}
}

func TestPins(t *testing.T) {
	f := filepath.Join(t.TempDir(), "p.scn")
	os.WriteFile(f, []byte("config transaction.version=2\ntopic t\n"), 0o644)
	l, err := load(f)
	if err != nil || l.pins != 2 {
		t.Fatalf("pins = %d, %v; want 2", l.pins, err)
	}
}

// TestWrittenFor: a file that delivers a message only the classic protocol
// sends is refused whole under transaction.version 2 (with the line that
// shows it), played under the classic one; a file broken under both is not
// refused.
func TestWrittenFor(t *testing.T) {
	classic := "topic t\nproducer a transactional.id=x\na initTransactions\nrun\na beginTransaction\na send t-0 v\nrun\na sendOffsetsToTransaction g t-0=1\ndeliver AddOffsetsToTxn\nrun\n"
	parse := func(src string) func(int) ([]script.Command, error) {
		cmds, err := script.Parse("f.scn", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return func(int) ([]script.Command, error) { return cmds, nil }
	}
	if other, why := writtenFor(parse(classic), 2); other != 1 || !strings.Contains(why, "line 9") {
		t.Errorf("under 2: got %d %q, want refused as written for 1 at line 9", other, why)
	}
	if other, _ := writtenFor(parse(classic), 1); other != 0 {
		t.Errorf("under 1: refused as written for %d", other)
	}
	broken := "topic t\ndeliver Produce\n"
	if other, _ := writtenFor(parse(broken), 2); other != 0 {
		t.Errorf("a file broken under both protocols is refused as written for %d", other)
	}
}
