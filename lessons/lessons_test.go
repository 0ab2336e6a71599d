package lessons

import (
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
	if got, want := strings.Join(names, " "), "lost-ack abort zombie"; got != want {
		t.Fatalf("lessons %q, want %q", got, want)
	}
	for _, b := range load() {
		if b.err != nil {
			t.Errorf("%s does not parse:\n%v", b.file, b.err)
		}
	}
	if _, err := Load("nope"); err == nil || !strings.Contains(err.Error(), "lost-ack, abort, zombie") {
		t.Fatalf("Load(nope) = %v", err)
	}
}

// TestBuiltinLessonsPlay plays every built-in lesson headless to the end:
// every action runs, every expect: holds, and every checkpoint has exactly
// one right choice, which the next step makes true.
func TestBuiltinLessonsPlay(t *testing.T) {
	for _, m := range All() {
		t.Run(m.Name, func(t *testing.T) {
			l, err := Load(m.Name)
			if err != nil {
				t.Fatal(err)
			}
			file, src, err := Source(m.Name)
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
		})
	}
}

// TestTranscriptDeterministic: one lesson, one transcript, byte for byte,
// with no problems reported in it.
func TestTranscriptDeterministic(t *testing.T) {
	for _, m := range All() {
		l, _ := Load(m.Name)
		a, err := Transcript(l)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if b, _ := Transcript(l); a != b {
			t.Fatalf("%s: transcripts differ", m.Name)
		}
		if strings.Contains(a, "\nERROR ") {
			t.Fatalf("%s: transcript reports a problem:\n%s", m.Name, a)
		}
		for _, want := range []string{"# " + l.Title, "== setup", "== step 1/", "? ", "answer: ", "Kafka vs the article: "} {
			if !strings.Contains(a, want) {
				t.Errorf("%s: transcript lacks %q", m.Name, want)
			}
		}
	}
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
			"VIOLATION uncommitted-read: read_uncommitted consumer returned aborted data",
		},
	}
	for name, want := range facts {
		l, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := Transcript(l)
		for _, w := range want {
			if !strings.Contains(tr, w) {
				t.Errorf("%s: transcript lacks %q", name, w)
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
	for _, m := range All() {
		l, _ := Load(m.Name)
		n := l.MainWords()
		t.Logf("%s: %d words on the main path, %d steps", m.Name, n, len(l.Steps))
		limit, ok := limits[m.Name]
		if !ok {
			limit = 700
		}
		if n >= limit {
			t.Errorf("%s: %d words on the main path; keep it under %d (move the why to more:)", m.Name, n, limit)
		}
		for k, s := range l.Steps {
			if w := Words(s.Say); w > 60 {
				t.Errorf("%s step %d %q: %d words of narration; at most 60 (split the step, or move the why to more:)", m.Name, k+1, s.Title, w)
			}
		}
	}
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
// Kafka it shows (the classic protocol of Kafka 3.x), and every "Kafka vs
// the article" note names the article it is about.
func TestLessonsSayWhatIsShown(t *testing.T) {
	for _, m := range All() {
		l, _ := Load(m.Name)
		if s := l.Steps[0].Say; !strings.Contains(s, "classic transaction protocol") || !strings.Contains(s, "Kafka 3.x") {
			t.Errorf("%s: step 1 does not say it shows Kafka 3.x's classic transaction protocol: %q", m.Name, s)
		}
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
