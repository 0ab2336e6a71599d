package lessons

import (
	"strconv"
	"strings"
	"testing"
)

// TestBuiltinList pins the built-in lessons and their order.
func TestBuiltinList(t *testing.T) {
	var names []string
	for _, m := range All() {
		names = append(names, m.Name)
		if m.Title == "" || m.Summary == "" || !contains(Levels, m.Level) || m.Minutes < 1 || m.Minutes > MaxMinutes {
			t.Errorf("%s: incomplete list entry %+v", m.Name, m)
		}
	}
	if got, want := strings.Join(names, " "), "three-guarantees lost-ack sequences producer-ids coordinator two-phase-commit abort read-committed consume-transform-produce zombie coordinator-failover transaction-timeout kafka-3-vs-4 delivery-vs-processing price-of-exactly-once streams-and-flink capstone-payments"; got != want {
		t.Fatalf("lessons %q, want %q", got, want)
	}
	for _, b := range load() {
		if _, err := b.parsed(); err != nil {
			t.Errorf("%s does not parse:\n%v", b.file, err)
		}
	}
	if _, err := Load("nope"); err == nil || !strings.HasSuffix(err.Error(), "; the lessons are "+strings.Join(names, ", ")) {
		t.Fatalf("Load(nope) = %v", err)
	}
}

// eachReading runs f on every built-in lesson under each Kafka version, as
// the subtest "name/kafka-k".
func eachReading(t *testing.T, f func(t *testing.T, l *Lesson)) {
	t.Helper()
	for _, m := range All() {
		l, err := Load(m.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range Versions {
			lk := l.ForKafka(k)
			if lk.Kafka != k {
				t.Fatalf("%s has no reading for Kafka %d", m.Name, k)
			}
			t.Run(m.Name+"/kafka-"+strconv.Itoa(k), func(t *testing.T) { f(t, lk) })
		}
	}
}

// TestBuiltinLessonsPlay plays every built-in lesson headless to the end:
// every action runs, every expect: holds, and every checkpoint has exactly
// one right choice, which the next step makes true.
func TestBuiltinLessonsPlay(t *testing.T) {
	eachReading(t, func(t *testing.T, l *Lesson) {
		{
			file, src, err := Source(l.Name)
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(file, src); err != nil {
				t.Fatalf("check:\n%v", err)
			}
			if n := len(l.Steps); n < 8 || n > 15 {
				t.Errorf("%d steps; a lesson has 8 to 15", n)
			}
			checkpoints, notes := 0, 0
			p := NewPlayer(l)
			for k := 1; k <= len(l.Steps); k++ {
				if probs := p.ProblemsAt(k); len(probs) > 0 {
					t.Errorf("step %d: %v", k, probs)
				}
				s := &l.Steps[k-1]
				if strings.Contains(s.Note, "article") {
					notes++
				}
				if s.Ask == nil {
					continue
				}
				checkpoints++
				right := p.Correct(k)
				if right == 0 {
					t.Fatalf("step %d: no right choice", k)
				}
				after, before := p.judge(k, k+1), p.judge(k, k)
				for i, v := range after {
					if v.holds != (i+1 == right) || v.err != nil {
						t.Errorf("step %d choice %d: holds=%v err=%v after the next step, right=%d", k, i+1, v.holds, v.err, right)
					}
				}
				// The right choice describes what the next step did: its
				// expectations were not all true before it ran.
				if before[right-1].holds {
					t.Errorf("step %d: the right choice %d already held before the next step", k, right)
				}
			}
			if checkpoints < 2 {
				t.Errorf("%d checkpoints; a lesson has at least 2", checkpoints)
			}
			if notes < 1 {
				t.Errorf("no \"Kafka vs the article\" note")
			}
		}
	})
}

// TestTranscriptDeterministic: one lesson, one transcript, byte for byte,
// with no problems reported in it.
func TestTranscriptDeterministic(t *testing.T) {
	eachReading(t, func(t *testing.T, l *Lesson) {
		a, err := Transcript(l)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := Transcript(l); a != b {
			t.Fatal("transcripts differ")
		}
		if strings.Contains(a, "\nERROR ") {
			t.Fatalf("transcript reports a problem:\n%s", a)
		}
		version := "kafka: " + strconv.Itoa(l.Kafka) + ".x, transaction.version=" + strconv.Itoa(TransactionVersion(l.Kafka)) + "\n"
		for _, want := range []string{"# " + l.Title, version, "== setup", "== step 1/", "? ", "answer: ", "Kafka vs the article: "} {
			if !strings.Contains(a, want) {
				t.Errorf("transcript lacks %q", want)
			}
		}
	})
}

// TestLessonFacts pins what each lesson is about, so a change to the engine
// or the files that loses the point of a lesson fails here by name.
func TestLessonFacts(t *testing.T) {
	facts := map[string][]string{
		"lost-ack": {
			"VIOLATION duplicate-record",
			"finds pid=1000 epoch=0 seq=0 in its 5-batch cache: duplicate, answers NONE with original offset 0, appends nothing",
			"OUT_OF_ORDER_SEQUENCE_NUMBER(45); nothing appended",
		},
		"three-guarantees": {
			"acks=0: counts t-0 values=pay-1 as sent without any answer",
			"network: drops m1 Z -> broker-3 Produce t-0",
			"t-0: appends values=pay-2 at offsets 0",
			"VIOLATION duplicate-record: the record pay-1 sent once is now in the log twice",
			"t-2: finds pid=1000 epoch=0 seq=0 in its 5-batch cache: duplicate, answers NONE with original offset 0, appends nothing",
		},
		"sequences": {
			"sends m9 P -> broker-3 Produce t-0 pid=1000 epoch=0 seq=6 values=g",
			"rejects pid=1000 epoch=0 seq=3: expected seq 2, got 3: OUT_OF_ORDER_SEQUENCE_NUMBER(45); nothing appended",
			"gets OUT_OF_ORDER_SEQUENCE_NUMBER(45) for seq=3 while an earlier batch is unresolved: retries",
			"finds pid=1000 epoch=0 seq=4 in its 5-batch cache: duplicate, answers NONE with original offset 4",
			"rejects pid=1000 epoch=0 seq=2: expected seq 8, got 2: OUT_OF_ORDER_SEQUENCE_NUMBER(45)",
			"rejects pid=1000 epoch=0 seq=6..7: expected seq 8, got 6: OUT_OF_ORDER_SEQUENCE_NUMBER(45)",
			"receives t-0 0:a 1:b 2:c 3:d 4:e 5:f 6:g 7:h",
		},
		"producer-ids": {
			"allocates pid=1000 epoch=0 for an idempotent producer; nothing is written",
			"rejects pid=1000 epoch=0 seq=1: expected seq 3, got 1: OUT_OF_ORDER_SEQUENCE_NUMBER(45)",
			"bumps its epoch locally to 1 (same pid 1000, no request) and renumbers t-0 from 0",
			"accepts pid=1000 epoch=1 seq=0 at offsets 3",
			"allocates pid=1001 epoch=0 for an idempotent producer; nothing is written",
			"accepts pid=1001 epoch=0 seq=0 at offsets 5",
			"receives t-0 0:a 1:x 2:y 3:b 4:pay-7 5:pay-7",
		},
		"coordinator": {
			"A: learns its transaction coordinator is broker-1 (__transaction_state-3)",
			"B: learns its transaction coordinator is broker-1 (__transaction_state-0)",
			"partitions=[__consumer_offsets-14,payments-0]",
			"FindCoordinatorResponse payment-group broker-3",
			"broker-2: becomes coordinator for __transaction_state-3 with coordinator epoch 1",
			"A: learns its transaction coordinator is broker-2 (__transaction_state-3)",
			"payments-0: appends COMMIT marker pid=1000 epoch=0 coordinatorEpoch=1 at offset 1",
		},
		"transaction-timeout": {
			"gets nothing new from t-0 at 0",
			"payment-processor-1 Ongoing -> PrepareEpochFence (pending, never written): epoch 0 -> 1 [TransactionCoordinator.abortTimedOutTransactions: started at t=6, timeout 60000 ms passed]",
			"t-0: appends ABORT marker pid=1000 epoch=1 coordinatorEpoch=0 at offset 2",
			"receives t-0 1:b1; skips aborted 0 (pid 1000), ABORT marker at 2",
			"rejects the produce with INVALID_PRODUCER_EPOCH(47)",
			"answers EndTxn(abort) with PRODUCER_FENCED(90)",
			"ABORTING_TRANSACTION -> FATAL_ERROR",
		},
		"zombie": {
			"Ongoing -> PrepareEpochFence (pending, never written): epoch 0 -> 1",
			"PrepareEpochFence -> PrepareAbort",
			"appends ABORT marker pid=1000 epoch=1",
			"PrepareAbort -> CompleteAbort",
			"InitProducerIdResponse CONCURRENT_TRANSACTIONS(51)",
			"InitProducerIdResponse NONE pid=1000 epoch=2",
			"ProduceResponse t-0 INVALID_PRODUCER_EPOCH(47)",
			"IN_TRANSACTION -> ABORTABLE_ERROR",
			"EndTxnResponse PRODUCER_FENCED(90)",
			"ABORTING_TRANSACTION -> FATAL_ERROR",
		},
		"abort": {
			"Ongoing -> PrepareAbort",
			"orders-0: appends ABORT marker pid=1000 epoch=0 coordinatorEpoch=0 at offset 1",
			"payments-0: appends ABORT marker pid=1000 epoch=0 coordinatorEpoch=0 at offset 1",
			"PrepareAbort -> CompleteAbort",
			"RC: (read_committed) receives nothing from orders-0; skips aborted 0 (pid 1000), ABORT marker at 1; position 2",
			"RU: (read_uncommitted) returned orders-0 offsets 0 of an aborted transaction to the application, as read_uncommitted does",
		},
	}
	// Under Kafka 4 (transaction.version=2) the same lessons show KIP-890:
	// no client AddPartitionsToTxn, an epoch bumped by every EndTxn and
	// carried by the markers, and a zombie refused by the leader at once.
	facts4 := map[string][]string{
		"abort": {
			"P -> broker-1 Produce v12 orders-0 pid=1000 epoch=0 seq=0 txn",
			"asks the coordinator to add orders-0 to the transaction",
			"checkout pid=1000 epoch=0 -> epoch=1 for PrepareAbort",
			"orders-0: appends ABORT marker pid=1000 epoch=1",
			"payments-0: appends ABORT marker pid=1000 epoch=1",
			"Produce v12 orders-0 pid=1000 epoch=1 seq=0 txn values=order-43",
			"appends COMMIT marker pid=1000 epoch=2",
			"answer: 3) Epoch 1, sequence 0",
		},
		"zombie": {
			"appends payment-processor-1 PrepareAbort pid=1000 epoch=1",
			"InitProducerIdResponse NONE pid=1000 epoch=2",
			"INVALID_PRODUCER_EPOCH(47) before asking the coordinator",
			"EndTxnResponse PRODUCER_FENCED(90)",
			"appends COMMIT marker pid=1000 epoch=3",
		},
	}
	for _, f := range []map[string][]string{facts, facts4} {
		// The comparison lesson plays both protocols under either version.
		f["kafka-3-vs-4"] = []string{
			"A -> broker-1 AddPartitionsToTxn app-a pid=1000 epoch=0 [t-0]",
			"appends COMMIT marker pid=1000 epoch=0",
			"KAFKA HAZARD late-txn-offset-commit: offsets grp-a:in-0=5",
			"asks the coordinator to add t-0 to the transaction",
			"appends COMMIT marker pid=2000 epoch=1",
			"rejects TxnOffsetCommit {in-0=5}: INVALID_PRODUCER_EPOCH(47)",
		}
	}
	notIn4 := map[string][]string{
		"abort":  {"AddPartitionsToTxn checkout pid=1000 epoch=0 [orders-0]\n", "marker pid=1000 epoch=0"},
		"zombie": {"A -> broker-1 AddPartitionsToTxn", "B -> broker-1 AddPartitionsToTxn"},
	}
	for k, byName := range map[int]map[string][]string{3: facts, 4: facts4} {
		for name, want := range byName {
			l, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			tr, _ := Transcript(l.ForKafka(k))
			for _, w := range want {
				if !strings.Contains(tr, w) {
					t.Errorf("%s under Kafka %d: transcript lacks %q", name, k, w)
				}
			}
			if k != 4 {
				continue
			}
			for _, w := range notIn4[name] {
				if strings.Contains(tr, w) {
					t.Errorf("%s under Kafka 4: transcript has %q", name, w)
				}
			}
		}
	}
}

// The seed articles a "Kafka vs the article" note may name, by title.
var articleTitles = []string{`"Demystifying Kafka's Exactly-Once Semantics"`, `"Exactly-Once Semantics"`}

// TestLessonsAreConcise holds the built-in lessons to one idea a step: a
// step's narration is at most 60 words, and the main path (what a learner
// reads without opening a detail view) stays short. lost-ack, the first
// lesson, is read in a few minutes: under 600 words.
func TestLessonsAreConcise(t *testing.T) {
	limits := map[string]int{"lost-ack": 600, "abort": 700, "zombie": 700}
	eachReading(t, func(t *testing.T, l *Lesson) {
		n := l.MainWords()
		t.Logf("%d words on the main path, %d steps", n, len(l.Steps))
		limit, ok := limits[l.Name]
		if !ok {
			limit = 700
		}
		if n >= limit {
			t.Errorf("%d words on the main path; keep it under %d (move the why to more:)", n, limit)
		}
		for k, s := range l.Steps {
			if w := Words(s.Say); w > 60 {
				t.Errorf("step %d %q: %d words of narration; at most 60 (split the step, or move the why to more:)", k+1, s.Title, w)
			}
			if w := Words(s.Versions); w > 60 {
				t.Errorf("step %d %q: %d words of versions:; a sentence or two", k+1, s.Title, w)
			}
		}
	})
	// The counter counts what it should: details are not on the main path.
	l, err := Parse("x.lesson", []byte(okLesson+"  more: one two three\n  note: four five\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := l.MainWords(); got != 14 {
		t.Errorf("MainWords of the small lesson = %d, want 14 (T S What? one record two records because. one A sends. two It runs.)", got)
	}
	if s := l.Steps[1]; s.More != "one two three" || s.Note != "four five" || !s.HasDetails() {
		t.Errorf("details of step 2: %+v", s)
	}
}

// TestLessonsSayWhatIsShown: the first step of every lesson says which
// Kafka it shows (Kafka 3.x and its classic protocol, or Kafka 4.x and
// KIP-890's), and every "Kafka vs the article" note names the article it
// is about.
func TestLessonsSayWhatIsShown(t *testing.T) {
	shows := map[int][]string{3: {"Kafka 3.x", "classic transaction protocol"}, 4: {"Kafka 4.x", "KIP-890"}}
	eachReading(t, func(t *testing.T, l *Lesson) {
		for _, w := range shows[l.Kafka] {
			if s := l.Steps[0].Say; !strings.Contains(s, w) {
				t.Errorf("step 1 does not say %q: %q", w, s)
			}
		}
		for _, w := range shows[7-l.Kafka][:1] {
			if s := l.Steps[0].Say; strings.Contains(s, w) {
				t.Errorf("step 1 names the other version, %q: %q", w, s)
			}
		}
	})
	for _, m := range All() {
		l, _ := Load(m.Name)
		for k, s := range l.Steps {
			if s.Note == "" {
				continue
			}
			named := false
			for _, a := range articleTitles {
				named = named || strings.Contains(s.Note, a)
			}
			if !named {
				t.Errorf("%s step %d: the note names no article (one of %v): %q", m.Name, k+1, articleTitles, s.Note)
			}
			if !strings.Contains(s.Note, "right") {
				t.Errorf("%s step %d: the note does not say what the article gets right: %q", m.Name, k+1, s.Note)
			}
		}
		for _, txt := range l.MainText() {
			if strings.Contains(txt, "article") {
				t.Errorf("%s: the main text mentions an article; that belongs in a note: %q", m.Name, txt)
			}
		}
	}
}

// TestAllIsTheParsedMeta: the lesson list is read from the headers alone
// (scanMeta), without parsing; each entry must be what the parsed lesson
// says, and every built-in lesson must parse.
func TestAllIsTheParsedMeta(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("no built-in lessons")
	}
	for _, m := range all {
		l, err := Load(m.Name)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if got := l.Meta(); got != m {
			t.Errorf("%s: the list says %+v, the parsed lesson %+v", m.Name, m, got)
		}
	}
}

// TestScanMetaCountsStepLines: a step is a line that starts, after spaces
// or tabs, with step:; the word elsewhere on a line, or in the header's
// text, is not one.
func TestScanMetaCountsStepLines(t *testing.T) {
	src := "title: T\nsummary: one step: at a time\nlevel: basics\nminutes: 3\nsetup:\n  topic t partitions=1\n" +
		"step: first\n  say: the next step: is here\n\t step: second\nstep: third\n  say: a\n  do: send t k v\nstep: last"
	m := scanMeta("x", []byte(src))
	want := Meta{Name: "x", Title: "T", Summary: "one step: at a time", Level: "basics", Minutes: 3, Steps: 4}
	if m != want {
		t.Errorf("scanMeta = %+v, want %+v", m, want)
	}
}
