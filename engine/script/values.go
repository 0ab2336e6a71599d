package script

import (
	"github.com/eoslab/eoslab/engine"

	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// check validates one word (a positional word, or an option's value). It
// returns "" when the word is acceptable, and otherwise says what was
// expected; the caller adds the command and the word in front. Checks may
// look at the declarations but never change them.
type check func(p *pctx, s string) string

// Limits on sizes. Kafka allows more, but the simulation allocates per broker,
// partition, step and record, and a lab never needs more than this; the limits
// keep a typo like "partitions=1000000000" from exhausting memory.
const (
	maxBrokers    = 9    // broker-1 .. broker-9, as the engine allows
	maxPartitions = 64   // per declared topic, as the engine allows
	maxInternal   = 1000 // partitions of __transaction_state and __consumer_offsets
	maxSteps      = 1000000
	maxRecords    = 1000 // records in one injected batch, and copies of it
	maxNameLen    = 64   // client names: they appear in every event line
	maxTopicLen   = 249  // Kafka's own limit (Topic.MAX_NAME_LENGTH)
	maxInt32      = math.MaxInt32
)

// parseInt reads a base-10 whole number: an optional '-' and digits only, so
// "+5", "0x10" and "1e3" are rejected rather than guessed at.
func parseInt(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// intIn accepts a whole number from lo to hi.
func intIn(lo, hi int64) check {
	return func(_ *pctx, s string) string {
		if n, ok := parseInt(s); ok && n >= lo && n <= hi {
			return ""
		}
		return "expected " + describeRange(lo, hi)
	}
}

func describeRange(lo, hi int64) string {
	if hi == math.MaxInt64 {
		return "a whole number, at least " + strconv.FormatInt(lo, 10)
	}
	return "a whole number from " + strconv.FormatInt(lo, 10) + " to " + strconv.FormatInt(hi, 10)
}

// oneOf accepts exactly one of the given words (case-sensitive, as Kafka's
// config values and state names are).
func oneOf(words ...string) check {
	return func(_ *pctx, s string) string {
		for _, w := range words {
			if s == w {
				return ""
			}
		}
		return "expected " + orList(words) + didYouMean(s, words)
	}
}

var boolean = oneOf("true", "false")

// orList renders "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// nonEmpty accepts any text but the empty string (quotes allow anything else).
func nonEmpty(_ *pctx, s string) string {
	if s == "" {
		return "expected a non-empty value"
	}
	return ""
}

// orNone accepts the word none, or what c accepts.
func orNone(c check) check {
	return func(p *pctx, s string) string {
		if s == "none" {
			return ""
		}
		m := c(p, s)
		if strings.HasPrefix(m, "expected ") {
			return m + ", or none"
		}
		return m
	}
}

// listOf accepts a comma-separated list of items that each pass c. Items may
// not be empty: "a,,b" is almost always a typo.
func listOf(what string, c check) check {
	return func(p *pctx, s string) string {
		for _, item := range strings.Split(s, ",") {
			if item == "" {
				return "expected a comma-separated list of " + what + " with no empty items"
			}
			if m := c(p, item); m != "" {
				return item + ": " + m
			}
		}
		return ""
	}
}

// value accepts a record value. Values may hold anything but commas, and may
// not be empty, so that "expect consumer C values a,b" can list them.
func value(_ *pctx, s string) string {
	switch {
	case s == "":
		return "expected a non-empty value"
	case strings.Contains(s, ","):
		return "a value may not contain a comma (expect lists values with commas)"
	}
	return ""
}

// seqRange accepts a sequence number or range as the engine prints a batch's
// sequences: "5", "5..7", or "-1" for a batch without a producer id. Ranges
// are not required to ascend because sequences wrap at 2147483647.
func seqRange(_ *pctx, s string) string {
	const want = "expected a sequence number or range like 0..4"
	a, b, isRange := strings.Cut(s, "..")
	okA := intIn(-1, maxInt32)(nil, a) == ""
	if !isRange {
		if okA {
			return ""
		}
		return want
	}
	if okA && a != "-1" && intIn(0, maxInt32)(nil, b) == "" {
		return ""
	}
	return want
}

// errorName accepts a Kafka error name, optionally with its code as the
// engine prints it (OUT_OF_ORDER_SEQUENCE_NUMBER(45)), a client exception
// name, or none.
func errorName(_ *pctx, s string) string {
	if s == "none" {
		return ""
	}
	names := make([]string, len(kafkaErrors))
	for i, e := range kafkaErrors {
		names[i] = e.Name()
		if s == e.Name() || s == e.String() {
			return ""
		}
	}
	if n, ok := parseInt(s); ok {
		for _, e := range kafkaErrors {
			if int64(e) == n && n != 0 && e.IsWire() {
				return "expected an error name, not a code: " + e.Name()
			}
		}
	}
	return "expected a Kafka error name like OUT_OF_ORDER_SEQUENCE_NUMBER, or none" + didYouMean(s, names)
}

// invariantName accepts the name of an invariant.
var invariantName = oneOf(invariants...)

// isWord reports whether s is ASCII letters and digits plus the given extra
// characters.
func isWord(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// show renders a positional word for a message, quoting it when it would
// otherwise read differently (empty, or containing blanks, quotes, '#' or
// '=', which only a quoted word can hold).
func show(s string) string { return quoteIf(s, " \t\"#=") }

// showOpt renders an option for a message: acks=2, group.id="my group".
func showOpt(key, val string) string { return key + "=" + quoteIf(val, " \t\"#") }

func quoteIf(s, chars string) string {
	if s == "" || strings.ContainsAny(s, chars) || !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	return s
}

// splitList splits a comma-separated option value.
func splitList(s string) []string { return strings.Split(s, ",") }

// reasonCode accepts the code of one of the engine's rules (the list is
// 'eoslab help rules').
func reasonCode(_ *pctx, s string) string {
	if _, ok := engine.ReasonByCode(s); ok {
		return ""
	}
	codes := make([]string, 0, len(engine.Rules()))
	for _, r := range engine.Rules() {
		codes = append(codes, r.Code)
	}
	return "expected a rule's reason code (see 'eoslab help rules')" + didYouMean(s, codes)
}
