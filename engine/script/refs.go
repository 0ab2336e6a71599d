package script

import (
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
)

// Checks of words that name things: partitions, topics, clients, brokers,
// groups, transactional ids and messages. They read the declarations, which
// is what lets "check" reject "A send t-9 x" before anything runs.

// splitTP reads "topic-N". Topic names may contain dashes themselves; the
// partition is the number after the last one, as in engine.ParseTP.
func splitTP(s string) (string, int64, bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 {
		return "", 0, false
	}
	n, ok := parseInt(s[i+1:])
	if !ok || n < 0 || strings.HasPrefix(s[i+1:], "-") {
		return "", 0, false
	}
	return s[:i], n, true
}

// tp accepts a partition of a declared topic.
func tp(p *pctx, s string) string { return tpOf(p, s, false) }

// tpOrInternal also accepts partitions of the internal topics, for the places
// where Kafka's own bookkeeping shows through: the __consumer_offsets
// partition that AddOffsetsToTxn adds to a transaction, for instance.
func tpOrInternal(p *pctx, s string) string { return tpOf(p, s, true) }

func tpOf(p *pctx, s string, internal bool) string {
	topic, n, ok := splitTP(s)
	if !ok {
		if p.d.topics[s].line > 0 {
			return "expected a partition like " + s + "-0, not a topic"
		}
		return "expected a partition like t-0 (TOPIC-N)"
	}
	isInternal := topic == txnStateTopic || topic == offsetsTopic
	switch {
	case isInternal && !internal:
		return "the internal topic " + topic + " cannot be used here"
	case !isInternal && p.d.topics[topic].line == 0:
		return "topic " + topic + " is not declared" + didYouMean(topic, few(p.d.topics))
	}
	parts := p.d.Partitions(topic)
	if parts > 0 && n >= int64(parts) {
		return "topic " + topic + " has " + partitionRange(topic, parts)
	}
	return ""
}

// partitionRange renders "1 partition (t-0)" or "3 partitions (t-0..t-2)".
func partitionRange(topic string, n int) string {
	if n == 1 {
		return "1 partition (" + topic + "-0)"
	}
	return strconv.Itoa(n) + " partitions (" + topic + "-0.." + topic + "-" + strconv.Itoa(n-1) + ")"
}

// coordinatorPartition accepts a __transaction_state partition, the home of a
// transactional id's coordinator (ref 3.1).
func coordinatorPartition(p *pctx, s string) string {
	topic, _, ok := splitTP(s)
	if !ok || topic != txnStateTopic {
		return "expected a partition like " + txnStateTopic + "-12"
	}
	return tpOrInternal(p, s)
}

// topicRef accepts a declared topic name.
func topicRef(p *pctx, s string) string {
	if p.d.topics[s].line > 0 {
		return ""
	}
	if _, _, ok := splitTP(s); ok && p.d.topics[s[:strings.LastIndexByte(s, '-')]].line > 0 {
		return "expected a topic, not a partition"
	}
	return "topic " + s + " is not declared" + didYouMean(s, few(p.d.topics))
}

// topicNew accepts the name of a new topic, following Kafka's rules for topic
// names (Topic.validate) and reserving "__" for the internal topics.
func topicNew(p *pctx, s string) string {
	switch {
	case s == "" || len(s) > maxTopicLen || s == "." || s == ".." || !isWord(s, "._-"):
		return "expected a topic name of letters, digits, . _ - (at most 249)"
	case strings.HasPrefix(s, "__"):
		return "names starting with __ are reserved for Kafka's internal topics"
	case p.d.topics[s].line > 0:
		return "already declared on line " + strconv.Itoa(p.d.topics[s].line)
	}
	return ""
}

// clientNew accepts the name of a new client. Names may not be verbs, call
// names, "none", broker names, message ids or "expert" (where the expert
// actions' answers go), so that every line reads one way only.
func clientNew(p *pctx, s string) string {
	switch {
	case s == "" || len(s) > maxNameLen || !isLetter(s[0]) || !isWord(s, "_.-"):
		return "expected a name of letters, digits, _ . - that starts with a letter (at most 64)"
	case verbForms[s] != nil || callForms[s] != nil || s == "none":
		return "a word of the language; it cannot name a client"
	case isBrokerName(s):
		return "names a broker; it cannot name a client"
	case isMessageID(s):
		return "looks like a message id; it cannot name a client"
	case s == engine.ExpertAddr:
		return "is the network address of the expert actions; it cannot name a client"
	}
	if c := p.d.clients[s]; c.line > 0 {
		return "already declared as a " + c.kind.String() + " on line " + strconv.Itoa(c.line)
	}
	return ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isBrokerName(s string) bool {
	n, ok := strings.CutPrefix(s, "broker-")
	return ok && n != "" && isWord(n, "")
}

// isMessageID reports whether s has the shape of a message id: m and digits.
func isMessageID(s string) bool {
	n, ok := strings.CutPrefix(s, "m")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// clientOf accepts a declared client of one of the given kinds.
func clientOf(kinds ...ClientKind) check {
	return func(p *pctx, s string) string {
		c := p.d.clients[s]
		if c.line == 0 {
			return notDeclared(p, s, kinds)
		}
		for _, k := range kinds {
			if c.kind == k {
				return ""
			}
		}
		return "a " + c.kind.String() + " (line " + strconv.Itoa(c.line) + "), not a " + kindList(kinds)
	}
}

var anyClient = clientOf(Producer, Consumer, Processor)

func kindList(kinds []ClientKind) string {
	words := make([]string, len(kinds))
	for i, k := range kinds {
		words[i] = k.String()
	}
	return orList(words)
}

func notDeclared(p *pctx, s string, kinds []ClientKind) string {
	var names []string
	for _, n := range few(p.d.clients) {
		for _, k := range kinds {
			if p.d.clients[n].kind == k {
				names = append(names, n)
			}
		}
	}
	return "not a declared " + kindList(kinds) + didYouMean(s, names)
}

// brokerOrClient accepts broker-N of the cluster or a declared client: what
// crash and restart act on, and what a message goes to or comes from.
func brokerOrClient(p *pctx, s string) string {
	if isBrokerName(s) {
		n, ok := parseInt(s[len("broker-"):])
		if ok && n >= 1 && n <= int64(p.d.brokers) {
			return ""
		}
		return "the cluster has " + strconv.Itoa(p.d.brokers) + " brokers (" + p.d.brokerRange() + ")"
	}
	if p.d.clients[s].line > 0 {
		return ""
	}
	return "expected a broker (" + p.d.brokerRange() + ") or a declared client" + didYouMean(s, few(p.d.clients))
}

// endpoint accepts what a message goes to or comes from: broker-N, a
// declared client, or expert, the address of the expert actions.
func endpoint(p *pctx, s string) string {
	switch {
	case s == engine.ExpertAddr:
		return ""
	case isBrokerName(s):
		return brokerOrClient(p, s)
	case p.d.clients[s].line > 0:
		return ""
	}
	return "expected a broker (" + p.d.brokerRange() + "), a declared client or " + engine.ExpertAddr + didYouMean(s, few(p.d.clients))
}

// groupRef accepts a consumer group that a consumer, a processor or a
// sendOffsetsToTransaction has named.
func groupRef(p *pctx, s string) string {
	if p.d.groups[s] > 0 {
		return ""
	}
	return "no consumer, processor or sendOffsetsToTransaction names this group" + didYouMean(s, few(p.d.groups))
}

// memberGroupRef accepts a group that a consumer or processor joins. A group
// only named by sendOffsetsToTransaction has no members, so a rebalance
// (a new generation for its members) means nothing there.
func memberGroupRef(p *pctx, s string) string {
	if p.d.members[s] > 0 {
		return ""
	}
	return "no consumer or processor joins this group" + didYouMean(s, few(p.d.members))
}

// txnIDRef accepts a transactional id that a producer or processor uses.
func txnIDRef(p *pctx, s string) string {
	if p.d.txnIDs[s] > 0 {
		return ""
	}
	return "no producer or processor has this transactional.id" + didYouMean(s, few(p.d.txnIDs))
}

// messageWord accepts what names an in-flight message: an id such as m12
// (the engine numbers messages from m1), or a message kind.
func messageWord(_ *pctx, s string) string {
	if isMessageID(s) {
		if n, ok := parseInt(s[1:]); ok && n >= 1 {
			return ""
		}
		return "expected a message id from m1 up"
	}
	for _, k := range messageKinds {
		if s == k {
			return ""
		}
	}
	return "expected a message id like m12 or a kind like ProduceResponse" + didYouMean(s, messageKinds)
}
