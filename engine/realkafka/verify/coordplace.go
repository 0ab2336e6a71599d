package verify

import (
	"context"
	"crypto/rand"
	"unicode/utf16"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// A coordinator row (`expect txn ID coordinator __transaction_state-N`)
// names the partition the simulation gives the bare id. The broker run's
// id carries the run's prefix, so on a broker whose __transaction_state
// has the simulation's partition count (eoslab kafka up makes 50) the row
// is judged when the prefix is chosen so that every id of the file's
// coordinator rows lands on its simulation partition: prefix + id hashes
// as hash(prefix)*31^len(id) + hash(id) (Java's String.hashCode), so a
// candidate prefix costs one multiply-add per id, and a bounded search
// over the prefix's last characters places the files' ids in well under
// a millisecond (TestCoordPrefix: five ids).

// coordPlaceTries bounds the search: a few seconds of one core at most.
// k unrelated ids want about 50^k tries (seven: 7.8e11, beyond it); ids
// that differ in one character have related partitions and cost less.
const coordPlaceTries = 1 << 30

// prefixAlphabet is the characters of the searched part of a prefix:
// legal in a topic name, which carries the same prefix.
const prefixAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

// coordinatorIDs are the transactional ids the file's coordinator rows
// name, in order of first appearance.
func coordinatorIDs(cmds []script.Command) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cmds {
		if x, ok := c.Expect.(script.TxnCheck); ok && x.Field == script.TxnCoordinator && !seen[x.ID] {
			seen[x.ID] = true
			out = append(out, x.ID)
		}
	}
	return out
}

type placedID struct {
	mul, add int32 // 31^len(id) and hash(id)
	want     int32 // the simulation's partition of the bare id
}

// coordPrefix searches, within tries candidates, a run prefix under which
// every id is on the __transaction_state partition (of the simulation's
// count) the simulation gives the bare id. ok is false when none was
// found; the prefix is then a random one.
func coordPrefix(ids []string, tries int) (string, bool) {
	if len(ids) == 0 {
		return prefix(), true
	}
	ps := make([]placedID, len(ids))
	for i, id := range ids {
		mul := int32(1)
		for range utf16.Encode([]rune(id)) {
			mul *= 31
		}
		ps[i] = placedID{mul, engine.JavaStringHash(id), engine.PartitionFor(id, simInternalPartitions)}
	}
	// "eoslab-verify-" + 4 random characters + 6 searched + "-".
	var r [4]byte
	rand.Read(r[:])
	head := []byte("eoslab-verify-")
	for _, b := range r {
		head = append(head, prefixAlphabet[int(b)%len(prefixAlphabet)])
	}
	n := len(prefixAlphabet)
	tail := make([]byte, 6)
	hh := engine.JavaStringHash(string(head))
	dash := int32('-')
	count := 0
	// Five nested positions by an index, the sixth in the inner loop.
	total := 1
	for range 5 {
		total *= n
	}
	for outer := 0; outer < total && count < tries; outer++ {
		h := hh
		o := outer
		for i := 4; i >= 0; i-- {
			tail[i] = prefixAlphabet[o%n]
			o /= n
		}
		for i := range 5 {
			h = 31*h + int32(tail[i])
		}
		for c := 0; c < n; c++ {
			count++
			hp := (31*h+int32(prefixAlphabet[c]))*31 + dash
			good := true
			for _, p := range ps {
				if engine.KafkaAbs(hp*p.mul+p.add)%simInternalPartitions != p.want {
					good = false
					break
				}
			}
			if good {
				tail[5] = prefixAlphabet[c]
				return string(head) + string(tail) + "-", true
			}
		}
	}
	return prefix(), false
}

// coordKey carries, on a broker verify does not own, how the file's
// coordinator ids were placed.
type coordKey struct{}

type coordPlacement struct {
	ids    int
	placed bool
}

// placeCoordinators picks the file's prefix on a broker verify does not
// own, so its coordinator rows can be judged.
func placeCoordinators(ctx context.Context, cmds []script.Command) context.Context {
	ids := coordinatorIDs(cmds)
	if len(ids) == 0 {
		return ctx
	}
	p, ok := coordPrefix(ids, coordPlaceTries)
	ctx = context.WithValue(ctx, coordKey{}, coordPlacement{len(ids), ok})
	return context.WithValue(ctx, prefixKey{}, p)
}
