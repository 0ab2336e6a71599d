package lessons

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// rightUnder is question q's right choice (1-based, as written) under
// Kafka major version k: a written question's right: line, or the choice
// the engine judges right for a played one.
func rightUnder(t *testing.T, q DrillQuestion, k int) int {
	t.Helper()
	q = q.ForKafka(k)
	if q.Written() {
		return q.WrittenRight()
	}
	d := &Drill{qs: []DrillQuestion{q}, chosen: []int{0}, correct: []int{0}, hinted: []bool{false}, players: map[*Lesson]*Player{}}
	d.setKafka(k)
	return d.Player(0).Correct(q.Step)
}

// Every drill question plays as written: a played one's checkpoint has
// exactly one right choice under each version, which the next step makes
// true; a written one names its source. Every question names a lesson
// that exists and a kind, has a hint, and gives each wrong choice its own
// why under both versions. The pool holds at least 40, of every kind.
func TestDrillQuestionsPlay(t *testing.T) {
	pool, err := DrillPool()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	written := 0
	for _, q := range pool {
		kinds[q.Kind]++
		if q.Written() {
			written++
			if q.Ref == "" {
				t.Errorf("%s: a written question without its source", q.ID)
			}
		} else if err := q.Source.Check(); err != nil {
			t.Errorf("%s:\n%v", q.ID, err)
		}
		if _, err := find(q.Lesson); err != nil {
			t.Errorf("%s: %v", q.ID, err)
		}
		for _, k := range Versions {
			qk := q.ForKafka(k)
			cp := qk.Checkpoint()
			if cp == nil {
				t.Fatalf("%s: no checkpoint", q.ID)
			}
			if cp.Hint == "" {
				t.Errorf("%s under Kafka %d: no hint", q.ID, k)
			}
			right := rightUnder(t, q, k)
			if right < 1 || right > len(cp.Choices) {
				t.Errorf("%s under Kafka %d: right choice %d of %d", q.ID, k, right, len(cp.Choices))
				continue
			}
			whys := map[string]bool{}
			for j, c := range cp.Choices {
				if j+1 == right {
					continue
				}
				if c.Why == "" {
					t.Errorf("%s under Kafka %d: wrong choice %q has no why:", q.ID, k, c.Text)
				}
				if whys[c.Why] {
					t.Errorf("%s under Kafka %d: two choices share the why %q", q.ID, k, c.Why)
				}
				whys[c.Why] = true
			}
		}
	}
	if len(pool) < 40 {
		t.Errorf("%d questions written for the drill; want at least 40", len(pool))
	}
	if written < 30 {
		t.Errorf("%d written questions; want at least 30", written)
	}
	for _, k := range Kinds {
		if kinds[k] < 4 {
			t.Errorf("%d questions of kind %s; want at least 4", kinds[k], k)
		}
	}
}

// The right answer does not give itself away by its length: it is at most
// 1.3 times as long as the longest wrong choice (a reason belongs in the
// explanation, not in the choice).
func TestDrillRightAnswerIsNotTheLongestByFar(t *testing.T) {
	eachRightAnswer(t, func(q DrillQuestion, k int, cp *Checkpoint, right int) {
		longest := 0
		for j, c := range cp.Choices {
			if j+1 != right {
				longest = max(longest, len(c.Text))
			}
		}
		if n := len(cp.Choices[right-1].Text); n > 10 && float64(n) > 1.3*float64(longest) {
			t.Errorf("%s under Kafka %d: the right choice has %d characters, the longest wrong one %d: %q",
				q.ID, k, n, longest, cp.Choices[right-1].Text)
		}
	})
}

// eachRightAnswer calls f with every question of the pool under each
// version, its checkpoint and its right choice (1-based, as written).
func eachRightAnswer(t *testing.T, f func(q DrillQuestion, k int, cp *Checkpoint, right int)) {
	t.Helper()
	pool, err := DrillPool()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range pool {
		for _, k := range Versions {
			qk := q.ForKafka(k)
			f(q, k, qk.Checkpoint(), rightUnder(t, q, k))
		}
	}
}

// simulationDetail finds what only this simulation knows: a broker's
// number ("broker-2", "broker 3") or a logical time ("t=70000").
var simulationDetail = regexp.MustCompile(`(?i)\bbroker[- ]?\d|\bt=\d|\bat t\s?=`)

// No question's right answer names a broker number or a t= time: an
// interviewer asks about Kafka, not about this simulation's run.
func TestDrillRightAnswersNameNoSimulationDetail(t *testing.T) {
	eachRightAnswer(t, func(q DrillQuestion, k int, cp *Checkpoint, right int) {
		for _, text := range []string{cp.Choices[right-1].Text, cp.Explain} {
			if m := simulationDetail.FindString(text); m != "" {
				t.Errorf("%s under Kafka %d: the right answer names %q: %s", q.ID, k, m, text)
			}
		}
	})
	// The test can fail: a right answer naming a broker is caught.
	if simulationDetail.FindString("It is broker-2's log") == "" || simulationDetail.FindString("at t=70000") == "" {
		t.Fatal("the pattern misses a broker number or a time")
	}
}

// A seeded drill, answered right and wrong: the score counts the right
// answers, and the revisit list names the concepts of the wrong ones,
// once each, in the order first missed, with their lessons.
func TestDrillSeededScoreAndRevisit(t *testing.T) {
	d, err := NewDrill(42, 6)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 6 || d.Seed() != 42 {
		t.Fatalf("len %d seed %d", d.Len(), d.Seed())
	}
	var wantRevisit []Revisit
	missed := map[string]int{}
	right := 0
	for i := 0; i < d.Len(); i++ {
		if d.Pos() != i {
			t.Fatalf("pos %d, want %d", d.Pos(), i)
		}
		if d.Next() {
			t.Fatal("Next before an answer")
		}
		q := d.Question(i)
		c := d.Correct(i)
		if c < 1 || c > len(q.Checkpoint().Choices) {
			t.Fatalf("%s: correct choice %d", q.ID, c)
		}
		// The choices are shuffled; the right one is the written right one.
		written := rightUnder(t, *q, d.Kafka())
		if got, want := d.Choices(i)[c-1].Text, q.Checkpoint().Choices[written-1].Text; got != want {
			t.Fatalf("%s: shown right choice %q, written %q", q.ID, got, want)
		}
		choice := c
		if i%2 == 1 { // every other question wrong
			choice = c%len(q.Checkpoint().Choices) + 1
		}
		ok, answered := d.Answer(choice)
		if !answered || ok != (choice == c) {
			t.Fatalf("%s: Answer(%d) = %v, %v; correct is %d", q.ID, choice, ok, answered, c)
		}
		if _, again := d.Answer(c); again {
			t.Fatal("answered twice")
		}
		if ok {
			right++
		} else {
			key := q.Concept + "/" + q.Lesson
			if missed[key] == 0 {
				wantRevisit = append(wantRevisit, Revisit{Concept: q.Concept, Lesson: q.Lesson})
			}
			missed[key]++
		}
		if !d.Next() {
			t.Fatal("Next after an answer")
		}
	}
	for i := range wantRevisit {
		wantRevisit[i].Missed = missed[wantRevisit[i].Concept+"/"+wantRevisit[i].Lesson]
	}
	r := d.Result()
	if r.Right != right || right != 3 || r.Answered != 6 || r.Total != 6 || r.Seed != 42 {
		t.Fatalf("result %+v, want 3 of 6 right", r)
	}
	if fmt.Sprint(r.Revisit) != fmt.Sprint(wantRevisit) || len(r.Revisit) == 0 {
		t.Fatalf("revisit %v, want %v", r.Revisit, wantRevisit)
	}
	if d.Pos() != d.Len() || d.Next() {
		t.Fatal("the drill does not end")
	}
	if _, ok := d.Answer(1); ok {
		t.Fatal("answered after the end")
	}
}

// The same seed draws the same questions; other seeds other orders.
func TestDrillSeedIsReproducible(t *testing.T) {
	ids := func(seed uint64) string {
		d, err := NewDrill(seed, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for i := 0; i < d.Len(); i++ {
			s = append(s, d.Question(i).ID)
		}
		return strings.Join(s, " ")
	}
	a, b := ids(7), ids(7)
	if a != b {
		t.Fatalf("seed 7 drew\n%s\nthen\n%s", a, b)
	}
	// Under Kafka 4 the seed draws the same questions, each judged by the
	// engine running Kafka 4's protocol.
	k4, err := NewDrillFor(7, 1<<20, 4)
	if err != nil {
		t.Fatal(err)
	}
	var s4 []string
	for i := 0; i < k4.Len(); i++ {
		q := k4.Question(i)
		s4 = append(s4, q.ID)
		if q.Kafka() != 4 || q.Source != nil && q.Source.Kafka != 4 || k4.Correct(i) == 0 {
			t.Fatalf("%s under Kafka 4: reading %d, right choice %d", q.ID, q.Kafka(), k4.Correct(i))
		}
	}
	if strings.Join(s4, " ") != a {
		t.Fatal("Kafka 4 drew other questions for the same seed")
	}
	pool, _ := DrillPool()
	if n := len(strings.Fields(a)); n != len(pool) {
		t.Fatalf("a count past the pool drew %d of %d questions", n, len(pool))
	}
	// Across a long drill, the right answer is not always in one place.
	d, _ := NewDrill(7, 100)
	places := map[int]bool{}
	for i := 0; i < d.Len(); i++ {
		places[d.Correct(i)] = true
	}
	if len(places) < 3 {
		t.Fatalf("the right answers sit in places %v only", places)
	}
	differ := false
	for seed := uint64(8); seed < 12; seed++ {
		differ = differ || ids(seed) != a
	}
	if !differ {
		t.Fatal("five seeds drew the same order")
	}
	if d, _ := NewDrill(1, 0); d.Len() != min(DefaultDrillCount, len(pool)) {
		t.Fatalf("count 0 drew %d", d.Len())
	}
}

// A drill question's frozen state is the world at its step: for a
// lesson's checkpoint, the lesson's own world there, earlier checkpoints
// answered.
func TestDrillStateIsTheStepsWorld(t *testing.T) {
	d, err := NewDrill(3, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < d.Len(); i++ {
		q := d.Question(i)
		p := d.Player(i)
		if q.Written() {
			if p != nil {
				t.Fatalf("%s: a written question has a player", q.ID)
			}
			continue
		}
		if p.Pos() != q.Step {
			t.Fatalf("%s: player at %d, want %d", q.ID, p.Pos(), q.Step)
		}
		fresh := NewPlayer(q.Source)
		for fresh.Pos() < q.Step {
			if !fresh.Next() {
				fresh.Answer(fresh.Correct(fresh.Pos()))
			}
		}
		got, _ := json.Marshal(p.World().State())
		want, _ := json.Marshal(fresh.World().State())
		if string(got) != string(want) || len(got) < 10 {
			t.Fatalf("%s: the drill's world differs from the lesson's:\n%s\n%s", q.ID, got, want)
		}
	}
}

// writtenQ is a written question whose body lines (from line 7) are body,
// followed by its hint and explanation.
func writtenQ(body string) string {
	return "question: q\nconcept: c\nkind: design\nlesson: abort\nsource: KIP-98\nask: q?\n" + body + "hint: h\nexplain: e\n"
}

func TestParseDrillErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"text before a question", "hello\nquestion: q\n", "d.drill:1: expected \"question: NAME\" to start a drill question, found \"hello\""},
		{"empty", "# nothing\n", "d.drill:1: a drill file holds at least one question, starting with \"question: NAME\""},
		{"no concept", "question: q\nkind: failure\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n",
			"d.drill:4: expected \"concept: ...\" before setup:; a drill question starts with question:, concept:, kind: and lesson:"},
		{"no ask", "question: q\nconcept: c\nkind: failure\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n",
			"d.drill:1: a drill question asks exactly once (one ask: in its steps), found 0"},
		{"lesson key", "question: q\nconcept: c\nkind: failure\nlesson: abort\nlevel: basics\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n",
			"d.drill:5: unknown key \"level:\"; a drill question has question: concept: kind: lesson:, setup:, step:, and in a step say: do: expect: ask: choice: explain: more: source: note: versions: hint: why:"},
		{"second question's line", "question: a\nconcept: c\nkind: failure\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\nquestion: b\nconcept: c\nkind: failure\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: ruin\n",
			"d.drill:18: unknown verb ruin; did you mean run?"},
		{"played: no hint", "question: q\nconcept: c\nkind: failure\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n  ask: q?\n  choice: a | expect partition t-0 leo 0\n  why: w\n  choice: b | expect partition t-0 leo 1\n  explain: e\nstep: s2\n  say: y\n  do: run\n",
			"d.drill:10: a drill question needs a hint: line in its asking step"},
		{"played: why before a choice", "question: q\nconcept: c\nkind: failure\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n  ask: q?\n  why: w\n",
			"d.drill:11: why: follows the choice: it explains"},
		{"played: bad kind", "question: q\nconcept: c\nkind: trivia\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n",
			"d.drill:3: kind: must be explain, configuration, failure, trade-off or design, got \"trivia\""},
		{"written: a wrong choice without its why", writtenQ("right: r\nchoice: a\nwhy: no\nchoice: b\n"),
			"d.drill:10: choice: needs a why: line after it"},
		{"written: two right answers", writtenQ("right: r\nright: s\nchoice: a\nwhy: no\n"),
			"d.drill:8: right: is given twice (first on line 7)"},
		{"written: a why for the right answer", writtenQ("right: r\nwhy: because\nchoice: a\nwhy: no\n"),
			"d.drill:8: why: says why a wrong choice is wrong"},
		{"written: an expectation", writtenQ("right: r | expect partition t-0 leo 1\nchoice: a\nwhy: no\n"),
			"d.drill:7: right: of a written question takes no \"| expect ...\""},
		{"written: no right answer", writtenQ("choice: a\nwhy: no\nchoice: b\nwhy: no either\n"),
			"d.drill:6: a written question needs one right: line"},
		{"written: only under Kafka 4", writtenQ("right@3: r\nchoice: a\nwhy: no\n"),
			"d.drill:6: under Kafka 4: a written question needs one right: line"},
		{"written: no source", "question: q\nconcept: c\nkind: design\nlesson: abort\nask: q?\nright: r\nchoice: a\nwhy: no\nhint: h\nexplain: e\n",
			"d.drill:1: a written question needs \"source: ...\""},
		{"written: a step key", writtenQ("right: r\nchoice: a\nwhy: no\nsay: hello\n"),
			"d.drill:10: unknown key \"say:\"; a written question has"},
	} {
		_, err := ParseDrill("d.drill", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// DrillOf asks the named questions in order, with the choices a drill of
// the same seed shows; an unknown name is an error.
func TestDrillOf(t *testing.T) {
	d, err := DrillOf(7, 4, "timeout-aborts", "duplicate-produce")
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 2 || d.Question(0).ID != "timeout-aborts" || d.Question(1).ID != "duplicate-produce" || d.Question(0).Source.Kafka != 4 {
		t.Fatalf("drill of %d: %s, %s", d.Len(), d.Question(0).ID, d.Question(1).ID)
	}
	all, _ := NewDrill(7, 1<<20)
	for i := 0; i < all.Len(); i++ {
		if all.Question(i).ID == "timeout-aborts" && fmt.Sprint(all.Choices(i)) != fmt.Sprint(d.Choices(0)) {
			t.Fatal("the same seed shows the choices in another order")
		}
	}
	if _, err := DrillOf(1, 3, "nope"); err == nil || !strings.Contains(err.Error(), `no drill question "nope"`) {
		t.Fatalf("unknown name: %v", err)
	}
}

// A hint costs the point: a right answer after it is counted apart, and
// its concept is to revisit. Retry drills just the missed concepts, the
// missed questions first.
func TestDrillHintAndRetry(t *testing.T) {
	d, err := DrillOf(5, 4, "timeout-aborts", "duplicate-produce", "restart-new-pid")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Retry(); ok {
		t.Fatal("a retry before anything was missed")
	}
	h, ok := d.Hint()
	if !ok || h == "" || h != d.Question(0).Checkpoint().Hint || !d.Hinted(0) {
		t.Fatalf("hint %q, %v", h, ok)
	}
	d.Answer(d.Correct(0))
	if _, ok := d.Hint(); ok {
		t.Fatal("a hint after the answer")
	}
	d.Next()
	d.Answer(d.Correct(1))
	d.Next()
	d.Answer(d.Correct(2)%len(d.Choices(2)) + 1)
	d.Next()
	r := d.Result()
	if r.Right != 1 || r.Hinted != 1 || r.Answered != 3 {
		t.Fatalf("result %+v: want 1 right, 1 right after a hint", r)
	}
	if strings.Join(r.Missed, " ") != "timeout-aborts restart-new-pid" || len(r.Revisit) != 2 {
		t.Fatalf("missed %v, revisit %v", r.Missed, r.Revisit)
	}
	again, ok := d.Retry()
	if !ok || again.Kafka() != 4 || again.Len() < 2 {
		t.Fatalf("retry: %v, %d questions", ok, again.Len())
	}
	if again.Question(0).ID != "timeout-aborts" || again.Question(1).ID != "restart-new-pid" {
		t.Fatalf("retry starts with %s, %s", again.Question(0).ID, again.Question(1).ID)
	}
	concepts := map[string]bool{}
	for _, rv := range r.Revisit {
		concepts[rv.Concept] = true
	}
	for i := 0; i < again.Len(); i++ {
		if q := again.Question(i); !concepts[q.Concept] || q.Source != nil && q.Source.Kafka != 4 {
			t.Fatalf("retry asks %s (%s)", q.ID, q.Concept)
		}
	}
}
