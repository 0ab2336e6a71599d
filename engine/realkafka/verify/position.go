package verify

import (
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
)

// fetchPosition is a consumer's position in a partition it has taken no
// record of: the offset its instance last asked the broker for. The Java
// consumer's position is its next fetch offset (SubscriptionState's
// FetchPosition), set before any record by the reset (ListOffsets: the
// log start offset, the high watermark, or the LSO for read_committed) or
// by the group's committed offset (OffsetFetch); franz-go keeps that
// offset to itself but writes it into every Fetch. With a fetch session
// (KIP-227) a partition whose offset did not move is left out of the next
// request, so the last request that names the partition holds its
// position; one that forgets the partition ends it. ok is false when the
// instance never fetched the partition.
func (d *driver) fetchPosition(name string, cs *consumer, tp engine.TP) (int64, bool) {
	if d.obs == nil {
		return 0, false
	}
	xs := d.obs.exchanges()
	var pos int64
	ok := false
	for _, o := range xs[min(cs.since, len(xs)):] {
		r, isFetch := o.x.Req.(*kmsg.FetchRequest)
		if o.client != name || !isFetch || o.x.Resp != nil || o.x.Copy || o.x.Dropped {
			continue
		}
		for _, t := range r.Topics {
			if d.runTopic(t.Topic, t.TopicID) != tp.Topic {
				continue
			}
			for _, p := range t.Partitions {
				if p.Partition == tp.Partition {
					pos, ok = p.FetchOffset, true
				}
			}
		}
		for _, t := range r.ForgottenTopics {
			if d.runTopic(t.Topic, t.TopicID) != tp.Topic {
				continue
			}
			for _, p := range t.Partitions {
				if p == tp.Partition {
					ok = false
				}
			}
		}
	}
	return pos, ok
}

// runTopic is the file's name of a topic a Fetch names by name or, from
// version 13 (KIP-516), by id.
func (d *driver) runTopic(name string, id [16]byte) string {
	return strings.TrimPrefix(topicName(d.topicName).of(name, id), d.prefix)
}
