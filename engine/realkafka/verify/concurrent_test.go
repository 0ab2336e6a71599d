package verify

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine/realkafka/wire"
)

// TestAfterConcurrentHoldsOnlyARetriedInit: only a transactional
// InitProducerId answered CONCURRENT_TRANSACTIONS, as the client gets it,
// waits for the coordinator (the driver here has no cluster: a wait
// would panic on its nil admin client).
func TestAfterConcurrentHoldsOnlyARetriedInit(t *testing.T) {
	id := "tx-a"
	txn := &kmsg.InitProducerIDRequest{TransactionalID: &id}
	concurrent := &kmsg.InitProducerIDResponse{ErrorCode: kerr.ConcurrentTransactions.Code}
	d := &driver{}
	for name, x := range map[string]wire.Exchange{
		"the request":              {Req: txn},
		"an answer without error":  {Req: txn, Resp: &kmsg.InitProducerIDResponse{}},
		"an idempotent producer's": {Req: &kmsg.InitProducerIDRequest{}, Resp: concurrent},
		"a lost answer":            {Req: txn, Resp: concurrent, Lost: true},
		"a duplicate's answer":     {Req: txn, Resp: concurrent, Copy: true},
		"another request's":        {Req: &kmsg.EndTxnRequest{}, Resp: &kmsg.EndTxnResponse{ErrorCode: kerr.ConcurrentTransactions.Code}},
	} {
		func() {
			defer func() {
				if recover() != nil {
					t.Errorf("%s: waited for the coordinator", name)
				}
			}()
			d.afterConcurrent(x)
		}()
	}
	defer func() {
		if recover() == nil {
			t.Error("a transactional InitProducerId answered CONCURRENT_TRANSACTIONS did not wait")
		}
	}()
	d.afterConcurrent(wire.Exchange{Req: txn, Resp: concurrent})
}
