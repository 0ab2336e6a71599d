package wire

import (
	"encoding/binary"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// respFrame is a response frame as a broker writes it: size, correlation
// id, an empty tag section for a flexible version (not for ApiVersions),
// then the body.
func respFrame(corr int32, resp kmsg.Response) []byte {
	b := binary.BigEndian.AppendUint32(nil, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	if resp.IsFlexible() && resp.Key() != int16(kmsg.ApiVersions) {
		b = append(b, 0)
	}
	b = resp.AppendTo(b)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	return b
}

func TestParseResponseKeepsCodes(t *testing.T) {
	for _, v := range []int16{1, 3, 5} { // v3 is the first flexible EndTxn
		req := withVersion(&kmsg.EndTxnRequest{TransactionalID: "tx"}, v)
		want := kmsg.NewPtrEndTxnResponse()
		want.SetVersion(v)
		want.ErrorCode, want.ProducerID, want.ProducerEpoch = 90, 7, 3
		got, err := ParseResponse(req, respFrame(4, want))
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		r := got.(*kmsg.EndTxnResponse)
		if r.ErrorCode != 90 || (v >= 5 && (r.ProducerID != 7 || r.ProducerEpoch != 3)) {
			t.Errorf("v%d: parsed %+v", v, r)
		}
	}
	// A Produce answer's per-partition code and base offset.
	req := produce(9, -1)
	want := kmsg.NewPtrProduceResponse()
	want.SetVersion(9)
	tp := kmsg.NewProduceResponseTopicPartition()
	tp.ErrorCode, tp.BaseOffset = 45, 12
	want.Topics = []kmsg.ProduceResponseTopic{{Topic: "t", Partitions: []kmsg.ProduceResponseTopicPartition{tp}}}
	got, err := ParseResponse(req, respFrame(1, want))
	if err != nil {
		t.Fatal(err)
	}
	if p := got.(*kmsg.ProduceResponse).Topics[0].Partitions[0]; p.ErrorCode != 45 || p.BaseOffset != 12 {
		t.Errorf("produce: parsed %+v", p)
	}
	if _, err := ParseResponse(req, []byte{0, 0, 0, 1}); err == nil {
		t.Error("a frame shorter than its header parsed")
	}
}

// The observer sees each request once, a dropped one marked, and each
// answer the broker sent, a lost one marked.
func TestObserveSeesRequestsAndAnswers(t *testing.T) {
	b := newFakeBroker(t)
	var seen []Exchange
	f := &Faults{Observe: func(x Exchange) { seen = append(seen, x) }}
	f.Add(Rule{Key: kmsg.EndTxn, Dir: Response, Action: Drop})
	c := dial(t, f, b)
	c.Write(frameOf(withVersion(&kmsg.InitProducerIDRequest{}, 4), 1))
	buf := make([]byte, 1024)
	if _, err := c.Read(buf); err != nil {
		t.Fatal(err)
	}
	c.Write(frameOf(withVersion(&kmsg.EndTxnRequest{TransactionalID: "tx"}, 3), 2))
	if _, err := c.Read(buf); err == nil {
		t.Fatal("the lost EndTxn answer was read")
	}
	var got []string
	for _, x := range seen {
		s := kmsg.NameForKey(x.Req.Key())
		switch {
		case x.Resp != nil && x.Lost:
			s += " answer lost"
		case x.Resp != nil:
			s += " answer"
		case x.Err != nil:
			s += " unparsed: " + x.Err.Error()
		}
		got = append(got, s)
	}
	want := []string{"InitProducerID", "InitProducerID answer", "EndTxn", "EndTxn answer lost"}
	if len(got) != len(want) {
		t.Fatalf("observed %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("observed %q, want %q", got, want)
		}
	}
}
