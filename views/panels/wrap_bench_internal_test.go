package panels

import (
	"strconv"
	"testing"

	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// BenchmarkWrapMemo builds the Coordinator panel for a new frame (a first
// visit: a Key not drawn before), whose __transaction_state records are the
// ones the frames before it showed too, as consecutive steps' are. "memo"
// is the painter with a Cache, which wraps each record once across frames;
// "none" wraps every record again. The wrap memo stays as long as "memo"
// costs less.
func BenchmarkWrapMemo(b *testing.B) {
	th := theme.New(theme.Options{})
	var writes []string
	for i := range 200 {
		writes = append(writes, strconv.Itoa(i)+": producerId=4000 producerEpoch=3 state=Ongoing partitions=[payments-0, payments-1, "+
			"ledger-"+strconv.Itoa(i%7)+"] txnTimeoutMs=60000 lastUpdateTimestamp="+strconv.Itoa(1000+i))
	}
	for _, c := range []struct {
		name  string
		cache *Cache
	}{{"memo", NewCache()}, {"none", nil}} {
		b.Run(c.name, func(b *testing.B) {
			p := Painter{Theme: th, Width: 60, Cache: c.cache}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				f := &model.Frame{Key: uint64(i + 1), Coordinators: []model.CoordinatorView{{TxnID: "tx", Partition: "__transaction_state-7", Writes: writes}}}
				_, body, _ := Coordinator(f, p)
				for j := range body.Len() {
					_ = body.Line(j)
				}
			}
		})
	}
}
