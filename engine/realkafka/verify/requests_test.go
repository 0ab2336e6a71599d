package verify

import "testing"

// TestSenderOf: the broker a request between brokers came from, by the
// client ids Kafka's inter-broker senders use.
func TestSenderOf(t *testing.T) {
	for id, want := range map[string]string{
		"broker-2-txn-marker-sender":    "broker-2", // TransactionMarkerChannelManager
		"AddPartitionsManager-client-3": "broker-3", // NetworkUtils.buildNetworkClient
		"broker-1-fetcher-0":            "broker-1",
		"eoslab":                        "",
		"":                              "",
	} {
		if got := senderOf(id); got != want {
			t.Errorf("senderOf(%q) = %q, want %q", id, got, want)
		}
	}
}
