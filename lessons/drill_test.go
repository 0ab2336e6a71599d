package lessons

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Every drill question plays as written: its checkpoint has exactly one
// right choice, which the next step makes true, and it names a lesson
// that exists.
func TestDrillQuestionsPlay(t *testing.T) {
	pool, err := DrillPool()
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	for _, q := range pool {
		if q.Source.File == "" || strings.HasPrefix(q.Source.File, "content/drill/") {
			written++
			if err := q.Source.Check(); err != nil {
				t.Errorf("%s:\n%v", q.ID, err)
			}
		}
		if _, err := find(q.Lesson); err != nil {
			t.Errorf("%s: %v", q.ID, err)
		}
		if q.Checkpoint() == nil {
			t.Errorf("%s: no checkpoint at step %d", q.ID, q.Step)
		}
	}
	if written < 8 {
		t.Errorf("%d questions written for the drill; want at least 8", written)
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
		written := d.Player(i).Correct(q.Step)
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
		if q.Source.Kafka != 4 || k4.Correct(i) == 0 {
			t.Fatalf("%s under Kafka 4: reading %d, right choice %d", q.ID, q.Source.Kafka, k4.Correct(i))
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

func TestParseDrillErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"text before a question", "hello\nquestion: q\n", "d.drill:1: expected \"question: NAME\" to start a drill question, found \"hello\""},
		{"empty", "# nothing\n", "d.drill:1: a drill file holds at least one question, starting with \"question: NAME\""},
		{"no concept", "question: q\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n",
			"d.drill:3: expected \"concept: ...\" before setup:; a drill question starts with question:, concept: and lesson:"},
		{"no ask", "question: q\nconcept: c\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\n",
			"d.drill:1: a drill question asks exactly once (one ask: in its steps), found 0"},
		{"lesson key", "question: q\nconcept: c\nlesson: abort\nlevel: basics\n",
			"d.drill:4: unknown key \"level:\"; a drill question has question: concept: lesson:, setup:, step:, and in a step say: do: expect: ask: choice: explain: more: source: note:"},
		{"second question's line", "question: a\nconcept: c\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: run\nquestion: b\nconcept: c\nlesson: abort\nsetup:\n  topic t\nstep: s\n  say: x\n  do: ruin\n",
			"d.drill:16: unknown verb ruin; did you mean run?"},
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
