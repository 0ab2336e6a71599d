package model

// KafkaSide is a real cluster's side of a lesson step played live
// (`eoslab live`): what the cluster shows after the step, read from it,
// and what Kafka said of the step's facts and of the checkpoint the step
// reveals. views/adapt makes it from engine/realkafka/live's snapshot;
// the panels only draw it.
type KafkaSide struct {
	// Cluster is the cluster's address as the user gave it.
	Cluster string
	// TV is the cluster's transaction.version.
	TV int
	// Step is the step played (0-based), -1 for the setup.
	Step int
	// NotPlayed, when not "", says that the step (or its rest) was not
	// played on the cluster and why: "simulation only: ..." when no
	// broker can play it, "not played on Kafka: ..." when eoslab does
	// not map it yet.
	NotPlayed string
	// Behind, when not "", says that some of the step's calls wait on
	// the cluster for the simulation's messages in flight to land, so the
	// cluster does not show them yet.
	Behind string
	// Gone, when not "", is the message of a cluster that stopped
	// answering; the rest is the last side read.
	Gone string

	Partitions []KafkaPartition
	Txns       []KafkaTxn
	Consumers  []KafkaPositions
	Groups     []KafkaPositions
	Facts      []KafkaFact
	// Reveal is Kafka's verdict on the checkpoint this step reveals the
	// answer of; nil when the step before asks nothing.
	Reveal *KafkaVerdict
	// Problems are reads the cluster refused (an ACL), in words.
	Problems []string
}

// KafkaPID is a broker's producer id and the simulation's for it, when
// known (Mapped): the cluster numbers producers its own way.
type KafkaPID struct {
	Broker int64
	Sim    int64
	Mapped bool
}

// KafkaPartition is one partition as its leader shows it.
type KafkaPartition struct {
	Name    string // "orders-0"
	HW, LSO int64
	// Holder is the producer whose open transaction starts at the LSO
	// (read_committed consumers wait for it); Holder.Broker < 0 when
	// none.
	Holder      KafkaPID
	HolderEpoch int16
	Batches     []KafkaBatch
	Producers   []KafkaProducer
	Err         string
}

// KafkaBatch is one record batch header (KIP-98's RecordBatch v2).
type KafkaBatch struct {
	BaseOffset, LastOffset int64
	PID                    KafkaPID // Broker -1: no producer id
	Epoch                  int16
	BaseSeq                int32
	Records                int
	Transactional, Control bool
	// Marker is "COMMIT" or "ABORT" for a control batch.
	Marker string
	// Status is a data batch's fate (its transaction's marker, or open)
	// and a marker's kind.
	Status RowStatus
	Values []string
}

// KafkaProducer is one entry of a leader's producer state
// (DescribeProducers).
type KafkaProducer struct {
	PID     KafkaPID
	Epoch   int16
	LastSeq int32
	// TxnStart is the first offset of its open transaction here, -1
	// when none.
	TxnStart int64
}

// KafkaTxn is one transactional id as its coordinator describes it
// (DescribeTransactions).
type KafkaTxn struct {
	ID         string
	State      string
	Tone       Tone
	PID        KafkaPID
	Epoch      int16
	Partitions []string
	Err        string
}

// KafkaPositions is a consumer's positions (as its client keeps them) or
// a group's committed offsets.
type KafkaPositions struct {
	Name    string
	Offsets []KafkaOffset
	Err     string
}

// KafkaOffset is an offset in one partition; Fetched marks a consumer's
// position before it took a record there: the offset its last Fetch
// asked for.
type KafkaOffset struct {
	Partition string
	Offset    int64
	Fetched   bool
}

// KafkaVerdictKind is what Kafka said of a fact or of a checkpoint.
type KafkaVerdictKind uint8

const (
	// KafkaAgreed: Kafka shows what the simulation shows.
	KafkaAgreed KafkaVerdictKind = iota
	// KafkaOtherwise: Kafka did otherwise.
	KafkaOtherwise
	// KafkaOtherwiseKnown: Kafka did otherwise, a known difference
	// (listed with its reason).
	KafkaOtherwiseKnown
	// KafkaSimOnly: no broker exposes the fact or plays the action.
	KafkaSimOnly
	// KafkaNotPlayed: eoslab does not play an action before it on a
	// broker yet, or the step has no fact to compare.
	KafkaNotPlayed
)

// KafkaFact is one expect line of the step, judged on both sides.
type KafkaFact struct {
	Line    int
	Expect  string
	Verdict KafkaVerdictKind
	// Words is the verdict in a line ("Kafka agreed", "Kafka did
	// otherwise: simulation ...; Kafka ...", "simulation only: ...").
	Words string
}

// KafkaVerdict is Kafka's word on a checkpoint after its reveal.
type KafkaVerdict struct {
	// Asked is the step whose checkpoint it is (0-based).
	Asked int
	Kind  KafkaVerdictKind
	Words string
}
