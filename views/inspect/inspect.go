// Package inspect is the terminal UI of `eoslab inspect`: the snapshot of
// engine/realkafka/inspect in panels, read again on a key and on a timer.
// A cluster that stops answering is a line on the screen, and the screen
// keeps the last snapshot it had (marked as old) until the cluster is
// back.
package inspect

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	data "github.com/eoslab/eoslab/engine/realkafka/inspect"
	"github.com/eoslab/eoslab/views/theme"
)

// Fetch reads one snapshot with the log of tp (Topic "" lets it choose).
type Fetch func(ctx context.Context, tp data.TP) (*data.Snapshot, error)

// Options configure the model.
type Options struct {
	Bootstrap string
	Fetch     Fetch
	// Every is the refresh period (0: only on the r key).
	Every time.Duration
	// Timeout bounds one refresh; a cluster that does not answer within it
	// is reported as gone.
	Timeout time.Duration
	Theme   *theme.Theme
	// Log is the partition whose log to show first (Topic "": Fetch picks).
	Log data.TP
	// Now is the clock for the "taken ... ago" line (time.Now if nil).
	Now func() time.Time
}

// Model is the inspector's Bubble Tea model.
type Model struct {
	o       Options
	w, h    int
	snap    *data.Snapshot
	errMsg  string // the last refresh's failure, "" when it succeeded
	loading bool
	took    time.Duration
	gen     int // refreshes started; a reply of an older one is dropped
	log     data.TP
	focus   int
	scroll  [numPanels]int
	help    bool
}

const (
	pHanging = iota
	pTxns
	pOffsets
	pProducers
	pLog
	numPanels
)

// sticky is how many first lines of a panel do not scroll.
var sticky = [numPanels]int{pTxns: 1, pOffsets: 1, pProducers: 1, pLog: 2}

var sections = [numPanels]string{data.SecHanging, data.SecTxns, data.SecOffsets, data.SecProducers, data.SecLog}

type snapMsg struct {
	gen  int
	s    *data.Snapshot
	err  error
	took time.Duration
}

type tickMsg struct{}

// New builds the model.
func New(o Options) *Model {
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Theme == nil {
		o.Theme = theme.New(theme.Options{})
	}
	return &Model{o: o, w: 80, h: 24, log: o.Log}
}

// Init starts the first refresh and the timer.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.refresh(), m.tick()) }

func (m *Model) tick() tea.Cmd {
	if m.o.Every <= 0 {
		return nil
	}
	return tea.Tick(m.o.Every, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) refresh() tea.Cmd {
	m.gen++
	m.loading = true
	gen, tp, fetch, timeout := m.gen, m.log, m.o.Fetch, m.o.Timeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		s, err := fetch(ctx, tp)
		return snapMsg{gen: gen, s: s, err: err, took: time.Since(start)}
	}
}

// Update handles keys, the timer and snapshots.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tickMsg:
		var cmd tea.Cmd
		if !m.loading {
			cmd = m.refresh()
		}
		return m, tea.Batch(cmd, m.tick())
	case snapMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.loading, m.took = false, msg.took
		if msg.err != nil {
			m.errMsg = data.Unreachable(m.o.Bootstrap, msg.err)
			return m, nil
		}
		if m.snap == nil && len(msg.s.Hanging) == 0 {
			m.focus = pTxns
		}
		m.errMsg, m.snap = "", msg.s
		m.log = msg.s.LogOf
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

// keyMap is the inspector's keys.
type keyMap struct {
	quit, refresh, help, next, prev, down, up, pgdown, pgup, right, left key.Binding
}

var keys = keyMap{
	quit:    key.NewBinding(key.WithKeys("q", "ctrl+c", "esc")),
	refresh: key.NewBinding(key.WithKeys("r")),
	help:    key.NewBinding(key.WithKeys("?", "h")),
	next:    key.NewBinding(key.WithKeys("tab")),
	prev:    key.NewBinding(key.WithKeys("shift+tab")),
	down:    key.NewBinding(key.WithKeys("down", "j")),
	up:      key.NewBinding(key.WithKeys("up", "k")),
	pgdown:  key.NewBinding(key.WithKeys("pgdown", " ")),
	pgup:    key.NewBinding(key.WithKeys("pgup")),
	right:   key.NewBinding(key.WithKeys("right", "l", "]")),
	left:    key.NewBinding(key.WithKeys("left", "[")),
}

func (m *Model) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.help {
		m.help = false
		if key.Matches(k, keys.quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	switch {
	case key.Matches(k, keys.quit):
		return m, tea.Quit
	case key.Matches(k, keys.refresh):
		return m, m.refresh()
	case key.Matches(k, keys.help):
		m.help = true
	case key.Matches(k, keys.next):
		m.focus = (m.focus + 1) % numPanels
	case key.Matches(k, keys.prev):
		m.focus = (m.focus + numPanels - 1) % numPanels
	case key.Matches(k, keys.down):
		m.scroll[m.focus]++
	case key.Matches(k, keys.up):
		m.scroll[m.focus] = max(0, m.scroll[m.focus]-1)
	case key.Matches(k, keys.pgdown):
		m.scroll[m.focus] += 10
	case key.Matches(k, keys.pgup):
		m.scroll[m.focus] = max(0, m.scroll[m.focus]-10)
	case key.Matches(k, keys.right):
		return m, m.step(1)
	case key.Matches(k, keys.left):
		return m, m.step(-1)
	}
	return m, nil
}

// step shows the log of the partition step places after the shown one.
func (m *Model) step(step int) tea.Cmd {
	if m.snap == nil || len(m.snap.Partitions) == 0 {
		return nil
	}
	i := 0
	for j, p := range m.snap.Partitions {
		if p.TP == m.log {
			i = j
		}
	}
	n := len(m.snap.Partitions)
	m.log = m.snap.Partitions[((i+step)%n+n)%n].TP
	m.scroll[pLog] = 0
	return m.refresh()
}

// View draws the screen.
func (m *Model) View() string {
	t := m.o.Theme
	if m.w < 30 || m.h < 8 {
		return clip(fmt.Sprintf("eoslab inspect: %dx%d is too small (30x8 at least); q quits", m.w, m.h), max(m.w, 1))
	}
	w, h := m.w, m.h
	var top []string
	top = append(top, clip(t.Text(theme.TextHeader, " eoslab inspect "+m.o.Bootstrap+" (read only) "), w))
	status := ""
	switch {
	case m.errMsg != "":
		msg := m.errMsg
		if m.snap != nil {
			msg += " The panels show the last snapshot; r tries again."
		}
		// The message is read in full: up to three lines.
		ls := wrap(msg, w)
		for i, l := range ls[:min(len(ls), 3)] {
			if i > 0 {
				top = append(top, clip(t.Render(theme.Wrong, l), w))
			} else {
				status = t.Render(theme.Wrong, l)
			}
		}
	case m.snap == nil:
		status = "asking the cluster..."
	default:
		status = fmt.Sprintf("snapshot %s (%s); brokers %d, %d txn ids, %d partitions, %d hanging",
			time.UnixMilli(m.snap.TakenMs).UTC().Format("15:04:05Z"), m.took.Round(time.Millisecond),
			len(m.snap.Brokers), len(m.snap.Txns), len(m.snap.Partitions), len(m.snap.Hanging))
		if m.loading {
			status += " (refreshing)"
		}
	}
	top = append(top[:1], append([]string{clip(status, w)}, top[1:]...)...)
	arrows := []string{"↑↓ scroll", "←→ log"}
	if t.ASCII {
		arrows = []string{"up/down scroll", "left/right log"}
	}
	k := append([]string{"r refresh", "tab panel"}, arrows...)
	k = append(k, "? help", "q quit")
	if m.o.Every > 0 {
		k = append([]string{fmt.Sprintf("every %s", m.o.Every)}, k...)
		if w < 80 {
			k = k[1:]
		}
	}
	keys := t.Text(theme.TextFaint, strings.Join(k, t.Sym.Sep))
	bodyH := h - len(top) - 1
	var body []string
	switch {
	case m.help:
		body = m.helpLines(w)
	case m.snap == nil:
		body = nil
	case w >= 160:
		body = m.columns(w, bodyH)
	default:
		body = m.stack(w, bodyH, []int{pHanging, pTxns, pOffsets, pProducers, pLog})
	}
	for len(body) < bodyH {
		body = append(body, "")
	}
	body = body[:bodyH]
	return strings.Join(append(append(top, body...), clip(keys, w)), "\n")
}

// stack draws the panels one under the other in h lines: the focused one
// gets the room the others do not need.
func (m *Model) stack(w, h int, panels []int) []string {
	lines := map[int][]data.Line{}
	need := 0
	for _, p := range panels {
		lines[p] = m.panelLines(p, w)
		need += len(lines[p]) + 1
	}
	room := map[int]int{}
	if need <= h {
		for _, p := range panels {
			room[p] = len(lines[p])
		}
	} else {
		// Each unfocused panel gets its header lines and a row (the
		// hanging panel three lines), the focused one what it needs of
		// the rest, and what is left goes to the others in order.
		left := h - len(panels)
		for _, p := range panels {
			if p == m.focus {
				continue
			}
			n := sticky[p] + 1
			if p == pHanging {
				n = 3
			}
			room[p] = min(len(lines[p]), n, max(left, 0))
			left -= room[p]
		}
		// A focused panel that does not fit takes the others' rows, the
		// last panel's first, down to their titles.
		if contains(panels, m.focus) {
			for i := len(panels) - 1; i >= 0 && left < len(lines[m.focus]); i-- {
				if p := panels[i]; p != m.focus {
					give := min(room[p], len(lines[m.focus])-left)
					room[p] -= give
					left += give
				}
			}
		}
		order := panels
		if contains(panels, m.focus) {
			order = append([]int{m.focus}, panels...)
		}
		for _, p := range order {
			more := min(len(lines[p])-room[p], max(left, 0))
			room[p] += more
			left -= more
		}
	}
	var out []string
	for _, p := range panels {
		out = append(out, m.title(p, w, len(lines[p]), room[p]))
		ls := lines[p]
		// A table's header (and the log's summary line) stays on top
		// while its rows scroll.
		keep := min(sticky[p], room[p], len(ls))
		for i := 0; i < keep; i++ {
			out = append(out, clip(m.style(ls[i]), w))
		}
		rows, n := ls[keep:], room[p]-keep
		off := min(m.scroll[p], max(len(rows)-n, 0))
		for i := off; i < off+n && i < len(rows); i++ {
			out = append(out, clip(m.style(rows[i]), w))
		}
		for i := len(rows) - off; i < n; i++ {
			out = append(out, "")
		}
	}
	return out
}

// columns: hanging, transactions and offsets on the left; producers and
// the log on the right.
func (m *Model) columns(w, h int) []string {
	lw := (w - 1) / 2
	rw := w - 1 - lw
	left := m.stack(lw, h, []int{pHanging, pTxns, pOffsets})
	right := m.stack(rw, h, []int{pProducers, pLog})
	var out []string
	for i := 0; i < h; i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, strings.TrimRight(pad(l, lw)+" "+r, " "))
	}
	return out
}

// panelLines is a panel's lines in w cells: prose wrapped (a hanging
// transaction's reason and command are read in full), tables clipped.
func (m *Model) panelLines(p int, w int) []data.Line {
	var out []data.Line
	for _, l := range data.Lines(m.snap, sections[p]) {
		if l.Hang == 0 {
			out = append(out, l)
			continue
		}
		for i, c := range wrap(l.Text, w-l.Hang) {
			if i > 0 {
				c = strings.Repeat(" ", l.Hang) + strings.TrimLeft(c, " ")
			}
			out = append(out, data.Line{Text: c, Mark: l.Mark})
		}
	}
	return out
}

// wrap breaks s into lines of at most w cells (at least 10).
func wrap(s string, w int) []string {
	return strings.Split(ansi.Wrap(s, max(w, 10), ""), "\n")
}

func (m *Model) title(p, w, n, room int) string {
	t := m.o.Theme
	s := data.Heading(m.snap, sections[p])
	k := min(sticky[p], n)
	if rows, vis := n-k, room-k; vis <= 0 && rows > 0 {
		s += fmt.Sprintf(" [%d rows; tab shows them]", rows)
	} else if rows > vis {
		off := min(m.scroll[p], rows-vis)
		s += fmt.Sprintf(" [%d-%d of %d]", off+1, off+vis, rows)
	}
	if p == m.focus {
		return clip(t.Text(theme.TextFocusTitle, t.Sym.Cursor+" "+s), w)
	}
	return clip(t.Text(theme.TextTitle, "  "+s), w)
}

func (m *Model) style(l data.Line) string {
	t := m.o.Theme
	switch l.Mark {
	case data.Hung:
		return t.Render(theme.Violated, l.Text)
	case data.Open:
		return t.Render(theme.Open, l.Text)
	case data.Committed:
		return t.Render(theme.Committed, l.Text)
	case data.Aborted:
		return t.Render(theme.Aborted, l.Text)
	}
	return l.Text
}

func (m *Model) helpLines(w int) []string {
	ls := []string{
		"eoslab inspect reads; it never changes the cluster.",
		"",
		"Panels: the hanging transactions (why, and the kafka-transactions.sh",
		"command that would abort each); the coordinators' transactions",
		"(ListTransactions, DescribeTransactions: state, pid, epoch, age against",
		"transaction.timeout.ms); each partition's HW and LSO (ListOffsets under",
		"read_uncommitted and read_committed) and the producer whose open",
		"transaction holds the LSO; the leaders' producer state",
		"(DescribeProducers, KIP-664); one partition's log by raw Fetch: batch",
		"headers (pid, epoch, base sequence, T = transactional, C = control)",
		"and the markers.",
		"",
		"A transaction is hanging when a leader has it open and no coordinator",
		"does with that partition (the rule of kafka-transactions.sh",
		"find-hanging), or when its coordinator has had it open longer than",
		"its transaction.timeout.ms.",
		"",
		"Keys: r refresh; tab, shift+tab panel; up, down, pgup, pgdown scroll",
		"the panel; left, right or [ ] the partition whose log is shown; q quit",
		"",
		"any key closes this help",
	}
	for i := range ls {
		ls[i] = clip(ls[i], w)
	}
	return ls
}

func contains(l []int, x int) bool {
	for _, y := range l {
		if y == x {
			return true
		}
	}
	return false
}

func clip(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "~")
}

func pad(s string, w int) string {
	s = clip(s, w)
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}
