package script

import (
	"strconv"

	"github.com/eoslab/eoslab/engine"
)

// Rules that involve more than one word, and the declarations setup lines
// make. Rules return "" or a message; the caller puts the command in front.

// brokersRule: the broker count is part of the cluster's shape. Topics place
// their replicas on brokers and clients pick coordinators among them, so the
// count is set once, before any topic or client (the engine's rule too).
func brokersRule(p *pctx) string {
	switch {
	case p.d.brokersLine > 0:
		return "the number of brokers is already set on line " + strconv.Itoa(p.d.brokersLine)
	case p.d.startLine > 0 || len(p.d.topics) > 0 || len(p.d.clients) > 0:
		return "brokers must come before every topic and client (" + p.d.firstUse(true) + ")"
	}
	return ""
}

// fixedMsg explains why a setting that shapes the cluster is refused.
func fixedMsg(d *Decls) string {
	return "must be set before every client (" + d.firstUse(false) + ")"
}

func declareBrokers(p *pctx) {
	n, _ := parseInt(p.args[0])
	p.d.brokers, p.d.brokersLine = int(n), p.cmd.Line
}

// fixedOptsRule refuses settings that shape the cluster (the internal
// topics' partition counts) once a client exists: coordinators are placed by
// hashing into those partitions, so the engine fixes them then.
func fixedOptsRule(p *pctx) string {
	if p.d.startLine == 0 && len(p.d.clients) == 0 {
		return ""
	}
	for _, o := range p.opts {
		if f, _ := p.f.opt(o.Key); f.fixed {
			return showOpt(o.Key, o.Value) + ": " + fixedMsg(p.d)
		}
	}
	return ""
}

func declareConfig(p *pctx) {
	for _, o := range p.opts {
		n, _ := parseInt(o.Value)
		switch o.Key {
		case engine.ConfigTxnStatePartitions.String():
			p.d.txnStateParts = int(n)
		case engine.ConfigOffsetsPartitions.String():
			p.d.offsetsParts = int(n)
		}
	}
}

// transactionVersion accepts the finalized feature levels the simulation
// has: 1 (KIP-98 with KIP-890 part 1) and 2 (KIP-890 part 2, ref 6).
func transactionVersion(_ *pctx, s string) string {
	switch s {
	case "1", "2":
		return ""
	}
	return "expected 1 or 2"
}

// replicationFactor accepts 1 up to the number of brokers: Kafka refuses to
// create a topic with more replicas than brokers.
func replicationFactor(p *pctx, s string) string {
	if m := intIn(1, int64(p.d.brokers))(p, s); m != "" {
		return m + " (the number of brokers)"
	}
	return ""
}

// declareTopic records a topic. On a line that failed (salvage) a bad
// partition count is recorded as 0, "unknown", so that later lines are not
// also rejected for the same mistake.
func declareTopic(p *pctx) {
	t := topicDecl{partitions: 1, line: p.cmd.Line}
	if v, ok := p.opt("partitions"); ok {
		n, ok := parseInt(v)
		t.partitions = int(n)
		if !ok || n < 1 || n > maxPartitions {
			t.partitions = 0
		}
	}
	p.d.topics[p.name] = t
	if p.d.firstTopic.line == 0 {
		p.d.firstTopic = mark{"topic " + p.name + " is declared", p.cmd.Line}
	}
}

// declareClient records a client, and the group and transactional id it
// names, which expect and rebalance may then refer to.
func declareClient(kind ClientKind) func(p *pctx) {
	return func(p *pctx) {
		p.d.clients[p.name] = clientDecl{kind: kind, line: p.cmd.Line}
		if p.d.firstClient.line == 0 {
			p.d.firstClient = mark{kind.String() + " " + p.name + " is declared", p.cmd.Line}
		}
		if g, ok := p.opt("group.id"); ok && g != "" {
			mention(p.d.groups, g, p.cmd.Line)
			mention(p.d.members, g, p.cmd.Line)
		}
		if id, ok := p.opt("transactional.id"); ok && id != "" {
			mention(p.d.txnIDs, id, p.cmd.Line)
		}
	}
}

// declareOffsetsGroup: a producer may commit offsets for any group id (ref
// 5), so sendOffsetsToTransaction names a group rather than requiring one.
func declareOffsetsGroup(p *pctx) { mention(p.d.groups, p.args[0], p.cmd.Line) }

func mention(m map[string]int, key string, line int) {
	if m[key] == 0 {
		m[key] = max(line, 1)
	}
}

// reorderRule: swapping a message with itself is a no-op that is almost
// certainly a mistake.
func reorderRule(p *pctx) string {
	if s := p.sels; len(s) == 2 && s[0] == s[1] {
		return "both selectors pick the same message; name two different ones, e.g. \"reorder m3 m4\""
	}
	return ""
}

// injectBatchRule: count and values must agree, and a flag is given once.
func injectBatchRule(p *pctx) string {
	seen := map[string]bool{}
	for _, a := range p.args[2:] {
		if seen[a] {
			return a + " is given twice"
		}
		seen[a] = true
	}
	c, hasCount := p.opt("count")
	v, hasValues := p.opt("values")
	if hasCount && hasValues {
		n, _ := parseInt(c)
		if k := len(splitList(v)); int64(k) != n {
			return "count=" + c + " but values has " + strconv.Itoa(k) + "; give one, or make them agree"
		}
	}
	if hasValues && len(splitList(v)) > maxRecords {
		return "values has more than " + strconv.Itoa(maxRecords) + " records"
	}
	return ""
}

// declareInjectedTxnID: an operator's coordinator request may name a
// transactional id no client uses; it counts as named from then on, so that
// expect txn can check what the coordinator holds for it (an InitProducerId
// creates the entry, ref 3.4 step 6).
func declareInjectedTxnID(p *pctx) { mention(p.d.txnIDs, p.args[1], p.cmd.Line) }
