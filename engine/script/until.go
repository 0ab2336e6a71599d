package script

import "strings"

// "until COND" is the sandbox prompt's run-until: COND is what an expect
// line checks (until txn app state PrepareCommit, until event
// kind=marker, until markers 1), and the sandbox steps the world until it
// holds. It is no line of a scenario: the sandbox records the steps it
// took as one "step N".

// UntilCondition reports whether line is "until COND" and returns COND as
// the expect line that checks it.
func UntilCondition(line string) (expect string, ok bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "until" {
		return "", false
	}
	return strings.TrimSpace("expect " + strings.Join(f[1:], " ")), true
}
