package adapt

import (
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// player is the real app on a real lesson, driven by keys as a learner
// would.
type player struct {
	t testing.TB
	m tea.Model
}

func openPlayer(t testing.TB, lesson string, w, h int, opts views.Options) *player {
	t.Helper()
	opts.StartLesson = lesson
	p := &player{t: t, m: views.NewApp(Lessons(), Open, opts)}
	p.m, _ = p.m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return p
}

func (p *player) press(keys ...string) {
	for _, k := range keys {
		if k == "" {
			continue
		}
		p.m, _ = p.m.Update(viewtest.Key(k))
	}
}

func (p *player) session() *Session {
	p.t.Helper()
	s, ok := p.m.(views.App).Session().(*Session)
	if !ok {
		p.t.Fatal("no lesson is open")
	}
	return s
}

// answer presses the number of the right choice, or of a wrong one: the
// lesson knows which choice the engine makes true (lessons.Player.Correct).
func (p *player) answer(right bool) {
	p.t.Helper()
	s := p.session()
	cp := s.Frame().Checkpoint
	if cp == nil || cp.Answered {
		p.t.Fatalf("step %d: no question to answer", s.Pos())
	}
	c := s.p.Correct(s.Pos())
	if !right {
		c = c%len(cp.Choices) + 1
	}
	p.press(string(rune('0' + c)))
	if got := s.Frame().Checkpoint; !got.Answered || got.Chosen != c {
		p.t.Fatalf("step %d: pressing %d did not answer", s.Pos(), c)
	}
}

// to steps forward to position pos with the right arrow, answering every
// question on the way correctly.
func (p *player) to(pos int) {
	p.t.Helper()
	s := p.session()
	for s.Pos() < pos {
		if cp := s.Frame().Checkpoint; cp != nil && !cp.Answered {
			p.answer(true)
		}
		from := s.Pos()
		p.press("right")
		if s.Pos() != from+1 {
			p.t.Fatalf("right at step %d did not move", from)
		}
	}
}

// goldenScreen compares the screen with testdata/<test name>.golden.
// Regenerate with: go test ./views/adapt -run Golden -update
func goldenScreen(t *testing.T, got string) {
	t.Helper()
	lines := strings.Split(got, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	xgolden.RequireEqual(t, []byte(strings.Join(lines, "\n")+"\n"))
}

// focus presses tab until the named panel has focus, which also brings it
// into a small terminal's one slot.
func (p *player) focus(panel string) {
	p.t.Helper()
	for range 8 {
		if p.m.(views.App).Focus().String() == panel {
			return
		}
		p.press("tab")
	}
	p.t.Fatalf("no panel %q", panel)
}

// goldenCase is one moment of a real lesson: the step it is at, whether
// that step's question is answered (and how), and the panel to focus, which
// is the one a small terminal shows.
type goldenCase struct {
	name   string
	lesson string
	step   int
	answer string // "", "right" or "wrong": answer the question at step
	focus  string // a panel name, such as "Timeline"; "" keeps the focus
}

// The key moments of each built-in lesson, drawn by the real engine.
var goldenCases = []goldenCase{
	// The lost ACK: the dropped ACK, the duplicate with idempotence off,
	// the deduplicated retry, the refused gap and what a reader sees.
	{name: "dropped-ack", lesson: "lost-ack", step: 2, focus: "Timeline"},
	// B's Produce is in flight (sent at step 4, delivered at step 5)
	// below A's answer that the network dropped at step 2.
	{name: "in-flight-and-dropped", lesson: "lost-ack", step: 4, focus: "Timeline"},
	{name: "duplicate", lesson: "lost-ack", step: 3, focus: "Partitions"},
	{name: "dropped-ack-again-answered", lesson: "lost-ack", step: 6, answer: "wrong", focus: "Timeline"},
	{name: "deduplicated-retry", lesson: "lost-ack", step: 7, focus: "Timeline"},
	{name: "producer-state-cache", lesson: "lost-ack", step: 7, focus: "Partitions"},
	{name: "gap-refused", lesson: "lost-ack", step: 9, focus: "Events"},
	{name: "reader", lesson: "lost-ack", step: 10, focus: "Consumers"},
	// The zombie: the fence, CONCURRENT_TRANSACTIONS, INVALID_PRODUCER_EPOCH
	// and PRODUCER_FENCED.
	{name: "fence", lesson: "zombie", step: 3, focus: "Coordinator"},
	{name: "concurrent-transactions", lesson: "zombie", step: 4, focus: "Timeline"},
	{name: "invalid-producer-epoch", lesson: "zombie", step: 7, focus: "Producers"},
	{name: "producer-fenced", lesson: "zombie", step: 8, focus: "Producers"},
	{name: "epoch-bumped", lesson: "zombie", step: 9, focus: "Coordinator"},
	// Three guarantees: the three partitions side by side once I's retry
	// was recognised: t-0 lost pay-1, t-1 holds it twice, t-2 once.
	{name: "three-partitions", lesson: "three-guarantees", step: 7, focus: "Partitions"},
	// Sequences: c's request dropped with four more in flight behind it,
	// and d refused with OUT_OF_ORDER_SEQUENCE_NUMBER.
	{name: "gap-refused", lesson: "sequences", step: 3, focus: "Timeline"},
	// Producer ids: pay-7 twice in t-0, from pid 1000 (epoch 1, after its
	// own bump) and from the restarted instance's pid 1001.
	{name: "restart-duplicates", lesson: "producer-ids", step: 7, focus: "Partitions"},
	// Finding the coordinator: payment-processor-1 on __transaction_state-3,
	// led by broker-1, with its first record (Empty) written there.
	{name: "partition-3", lesson: "coordinator", step: 2, focus: "Coordinator"},
	// Transaction timeout: the coordinator's check at t=70000 has fenced
	// and aborted the frozen producer's transaction with epoch 1.
	{name: "timed-out", lesson: "transaction-timeout", step: 4, focus: "Coordinator"},
	// Aborting: the ABORT markers, then both consumers side by side.
	{name: "abort-markers", lesson: "abort", step: 6, focus: "Partitions"},
	{name: "consumers", lesson: "abort", step: 8, focus: "Consumers"},
	{name: "consumers-answered", lesson: "abort", step: 8, answer: "right", focus: "Consumers"},
	// Two-phase commit: commitTransaction() has returned while both
	// COMMIT markers are still in flight.
	{name: "returns-before-markers", lesson: "two-phase-commit", step: 5, focus: "Timeline"},
	// read_committed: the COMMIT marker is on the leader but not yet below
	// the high watermark, so the LSO waits at q2's offset.
	{name: "marker-not-replicated", lesson: "read-committed", step: 7, focus: "Partitions"},
	// Consume-transform-produce: group g's offset for in-0 is pending in
	// P's transaction, nothing committed yet.
	{name: "pending-offsets", lesson: "consume-transform-produce", step: 2, focus: "Consumers"},
	// The coordinator dies mid-commit: the new coordinator still loading
	// __transaction_state-3, then the old one's late marker refused.
	{name: "loading", lesson: "coordinator-failover", step: 3, focus: "Coordinator"},
	{name: "late-marker-fenced", lesson: "coordinator-failover", step: 5, focus: "Events"},
	// Delivery is not processing: the restarted mailer receives the same
	// two orders again, from the same offsets.
	{name: "redelivered", lesson: "delivery-vs-processing", step: 3, focus: "Consumers"},
	// The price of exactly-once: three partitions, three markers.
	{name: "three-markers", lesson: "price-of-exactly-once", step: 6, focus: "Partitions"},
	// The price of exactly-once: the bill, read off the Producers panel's
	// cost table.
	{name: "the-bill", lesson: "price-of-exactly-once", step: 8, focus: "Producers"},
	// Streams and Flink: the checkpoint's open transaction holds sink-0's LSO.
	{name: "checkpoint-holds-lso", lesson: "streams-and-flink", step: 6, focus: "Partitions"},
	// The capstone: the new version's initTransactions has fenced the old
	// one mid-payment and aborted its ledger entries.
	{name: "deploy-fences", lesson: "capstone-payments", step: 5, focus: "Partitions"},
}

// TestGoldenLessons draws the real lessons, through the engine, at the two
// sizes that matter most: a default terminal and a projector.
func TestGoldenLessons(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, c := range goldenCases {
			name := c.lesson + "-" + c.name + "-" + itoa(size[0]) + "x" + itoa(size[1])
			t.Run(name, func(t *testing.T) {
				p := openPlayer(t, c.lesson, size[0], size[1], views.Options{})
				p.to(c.step)
				if c.answer != "" {
					p.answer(c.answer == "right")
				}
				if c.focus != "" {
					p.focus(c.focus)
				}
				goldenScreen(t, p.m.View())
			})
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestGoldenKafka4 draws key moments with Kafka 4 on (transaction.version=2,
// KIP-890) at 80x24: the header names it, the ABORT markers and the
// fence carry the bumped epochs, the zombie's write is refused by the
// leader, the detail view says how a step differs, and the comparison
// lesson's late TxnOffsetCommit is refused.
func TestGoldenKafka4(t *testing.T) {
	cases := []struct {
		goldenCase
		keys []string
	}{
		{goldenCase: goldenCase{name: "abort-markers", lesson: "abort", step: 6, focus: "Partitions"}},
		{goldenCase: goldenCase{name: "abort-next-epoch-answered", lesson: "abort", step: 8, answer: "right"}},
		{goldenCase: goldenCase{name: "abort-details", lesson: "abort", step: 5}, keys: []string{"d"}},
		{goldenCase: goldenCase{name: "zombie-fence", lesson: "zombie", step: 3, focus: "Coordinator"}},
		{goldenCase: goldenCase{name: "zombie-invalid-producer-epoch", lesson: "zombie", step: 7, focus: "Events"}},
		{goldenCase: goldenCase{name: "compare-late-copy-joins", lesson: "kafka-3-vs-4", step: 5, focus: "Events"}},
		{goldenCase: goldenCase{name: "compare-late-copy-refused", lesson: "kafka-3-vs-4", step: 12, focus: "Events"}},
		// The version key at the abort lesson's epoch question.
		{goldenCase: goldenCase{name: "abort-switched-to-3", lesson: "abort", step: 8, answer: "right"}, keys: []string{"v"}},
	}
	for _, c := range cases {
		t.Run(c.name+"-80x24", func(t *testing.T) {
			p := openPlayer(t, c.lesson, 80, 24, views.Options{Kafka: 4})
			if k := p.session().Kafka(); k != 4 {
				t.Fatalf("opened under Kafka %d", k)
			}
			p.to(c.step)
			if c.answer != "" {
				p.answer(c.answer == "right")
			}
			if c.focus != "" {
				p.focus(c.focus)
			}
			p.press(c.keys...)
			goldenScreen(t, p.m.View())
		})
	}
}
