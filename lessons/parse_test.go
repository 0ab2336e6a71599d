package lessons

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/engine/termsafe"
)

// okLesson is the smallest sound lesson; the error cases below are edits of it.
const okLesson = `title: T
summary: S
level: basics
minutes: 5
setup:
  topic t
  producer A

step: one
  say: A sends.
  do: A send t-0 x
  ask: What?
  choice: one record | expect partition t-0 leo 1
  choice: two records | expect partition t-0 leo 2
  explain: because.

step: two
  say: It runs.
  do: run
`

func TestParseOK(t *testing.T) {
	l, err := Parse("ok.lesson", []byte(okLesson))
	if err != nil {
		t.Fatal(err)
	}
	if l.Title != "T" || l.Summary != "S" || l.Level != "basics" || l.Minutes != 5 || len(l.Setup) != 2 || len(l.Steps) != 2 {
		t.Fatalf("parsed %+v", l)
	}
	cp := l.Steps[0].Ask
	if cp == nil || cp.Line != 12 || cp.Question != "What?" || len(cp.Choices) != 2 || cp.Explain != "because." {
		t.Fatalf("checkpoint %+v", cp)
	}
	if c := cp.Choices[1]; c.Text != "two records" || len(c.Expects) != 1 || c.Expects[0].Text != "expect partition t-0 leo 2" || c.Line != 14 {
		t.Fatalf("choice %+v", c)
	}
	if err := Check("ok.lesson", []byte(okLesson)); err != nil {
		t.Fatal(err)
	}
}

// TestParseVersions reads one file as two lessons: lines with "@3" belong
// to Kafka 3's, lines with "@4" to Kafka 4's, the others to both.
func TestParseVersions(t *testing.T) {
	src := strings.Replace(okLesson, "  say: A sends.\n", "  say: A sends.\n  say@4: Kafka 4 too.\n  versions: The same under both.\n", 1)
	src = strings.Replace(src, "  choice: two records | expect partition t-0 leo 2\n",
		"  choice@3: two records | expect partition t-0 leo 2\n  choice@4: three records | expect partition t-0 leo 3\n  choice@4: none | expect partition t-0 leo 0\n", 1)
	l3, err := Parse("v.lesson", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	l4 := l3.ForKafka(4)
	if l3.Kafka != 3 || l4.Kafka != 4 || l4.ForKafka(3) != l3 || l3.ForKafka(3) != l3 {
		t.Fatalf("versions %d %d", l3.Kafka, l4.Kafka)
	}
	if got := l3.Steps[0].Say; got != "A sends." {
		t.Fatalf("Kafka 3 say %q", got)
	}
	if got := l4.Steps[0].Say; got != "A sends. Kafka 4 too." {
		t.Fatalf("Kafka 4 say %q", got)
	}
	if l3.Steps[0].Versions != "The same under both." || l4.Steps[0].Versions != l3.Steps[0].Versions {
		t.Fatalf("versions text %q", l3.Steps[0].Versions)
	}
	var texts [2][]string
	for i, l := range []*Lesson{l3, l4} {
		for _, c := range l.Steps[0].Ask.Choices {
			texts[i] = append(texts[i], c.Text)
		}
	}
	if fmt.Sprint(texts) != "[[one record two records] [one record three records none]]" {
		t.Fatalf("choices %v", texts)
	}
	if err := Check("v.lesson", []byte(src)); err != nil {
		t.Fatal(err)
	}
	// A checkpoint right under one version and wrong under the other is
	// reported with the version it fails under.
	bad := strings.Replace(src, "choice: one record | expect partition t-0 leo 1", "choice@3: one record | expect partition t-0 leo 1", 1)
	err = Check("v.lesson", []byte(bad))
	want := "v.lesson:14: under Kafka 4: no choice holds after the next step (line 21); exactly one must. " +
		"choice 1: expect partition t-0 leo 3 found 1; choice 2: expect partition t-0 leo 0 found 1"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
}

// TestDoConfig: a step may change a setting with "do: config", say an
// upgrade of the cluster's transaction.version mid-lesson; the cluster
// starts with the reading's version and the line changes it from there.
func TestDoConfig(t *testing.T) {
	src := strings.Replace(okLesson, "  do: run\n", "  do: config transaction.version=2\n  do: run\n", 1)
	l, err := Parse("c.lesson", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Versions {
		p := NewPlayer(l.ForKafka(k))
		if got := p.WorldAt(1).Config().TransactionVersion; got != TransactionVersion(k) {
			t.Errorf("Kafka %d: transaction.version %d before the upgrade", k, got)
		}
		if got := p.WorldAt(2).Config().TransactionVersion; got != 2 {
			t.Errorf("Kafka %d: transaction.version %d after the upgrade", k, got)
		}
	}
	if err := Check("c.lesson", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

// edit applies a replacement that must exist in the base lesson.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(okLesson, old) {
		t.Fatalf("%q is not in the base lesson", old)
	}
	return strings.Replace(okLesson, old, new, 1)
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, old, new string
		want           string
	}{
		{"missing title", "title: T\n", "",
			`x.lesson:4: expected "title: ..." before setup:; a lesson starts with title:, summary:, level: and minutes:`},
		{"title twice", "summary: S\n", "title: U\nsummary: S\n",
			`x.lesson:2: title: is given twice (first on line 1)`},
		{"bad level", "level: basics", "level: expert",
			`x.lesson:3: level: must be basics, transactions, failures or systems, got "expert"`},
		{"old level", "level: basics", "level: beginner",
			`x.lesson:3: level: must be basics, transactions, failures or systems, got "beginner"; the levels name the learning path's parts now: "beginner" was usually "basics"`},
		{"no minutes", "minutes: 5\n", "\n",
			`x.lesson:5: expected "minutes: ..." before setup:; a lesson starts with title:, summary:, level: and minutes:`},
		{"minutes not a number", "minutes: 5", "minutes: five",
			`x.lesson:4: minutes: must be a whole number of minutes from 1 to 60 (how long the lesson takes), got "five"`},
		{"minutes too many", "minutes: 5", "minutes: 61",
			`x.lesson:4: minutes: must be a whole number of minutes from 1 to 60 (how long the lesson takes), got "61"`},
		{"minutes zero", "minutes: 5", "minutes: 0",
			`x.lesson:4: minutes: must be a whole number of minutes from 1 to 60 (how long the lesson takes), got "0"`},
		{"step without actions", "  do: A send t-0 x\n", "  say: more\n",
			`x.lesson:9: step "one" has no do: line; every step runs at least one action, e.g. "do: step"`},
		{"step without narration", "  say: It runs.\n", "",
			`x.lesson:17: step "two" has no say: line; tell the learner what happens`},
		{"step without title", "step: two", "step:",
			`x.lesson:17: step: needs a title, e.g. "step: The ACK is lost"`},
		{"choice without expect", "choice: two records | expect partition t-0 leo 2", "choice: two records",
			`x.lesson:14: choice: needs "| expect ..." after its text: the right choice is the one whose expectation holds after the next step`},
		{"choice condition without expect verb", "| expect partition t-0 leo 2", "| partition t-0 leo 2",
			`x.lesson:14: choice: after "|" comes an expectation such as "expect partition t-0 leo 2", found "partition t-0 leo 2"`},
		{"choice without text", "choice: two records |", "choice: |",
			`x.lesson:14: choice: needs a text before "|"`},
		{"choice without ask", "  ask: What?\n", "",
			"x.lesson:12: choice: needs an ask: before it in this step\n" +
				"x.lesson:13: choice: needs an ask: before it in this step\n" +
				"x.lesson:14: explain: needs an ask: before it in this step"},
		{"one choice", "  choice: two records | expect partition t-0 leo 2\n", "",
			`x.lesson:12: ask: needs at least 2 choice: lines, found 1`},
		{"ask without explain", "  explain: because.\n", "",
			`x.lesson:12: ask: needs an explain: line saying why the right choice is right`},
		{"two asks", "  explain: because.\n", "  explain: because.\n  ask: Again?\n",
			`x.lesson:16: a step holds one checkpoint; ask: was already given on line 12`},
		{"five choices", "  explain: because.\n",
			"  choice: c | expect partition t-0 leo 3\n  choice: d | expect partition t-0 leo 4\n  choice: e | expect partition t-0 leo 5\n  explain: because.\n",
			`x.lesson:17: a checkpoint has at most 4 choices; this is choice 5`},
		{"last step asks", "  do: run\n", "  do: run\n  ask: q?\n  choice: a | expect partition t-0 leo 1\n  choice: b | expect partition t-0 leo 2\n  explain: x\n",
			`x.lesson:20: the last step cannot ask: a checkpoint is judged by the step after it`},
		{"unknown verb in do", "do: A send t-0 x", "do: sned t-0 x",
			`x.lesson:11: unknown verb sned; did you mean step?`},
		{"unknown call in do", "do: A send t-0 x", "do: A sned t-0 x",
			`x.lesson:11: unknown producer call sned; did you mean send?`},
		{"undeclared client in do", "do: A send t-0 x", "do: B send t-0 x",
			`x.lesson:11: B is not declared; declare it before its first use, e.g. "producer B"`},
		{"unknown partition in expect", "expect partition t-0 leo 1", "expect partition t-9 leo 1",
			`x.lesson:13: expect partition leo: t-9: topic t has 1 partition (t-0)`},
		{"column points into the lesson line", `expect partition t-0 leo 2`, `expect event "abc`,
			`x.lesson:14:38: unterminated quote: this " is never closed`},
		{"expect: written without its verb", "  do: run\n", "  do: run\n  expect: \"x\n",
			`x.lesson:20:11: unterminated quote: this " is never closed`},
		{"do: with an expectation", "  do: run\n", "  do: run\n  do: expect partition t-0 leo 1\n",
			`x.lesson:20: do: runs actions; write an expectation as "expect: partition t-0 leo 1"`},
		{"do: with a declaration", "  do: run\n", "  do: run\n  do: consumer C\n",
			`x.lesson:20: do: runs actions; declarations belong in setup:, so move "consumer C" there`},
		{"empty do", "  do: run\n", "  do: run\n  do:\n",
			`x.lesson:20: do: needs a command, e.g. "do: A send t-0 hello"`},
		{"action in setup", "  producer A\n", "  producer A\n  A send t-0 y\n",
			`x.lesson:8: setup: holds only declarations (brokers, config, topic, producer, consumer, processor); put "A send t-0 y" in a step's do:`},
		{"bad option in setup does not cascade", "  producer A\n", "  producer A acks=7\n",
			`x.lesson:7: producer A: acks=7: expected 0, 1, all or -1`},
		{"setup twice", "step: one\n", "setup:\nstep: one\n",
			`x.lesson:9: setup: is given twice (first on line 5)`},
		{"setup after a step", "  do: run\n", "  do: run\nsetup:\n",
			`x.lesson:20: setup: must come before the first step:`},
		{"say before any step", "step: one\n", "say: hi\nstep: one\n",
			`x.lesson:9: say: belongs to a step; start one with "step: TITLE"`},
		{"unknown key", "  say: It runs.\n", "  say: It runs.\n  sya: x\n",
			`x.lesson:19: unknown key "sya:"; a lesson has title: summary: level: minutes: intro:, setup:, step:, and in a step say: do: expect: ask: choice: explain: more: source: note: versions:`},
		{"text without key in a step", "  say: It runs.\n", "  say: It runs.\n  It is late.\n",
			`x.lesson:19: expected a key such as "say:" or "do:" at the start of the line, found "It"; a step holds say: do: expect: ask: choice: explain: more: source: note: versions:`},
		{"a step for one version only", "step: two\n", "step@4: two\n",
			`x.lesson:17: "step@4:": only intro: say: do: expect: ask: choice: explain: more: source: note: may be given for one Kafka version`},
		{"a version that is not 3 or 4", "  say: It runs.\n", "  say: It runs.\n  say@5: later\n",
			`x.lesson:19: "say@5:": the version after "@" is 3 (Kafka 3.x, transaction.version=1) or 4 (Kafka 4.x, transaction.version=2), e.g. "say@4:"`},
		{"an error in a Kafka 4 line", "  say: It runs.\n", "  say: It runs.\n  do@4: A sned t-0 y\n",
			`x.lesson:19: unknown producer call sned; did you mean send?`},
		{"header key after the header", "  say: It runs.\n", "  say: It runs.\n  title: again\n",
			`x.lesson:19: title: belongs at the top of the file, before setup: and the steps`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := edit(t, c.old, c.new)
			_, err := Parse("x.lesson", []byte(src))
			if err == nil {
				t.Fatalf("no error; want %s", c.want)
			}
			if err.Error() != c.want {
				t.Fatalf("got\n%s\nwant\n%s", err, c.want)
			}
		})
	}
}

func TestParseEmptyAndMultipleErrors(t *testing.T) {
	_, err := Parse("e.lesson", nil)
	want := `e.lesson:1: expected "title: ..." before the end of the file; a lesson starts with title:, summary:, level: and minutes:
e.lesson:1: expected "summary: ..." before the end of the file; a lesson starts with title:, summary:, level: and minutes:
e.lesson:1: expected "level: ..." before the end of the file; a lesson starts with title:, summary:, level: and minutes:
e.lesson:1: expected "minutes: ..." before the end of the file; a lesson starts with title:, summary:, level: and minutes:
e.lesson:1: expected at least one "step: TITLE"`
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	src := strings.Replace(strings.Replace(okLesson, "level: basics", "level: x", 1), "do: run", "do: ruin", 1)
	_, err = Parse("m.lesson", []byte(src))
	want = "m.lesson:3: level: must be basics, transactions, failures or systems, got \"x\"\n" +
		"m.lesson:19: unknown verb ruin; did you mean run?"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
}

// TestCheckErrors covers what only playing the lesson reveals.
func TestCheckErrors(t *testing.T) {
	cases := []struct {
		name, old, new string
		want           string
	}{
		{"two choices hold", "expect partition t-0 leo 2", "expect partition t-0 leo 1",
			`x.lesson:12: choices 1 and 2 both hold after the next step; exactly one must`},
		{"no choice holds", "expect partition t-0 leo 1", "expect partition t-0 leo 5",
			`x.lesson:12: no choice holds after the next step (line 17); exactly one must. choice 1: expect partition t-0 leo 5 found 1; choice 2: expect partition t-0 leo 2 found 1`},
		{"answer visible before the next step", "  say: A sends.\n  do: A send t-0 x\n", "  say: A sends.\n  do: A send t-0 x\n  do: run\n",
			`x.lesson:13: choice 1 already holds before the next step runs; give it an expectation that only the next step makes true`},
		{"expectation fails", "  do: run\n", "  do: run\n  expect: producer A epoch 7\n",
			`x.lesson:20: expectation does not hold: expect producer A epoch 7; found: 0`},
		{"engine refuses an action", "  do: run\n", "  do: drop Produce to=A\n",
			"x.lesson:12: no choice holds after the next step (line 17); exactly one must. choice 1: expect partition t-0 leo 1 found 0; choice 2: expect partition t-0 leo 2 found 0\n" +
				`x.lesson:19: no message in flight matches "Produce to=A"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(edit(t, c.old, c.new))
			err := Check("x.lesson", src)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			// The headless transcript reports the same problems.
			l, _ := Parse("x.lesson", src)
			if _, terr := Transcript(l); fmt.Sprint(terr) != fmt.Sprint(err) {
				t.Fatalf("Transcript error %v, Check error %v", terr, err)
			}
		})
	}
}

func TestTextKeysJoinIntoParagraphs(t *testing.T) {
	src := edit(t, "  say: A sends.\n", "  say: A sends\n  say: a record.\n  say:\n  say: New paragraph.\n  note: one\n  note: two\n")
	l, err := Parse("x.lesson", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Steps[0].Say; got != "A sends a record.\n\nNew paragraph." {
		t.Fatalf("say %q", got)
	}
	if got := l.Steps[0].Narration(); got != "one\n\nA sends a record.\n\nNew paragraph." {
		t.Fatalf("narration %q", got)
	}
	if got := l.Steps[0].Note; got != "one two" {
		t.Fatalf("note %q", got)
	}
}

func TestNameFromFile(t *testing.T) {
	for in, want := range map[string]string{
		"content/01-lost-ack.lesson": "lost-ack",
		"abort.lesson":               "abort",
		"2024.lesson":                "2024",
		`dir\07-x.lesson`:            "x",
		"01-.lesson":                 "01-",
	} {
		if got := nameFromFile(in); got != want {
			t.Errorf("nameFromFile(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParse holds the lesson parser to its promises on any input: teachers
// type lesson files by hand and `eoslab check` runs on whatever they wrote.
// It never panics (nor do Check and Transcript on what it accepts); a
// lesson that parses holds no character a terminal acts on in any text it
// shows; errors are an ErrorList of at most script.MaxErrors kept, each
// naming the file and a line that exists, in line order. The seed corpus
// is the built-in lessons and a few odd files; CI runs it by count
// (.ci/run).
func FuzzParse(f *testing.F) {
	f.Add([]byte(okLesson))
	f.Add([]byte("title: x\nstep:\n choice: | expect \"a|b\" | |\n"))
	f.Add([]byte("\xef\xbb\xbftitle:\xff\nsetup:\n producer \"A\n"))
	f.Add([]byte("title: T\x1b]0;pwned\x07\nsummary: \u009b2J\u202e\n"))
	for _, b := range load() {
		f.Add(b.src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const file = "fuzz.lesson"
		lines := strings.Count(string(src), "\n") + 1
		l, err := Parse(file, src)
		if err != nil {
			if l != nil {
				t.Fatal("a lesson returned with an error")
			}
			var list script.ErrorList
			if !errors.As(err, &list) || len(list.Errors) == 0 || len(list.Errors) > script.MaxErrors {
				t.Fatalf("error %T %v is not an ErrorList of 1 to %d", err, err, script.MaxErrors)
			}
			prev := 0
			for _, e := range list.Errors {
				if e.File != file || e.Line < 1 || e.Line > lines || e.Msg == "" || e.Line < prev {
					t.Fatalf("bad error %+v after line %d (file has %d lines)", e, prev, lines)
				}
				prev = e.Line
			}
			return
		}
		for _, s := range shownTexts(l) {
			if termsafe.Escape(s) != s {
				t.Fatalf("parsed text %q holds a character a terminal acts on", s)
			}
		}
		if len(src) < 4000 {
			_ = l.Check()
			_, _ = Transcript(l)
		}
	})
}

// shownTexts is every text of a lesson that the list, the player or a
// transcript shows.
func shownTexts(l *Lesson) []string {
	texts := []string{l.Name, l.Title, l.Summary, l.Level, l.Intro}
	for _, s := range l.Steps {
		texts = append(texts, s.Title, s.Say, s.Note)
		if s.Ask != nil {
			texts = append(texts, s.Ask.Question, s.Ask.Explain)
			for _, c := range s.Ask.Choices {
				texts = append(texts, c.Text)
			}
		}
		for _, c := range s.Commands {
			texts = append(texts, c.Text)
		}
	}
	for _, c := range l.Setup {
		texts = append(texts, c.Text)
	}
	return texts
}
