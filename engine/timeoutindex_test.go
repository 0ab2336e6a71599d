package engine

import (
	"math/rand/v2"
	"testing"
)

// The timeout index answers as a map does, as a list and past
// timeoutListMax entries as a map, and its copies share nothing with it.
func TestTimeoutIndexIsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var x timeoutIndex
	want := map[timeoutKey]queuedAt{}
	var pooled timeoutIndex
	check := func(step int, x *timeoutIndex, want map[timeoutKey]queuedAt) {
		t.Helper()
		if x.len() != len(want) {
			t.Fatalf("step %d: %d entries, want %d", step, x.len(), len(want))
		}
		n := 0
		x.each(func(k timeoutKey, at queuedAt) {
			n++
			if w, ok := want[k]; !ok || w != at {
				t.Fatalf("step %d: %+v at %+v, want %+v (%v)", step, k, at, w, ok)
			}
		})
		if n != len(want) {
			t.Fatalf("step %d: each saw %d entries, want %d", step, n, len(want))
		}
	}
	sawMap := false
	for step := 0; step < 20000; step++ {
		// Up to some 80 keys live, so that the index goes past the list
		// and back below it.
		k := timeoutKey{ID: int64(r.IntN(80)), owner: int64(r.IntN(2))}
		switch op := r.IntN(10); {
		case op < 5:
			if _, ok := want[k]; !ok {
				at := queuedAt{seq: int64(step), slot: int32(r.IntN(100))}
				x.put(k, at)
				want[k] = at
			}
		case op < 9:
			x.del(k)
			delete(want, k)
		case r.IntN(20) == 0:
			x.clear()
			clear(want)
		}
		got, ok := x.get(k)
		if w, in := want[k]; ok != in || got != w {
			t.Fatalf("step %d: get %+v = %+v, %v; want %+v, %v", step, k, got, ok, w, in)
		}
		sawMap = sawMap || x.m != nil
		check(step, &x, want)
		if step%97 == 0 {
			// A copy, and a copy into a pooled index, change apart from x.
			c := x.clone()
			pooled = x.copyInto(pooled)
			c.put(timeoutKey{ID: -1}, queuedAt{})
			pooled.put(timeoutKey{ID: -2}, queuedAt{})
			check(step, &x, want)
			if c.len() != len(want)+1 || pooled.len() != len(want)+1 {
				t.Fatalf("step %d: the copies hold %d and %d entries, want %d", step, c.len(), pooled.len(), len(want)+1)
			}
		}
	}
	if !sawMap {
		t.Fatal("the index never went past its list")
	}
}
