package adapt

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/model"
)

func open(t testing.TB, name string) *Session {
	t.Helper()
	s, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*Session)
}

// openKafka starts a built-in lesson under Kafka k (3 or 4).
func openKafka(t testing.TB, name string, k int) *Session {
	t.Helper()
	l, err := lessons.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	s := New(l.ForKafka(k))
	if s.Kafka() != k {
		t.Fatalf("%s has no reading for Kafka %d", name, k)
	}
	return s
}

// eachLesson runs f on every built-in lesson under each Kafka version, as
// the parallel subtest "name/kafka-k": sessions share nothing but the
// parsed lessons, which are read-only.
func eachLesson(t *testing.T, f func(t *testing.T, name string, k int)) {
	for _, m := range lessons.All() {
		for _, k := range lessons.Versions {
			t.Run(m.Name+"/kafka-"+itoa(k), func(t *testing.T) {
				t.Parallel()
				f(t, m.Name, k)
			})
		}
	}
}

// playTo moves s to position pos, answering checkpoints with the right
// choice on the way.
func playTo(t testing.TB, s *Session, pos int) model.Frame {
	t.Helper()
	for s.Pos() < pos {
		if f := s.Frame(); f.Checkpoint != nil && !f.Checkpoint.Answered {
			s.Answer(s.p.Correct(s.Pos()))
		}
		if !s.Next() {
			t.Fatalf("cannot go past %d", s.Pos())
		}
	}
	for s.Pos() > pos {
		s.Back()
	}
	return s.Frame()
}

func TestLessonsAndOpen(t *testing.T) {
	infos := Lessons()
	metas := lessons.All()
	if len(infos) != len(metas) || len(infos) == 0 {
		t.Fatalf("%d lessons listed, %d built in", len(infos), len(metas))
	}
	for i, m := range metas {
		if got := infos[i]; got.Name != m.Name || got.Title != m.Title || got.Steps != m.Steps || got.Level != m.Level || got.Summary != m.Summary {
			t.Errorf("entry %d = %+v, lesson %+v", i, got, m)
		}
		s, err := Open(m.Name)
		if err != nil || s.Title() != m.Title || s.Len() != m.Steps || s.Pos() != 0 {
			t.Errorf("Open(%q) = %v, %v", m.Name, s, err)
		}
	}
	if _, err := Open("no-such-lesson"); err == nil {
		t.Fatal("opened a lesson that does not exist")
	}
}

// TestFrameInvariants walks every lesson and checks what every frame
// promises the views.
func TestFrameInvariants(t *testing.T) {
	eachLesson(t, func(t *testing.T, name string, k int) {
		{
			s := openKafka(t, name, k)
			for {
				f := s.Frame()
				checkFrame(t, s, f)
				if cp := f.Checkpoint; cp != nil && !cp.Answered {
					if s.Next() {
						t.Fatal("Next ran past an unanswered checkpoint")
					}
					wrong := s.p.Correct(s.Pos())%len(cp.Choices) + 1
					if correct, ok := s.Answer(wrong); correct || !ok {
						t.Fatalf("step %d: wrong answer %d judged %v, %v", s.Pos(), wrong, correct, ok)
					}
					a := s.Frame().Checkpoint
					if !a.Answered || a.Chosen != wrong || a.Correct != s.p.Correct(s.Pos()) || a.Explanation == "" {
						t.Fatalf("step %d: answered checkpoint %+v", s.Pos(), a)
					}
				}
				if !s.Next() {
					break
				}
			}
			if s.Pos() != s.Len() {
				t.Fatalf("stopped at %d of %d", s.Pos(), s.Len())
			}
		}
	})
}

func checkFrame(t *testing.T, s *Session, f model.Frame) {
	t.Helper()
	at := fmt.Sprintf("step %d", f.Step)
	if f.Step != s.Pos() || f.Steps != s.Len() || f.Title+f.Narration == "" || f.Kafka != s.Kafka() {
		t.Fatalf("%s: header %d/%d, narration %q", at, f.Step, f.Steps, f.Narration)
	}
	if st := s.p.StepAt(f.Step); (st != nil && st.Ask != nil) != (f.Checkpoint != nil) {
		t.Fatalf("%s: checkpoint shown %v", at, f.Checkpoint != nil)
	}
	if cp := f.Checkpoint; cp != nil && !cp.Answered && (cp.Correct != 0 || cp.Explanation != "") {
		t.Fatalf("%s: the answer is revealed before answering", at)
	}
	if len(f.Events) > maxEvents || f.NewEvents < 0 || f.NewEvents > len(f.Events) {
		t.Fatalf("%s: %d events, %d new", at, len(f.Events), f.NewEvents)
	}
	if f.Step > 0 && f.NewEvents == 0 {
		t.Fatalf("%s: a step ran but no event is new", at)
	}
	// The learner's log holds the same events, without message numbers.
	for _, ev := range f.Events {
		if l := ev.Learner(); msgNumber.MatchString(l) || !strings.Contains(ev.Line(), ev.Actor+": ") {
			t.Fatalf("%s: log event %q for line %q", at, l, ev.Line())
		}
	}
	actors := map[string]bool{}
	for _, a := range f.Actors {
		actors[a.Name] = true
	}
	for _, a := range f.Timeline {
		if !actors[a.From] || !actors[a.To] || a.Label == "" || a.Step > f.Step {
			t.Fatalf("%s: arrow %+v with actors %v", at, a, f.Actors)
		}
	}
	for _, p := range f.Partitions {
		if strings.HasPrefix(p.Name, "__") {
			t.Fatalf("%s: internal partition %s shown", at, p.Name)
		}
		if !(p.LSO <= p.HW && p.HW <= p.LEO) {
			t.Fatalf("%s: %s LSO %d HW %d LEO %d", at, p.Name, p.LSO, p.HW, p.LEO)
		}
		next := int64(0)
		if len(p.Rows) > 0 {
			next = p.Rows[0].First
		}
		for _, r := range p.Rows {
			if r.First != next || r.Last < r.First {
				t.Fatalf("%s: %s rows are not contiguous at %d", at, p.Name, r.First)
			}
			next = r.Last + 1
		}
		if next != p.LEO {
			t.Fatalf("%s: %s rows end at %d, LEO %d", at, p.Name, next, p.LEO)
		}
	}
	for _, c := range f.Coordinators {
		if len(c.States) != len(engine.TxnStates()) {
			t.Fatalf("%s: states %v", at, c.States)
		}
		for i, s := range engine.TxnStates() {
			if c.States[i] != s.String() || int(s) != i {
				t.Fatalf("%s: state %d is %q, not %v", at, i, c.States[i], s)
			}
		}
		if c.Current < -1 || c.Current >= len(c.States) || (c.Current >= 0 && c.Tone != txnTone(engine.TxnState(c.Current))) {
			t.Fatalf("%s: state %d, tone %v", at, c.Current, c.Tone)
		}
	}
}

// msgNumber is a message's number at the head of an event's text, where
// the engine names the one message the event is about.
var msgNumber = regexp.MustCompile(`^(sends|drops|receives|delays|is down:|is paused:) m[0-9]+ `)

// TestFramesAfterBackAreExact: the frame of a position is the same whether
// it was reached by playing straight or by going back and forth.
func TestFramesAfterBackAreExact(t *testing.T) {
	t.Parallel()
	eachLesson(t, func(t *testing.T, name string, k int) {
		{
			s := openKafka(t, name, k)
			// The checkpoint is left out: answering it is the one thing
			// that changes a position's frame, and it is checked apart.
			// So is the Key, which names a build, not a content.
			frame := func(s *Session) model.Frame {
				f := s.Frame()
				f.Checkpoint, f.Key = nil, 0
				return f
			}
			var want []model.Frame
			for k := 0; k <= s.Len(); k++ {
				playTo(t, s, k)
				want = append(want, frame(s))
			}
			// A second session that goes back and forth.
			u := openKafka(t, name, k)
			check := func() {
				t.Helper()
				if got := frame(u); !reflect.DeepEqual(got, want[u.Pos()]) {
					t.Fatalf("position %d differs after moving back and forth:\n got %+v\nwant %+v", u.Pos(), got, want[u.Pos()])
				}
			}
			for u.Pos() < u.Len() {
				playTo(t, u, u.Pos()+1)
				check()
				if u.Pos() >= 2 {
					u.Back()
					u.Back()
					check()
					playTo(t, u, u.Pos()+2)
					check()
				}
			}
			for u.Back() {
				check()
			}
			// A session that forgets everything it cached before each
			// frame builds the same frames: the caches of event lines,
			// log rows and records change nothing.
			v := openKafka(t, name, k)
			for pos := 0; pos <= v.Len(); pos++ {
				playTo(t, v, pos)
				v.forget()
				if got := frame(v); !reflect.DeepEqual(got, want[pos]) {
					t.Fatalf("position %d differs when built without caches:\n got %+v\nwant %+v", pos, got, want[pos])
				}
			}
			// The first session, also back at the start, agrees.
			for s.Back() {
			}
			if !reflect.DeepEqual(frame(s), frame(u)) {
				t.Fatal("position 0 differs between sessions")
			}
		}
	})
}

// TestFrameContent pins what the panels must show at key moments.
func TestFrameContent(t *testing.T) {
	t.Run("lost-ack: the dropped answer and the duplicate", func(t *testing.T) {
		s := open(t, "lost-ack")
		f := playTo(t, s, 2)
		last := f.Timeline[len(f.Timeline)-1]
		if last.State != model.ArrowDropped || !last.Changed || !last.Reply || last.Error || last.From != "broker-3" || last.To != "A" || !strings.HasPrefix(last.Label, "ProduceResponse t-0 NONE") {
			t.Fatalf("dropped answer drawn as %+v", last)
		}
		if a := f.Timeline[0]; a.State != model.ArrowDelivered || a.Changed {
			t.Fatalf("the Produce delivered at step 1 drawn at step 2 as %+v", a)
		}
		// At step 1 the answer is on its way: neither delivered nor
		// dropped yet.
		f = playTo(t, s, 1)
		if a := f.Timeline[len(f.Timeline)-1]; a.State != model.ArrowInFlight || !a.Changed {
			t.Fatalf("step 1 draws the answer that step 2 drops as %+v", a)
		}
		f = playTo(t, s, 3)
		if len(f.Violations) != 1 || f.Violations[0].Name != engine.InvDuplicateRecord {
			t.Fatalf("violations %v", f.Violations)
		}
		p := f.Partitions[0]
		if p.Name != "t-0" || len(p.Rows) != 2 || !p.Rows[1].Changed || p.Rows[0].Changed || p.Rows[1].Values[0] != "hello" {
			t.Fatalf("t-0 %+v", p)
		}
		f = playTo(t, s, 5)
		if c := f.Partitions[1].Cached; len(c) != 1 || c[0] != (model.CachedBatch{PID: 1000, Epoch: 0, FirstSeq: 0, LastSeq: 0, Offset: 0}) {
			t.Fatalf("t-1 cache %+v", c)
		}
		if len(f.Coordinators) != 0 {
			t.Fatalf("coordinators shown for a lesson without transactions: %+v", f.Coordinators)
		}
	})
	t.Run("zombie: the fence", func(t *testing.T) {
		s := open(t, "zombie")
		f := playTo(t, s, 3)
		c := f.Coordinators[0]
		if c.TxnID != "payment-processor-1" || c.Partition != "__transaction_state-3" || c.Broker != "broker-1" ||
			c.Current != int(engine.PrepareEpochFence) || c.Tone != model.ToneFenced || !c.Changed {
			t.Fatalf("coordinator %+v", c)
		}
		if len(f.Coordinators) != 1 {
			t.Fatalf("%d coordinators for one transactional id", len(f.Coordinators))
		}
		if a := f.Producers[0]; a.Name != "A" || !a.Paused || a.State != engine.InTransaction.String() || a.StateTone != model.ToneOpen {
			t.Fatalf("A %+v", a)
		}
		f = playTo(t, s, 4)
		var sawConcurrent bool
		for _, a := range f.Timeline {
			if strings.HasPrefix(a.Label, "InitProducerIdResponse CONCURRENT_TRANSACTIONS(51)") {
				sawConcurrent = a.Error && a.Reply && a.To == "B" && a.Step == 4
			}
		}
		if !sawConcurrent {
			t.Fatal("no error reply CONCURRENT_TRANSACTIONS to B at step 4")
		}
		if w := f.Coordinators[0].Writes; len(w) != 3 || !strings.Contains(w[2], "PrepareAbort pid=1000 epoch=1") {
			t.Fatalf("writes %q", w)
		}
		f = playTo(t, s, 8)
		if a := f.Producers[0]; a.State != engine.FatalError.String() || a.LastError != engine.ProducerFenced.String() ||
			a.ErrorTone != model.ToneFenced || !a.Fenced || !a.Changed {
			t.Fatalf("A %+v", a)
		}
		if b := f.Producers[1]; b.Changed || b.Epoch != 2 {
			t.Fatalf("B %+v", b)
		}
	})
	t.Run("abort: markers and readers", func(t *testing.T) {
		s := open(t, "abort")
		f := playTo(t, s, 6)
		for _, p := range f.Partitions {
			if len(p.Rows) != 2 || p.Rows[0].Status != model.StatusAborted || !p.Rows[0].Changed ||
				p.Rows[1].Kind != model.RowAbort || p.Rows[1].Seqs != "-1" || p.LSO != 2 || !p.Changed {
				t.Fatalf("%s %+v", p.Name, p)
			}
		}
		f = playTo(t, s, 8)
		rc, ru := f.Consumers[0], f.Consumers[1]
		if rc.Name != "RC" || !rc.ReadCommitted || len(rc.Records) != 0 || !rc.Changed {
			t.Fatalf("RC %+v", rc)
		}
		if len(ru.Records) != 2 || !ru.Records[0].Changed || ru.Records[1].Value != "pay-42" {
			t.Fatalf("RU %+v", ru)
		}
		// RU returning the aborted records is read_uncommitted's promise,
		// not a violation.
		if len(f.Violations) != 0 {
			t.Fatalf("violations %v", f.Violations)
		}
		f = playTo(t, s, 0)
		if !strings.HasPrefix(f.Narration, "Aborting a transaction\n\n") || f.Checkpoint != nil || len(f.Timeline) != 0 {
			t.Fatalf("position 0: %q", f.Narration)
		}
	})
}

// forget drops every cache of the session, as if each frame were built
// for the first time.
func (s *Session) forget() {
	clear(s.frames)
	clear(s.rows)
	clear(s.windows)
	s.hist.last = nil
	clear(s.writes)
	s.events = trail{}
}

// TestFrameKeys: a frame's Key names one built frame. Coming back to a
// position gives the same Key, other positions other keys, and a position
// whose frame was evicted and built again a new one.
func TestFrameKeys(t *testing.T) {
	s := open(t, "zombie")
	keys := map[uint64]int{}
	for k := 0; k <= s.Len(); k++ {
		f := playTo(t, s, k)
		if f.Key == 0 {
			t.Fatalf("position %d: no key", k)
		}
		if p, seen := keys[f.Key]; seen {
			t.Fatalf("positions %d and %d share key %d", p, k, f.Key)
		}
		keys[f.Key] = k
	}
	for k := s.Len(); k >= 0; k-- {
		if f := playTo(t, s, k); keys[f.Key] != k {
			t.Fatalf("position %d came back with the key of %d", k, keys[f.Key])
		}
	}
	s.evictFarthest(0)
	if _, ok := s.frames[s.Len()]; ok || len(s.frames) != s.Len() {
		t.Fatalf("evicting from 0 kept %d frames, the last one %v", len(s.frames), ok)
	}
	if f := playTo(t, s, s.Len()); f.Key == 0 {
		t.Fatal("a rebuilt frame has no key")
	} else if p, seen := keys[f.Key]; seen {
		t.Fatalf("a rebuilt frame reused the key of position %d", p)
	}
}

func TestLabels(t *testing.T) {
	t0 := engine.TP{Topic: "t", Partition: 0}
	for _, c := range []struct {
		kind engine.MsgKind
		body engine.Body
		want string
	}{
		{engine.MsgInitProducerID, &engine.InitProducerIDRequest{TransactionalID: "payments", TimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1},
			"InitProducerId payments pid=-1 epoch=-1"},
		{engine.MsgInitProducerID, &engine.InitProducerIDRequest{Idempotent: true}, "InitProducerId"},
		{engine.MsgFetchResponse, &engine.FetchResponse{TP: engine.TP{Topic: "orders", Partition: 0}, Batches: make([]engine.Batch, 2),
			Aborted: make([]engine.AbortedTxn, 1), HighWatermark: 2, LSO: 2}, "FetchResponse orders-0 2 batches hw=2 lso=2 aborted=1"},
		{engine.MsgEndTxn, &engine.EndTxnRequest{TransactionalID: "payments", ProducerID: 1000}, "EndTxn abort pid=1000 epoch=0"},
		{engine.MsgAddPartitionsToTxnResponse, &engine.AddPartitionsToTxnResponse{Results: []engine.TPCode{{TP: t0, Code: engine.ProducerFenced}}},
			"AddPartitionsToTxnResponse [t-0=PRODUCER_FENCED]"},
		{engine.MsgWriteTxnMarkers, &engine.WriteTxnMarkersRequest{Result: engine.MarkerAbort, ProducerID: 1000, ProducerEpoch: 1, Partitions: []engine.TP{t0}},
			"WriteTxnMarkers ABORT pid=1000 epoch=1 [t-0]"},
		{engine.MsgAddOffsetsToTxn, &engine.AddOffsetsToTxnRequest{TransactionalID: "payments", ProducerID: 7, ProducerEpoch: 2, GroupID: "g"},
			"AddOffsetsToTxn pid=7 epoch=2 group=g"},
		{engine.MsgProduce, &engine.ProduceRequest{TP: t0, Batches: []engine.Batch{{ProducerID: 1, BaseSequence: 0, Count: 1,
			Records: engine.NewRecords("a long value that does not fit in a diagram label at all")}}},
			"Produce t-0 pid=1 epoch=0 seq=0 values=a long value tha…"},
		// A label is cut after its error code, never inside it.
		{engine.MsgAddPartitionsToTxnResponse, &engine.AddPartitionsToTxnResponse{Results: []engine.TPCode{
			{TP: engine.TP{Topic: "__consumer_offsets", Partition: 14}, Code: engine.TransactionAbortable}, {TP: t0, Code: engine.None}}},
			"AddPartitionsToTxnResponse [__consumer_offsets-14=TRANSACTION_ABORTABLE…"},
	} {
		m := &engine.Message{Kind: c.kind, Body: c.body}
		if got := label(m); got != c.want {
			t.Errorf("label(%s %s) = %q; want %q", c.kind, m.Detail(), got, c.want)
		}
	}
}

// TestArrowsFromMessages: the zombie lesson's timeline marks the fenced
// answers as errors and replies, from the engine's messages.
func TestArrowsFromMessages(t *testing.T) {
	s, err := Open("zombie")
	if err != nil {
		t.Fatal(err)
	}
	f := playTo(t, s.(*Session), s.Len())
	var errs, replies int
	for _, a := range f.Timeline {
		if a.Reply {
			replies++
		}
		if a.Error {
			errs++
			if !a.Reply {
				t.Errorf("a request is marked as an error: %+v", a)
			}
		}
	}
	if errs == 0 || replies == 0 {
		t.Fatalf("no error replies in the zombie timeline (%d replies)", replies)
	}
}

// bigLesson is a lesson whose second step leaves a world with at least
// 100,000 events: transactions and plain sends over two partitions, read by
// a consumer now and then.
func bigLesson(tb testing.TB) *lessons.Lesson { return historyLesson(tb, 2600) }

// historyLesson is bigLesson with n rounds of history in its second step
// (2,600 leave over 100,000 events; 325 an eighth of that), for showing
// that a cost stays flat as the history grows.
func historyLesson(tb testing.TB, n int) *lessons.Lesson {
	var b strings.Builder
	b.WriteString("title: Big\nsummary: a long history\nlevel: systems\nminutes: 5\nsetup:\n  topic t partitions=2\n  producer A\n  producer T transactional.id=big\n  consumer C isolation.level=read_committed\n")
	b.WriteString("step: init\n  say: init\n  do: T initTransactions\n  do: run\nstep: history\n  say: history\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  do: T beginTransaction\n  do: T send t-0 a%d\n  do: T send t-1 b%d\n  do: T commitTransaction\n  do: A send t-0 p%d\n  do: run\n", i, i, i)
		if i%50 == 0 {
			b.WriteString("  do: C poll\n  do: run\n")
		}
	}
	b.WriteString("step: one more\n  say: one more\n  do: A send t-1 last\n  do: run\n")
	l, err := lessons.Parse("big.lesson", []byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func TestBigWorldFrame(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a 100,000-event world")
	}
	s := New(bigLesson(t))
	f := playTo(t, s, 3)
	if n := s.p.World().EventCount(); n < 100000 {
		t.Fatalf("only %d events", n)
	}
	if len(f.Events) != maxEvents || len(f.Timeline) != maxArrows || f.NewEvents == 0 {
		t.Fatalf("%d events, %d arrows, %d new", len(f.Events), len(f.Timeline), f.NewEvents)
	}
	for _, p := range f.Partitions {
		if len(p.Rows) != maxRows || p.Rows[len(p.Rows)-1].Last != p.LEO-1 {
			t.Fatalf("%s: %d rows ending at %d, LEO %d", p.Name, len(p.Rows), p.Rows[len(p.Rows)-1].Last, p.LEO)
		}
	}
	checkFrame(t, s, f)
}

// BenchmarkFrame100k builds the frame of a position whose world holds over
// 100,000 events, as the first time a step of a long session is shown: the
// frame cache is emptied before each call. (A position shown before is a
// cache hit and costs a copy.)
func BenchmarkFrame100k(b *testing.B) {
	s := New(bigLesson(b))
	playTo(b, s, 3)
	playTo(b, s, 2)
	if n := s.p.World().EventCount(); n < 100000 {
		b.Fatalf("only %d events", n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			s.Next()
		} else {
			s.Back()
		}
		clear(s.frames)
		_ = s.Frame()
	}
}

// BenchmarkFrameCached is Frame on every keypress that does not move.
func BenchmarkFrameCached(b *testing.B) {
	s := open(b, "zombie")
	playTo(b, s, 9)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.Frame()
	}
}

func TestRing(t *testing.T) {
	r := newRing[string](4)
	if _, ok := r.get(0); ok {
		t.Fatal("an empty ring has index 0")
	}
	for i := range 6 {
		r.put(i, fmt.Sprint("v", i))
	}
	for i, want := range map[int]string{2: "v2", 3: "v3", 4: "v4", 5: "v5"} {
		if got, ok := r.get(i); !ok || got != want {
			t.Errorf("get(%d) = %q, %v; want %q", i, got, ok, want)
		}
	}
	for _, i := range []int{0, 1, 6, 9} {
		if got, ok := r.get(i); ok {
			t.Errorf("get(%d) = %q: that index was replaced or never put", i, got)
		}
	}
}
