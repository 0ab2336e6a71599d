package engine

import "strings"

// A rule, as the engine writes it (emitRule, and the rules appendBatch,
// appendMarker and the coordinators compose), is one or more parts joined
// by "; ". A part may be led by a citation of the reference this
// simulation follows ("ref 1.4: retriable", "ref 3.4 step 11: a new
// instance fences the open transaction", "row 4: ...", "KIP-890 part 1:
// ...") or be only a citation ("ref 2.4"). The transcript shows the whole
// rule; RuleWords is the same rule for a reader who does not follow the
// reference.

// RuleWords is the event's rule in words: each part without the citation
// that leads it, and without a part that is only a citation. The citations
// stay in Rule, which the transcript and the detail view show.
func (e *Event) RuleWords() string { return ruleWords(e.Rule) }

func ruleWords(rule string) string {
	var out []string
	for _, part := range strings.Split(rule, "; ") {
		part = strings.TrimSpace(part)
		if isCitation(part) {
			continue
		}
		if head, rest, ok := strings.Cut(part, ": "); ok && isCitation(head) {
			part = rest
		}
		if part != "" {
			out = append(out, part)
		}
	}
	return strings.Join(out, "; ")
}

// isCitation reports whether s is a citation such as "ref 3.4", "ref 3.4
// step 11", "row 4" or "KIP-890 part 1": a lead word the engine cites with,
// followed only by numbers and the words step and part.
func isCitation(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 || (f[0] != "ref" && f[0] != "row" && !strings.HasPrefix(f[0], "KIP-")) {
		return false
	}
	for _, w := range f[1:] {
		if w == "step" || w == "part" {
			continue
		}
		if strings.Trim(w, "0123456789.") != "" {
			return false
		}
	}
	return true
}
