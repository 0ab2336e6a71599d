package verify

import (
	"testing"

	"github.com/eoslab/eoslab/engine/realkafka"
)

// TestCountMarkers: control batches count, data batches do not; on the
// cluster's own partitions only the file's producers' markers count.
func TestCountMarkers(t *testing.T) {
	l := realkafka.Log{Batches: []realkafka.Batch{
		{ProducerID: 7, Transactional: true},
		{ProducerID: 7, Control: true, Marker: "COMMIT"},
		{ProducerID: 9, Control: true, Marker: "ABORT"},
	}}
	mine := map[int64]bool{7: true}
	if n := countMarkers(l, mine, false); n != 2 {
		t.Errorf("all markers: %d, want 2", n)
	}
	if n := countMarkers(l, mine, true); n != 1 {
		t.Errorf("the file's markers: %d, want 1", n)
	}
}
