package panels

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// kafkaFixture is Kafka's side after the abort lesson's markers: an
// aborted transaction on two partitions, a second one open and holding
// orders-0's LSO, a known difference, a simulation-only fact, and the
// reveal of a checkpoint that Kafka did otherwise on.
func kafkaFixture() *model.KafkaSide {
	pid := func(b, s int64) model.KafkaPID { return model.KafkaPID{Broker: b, Sim: s, Mapped: true} }
	none := model.KafkaPID{Broker: -1, Sim: -1}
	return &model.KafkaSide{
		Cluster: "127.0.0.1:9092", TV: 0, Step: 5,
		Behind: "the cluster is behind: some of the step's calls wait for the simulation's messages in flight to land (they are played at its next quiet point)",
		Reveal: &model.KafkaVerdict{Asked: 4, Kind: model.KafkaOtherwise, Words: "Kafka did otherwise on 1 of 3 facts: expect txn T state CompleteAbort: simulation CompleteAbort; Kafka PrepareAbort"},
		Facts: []model.KafkaFact{
			{Line: 110, Expect: "partition orders-0 batch 1 marker=abort", Verdict: model.KafkaAgreed, Words: "Kafka agreed"},
			{Line: 111, Expect: "txn T state CompleteAbort", Verdict: model.KafkaOtherwise, Words: "Kafka did otherwise: simulation CompleteAbort; Kafka PrepareAbort"},
			{Line: 112, Expect: "partition payments-0 producer 1000 lastseq=0", Verdict: model.KafkaOtherwiseKnown, Words: "Kafka did otherwise (a known difference, listed with its reason in the known-differences file): simulation lastseq=0; Kafka lastseq=-1"},
			{Line: 113, Expect: `event "WriteTxnMarkers"`, Verdict: model.KafkaSimOnly, Words: "simulation only: the coordinator's requests to the leaders are not seen by a client"},
		},
		Partitions: []model.KafkaPartition{
			{Name: "orders-0", HW: 4, LSO: 2, Holder: pid(7, 1001), HolderEpoch: 0,
				Batches: []model.KafkaBatch{
					{BaseOffset: 0, LastOffset: 0, PID: pid(6, 1000), Epoch: 0, BaseSeq: 0, Records: 1, Transactional: true, Status: model.StatusAborted, Values: []string{"order-42"}},
					{BaseOffset: 1, LastOffset: 1, PID: pid(6, 1000), Epoch: 0, BaseSeq: -1, Records: 1, Transactional: true, Control: true, Marker: "ABORT", Status: model.StatusAborted},
					{BaseOffset: 2, LastOffset: 3, PID: pid(7, 1001), Epoch: 0, BaseSeq: 0, Records: 2, Transactional: true, Status: model.StatusOpen, Values: []string{"order-43", "order-44"}},
				},
				Producers: []model.KafkaProducer{{PID: pid(6, 1000), Epoch: 0, LastSeq: 0, TxnStart: -1}, {PID: pid(7, 1001), Epoch: 0, LastSeq: 1, TxnStart: 2}},
			},
			{Name: "plain-0", HW: 1, LSO: 1, Holder: none,
				Batches: []model.KafkaBatch{{BaseOffset: 0, LastOffset: 0, PID: none, Epoch: -1, BaseSeq: -1, Records: 1, Values: []string{"hello"}}}},
			{Name: "payments-0", HW: 0, LSO: 0, Holder: none},
		},
		Txns: []model.KafkaTxn{
			{ID: "T", State: "PrepareAbort", Tone: model.ToneAborted, PID: pid(6, 1000), Epoch: 0, Partitions: []string{"orders-0", "payments-0"}},
			{ID: "U", State: "Ongoing", Tone: model.ToneOpen, PID: pid(7, 1001), Epoch: 0, Partitions: []string{"orders-0"}},
		},
		Consumers: []model.KafkaPositions{{Name: "RC", Offsets: []model.KafkaOffset{{Partition: "orders-0", Offset: 2}, {Partition: "payments-0", Offset: 0, Fetched: true}}}, {Name: "RU"}},
		Groups:    []model.KafkaPositions{{Name: "g", Offsets: []model.KafkaOffset{{Partition: "orders-0", Offset: 2}}}},
	}
}

func kafkaScreen(k *model.KafkaSide, th *theme.Theme, w int) string {
	_, c, _ := Kafka(k, Painter{Theme: th, Width: w})
	lines := make([]string, c.Len())
	for i := range lines {
		lines[i] = strings.TrimRight(c.Line(i), " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestKafkaPanelGolden draws the fixture at the widths the player gives
// the panel: a small terminal's whole width (78), beside the simulation
// on a 200-column one (96), and a 60-column one; in ASCII with no
// colour, so every mark is a glyph and a word.
func TestKafkaPanelGolden(t *testing.T) {
	th := theme.New(theme.Options{ASCII: true, NoColor: true})
	for _, w := range []int{60, 78, 96} {
		t.Run(itoa(w), func(t *testing.T) {
			got := kafkaScreen(kafkaFixture(), th, w)
			for i, l := range strings.Split(got, "\n") {
				if cells.Width(l) > w {
					t.Errorf("line %d is %d cells wide, the panel %d: %q", i, cells.Width(l), w, l)
				}
			}
			xgolden.RequireEqual(t, []byte(got))
		})
	}
}

// TestKafkaPanelWords: with colour on, the text is the colourless one:
// no verdict or state is told by colour alone.
func TestKafkaPanelWords(t *testing.T) {
	plain := kafkaScreen(kafkaFixture(), theme.New(theme.Options{ASCII: true, NoColor: true}), 78)
	colour := kafkaScreen(kafkaFixture(), theme.New(theme.Options{ASCII: true}), 78)
	if ansi.Strip(colour) != plain {
		t.Errorf("the coloured panel's text differs from the colourless one's")
	}
	for _, w := range []string{"[x] otherwise", "[ok] agreed", "sim only", "known", "[..] txn open", "[x] ABORT marker", "LSO held by pid 7(1001)"} {
		if !strings.Contains(plain, w) {
			t.Errorf("the panel lacks %q", w)
		}
	}
}

// TestKafkaBox: cut to a height, the box says how many lines are left,
// the verdicts come first, and a cluster gone is on the second line.
func TestKafkaBox(t *testing.T) {
	th := theme.New(theme.Options{ASCII: true, NoColor: true})
	k := kafkaFixture()
	k.Gone = "live: the cluster at 127.0.0.1:9092 did not answer (unable to dial: connection refused); is it running?"
	p := Painter{Theme: th, Width: 78}
	box := KafkaBox(k, p, 22)
	if len(box) != 22 {
		t.Fatalf("%d lines, want 22", len(box))
	}
	if !strings.HasPrefix(box[1], "[!] cluster gone: live: the cluster at 127.0.0.1:9092 did not answer") {
		t.Errorf("line 2: %q", box[1])
	}
	if !strings.Contains(strings.Join(box, "\n"), "checkpoint of step 5, after the reveal") || !strings.Contains(box[21], "more lines") {
		t.Errorf("box:\n%s", strings.Join(box, "\n"))
	}
	_, c, _ := Kafka(k, p)
	if all := KafkaBox(k, p, c.Len()); len(all) != c.Len() || strings.Contains(all[len(all)-1], "more lines") {
		t.Errorf("a box as tall as the panel is cut: %q", all[len(all)-1])
	}
}
