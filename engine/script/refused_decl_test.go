package script

import (
	"strings"
	"testing"
)

// A declaration refused for a misspelt option still declares its name:
// its later uses are not reported as undeclared.
func TestRefusedDeclarationNoCascade(t *testing.T) {
	got := parseErr(t, "topic t\nconsumer C\n# note\nproducer P enable.idempotance=true\n\nP send t-0 a\nrun\n")
	if !strings.Contains(got, "f.scn:4: producer P: unknown option enable.idempotance") {
		t.Errorf("the typo is not reported: %s", got)
	}
	if strings.Contains(got, "not declared") || strings.Count(got, "f.scn:") != 1 {
		t.Errorf("a refused declaration cascades:\n%s", got)
	}
}
