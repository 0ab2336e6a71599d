package lessons

import (
	"strings"
	"testing"
)

// TestShowLines: a step's show: names partitions, clients and
// transactional ids the lesson has; a step that names a partition in its
// text lists it, so the player keeps that log on screen.
func TestShowLines(t *testing.T) {
	lesson := func(step string) []byte {
		return []byte(`title: T
summary: S
level: basics
minutes: 1
setup:
  topic t
  producer P transactional.id=x
  consumer C
step: One
  say: P writes to t-0.
` + step + `
  do: P initTransactions
  do: P beginTransaction
  do: P send t-0 a
  do: run
`)
	}
	for _, c := range []struct{ show, want string }{
		{"  show: t-0, P, C, txnlog x", ""},
		{"", `x.lesson:9: step "One" names t-0 in say:; list it in a show: line`},
		{"  show: t-0, t-1", `x.lesson:11: show: "t-1" is not a partition, a producer, a processor or a consumer`},
		{"  show: t-0, txnlog y", `x.lesson:11: show: "y" is not a transactional id with records`},
		{"  show: t-0, log t-0", `x.lesson:11: show: "log t-0" is not a subject`},
		{"  show: t-0, __transaction_state-0", `x.lesson:11: show: "__transaction_state-0" is not a partition`},
	} {
		err := Check("x.lesson", lesson(c.show))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.show, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %q", c.show, err, c.want)
		}
	}
}

// TestStepNames: a step names a word its text writes as a word of its
// own, in its narration, question, choices or explanation.
func TestStepNames(t *testing.T) {
	st := Step{Say: "B writes b1 to t-0, and a1's fate is known.", Ask: &Checkpoint{Question: "What now?", Choices: []Choice{{Text: "x10 and y-2"}}, Explain: "z3."}}
	for word, want := range map[string]bool{"b1": true, "a1": true, "t-0": true, "x10": true, "y-2": true, "z3": true,
		"a": false, "x1": false, "y": false, "t": false, "": false, "now": true, "known": true, "kno": false} {
		if got := st.Names(word); got != want {
			t.Errorf("Names(%q) = %v, want %v", word, got, want)
		}
	}
}
