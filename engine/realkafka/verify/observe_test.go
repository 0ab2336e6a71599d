package verify

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
)

// The bytes of a __transaction_state record, written field by field as
// Kafka's TransactionLogKey.json and TransactionLogValue.json specify
// (version 0: int16 lengths and int32 array counts; version 1: flexible,
// compact lengths plus one, a tag section after each struct).
func txnKeyBytes(id string) []byte {
	b := binary.BigEndian.AppendUint16(nil, 0) // key version 0
	b = binary.BigEndian.AppendUint16(b, uint16(len(id)))
	return append(b, id...)
}

func txnValueBytes(version int16, pid int64, epoch int16, state int8, topic string, parts []int32) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(version))
	b = binary.BigEndian.AppendUint64(b, uint64(pid))
	b = binary.BigEndian.AppendUint16(b, uint16(epoch))
	b = binary.BigEndian.AppendUint32(b, 60000) // TransactionTimeoutMs
	b = append(b, byte(state))
	if version == 0 {
		b = binary.BigEndian.AppendUint32(b, 1) // one topic
		b = binary.BigEndian.AppendUint16(b, uint16(len(topic)))
		b = append(b, topic...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(parts)))
		for _, p := range parts {
			b = binary.BigEndian.AppendUint32(b, uint32(p))
		}
	} else {
		b = binary.AppendUvarint(b, 2) // compact array: one topic
		b = binary.AppendUvarint(b, uint64(len(topic)+1))
		b = append(b, topic...)
		b = binary.AppendUvarint(b, uint64(len(parts)+1))
		for _, p := range parts {
			b = binary.BigEndian.AppendUint32(b, uint32(p))
		}
		b = append(b, 0) // the topic's tags
	}
	b = binary.BigEndian.AppendUint64(b, 1700000000000) // TransactionLastUpdateTimestampMs
	b = binary.BigEndian.AppendUint64(b, 1690000000000) // TransactionStartTimestampMs
	if version >= 1 {
		b = append(b, 0) // top-level tags (PreviousProducerId, NextProducerId, ... absent)
	}
	return b
}

func TestDecodeTxnRecord(t *testing.T) {
	for _, v := range []int16{0, 1} {
		rec, ok, err := decodeTxnRecord(txnKeyBytes("p-app"), txnValueBytes(v, 4001, 3, 2, "p-t", []int32{1, 0}))
		if err != nil || !ok {
			t.Fatalf("v%d: %v %v", v, ok, err)
		}
		want := txnRecord{TxnID: "p-app", State: "PrepareCommit", PID: 4001, Epoch: 3, Partitions: []string{"p-t-0", "p-t-1"}}
		if rec.TxnID != want.TxnID || rec.State != want.State || rec.PID != want.PID || rec.Epoch != want.Epoch || !slices.Equal(rec.Partitions, want.Partitions) {
			t.Errorf("v%d: decoded %+v, want %+v", v, rec, want)
		}
	}
	rec, ok, err := decodeTxnRecord(txnKeyBytes("gone"), nil)
	if err != nil || !ok || !rec.Tombstone || rec.TxnID != "gone" {
		t.Errorf("tombstone: %+v %v %v", rec, ok, err)
	}
	if _, _, err := decodeTxnRecord(txnKeyBytes("x"), []byte{0, 0, 1}); err == nil {
		t.Error("a cut value decoded")
	}
	other := binary.BigEndian.AppendUint16(nil, 5)
	if _, ok, _ := decodeTxnRecord(append(other, 0, 0), nil); ok {
		t.Error("a key of another version was taken")
	}
	// Every state the coordinator writes has the engine's name.
	for s := int8(0); s <= 7; s++ {
		name := kmsg.TransactionState(s).String()
		if st, ok := txnStateNamed(name); !ok || int8(st) != s {
			t.Errorf("state %d (%s): engine %v %v", s, name, st, ok)
		}
	}
}

// A Produce on the wire flattens to its partition's batch header, and
// its answer carries the request's producer fields with the code.
func TestWireFacts(t *testing.T) {
	req := kmsg.NewPtrProduceRequest()
	tp := kmsg.NewProduceRequestTopicPartition()
	tp.Partition = 1
	tp.Records = buildBatch(engine.InjectBatch{ProducerID: 7, Epoch: 2, Seq: 5, Count: 2})
	req.Topics = []kmsg.ProduceRequestTopic{{Topic: "t", Partitions: []kmsg.ProduceRequestTopicPartition{tp}}}
	fs := requestFacts(req, nil)
	if len(fs) != 1 || fs[0].tp != "t" || fs[0].part != 1 || fs[0].pid != 7 || fs[0].epoch != 2 || fs[0].seq != 5 {
		t.Fatalf("request facts %+v", fs)
	}
	resp := kmsg.NewPtrProduceResponse()
	rp := kmsg.NewProduceResponseTopicPartition()
	rp.Partition, rp.ErrorCode = 1, 45
	resp.Topics = []kmsg.ProduceResponseTopic{{Topic: "t", Partitions: []kmsg.ProduceResponseTopicPartition{rp}}}
	as := answerFacts(req, resp, nil)
	if len(as) != 1 || as[0].code != 45 || as[0].pid != 7 || as[0].seq != 5 {
		t.Fatalf("answer facts %+v", as)
	}
	end := &kmsg.EndTxnResponse{ErrorCode: 90}
	if as := answerFacts(&kmsg.EndTxnRequest{ProducerID: 3, ProducerEpoch: 1}, end, nil); len(as) != 1 || as[0].code != 90 || as[0].pid != 3 {
		t.Errorf("EndTxn answer facts %+v", as)
	}
}
