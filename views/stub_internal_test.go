package views

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/panels"
)

// stubSession is a session of random frames: odd content (empty lists,
// unknown actors, wide and control characters, negative offsets, huge
// values) that the views must draw without breaking the screen.
type stubSession struct {
	n       int
	pos     int
	cpAt    map[int]int // position -> right choice
	answers map[int]int
	frames  []model.Frame
	// keys gives each position's frame a Key, so the app may reuse what
	// it drew for it.
	keys bool
}

func newStub(seed int64, n int) *stubSession {
	r := rand.New(rand.NewSource(seed))
	s := &stubSession{n: n, cpAt: map[int]int{}, answers: map[int]int{}}
	for i := 0; i <= n; i++ {
		s.frames = append(s.frames, randomFrame(r, i, n))
		if i > 0 && i < n && r.Intn(4) == 0 {
			s.cpAt[i] = 1 + r.Intn(3)
		}
	}
	return s
}

var oddTexts = []string{
	"", "a", "plain value", "x\ty\nz", "\x1b[31mred?\x1b[0m", "日本語の値", "emoji 👍🏽 ok",
	strings.Repeat("long-", 80), "→ arrows ← and … ellipsis", "\r\n", "combining é",
}

func randomText(r *rand.Rand) string { return oddTexts[r.Intn(len(oddTexts))] }

func randomFrame(r *rand.Rand, step, n int) model.Frame {
	f := model.Frame{Step: step, Steps: n, Narration: randomText(r) + " " + strings.Repeat("word ", r.Intn(120)), Note: randomText(r)}
	actors := []model.Actor{{Name: "p1"}, {Name: "p2", Short: "P"}, {Name: "coordinator", Short: "co"}, {Name: "t-0 leader", Short: randomText(r)}, {Name: randomText(r)}}
	f.Actors = actors[:r.Intn(len(actors)+1)]
	for i := range r.Intn(4) {
		f.Producers = append(f.Producers, model.ProducerView{Name: fmt.Sprint("p", i), TransactionalID: randomText(r), ProducerID: int64(r.Intn(5000) - 1),
			Epoch: int16(r.Intn(3)), State: randomText(r), NextSeq: []model.PartitionSeq{{Partition: randomText(r), Seq: int32(r.Intn(9))}}, InFlight: r.Intn(3),
			LastError: randomText(r), Paused: r.Intn(2) == 0, Crashed: r.Intn(3) == 0, Fenced: r.Intn(3) == 0, Changed: r.Intn(2) == 0})
	}
	for range r.Intn(4) {
		p := model.PartitionView{Name: randomText(r), Leader: randomText(r), HW: int64(r.Intn(50) - 5), LSO: int64(r.Intn(50) - 5), LEO: int64(r.Intn(60)), Changed: r.Intn(2) == 0}
		for j := range r.Intn(60) {
			p.Rows = append(p.Rows, model.LogRow{First: int64(j*2 - 3), Last: int64(j*2 + r.Intn(3) - 3), Kind: model.RowKind(r.Intn(4)), PID: int64(r.Intn(100000) - 1),
				Epoch: int16(r.Intn(40000)), Seqs: randomText(r), Values: []string{randomText(r), randomText(r)}, Status: model.RowStatus(r.Intn(5)), Changed: r.Intn(5) == 0})
		}
		for range r.Intn(7) {
			p.Cached = append(p.Cached, model.CachedBatch{PID: int64(r.Intn(3)), FirstSeq: int32(r.Intn(9)), LastSeq: int32(r.Intn(9)), Offset: int64(r.Intn(9))})
		}
		f.Partitions = append(f.Partitions, p)
	}
	for range r.Intn(3) {
		c := model.CoordinatorView{TxnID: randomText(r), Partition: randomText(r), Broker: randomText(r), ProducerID: int64(r.Intn(9) - 1), Changed: r.Intn(2) == 0}
		// Eight names draw the diagram, any other number a list.
		n := []int{panels.NumTxnStates, 0, 3}[r.Intn(3)]
		for range n {
			c.States = append(c.States, randomText(r))
		}
		c.Current, c.Tone = r.Intn(n+2)-1, model.Tone(r.Intn(8))
		for range r.Intn(20) {
			c.Writes = append(c.Writes, randomText(r))
		}
		c.Partitions = []string{randomText(r)}
		f.Coordinators = append(f.Coordinators, c)
	}
	for range r.Intn(4) {
		c := model.ConsumerView{Name: randomText(r), Isolation: randomText(r), ReadCommitted: r.Intn(2) == 0, Group: randomText(r), Changed: r.Intn(2) == 0}
		for j := range r.Intn(40) {
			c.Records = append(c.Records, model.ConsumedRecord{Partition: randomText(r), Offset: int64(j), Value: randomText(r), Changed: r.Intn(3) == 0})
		}
		c.Positions = []model.PartitionOffset{{Partition: randomText(r), Offset: int64(r.Intn(9))}}
		f.Consumers = append(f.Consumers, c)
	}
	names := []string{"nobody"}
	for _, a := range f.Actors {
		names = append(names, a.Name)
	}
	for range r.Intn(40) {
		f.Timeline = append(f.Timeline, model.Arrow{From: names[r.Intn(len(names))], To: names[r.Intn(len(names))], Label: randomText(r),
			State: model.ArrowState(r.Intn(5)), Reply: r.Intn(2) == 0, Error: r.Intn(4) == 0, Duplicate: r.Intn(4) == 0, Delayed: r.Intn(4) == 0,
			Step: r.Intn(step + 2), Changed: r.Intn(3) == 0})
	}
	for range r.Intn(100) {
		f.Events = append(f.Events, model.EventLine{Text: randomText(r) + " violation? " + randomText(r), Violation: r.Intn(5) == 0})
	}
	f.NewEvents = r.Intn(10) - 2
	for range r.Intn(3) {
		f.Violations = append(f.Violations, model.Violation{Name: randomText(r), Text: randomText(r)})
	}
	return f
}

func (s *stubSession) Title() string { return "stub " + oddTexts[s.pos%len(oddTexts)] }
func (s *stubSession) Len() int      { return s.n }
func (s *stubSession) Pos() int      { return s.pos }

func (s *stubSession) blocked() bool {
	_, cp := s.cpAt[s.pos]
	_, done := s.answers[s.pos]
	return cp && !done
}

func (s *stubSession) Next() bool {
	if s.pos >= s.n || s.blocked() {
		return false
	}
	s.pos++
	return true
}

func (s *stubSession) Back() bool {
	if s.pos == 0 {
		return false
	}
	s.pos--
	return true
}

func (s *stubSession) Restart() { s.pos, s.answers = 0, map[int]int{} }

func (s *stubSession) Answer(c int) (bool, bool) {
	right, ok := s.cpAt[s.pos]
	if !ok || !s.blocked() || c < 1 || c > 3 {
		return false, false
	}
	s.answers[s.pos] = c
	return c == right, true
}

func (s *stubSession) Frame() model.Frame {
	f := s.frames[s.pos]
	if s.keys {
		f.Key = uint64(s.pos) + 1
	}
	if right, ok := s.cpAt[s.pos]; ok {
		cp := &model.Checkpoint{Question: "What next? " + oddTexts[s.pos%len(oddTexts)], Choices: []string{"one", strings.Repeat("two ", 30), "three"}}
		if a, done := s.answers[s.pos]; done {
			cp.Answered, cp.Chosen, cp.Correct, cp.Explanation = true, a, right, strings.Repeat("because ", 40)
		}
		f.Checkpoint = cp
	}
	return f
}
