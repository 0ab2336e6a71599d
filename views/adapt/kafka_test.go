package adapt

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
)

func parseLesson(t *testing.T, file, src string) *lessons.Lesson {
	t.Helper()
	l, err := lessons.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestSwitchKafka: switching the version restarts the lesson under the
// other protocol and replays to the same step, keeping the answers whose
// question is the same; the frame is the one a session started under that
// version and played straight would show. Plain go test switches at the
// steps sweepSteps names (the checkpoints, the ends and the middle), -sweep
// at every step.
func TestSwitchKafka(t *testing.T) {
	t.Parallel()
	eachLesson(t, func(t *testing.T, name string, k int) {
		other := 7 - k
		// The checkpoint steps, from one play through.
		var asks []int
		first := openKafka(t, name, k)
		for pos := 0; pos <= first.Len(); pos++ {
			if f := playTo(t, first, pos); f.Checkpoint != nil {
				asks = append(asks, pos)
			}
		}
		for _, pos := range sweepSteps(first.Len(), asks) {
			s := openKafka(t, name, k)
			playTo(t, s, pos)
			answered := 0
			for j := 1; j <= pos; j++ {
				if s.p.Chosen(j) > 0 {
					answered++
				}
			}
			r := s.SwitchKafka(other)
			if r.Kafka != other || s.Kafka() != other || r.From != pos {
				t.Fatalf("step %d: switched to %+v, session under Kafka %d", pos, r, s.Kafka())
			}
			// The built-in lessons ask the same questions under both
			// versions, so the replay reaches the step with every answer.
			if r.Pos != pos || s.Pos() != pos || r.Asked != 0 || r.Kept != answered {
				t.Fatalf("step %d: replay %+v, %d answers given", pos, r, answered)
			}
			want := openKafka(t, name, other)
			playTo(t, want, pos)
			got, exp := s.Frame(), want.Frame()
			got.Key, exp.Key = 0, 0
			if !reflect.DeepEqual(got, exp) {
				t.Fatalf("step %d: the switched frame differs from one played under Kafka %d", pos, other)
			}
			for _, j := range r.Flipped {
				c := s.p.Chosen(j)
				if c == 0 || (s.p.Correct(j) == c) == (openKafkaCorrect(t, name, k, j) == c) {
					t.Fatalf("step %d: step %d flipped, but the answer %d is judged alike", pos, j, c)
				}
			}
			// And back again.
			if r := s.SwitchKafka(k); r.Kafka != k || s.Pos() != pos {
				t.Fatalf("step %d: back to Kafka %d gave %+v", pos, k, r)
			}
		}
	})
}

func openKafkaCorrect(t *testing.T, name string, k, step int) int {
	s := openKafka(t, name, k)
	playTo(t, s, step)
	return s.p.Correct(step)
}

// TestSwitchKeepsAnswersAhead: answers of steps ahead of the learner (who
// went back) are kept too, so going forward again under the other version
// needs no second answer.
func TestSwitchKeepsAnswersAhead(t *testing.T) {
	s := openKafka(t, "abort", 3)
	playTo(t, s, 8)
	s.Answer(s.p.Correct(8))
	chosen := s.p.Chosen(8)
	for s.Pos() > 3 {
		s.Back()
	}
	if r := s.SwitchKafka(4); r.Pos != 3 || s.Pos() != 3 || r.Kept != 2 {
		t.Fatalf("switch at step 3 after going back from 8: %+v at %d", r, s.Pos())
	}
	if chosen == 0 || s.p.Chosen(8) != chosen || s.p.Chosen(5) == 0 {
		t.Fatalf("answers ahead lost: step 8 %d (was %d), step 5 %d", s.p.Chosen(8), chosen, s.p.Chosen(5))
	}
	for s.Next() {
	}
	if s.Pos() != s.Len() {
		t.Fatalf("stopped at %d going forward with the answers kept", s.Pos())
	}
}

// TestSwitchAsksAnew: a question whose choices differ under the other
// version stops the replay there, to be answered afresh.
func TestSwitchAsksAnew(t *testing.T) {
	s := New(parseLesson(t, "q.lesson", `title: Q
summary: S
level: basics
minutes: 5
setup:
  topic t
  producer A
step: One
  say: One.
  do: A send t-0 x
  ask: What next?
  choice: It lands | expect partition t-0 leo 1
  choice@3: Nothing | expect partition t-0 leo 0
  choice@4: Nothing at all | expect partition t-0 leo 0
  explain: The leader appends it.
step: Two
  say: Two.
  do: run
step: Three
  say: Three.
  do: run
`))
	s.Next()
	s.Answer(1)
	s.Next()
	s.Next()
	r := s.SwitchKafka(4)
	if r.Asked != 1 || r.Pos != 1 || s.Pos() != 1 || r.Kept != 0 {
		t.Fatalf("switch with a changed question: %+v at %d", r, s.Pos())
	}
	if cp := s.Frame().Checkpoint; cp == nil || cp.Answered || cp.Choices[1] != "Nothing at all" {
		t.Fatalf("the question under Kafka 4: %+v", cp)
	}
}

// TestVersionKey: the header names the version, v switches it and says
// what it did, and lessons opened afterwards start under the same one.
func TestVersionKey(t *testing.T) {
	p := openPlayer(t, "abort", 80, 24, views.Options{})
	header := func() string { return strings.SplitN(ansi.Strip(p.m.View()), "\n", 2)[0] }
	if h := header(); !strings.Contains(h, "Kafka 3.x · classic") {
		t.Fatalf("header %q does not name Kafka 3", h)
	}
	p.to(8)
	p.answer(true)
	p.press("v")
	s := p.session()
	if s.Kafka() != 4 || s.Pos() != 8 {
		t.Fatalf("v: Kafka %d at step %d", s.Kafka(), s.Pos())
	}
	h := header()
	// The abort lesson's question at step 8 (the next batch's epoch) has
	// another right answer under Kafka 4.
	for _, want := range []string{"Now Kafka 4.x;", "6 answers kept;", "at step 8 your answer is now wrong."} {
		if !strings.Contains(h, want) {
			t.Errorf("after v, %q is not said:\n%s", want, ansi.Strip(p.m.View()))
		}
	}
	p.press("right")
	if h := header(); !strings.Contains(h, "Kafka 4.x · KIP-890") {
		t.Fatalf("header %q does not name Kafka 4", h)
	}
	// Another lesson opens under Kafka 4 too.
	p.m, _ = p.m.Update(views.OpenLessonMsg{Name: "zombie"})
	if s := p.session(); s.Kafka() != 4 || s.Title() == "Aborting a transaction" {
		t.Fatalf("the next lesson opened under Kafka %d: %s", s.Kafka(), s.Title())
	}
	// A lesson that sets the protocol itself: the header names the
	// protocol in force, and the switch says why it did not change.
	c := openPlayer(t, "kafka-3-vs-4", 80, 24, views.Options{})
	c.to(4)
	c.press("v")
	if h := strings.SplitN(ansi.Strip(c.m.View()), "\n", 2)[0]; !strings.Contains(h, "Kafka 4.x chosen; at this step the lesson sets its own protocol.") {
		t.Errorf("switch in the comparison lesson: %q", h)
	}
	c.answer(true)
	c.press("right")
	if h := strings.SplitN(ansi.Strip(c.m.View()), "\n", 2)[0]; !strings.Contains(h, "Kafka 3.x · classic") || c.session().Kafka() != 4 || c.session().Pos() != 5 {
		t.Errorf("comparison lesson at step 5 under Kafka %d: %q", c.session().Kafka(), h)
	}
	// NO_COLOR: the version is a word, not a colour.
	q := openPlayer(t, "zombie", 80, 24, views.Options{NoColor: true, Kafka: 4})
	if v := q.m.View(); !strings.Contains(strings.SplitN(v, "\n", 2)[0], "Kafka 4.x · KIP-890") || strings.Contains(v, "\x1b[3") {
		t.Fatalf("no-colour header: %q", strings.SplitN(v, "\n", 2)[0])
	}
}
