package script

import (
	"sort"
	"strconv"
)

// ClientKind says what a declared client is. The kind decides which calls the
// client has: a Java KafkaConsumer has no send, so "C send" is a parse error.
type ClientKind int

const (
	NoClient ClientKind = iota
	Producer
	Consumer
	Processor
)

func (k ClientKind) String() string {
	switch k {
	case Producer:
		return "producer"
	case Consumer:
		return "consumer"
	case Processor:
		return "processor"
	}
	return "no client"
}

// Default sizes of the cluster, as Kafka's defaults (ref 0.1) and the
// simulation's (3 brokers).
const (
	defaultBrokers      = 3
	defaultInternalPart = 50
)

type clientDecl struct {
	kind ClientKind
	line int
}

type topicDecl struct {
	partitions int // 0 when the declaration was invalid: any partition is then accepted
	line       int
}

// Decls is what a scenario has declared so far: clients and their kinds,
// topics and their partition counts, consumer groups, transactional ids and
// the cluster's shape. Parsing a line checks names against it and records the
// line's own declarations. A Decls is plain data; Clone copies it, so the
// sandbox can check a half-typed line without committing it.
type Decls struct {
	clients map[string]clientDecl
	topics  map[string]topicDecl
	groups  map[string]int // line of first mention
	members map[string]int // groups a consumer or processor joins: line of the first
	txnIDs  map[string]int // line of first mention

	brokers       int
	brokersLine   int // 0 until "brokers" appears
	txnStateParts int
	offsetsParts  int
	startLine     int // line of the first command that is not setup; 0 before

	// The first topic and client declared, for "brokers must come first".
	firstTopic, firstClient mark
}

// mark is something declared and where.
type mark struct {
	what string
	line int
}

// NewDecls returns the declarations of an empty scenario: no clients, no
// topics, and a cluster with Kafka's defaults.
func NewDecls() *Decls {
	return &Decls{
		clients:       map[string]clientDecl{},
		topics:        map[string]topicDecl{},
		groups:        map[string]int{},
		members:       map[string]int{},
		txnIDs:        map[string]int{},
		brokers:       defaultBrokers,
		txnStateParts: defaultInternalPart,
		offsetsParts:  defaultInternalPart,
	}
}

// Clone returns an independent copy.
func (d *Decls) Clone() *Decls {
	c := *d
	c.clients = make(map[string]clientDecl, len(d.clients))
	for k, v := range d.clients {
		c.clients[k] = v
	}
	c.topics = make(map[string]topicDecl, len(d.topics))
	for k, v := range d.topics {
		c.topics[k] = v
	}
	c.groups = copyLines(d.groups)
	c.members = copyLines(d.members)
	c.txnIDs = copyLines(d.txnIDs)
	return &c
}

func copyLines(m map[string]int) map[string]int {
	c := make(map[string]int, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Brokers is the number of brokers, named broker-1 ... broker-N.
func (d *Decls) Brokers() int { return d.brokers }

// KindOf is the kind of the named client, or NoClient if it is not declared.
func (d *Decls) KindOf(name string) ClientKind { return d.clients[name].kind }

// Partitions is the partition count of a declared topic, or 0. The internal
// topics __transaction_state and __consumer_offsets count as declared.
func (d *Decls) Partitions(topic string) int {
	switch topic {
	case txnStateTopic:
		return d.txnStateParts
	case offsetsTopic:
		return d.offsetsParts
	}
	return d.topics[topic].partitions
}

// Clients lists the declared client names, sorted.
func (d *Decls) Clients() []string { return sortedKeys(d.clients) }

// Topics lists the declared (non-internal) topic names, sorted.
func (d *Decls) Topics() []string { return sortedKeys(d.topics) }

// Groups lists the consumer groups named so far, sorted.
func (d *Decls) Groups() []string { return sortedKeys(d.groups) }

// TransactionalIDs lists the transactional ids of declared producers and
// processors, sorted.
func (d *Decls) TransactionalIDs() []string { return sortedKeys(d.txnIDs) }

// Started reports whether a command other than setup has been seen.
func (d *Decls) Started() bool { return d.startLine > 0 }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// brokerRange renders the broker names for messages: "broker-1..broker-3".
func (d *Decls) brokerRange() string {
	if d.brokers == 1 {
		return "broker-1"
	}
	return "broker-1..broker-" + strconv.Itoa(d.brokers)
}

// firstUse says what first fixed the cluster's shape, for messages:
// "topic t is declared on line 3". Topics count only for the broker count.
func (d *Decls) firstUse(topics bool) string {
	first := d.firstClient
	if topics && d.firstTopic.line > 0 && (first.line == 0 || d.firstTopic.line < first.line) {
		first = d.firstTopic
	}
	if d.startLine > 0 && (first.line == 0 || d.startLine < first.line) {
		first = mark{"the scenario started", d.startLine}
	}
	return first.what + " on line " + strconv.Itoa(first.line)
}

// maxSuggest bounds the names a "did you mean" looks through. Lessons have a
// handful of names; the bound keeps a file with thousands of them (which the
// fuzzer writes) linear rather than quadratic.
const maxSuggest = 100

// few returns the sorted names of m, or nil when there are too many to
// search for a suggestion.
func few[V any](m map[string]V) []string {
	if len(m) > maxSuggest {
		return nil
	}
	return sortedKeys(m)
}
