package verify

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/wire"
)

// acksZero prepares an acks=0 send: such a send is done when it leaves
// the client, before the broker has appended it, so the broker run waits
// (bounded) for the partition's end offset to move past the records,
// unless the wrapper dropped the request. It returns the wait, to call
// after the send.
func (d *driver) acksZero(ctx context.Context, p *producer, a engine.Send) func() {
	topic := d.name(a.TP.Topic)
	before, ok := d.endOffset(ctx, topic, a.TP.Partition)
	if !ok {
		return func() {}
	}
	drops := producesDropped(p.faults())
	want := before + int64(len(a.Values))
	return func() {
		end := time.Now().Add(5 * time.Second)
		for time.Now().Before(end) && producesDropped(p.faults()) == drops {
			if n, ok := d.endOffset(ctx, topic, a.TP.Partition); ok && n >= want {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func (d *driver) endOffset(ctx context.Context, topic string, partition int32) (int64, bool) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	os, err := d.adm.ListEndOffsets(cctx, topic)
	if err != nil {
		return 0, false
	}
	o, ok := os.Lookup(topic, partition)
	return o.Offset, ok && o.Err == nil
}

func producesDropped(f *wire.Faults) int {
	n := 0
	for _, e := range f.Events() {
		if e.Action == wire.Drop && e.Dir == wire.Request && e.Key == kmsg.Produce {
			n++
		}
	}
	return n
}
