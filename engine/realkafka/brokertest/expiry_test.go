package brokertest

import "testing"

// TestVerifyProducerExpiry: an advance in which the leader forgets an idle
// producer (producer.id.expiration.ms) is played with a short expiration
// on the test's cluster, so what follows is compared: the forgotten pid's
// next batch is accepted at any sequence (KIP-360), as s11 says.
func TestVerifyProducerExpiry(t *testing.T) {
	allAgreeSaying(t, "expiry.scn", `config producer.id.expiration.ms=86400000
topic t
inject batch t-0 pid=2000 epoch=3 seq=57 count=3
run
expect partition t-0 producer 2000 epoch=3 lastseq=59
advance 90000000
inject batch t-0 pid=2000 epoch=3 seq=62 count=1
run
expect partition t-0 producer 2000 epoch=3 lastseq=62 cached=1
expect partition t-0 leo 4
`, 3, "producer.id.expiration.ms played as 1000 ms")
}
