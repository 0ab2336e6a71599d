package verify

import "github.com/eoslab/eoslab/engine/script"

// A group's members on the broker are kgo's own group consumers. One member
// joins, polls, commits and hands its group metadata (member id and
// generation, KIP-447) to sendOffsetsToTransaction as Java's
// consumer.groupMetadata() does. A second live member of the same group
// makes the coordinator rebalance: the first member's kgo client must
// rejoin, which happens on kgo's own schedule, not at a line of the file,
// so the generation each member holds at the next line is timing. The
// driver stops a file there (and at a rebalance line), rather than compare
// facts that depend on it.

// memberJoins is called before a consumer's poll: it stops the file when
// another live member of the consumer's group has a client on the broker.
func (d *driver) memberJoins(c script.Command, name string) bool {
	cd := d.cdecls[name]
	if cd.GroupID == "" {
		return true
	}
	for other, od := range d.cdecls {
		if other == name || od.GroupID != cd.GroupID {
			continue
		}
		if cs, ok := d.cons[other]; ok && cs.cl != nil && !cs.crashed {
			d.stop(c, "a second live member joins group "+cd.GroupID+": kgo rejoins the first member on its own schedule, so the generation each member holds at the next line is timing", false)
			return false
		}
	}
	return true
}
