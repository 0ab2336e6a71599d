package engine

import (
	"math/rand"
	"testing"
)

// recountOutputs is what the offsets-atomic index must hold, computed the
// slow way: every processor output record on a committed or plain batch,
// counted per output topic, input partition and input offset.
func recountOutputs(w *World) map[outputKey]map[int64]int32 {
	out := map[outputKey]map[int64]int32{}
	for _, tp := range w.allPartitions() {
		p := w.partitions[tp]
		for i := range p.Batches {
			b := &p.Batches[i]
			if !hasSources(b) {
				continue
			}
			if st := p.Status(b); st != StatusPlain && st != StatusCommitted {
				continue
			}
			for i := 0; i < b.Records.Len(); i++ {
				src := b.Records.Source(i)
				k := outputKey{Topic: tp.Topic, In: src.TP}
				if out[k] == nil {
					out[k] = map[int64]int32{}
				}
				out[k][src.Offset]++
			}
		}
	}
	return out
}

// each calls f for every non-zero entry.
func (v pvec[T]) each(f func(i int64, x T)) {
	var zero T
	var walk func(n *pnode[T], base int64, shift uint)
	walk = func(n *pnode[T], base int64, shift uint) {
		if n == nil {
			return
		}
		for k := 0; k < pvecWidth; k++ {
			i := base | int64(k)<<shift
			if n.vals != nil {
				if n.vals[k] != zero {
					f(i, n.vals[k])
				}
			} else {
				walk(n.kids[k], i, shift-pvecBits)
			}
		}
	}
	walk(v.root, 0, v.shift)
}

func checkOutputIndex(t *testing.T, w *World, what string) {
	t.Helper()
	want := recountOutputs(w)
	for k, offs := range want {
		for off, n := range offs {
			if got := w.outputs[k].get(off); got != n {
				t.Fatalf("%s: %s from %s@%d: index %d, recount %d", what, k.Topic, k.In, off, got, n)
			}
		}
	}
	for k, v := range w.outputs {
		v.each(func(off int64, n int32) {
			if want[k][off] != n {
				t.Fatalf("%s: %s from %s@%d: index %d, recount %d", what, k.Topic, k.In, off, n, want[k][off])
			}
		})
	}
}

// TestOutputIndexMatchesRecount runs swarms with processors whose output
// is replicated (so new leaders truncate it) and checks the incremental
// count of committed outputs against a full recount after every action.
func TestOutputIndexMatchesRecount(t *testing.T) {
	t.Parallel()
	setups := []swarmSetup{
		{
			name: "replicated output",
			setup: []Action{
				CreateTopic{Name: "t", Partitions: 2, RF: 2},
				CreateTopic{Name: "u", Partitions: 2, RF: 3},
				txnProducerTimeout("T1", "tx-1", 20000),
				producerWith("I", func(c *ProducerConfig) { c.Acks = -1 }, ProducerAcks),
				DeclareProcessor{Name: "P", Input: "t", Output: "u", GroupID: "g", TransactionalID: "proc-1"},
				DeclareProcessor{Name: "Q", Input: "t", Output: "u", GroupID: "h", TransactionalID: "proc-2", Offsets: OffsetsAfter},
			},
			producers: []string{"T1", "I"},
			txnal:     []string{"T1"},
			procs:     []string{"P", "Q"},
		},
		unsafeSetups[2],
	}
	seeds := swarmScale(60)
	if testing.Short() || raceEnabled {
		seeds = min(seeds, 20)
	}
	// Under transaction.version 2 too (markers at the bumped epoch), on
	// fewer seeds.
	for _, version := range []int64{1, 2} {
		n := seeds
		if version == 2 {
			n = seeds / 3
		}
		for _, s := range setups {
			for seed := int64(1); seed <= int64(n); seed++ {
				w := New(DefaultConfig())
				w.Apply(versionConfig(version))
				for _, a := range s.setup {
					w.Apply(a)
				}
				r := rand.New(rand.NewSource(seed))
				for i := 0; i < 400; i++ {
					a := randomAction(w, r, s, i)
					w.Apply(a)
					checkOutputIndex(t, w, s.name+" tv"+itoa(version)+" seed "+itoa(seed)+" after "+a.String())
				}
			}
		}
	}
}

func TestPvec(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var v pvec[int32]
	want := map[int64]int32{}
	var versions []pvec[int32]
	var wants []map[int64]int32
	for i := 0; i < 5000; i++ {
		k := int64(r.Intn(1 << uint(1+r.Intn(20))))
		x := int32(r.Intn(5))
		v = v.set(k, x)
		want[k] = x
		if i%500 == 0 {
			versions = append(versions, v)
			c := map[int64]int32{}
			for k, x := range want {
				c[k] = x
			}
			wants = append(wants, c)
		}
	}
	versions = append(versions, v)
	wants = append(wants, want)
	for j, v := range versions {
		for k, x := range wants[j] {
			if got := v.get(k); got != x {
				t.Fatalf("version %d: get(%d) = %d, want %d", j, k, got, x)
			}
		}
		n := 0
		v.each(func(k int64, x int32) {
			n++
			if wants[j][k] != x {
				t.Fatalf("version %d: entry %d = %d, want %d", j, k, x, wants[j][k])
			}
		})
		for _, x := range wants[j] {
			if x == 0 {
				n++
			}
		}
		if n != len(wants[j]) {
			t.Fatalf("version %d: %d entries, want %d", j, n, len(wants[j]))
		}
	}
	if v.get(-1) != 0 || v.get(1<<40) != 0 {
		t.Fatal("an index never set must read as zero")
	}
}

// TestOutputIndexTruncation drives a log directly through the cases a swarm
// seldom reaches: a truncation that removes committed outputs with their
// COMMIT marker, one that removes only the marker (the transaction is open
// again), and plain outputs.
func TestOutputIndexTruncation(t *testing.T) {
	w := New(DefaultConfig())
	applyAll(t, w, CreateTopic{Name: "t"}, CreateTopic{Name: "u", Partitions: 1, RF: 3})
	p := w.partitions[TP{Topic: "u"}]
	in := TP{Topic: "t"}
	out := func(pid int64, txnal bool, offs ...int64) Batch {
		vals := make([]string, len(offs))
		srcs := make([]Source, len(offs))
		for i, o := range offs {
			vals[i], srcs[i] = "o", Source{TP: in, Offset: o}
		}
		return Batch{ProducerID: pid, ProducerEpoch: 0, BaseSequence: NoSequence, Transactional: txnal, Count: int32(len(offs)), Records: NewRecords(vals...).withSources(srcs)}
	}
	w.appendBatch(p, out(-1, false, 0), appendResult{}) // plain: counts at once
	w.appendBatch(p, out(7, true, 1, 2), appendResult{})
	w.appendMarker(p, 7, 0, 0, MarkerCommit, 0, 0, false) // offsets 1, 2 committed
	w.appendBatch(p, out(8, true, 3), appendResult{})
	w.appendMarker(p, 8, 0, 0, MarkerAbort, 0, 0, false)
	w.appendBatch(p, out(9, true, 4), appendResult{})
	w.appendMarker(p, 9, 0, 0, MarkerCommit, 0, 0, false) // at offset 7
	checkOutputIndex(t, w, "before truncation")
	k := outputKey{Topic: "u", In: in}
	if w.outputs[k].get(0) != 1 || w.outputs[k].get(2) != 1 || w.outputs[k].get(3) != 0 || w.outputs[k].get(4) != 1 {
		t.Fatal("plain and committed outputs count once, aborted ones not at all")
	}
	w.truncateTo(p, 7) // removes pid 9's COMMIT: its output is open again
	checkOutputIndex(t, w, "marker removed")
	if w.outputs[k].get(4) != 0 {
		t.Fatal("an output whose COMMIT was truncated away still counts")
	}
	w.truncateTo(p, 1) // removes pid 7's outputs with their marker
	checkOutputIndex(t, w, "outputs removed")
	if w.outputs[k].get(1) != 0 || w.outputs[k].get(0) != 1 {
		t.Fatal("truncation did not take back exactly the removed outputs")
	}
}
