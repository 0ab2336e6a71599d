package realkafka

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Batch is one record batch header as the broker stores it (KIP-98's
// RecordBatch v2), with the control record's type for a marker.
type Batch struct {
	BaseOffset    int64
	LastOffset    int64
	ProducerID    int64
	ProducerEpoch int16
	BaseSequence  int32
	Records       int
	Transactional bool
	Control       bool
	// Marker is "COMMIT" or "ABORT" for a control batch, else "", and
	// CoordinatorEpoch the marker's coordinator epoch.
	Marker           string
	CoordinatorEpoch int32
	// Values are the records' values (nil for a compressed batch).
	Values []string
}

// Log is a partition as a raw Fetch shows it: every batch from offset 0
// (read_uncommitted, so aborted data and markers too), the high watermark,
// the last stable offset, the log start offset and the aborted
// transactions a read_committed Fetch would be given.
type Log struct {
	Batches       []Batch
	HighWatermark int64
	LastStable    int64
	LogStart      int64
	Aborted       []Aborted
}

// Aborted is one entry of a Fetch response's AbortedTransactions.
type Aborted struct {
	ProducerID  int64
	FirstOffset int64
}

// FetchLog reads partition p of topic from offset 0 with raw Fetch
// requests (v11: read_committed for the aborted list, then
// read_uncommitted for every batch), to the high watermark. It asks the
// broker kgo routes the request to, which is the leader on one node; on
// several nodes pass a client of the leader (kgo.Client.Broker).
func FetchLog(ctx context.Context, r interface {
	Request(context.Context, kmsg.Request) (kmsg.Response, error)
}, topic string, p int32) (Log, error) {
	var out Log
	id, _, err := topicID(ctx, r, topic, p)
	if err != nil {
		return out, err
	}
	committed, err := fetch(ctx, r, topic, id, p, 0, 1)
	if err != nil {
		return out, err
	}
	for _, a := range committed.AbortedTransactions {
		out.Aborted = append(out.Aborted, Aborted{a.ProducerID, a.FirstOffset})
	}
	out.LastStable = committed.LastStableOffset
	next := int64(0)
	for {
		part, err := fetch(ctx, r, topic, id, p, next, 0)
		if err != nil {
			return out, err
		}
		out.HighWatermark, out.LogStart = part.HighWatermark, part.LogStartOffset
		batches, err := parseBatches(part.RecordBatches)
		if err != nil {
			return out, err
		}
		for _, b := range batches {
			if b.LastOffset >= next {
				out.Batches = append(out.Batches, b)
				next = b.LastOffset + 1
			}
		}
		if len(batches) == 0 || next >= part.HighWatermark {
			return out, nil
		}
	}
}

// fetch retries, for a bounded time, what a partition answers while its
// leadership settles (a new topic's log is created after its metadata).
func fetch(ctx context.Context, r interface {
	Request(context.Context, kmsg.Request) (kmsg.Response, error)
}, topic string, id [16]byte, p int32, offset int64, isolation int8) (kmsg.FetchResponseTopicPartition, error) {
	for i := 0; ; i++ {
		rp, err := fetchOnce(ctx, r, topic, id, p, offset, isolation)
		var ke *kerr.Error
		if i >= 50 || !errors.As(err, &ke) || !ke.Retriable {
			return rp, err
		}
		select {
		case <-ctx.Done():
			return rp, err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func fetchOnce(ctx context.Context, r interface {
	Request(context.Context, kmsg.Request) (kmsg.Response, error)
}, topic string, id [16]byte, p int32, offset int64, isolation int8) (kmsg.FetchResponseTopicPartition, error) {
	req := kmsg.NewPtrFetchRequest()
	req.SetVersion(11)
	req.ReplicaID = -1
	req.MaxWaitMillis = 0
	req.MaxBytes = 8 << 20
	req.IsolationLevel = isolation
	t := kmsg.NewFetchRequestTopic()
	t.Topic, t.TopicID = topic, id
	fp := kmsg.NewFetchRequestTopicPartition()
	fp.Partition = p
	fp.FetchOffset = offset
	fp.PartitionMaxBytes = 8 << 20
	fp.CurrentLeaderEpoch = -1
	fp.LogStartOffset = -1
	t.Partitions = append(t.Partitions, fp)
	req.Topics = append(req.Topics, t)
	// A Fetch goes to the partition's leader: kgo sends a request it does
	// not shard to any broker, and on a cluster of several a follower
	// answers a consumer's Fetch with NOT_LEADER_OR_FOLLOWER. The leader
	// is looked up each time: a retry may follow a failover.
	if cl, ok := r.(*kgo.Client); ok {
		if _, leader, err := topicID(ctx, r, topic, p); err == nil && leader >= 0 {
			r = cl.Broker(int(leader))
		}
	}
	resp, err := r.Request(ctx, req)
	if err != nil {
		return kmsg.FetchResponseTopicPartition{}, err
	}
	fr := resp.(*kmsg.FetchResponse)
	if err := kerr.ErrorForCode(fr.ErrorCode); err != nil {
		return kmsg.FetchResponseTopicPartition{}, err
	}
	for _, rt := range fr.Topics {
		for _, rp := range rt.Partitions {
			if rp.Partition == p {
				if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
					return rp, fmt.Errorf("fetch %s-%d: %w", topic, p, err)
				}
				return rp, nil
			}
		}
	}
	return kmsg.FetchResponseTopicPartition{}, fmt.Errorf("fetch %s-%d: partition missing from the response", topic, p)
}

// topicID asks Metadata for the topic's id: kgo sends Fetch at the newest
// version both sides know, and Fetch v13+ names topics by id (KIP-516).
func topicID(ctx context.Context, r interface {
	Request(context.Context, kmsg.Request) (kmsg.Response, error)
}, topic string, p int32) ([16]byte, int32, error) {
	req := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(topic)
	req.Topics = append(req.Topics, mt)
	resp, err := r.Request(ctx, req)
	if err != nil {
		return [16]byte{}, -1, err
	}
	for _, t := range resp.(*kmsg.MetadataResponse).Topics {
		if t.Topic != nil && *t.Topic == topic {
			leader := int32(-1)
			for _, tp := range t.Partitions {
				if tp.Partition == p {
					leader = tp.Leader
				}
			}
			return t.TopicID, leader, kerr.ErrorForCode(t.ErrorCode)
		}
	}
	return [16]byte{}, -1, fmt.Errorf("metadata: topic %s missing", topic)
}

// parseBatches splits a Fetch's record bytes into batch headers; a
// truncated batch at the end (Fetch may cut one) is left for the next
// request.
func parseBatches(b []byte) ([]Batch, error) {
	var out []Batch
	for len(b) >= 12+49 {
		length := int(int32(binary.BigEndian.Uint32(b[8:])))
		if length < 49 || 12+length > len(b) {
			break
		}
		var rb kmsg.RecordBatch
		if err := rb.ReadFrom(b[:12+length]); err != nil {
			return out, fmt.Errorf("record batch at offset: %w", err)
		}
		b = b[12+length:]
		if rb.Magic != 2 {
			return out, fmt.Errorf("record batch magic %d, want 2", rb.Magic)
		}
		x := Batch{
			BaseOffset:    rb.FirstOffset,
			LastOffset:    rb.FirstOffset + int64(rb.LastOffsetDelta),
			ProducerID:    rb.ProducerID,
			ProducerEpoch: rb.ProducerEpoch,
			BaseSequence:  rb.FirstSequence,
			Records:       int(rb.NumRecords),
			Transactional: rb.Attributes&0x10 != 0,
			Control:       rb.Attributes&0x20 != 0,
		}
		recs := records(rb)
		if x.Control && len(recs) > 0 {
			x.Marker, x.CoordinatorEpoch = marker(recs[0])
		} else {
			for _, r := range recs {
				x.Values = append(x.Values, string(r.Value))
			}
		}
		out = append(out, x)
	}
	return out, nil
}

// records splits an uncompressed batch's records (nil when compressed:
// eoslab's clients send uncompressed, and control batches never are).
func records(rb kmsg.RecordBatch) []kmsg.Record {
	if rb.Attributes&0x07 != 0 {
		return nil
	}
	var out []kmsg.Record
	b := rb.Records
	for len(b) > 0 {
		n, w := binary.Varint(b)
		if w <= 0 || n < 0 || int(n) > len(b)-w {
			break
		}
		var r kmsg.Record
		if err := r.ReadFrom(b[:w+int(n)]); err != nil {
			break
		}
		out = append(out, r)
		b = b[w+int(n):]
	}
	return out
}

// marker reads a control record: key (version int16, type int16: 0 ABORT,
// 1 COMMIT), value (version int16, coordinator epoch int32), as
// org.apache.kafka.common.record.EndTransactionMarker writes them.
func marker(r kmsg.Record) (string, int32) {
	kind := "?"
	if len(r.Key) >= 4 {
		switch binary.BigEndian.Uint16(r.Key[2:]) {
		case 0:
			kind = "ABORT"
		case 1:
			kind = "COMMIT"
		}
	}
	epoch := int32(-1)
	if len(r.Value) >= 6 {
		epoch = int32(binary.BigEndian.Uint32(r.Value[2:]))
	}
	return kind, epoch
}
