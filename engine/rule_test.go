package engine

import (
	"regexp"
	"strings"
	"testing"
)

// A rule's transcript form cites each part's Kafka source before its
// detail; its words are the details alone.
func TestRuleForms(t *testing.T) {
	for _, c := range []struct {
		rule        Rule
		line, words string
	}{
		{Rule{}, "", ""},
		{because(RuleBatchRetriable, saysRetriable), "Sender.canRetry: retriable", "retriable"},
		{cite(RuleVerifyPartitions), "KIP-890, TransactionCoordinator.handleVerifyPartitionsInTransaction", ""},
		{because(RuleInvariant, saysInvariant), "invariant", "invariant"},
		{cite(RuleSeqUnresolvedRetry), "TransactionManager.canRetry", ""},
		{because(RuleSeqNoState, saysNoStateForPidHere, num(1000)).and(because(RuleTxnFirstOffset, saysFirstTransactionalBatchHereThe, num(0))),
			"ProducerAppendInfo.checkSequence: no state for pid 1000 here: any sequence is accepted; ProducerAppendInfo.appendDataBatch: first transactional batch here: the transaction starts at offset 0",
			"no state for pid 1000 here: any sequence is accepted; first transactional batch here: the transaction starts at offset 0"},
	} {
		if got := c.rule.String(); got != c.line {
			t.Errorf("%v: line %q, want %q", c.rule.Reason, got, c.line)
		}
		e := Event{Rule: c.rule}
		if got := e.RuleWords(); got != c.words {
			t.Errorf("%v: words %q, want %q", c.rule.Reason, got, c.words)
		}
	}
}

// and keeps the first rule as it was: rules are shared by events.
func TestRuleAndDoesNotChangeItsParts(t *testing.T) {
	a := because(RuleSeqInOrder, saysRetriable)
	ab := a.and(because(RuleTxnFirstOffset, saysInvariant))
	abc := ab.and(cite(RuleTxnNotTransactional))
	if len(a.Parts()) != 1 || len(ab.Parts()) != 2 || len(abc.Parts()) != 3 {
		t.Fatalf("parts: %d %d %d", len(a.Parts()), len(ab.Parts()), len(abc.Parts()))
	}
	if !abc.Has(RuleTxnNotTransactional) || ab.Has(RuleTxnNotTransactional) {
		t.Error("Has")
	}
}

// Every reason has a code, words and, unless it is this simulation's own,
// a Kafka source; codes are unique and name only what a reader can find.
func TestRuleTable(t *testing.T) {
	codes := map[string]bool{}
	docRef := regexp.MustCompile(`\b(ref|row) [0-9]`)
	for _, r := range Rules() {
		if r.Code == "" || r.Words == "" {
			t.Errorf("reason %d has no code or words", r.Reason)
		}
		if codes[r.Code] {
			t.Errorf("code %q twice", r.Code)
		}
		codes[r.Code] = true
		own := r.Reason == RuleInvariant || r.Reason == RuleTeachingSwitch
		if (r.Source == "") != own {
			t.Errorf("%s: source %q", r.Code, r.Source)
		}
		if docRef.MatchString(r.Words + " " + r.Source) {
			t.Errorf("%s cites a section: %q %q", r.Code, r.Words, r.Source)
		}
		if got, ok := ReasonByCode(r.Code); !ok || got != r.Reason {
			t.Errorf("ReasonByCode(%q) = %v, %v", r.Code, got, ok)
		}
	}
	rs := Rules()
	rs[0].Code = "changed"
	if Rules()[0].Code == "changed" {
		t.Error("Rules returns the table itself")
	}
	var b strings.Builder
	WriteRules(&b)
	if n := strings.Count(b.String(), "\n  Kafka: "); n != len(rs) {
		t.Errorf("WriteRules wrote %d rules, want %d", n, len(rs))
	}
}
