package adapt

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/inspect"
	"github.com/eoslab/eoslab/engine/realkafka/live"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/panels"
	"github.com/eoslab/eoslab/views/theme"
)

// TestKafkaSide: the snapshot's producer ids are mapped to the
// simulation's where known, each batch gets its fate from the markers
// after it, a state its tone, each fact and the reveal their verdicts, and
// a step not played says why and from which line.
func TestKafkaSide(t *testing.T) {
	holder := inspect.Producer{ProducerID: 7, Epoch: 1, LastSequence: 0, TxnStart: 2}
	s := &live.Snapshot{
		Step: 3, PIDs: map[int64]int64{6: 1000, 7: 1001},
		Partitions: []live.Partition{{
			Topic: "orders", Partition: 0, HW: 3, LSO: 2, Holder: &holder,
			Batches: []live.Batch{
				{Batch: realkafka.Batch{BaseOffset: 0, LastOffset: 0, ProducerID: 6, BaseSequence: 0, Records: 1, Transactional: true, Values: []string{"a"}}, Fate: live.FateCommitted},
				{Batch: realkafka.Batch{BaseOffset: 1, LastOffset: 1, ProducerID: 6, BaseSequence: -1, Records: 1, Transactional: true, Control: true, Marker: "COMMIT"}, Fate: live.FateCommitted},
				{Batch: realkafka.Batch{BaseOffset: 2, LastOffset: 2, ProducerID: 7, ProducerEpoch: 1, Records: 1, Transactional: true, Values: []string{"b"}}, Fate: live.FateOpen},
				{Batch: realkafka.Batch{BaseOffset: 3, LastOffset: 3, ProducerID: -1, BaseSequence: -1, Records: 1, Values: []string{"c"}}, Fate: live.FatePlain},
				{Batch: realkafka.Batch{BaseOffset: 4, LastOffset: 4, ProducerID: 9, Records: 1}, Fate: live.FateAborted},
			},
			Producers: []inspect.Producer{{ProducerID: 6, LastSequence: 0, TxnStart: -1}, holder},
		}},
		Txns:      []inspect.Txn{{ID: "T", State: "CompleteCommit", ProducerID: 6, Partitions: []inspect.TP{{Topic: "orders", Partition: 0}}}, {ID: "U", State: "Ongoing", ProducerID: 7, Epoch: 1}, {ID: "V", State: "SomethingNew", ProducerID: 8}},
		Consumers: []live.Consumer{{Name: "RC", Positions: []live.Position{{Topic: "orders", Partition: 0, Offset: 2, Fetched: true}}}},
		Behind:    true,
		Groups:    []live.Group{{ID: "g", Err: "GROUP_AUTHORIZATION_FAILED"}},
		Facts: []live.Fact{
			{Row: verify.Row{Line: 40, Expect: "expect partition orders-0 leo 5", Verdict: verify.Agree}, What: "partition orders-0 leo 5", Words: "Kafka agreed"},
			{Row: verify.Row{Line: 41, Verdict: verify.Differ, Known: true}, Words: "k"},
			{Row: verify.Row{Line: 42, Verdict: verify.Differ}, Words: "d"},
			{Row: verify.Row{Line: 43, Verdict: verify.SimOnly}, Words: "s"},
			{Row: verify.Row{Line: 44, Verdict: verify.NotPlayed}, Words: "n"},
		},
		Reveal: &live.Verdict{Asked: 2, Kind: live.Otherwise, Words: "Kafka did otherwise on 1 of 5 facts"},
		Played: false, SimOnly: true, Why: "no broker lets a client write __transaction_state", StopLine: 44,
	}
	k := KafkaSide(s, "127.0.0.1:9092", 2)
	if k.Cluster != "127.0.0.1:9092" || k.TV != 2 || k.Step != 3 {
		t.Errorf("head: %+v", k)
	}
	if want := "simulation only: no broker lets a client write __transaction_state (line 44)"; k.NotPlayed != want {
		t.Errorf("NotPlayed = %q, want %q", k.NotPlayed, want)
	}
	p := k.Partitions[0]
	if p.Name != "orders-0" || p.HW != 3 || p.LSO != 2 || p.Holder != (model.KafkaPID{Broker: 7, Sim: 1001, Mapped: true}) || p.HolderEpoch != 1 {
		t.Errorf("partition: %+v", p)
	}
	var status []model.RowStatus
	var pids []model.KafkaPID
	for _, b := range p.Batches {
		status = append(status, b.Status)
		pids = append(pids, b.PID)
	}
	if want := []model.RowStatus{model.StatusCommitted, model.StatusCommitted, model.StatusOpen, model.StatusPlain, model.StatusAborted}; !reflect.DeepEqual(status, want) {
		t.Errorf("status %v, want %v", status, want)
	}
	if want := []model.KafkaPID{{Broker: 6, Sim: 1000, Mapped: true}, {Broker: 6, Sim: 1000, Mapped: true}, {Broker: 7, Sim: 1001, Mapped: true}, {Broker: -1, Sim: -1}, {Broker: 9}}; !reflect.DeepEqual(pids, want) {
		t.Errorf("pids %v, want %v", pids, want)
	}
	if p.Batches[1].Marker != "COMMIT" || !p.Batches[1].Control || p.Batches[0].Values[0] != "a" || len(p.Producers) != 2 || p.Producers[1].TxnStart != 2 {
		t.Errorf("batches %+v producers %+v", p.Batches, p.Producers)
	}
	if tones := []model.Tone{k.Txns[0].Tone, k.Txns[1].Tone, k.Txns[2].Tone}; !reflect.DeepEqual(tones, []model.Tone{model.ToneCommitted, model.ToneOpen, model.TonePlain}) {
		t.Errorf("tones %v", tones)
	}
	if !reflect.DeepEqual(k.Txns[0].Partitions, []string{"orders-0"}) {
		t.Errorf("txn partitions %v", k.Txns[0].Partitions)
	}
	if !reflect.DeepEqual(k.Consumers, []model.KafkaPositions{{Name: "RC", Offsets: []model.KafkaOffset{{Partition: "orders-0", Offset: 2, Fetched: true}}}}) || k.Groups[0].Err == "" || k.Behind == "" {
		t.Errorf("consumers %+v groups %+v", k.Consumers, k.Groups)
	}
	var verdicts []model.KafkaVerdictKind
	for _, f := range k.Facts {
		verdicts = append(verdicts, f.Verdict)
	}
	if want := []model.KafkaVerdictKind{model.KafkaAgreed, model.KafkaOtherwiseKnown, model.KafkaOtherwise, model.KafkaSimOnly, model.KafkaNotPlayed}; !reflect.DeepEqual(verdicts, want) {
		t.Errorf("verdicts %v, want %v", verdicts, want)
	}
	if k.Facts[0].Words != "Kafka agreed" || k.Facts[0].Line != 40 || k.Facts[0].Expect != "partition orders-0 leo 5" {
		t.Errorf("fact %+v", k.Facts[0])
	}
	if k.Reveal == nil || *k.Reveal != (model.KafkaVerdict{Asked: 2, Kind: model.KafkaOtherwise, Words: "Kafka did otherwise on 1 of 5 facts"}) {
		t.Errorf("reveal %+v", k.Reveal)
	}
	s.Played, s.SimOnly, s.StopLine = false, false, 0
	if k := KafkaSide(s, "", 0); k.NotPlayed != "not played on Kafka: no broker lets a client write __transaction_state" {
		t.Errorf("not mapped: %q", k.NotPlayed)
	}
	s.Played, s.Reveal = true, nil
	s.Behind = false
	if k := KafkaSide(s, "", 0); k.NotPlayed != "" || k.Reveal != nil || k.Behind != "" {
		t.Errorf("played: %q %v", k.NotPlayed, k.Reveal)
	}
	if g := KafkaGone(k, errors.New("live: the cluster at 127.0.0.1:9092 did not answer")); g.Gone == "" || len(g.Partitions) != 1 {
		t.Errorf("gone: %+v", g)
	}
}

// TestKafkaSideGolden draws Kafka's side of the abort lesson from
// snapshots a real broker gave (transaction.version=0, Kafka 4.1.2; read
// with live.Session and saved as JSON): after the two writes (step 3),
// while they hold read_committed readers back (step 4), at the markers
// (step 6, played on the simulation only: its markers are in flight) and
// after CompleteAbort (step 7). At 78 columns, a small terminal's whole
// width, and 96, beside the simulation at 200; ASCII with no colour.
func TestKafkaSideGolden(t *testing.T) {
	th := theme.New(theme.Options{ASCII: true, NoColor: true})
	for _, step := range []int{3, 4, 6, 7} {
		b, err := os.ReadFile(fmt.Sprintf("testdata/live/abort-step%d.json", step))
		if err != nil {
			t.Fatal(err)
		}
		var s live.Snapshot
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		k := KafkaSide(&s, "127.0.0.1:9092", 0)
		for _, w := range []int{78, 96} {
			t.Run(fmt.Sprintf("step%d-%d", step, w), func(t *testing.T) {
				_, c, _ := panels.Kafka(&k, panels.Painter{Theme: th, Width: w})
				var sb strings.Builder
				for i := 0; i < c.Len(); i++ {
					l := strings.TrimRight(c.Line(i), " ")
					if ansi.StringWidth(l) > w {
						t.Errorf("line %d wider than %d: %q", i, w, l)
					}
					sb.WriteString(l + "\n")
				}
				xgolden.RequireEqual(t, []byte(sb.String()))
			})
		}
	}
}
