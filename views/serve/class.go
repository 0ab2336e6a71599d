package serve

import (
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/eoslab/eoslab/engine/termsafe"
	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/model"
)

// Class is one lesson a presenter plays for many students. One goroutine
// (run) owns the lesson's world, the answers and the seats; every other
// goroutine talks to it through its inbox. It never waits for a seat:
// each seat gets the newest View on a channel of one, replacing one the
// seat has not read yet, so a slow or stuck client never stalls the
// presenter or the others.
type Class struct {
	inbox chan func(*classState)
	quit  chan struct{}
	once  sync.Once
	saved chan struct{} // closed when the saver has written the last state
}

// View is what one seat is shown: built by the class's goroutine, never
// changed afterwards, and read by the seat's own goroutine.
type View struct {
	// Ver grows with every change of the class; a seat drops a View older
	// than the one it has.
	Ver uint64
	// Gen names the lesson being played; it changes when the presenter
	// opens another one. 0 means no lesson yet.
	Gen      int
	Name     string // the lesson's name, as open takes it
	Title    string
	Pos, Len int
	Frame    model.Frame
	// Ask is the current step's question; Result the step before's once
	// revealed, which stays in view on the deciding step.
	Ask, Result *Ask
	Students    int // student seats connected
	Presenters  int
	// Sandbox says the presenter lets students open the class's world,
	// where it is, in a sandbox of their own.
	Sandbox bool
}

// Ask is one of the class's questions. What a student's Ask holds before
// the reveal is only the question, the choices and the student's own
// answer: never the right one, the explanation or how the others answered.
type Ask struct {
	Step int
	// Mine is a student's own answer, 0 if none.
	Mine     int
	Question string
	Choices  []string
	Revealed bool
	// Reveal numbers the reveal in its lesson (0 before it): a question
	// revealed again after a restart has a new number.
	Reveal int
	// Correct (1-based) and Explanation: set after the reveal, and for the
	// presenter only then too.
	Correct     int
	Explanation string
	// Counts has the answers per choice of the students present and
	// Answered their sum: for the presenter always, for a student after
	// the reveal. Away is how many answered and have left since: their
	// answers are kept (and count again if they come back), but not
	// counted while they are away, so Answered never exceeds the students
	// present.
	Counts   []int
	Answered int
	Away     int
	// Waiting are the connected students who have not answered, by seat
	// name, sorted; the presenter's only.
	Waiting []string
}

type subscriber struct {
	seat      string
	presenter bool
	ch        chan *View
}

// send hands v to the seat, replacing a View it has not read yet.
func (s *subscriber) send(v *View) {
	select {
	case s.ch <- v:
		return
	default:
	}
	select {
	case <-s.ch:
	default:
	}
	select {
	case s.ch <- v:
	default:
	}
}

// lessonState is one lesson of the class: its world, and the answers and
// reveals of its checkpoints by step.
type lessonState struct {
	gen     int
	name    string
	world   *adapt.Session
	answers map[int]map[string]int
	// revealed numbers the reveals by step: 1 for the lesson's first, and
	// so on; 0 for a question not revealed. A restart clears it, not the
	// count (reveals), so a question revealed again gets a new number.
	revealed map[int]int
	reveals  int
	// moves since the lesson opened or last restarted, for Keeper.
	moves []MoveKind
}

type classState struct {
	load    func(name string) (*lessons.Lesson, error)
	cur     *lessonState
	lessons map[string]*lessonState
	gens    int
	ver     uint64
	subs    map[*subscriber]struct{}
	online  map[string]int // student seat -> connected sessions
	// seats holds each student seat's code, hashed: the seat belongs to
	// whoever holds it.
	seats map[string][32]byte
	// codes are the class's and the presenter's, kept with the class;
	// dirty tells the saver there is something new to keep.
	codes Codes
	dirty chan struct{}
	// sandbox: students may open the class's world in their own sandbox.
	sandbox bool
	// frame is the current lesson's frame at version frameVer.
	frame    model.Frame
	frameVer uint64
	frameOf  *lessonState
}

// NewClass starts a class. load opens a lesson by name; with start set,
// that lesson is open from the beginning, else the presenter picks one.
func NewClass(load func(name string) (*lessons.Lesson, error), start string) (*Class, error) {
	return newClass(load, start, nil, nil)
}

// newClass starts a class, restored from keep when it holds one saved
// since the server started with the same lesson (codes then become the
// saved ones), and kept there from then on.
func newClass(load func(name string) (*lessons.Lesson, error), start string, keep *keeper, codes *Codes) (*Class, error) {
	st := &classState{load: load, lessons: map[string]*lessonState{}, subs: map[*subscriber]struct{}{}, online: map[string]int{}, seats: map[string][32]byte{}}
	restored := false
	if keep != nil {
		var err error
		if restored, err = keep.restore(st, start, codes); err != nil {
			return nil, err
		}
	}
	if start != "" && !restored {
		if err := st.open(start); err != nil {
			return nil, err
		}
	}
	c := &Class{inbox: make(chan func(*classState), 1024), quit: make(chan struct{})}
	if keep != nil {
		st.codes = *codes
		st.dirty = make(chan struct{}, 1)
		c.saved = make(chan struct{})
		go c.keep(keep, st.dirty)
	}
	go c.run(st)
	return c, nil
}

// mark tells the saver the class changed.
func (st *classState) mark() {
	if st.dirty != nil {
		select {
		case st.dirty <- struct{}{}:
		default:
		}
	}
}

func (c *Class) run(st *classState) {
	for {
		select {
		case f := <-c.inbox:
			f(st)
		case <-c.quit:
			return
		}
	}
}

// Close stops the class's goroutine, after its last state is kept.
func (c *Class) Close() {
	c.once.Do(func() {
		if c.saved != nil {
			c.do(func(st *classState) { st.mark(); close(st.dirty); st.dirty = nil })
			<-c.saved
		}
		close(c.quit)
	})
}

// do runs f on the class's goroutine and waits for it.
func (c *Class) do(f func(*classState)) bool {
	done := make(chan struct{})
	select {
	case c.inbox <- func(st *classState) { f(st); close(done) }:
	case <-c.quit:
		return false
	}
	select {
	case <-done:
		return true
	case <-c.quit:
		return false
	}
}

// Join adds a seat. Its channel gets the seat's first View at once and a
// newer one after every change; leave removes the seat.
func (c *Class) Join(seat string, presenter bool) (views <-chan *View, leave func()) {
	sub := &subscriber{seat: seat, presenter: presenter, ch: make(chan *View, 1)}
	c.do(func(st *classState) {
		st.subs[sub] = struct{}{}
		if !presenter {
			st.online[seat]++
		}
		// A presenter coming or going is news to every seat.
		st.changed(seat, presenter)
	})
	return sub.ch, func() {
		c.do(func(st *classState) {
			delete(st.subs, sub)
			if !presenter {
				if st.online[seat]--; st.online[seat] <= 0 {
					delete(st.online, seat)
				}
			}
			st.changed("", presenter)
		})
	}
}

// Claim gives a student session its seat. back says it logged in with
// the seat's code (SeatCode), which is its way back. With the class code,
// a new seat is the session's, and code is the seat's code, to be shown
// to it once; a seat that exists is taken.
func (c *Class) Claim(seat string, back bool) (code string, taken bool) {
	if back {
		return "", false
	}
	c.do(func(st *classState) {
		if _, ok := st.seats[seat]; ok {
			taken = true
			return
		}
		code = NewCode(6)
		st.seats[seat] = sha256.Sum256([]byte(code))
		st.mark()
	})
	return code, taken
}

// SeatCode reports whether code is seat's own code.
func (c *Class) SeatCode(seat, code string) (ok bool) {
	c.do(func(st *classState) {
		h, known := st.seats[seat]
		ok = known && same(code, h)
	})
	return ok
}

// SandboxSource is the class's world where it is now as a scenario: the
// lesson's setup and every line of its steps so far, for a student's own
// sandbox; "" when there is no lesson or the presenter does not allow it.
func (c *Class) SandboxSource() (name, src string) {
	c.do(func(st *classState) {
		ls := st.cur
		if ls == nil || !st.sandbox {
			return
		}
		l := ls.world.Player().Lesson()
		var b strings.Builder
		for _, cmd := range l.Setup {
			b.WriteString(cmd.Text + "\n")
		}
		for k := 1; k <= ls.world.Pos() && k <= len(l.Steps); k++ {
			for _, cmd := range l.Steps[k-1].Commands {
				b.WriteString(cmd.Text + "\n")
			}
		}
		name, src = ls.name, b.String()
	})
	return name, src
}

// SummaryRow is one question of the lesson in the class's summary.
type SummaryRow struct {
	Step     int
	Question string
	Revealed bool
	// Right and Answered count every answer given, by the students
	// present and those who left since.
	Right, Answered int
}

// Summary is the current lesson's title and, per question, how many
// answered and how many were right.
func (c *Class) Summary() (title string, rows []SummaryRow) {
	c.do(func(st *classState) {
		ls := st.cur
		if ls == nil {
			return
		}
		p := ls.world.Player()
		title = ls.world.Title()
		for k := 1; k <= ls.world.Len(); k++ {
			step := p.StepAt(k)
			if step == nil || step.Ask == nil {
				continue
			}
			r := SummaryRow{Step: k, Question: step.Ask.Question, Revealed: ls.revealed[k] != 0}
			right := p.Correct(k)
			for _, ch := range ls.answers[k] {
				r.Answered++
				if ch == right {
					r.Right++
				}
			}
			rows = append(rows, r)
		}
	})
	return title, rows
}

// SummaryText is the summary as a plain file holds it: a line a question.
func SummaryText(title string, rows []SummaryRow) string {
	var b strings.Builder
	b.WriteString("eoslab class summary: " + title + "\n")
	for _, r := range rows {
		b.WriteString(summaryLine(r) + "\n")
	}
	if len(rows) == 0 {
		b.WriteString("no question yet\n")
	}
	return b.String()
}

func summaryLine(r SummaryRow) string {
	head := "step " + strconv.Itoa(r.Step) + ": "
	if r.Revealed {
		head += strconv.Itoa(r.Right) + " of " + strconv.Itoa(r.Answered) + " right"
	} else {
		head += "not revealed, " + strconv.Itoa(r.Answered) + " answered"
	}
	return head + ": " + termsafe.Blank(r.Question)
}

// Move runs one of the presenter's moves and returns the presenter's new
// View and whether the move did anything.
func (c *Class) Move(m Move) (v *View, ok bool) {
	c.do(func(st *classState) {
		ok = st.move(m)
		if ok {
			st.changed("", true)
		}
		v = st.view(&subscriber{presenter: true})
	})
	return v, ok
}

// Answer records a student's answer to the question at step; a seat's
// first answer is locked. It is ignored when the step is not the current
// one, its question is revealed or the choice is out of range.
func (c *Class) Answer(seat string, step, choice int) {
	select {
	case c.inbox <- func(st *classState) {
		if st.answer(seat, step, choice) {
			st.changed(seat, false)
		}
	}:
	case <-c.quit:
	}
}

// Move is a presenter's move.
type Move struct {
	Kind MoveKind
	Name string // the lesson, for Open
}

// MoveKind says what a Move does.
type MoveKind int

// The presenter's moves.
const (
	Next MoveKind = iota
	Back
	Restart
	Reveal
	Open
	// AllowSandbox lets students open a sandbox of the class's world, or
	// stops letting them (one already open stays theirs).
	AllowSandbox
)

func (st *classState) open(name string) error {
	if ls, ok := st.lessons[name]; ok {
		st.cur = ls
		return nil
	}
	l, err := st.load(name)
	if err != nil {
		return err
	}
	st.gens++
	ls := &lessonState{gen: st.gens, name: name, world: adapt.New(l), answers: map[int]map[string]int{}, revealed: map[int]int{}}
	st.lessons[name], st.cur = ls, ls
	return nil
}

func (st *classState) move(m Move) bool {
	ok := st.play(m)
	if ok && st.cur != nil && m.Kind != Open {
		// The log a restarted server replays: the engine is
		// deterministic, so the same moves make the same world.
		if m.Kind == Restart {
			st.cur.moves = st.cur.moves[:0]
		} else {
			st.cur.moves = append(st.cur.moves, m.Kind)
		}
	}
	return ok
}

func (st *classState) play(m Move) bool {
	switch m.Kind {
	case Open:
		return st.open(m.Name) == nil
	case AllowSandbox:
		st.sandbox = !st.sandbox
		return true
	}
	ls := st.cur
	if ls == nil {
		return false
	}
	w := ls.world
	switch m.Kind {
	case Next:
		return w.Next()
	case Back:
		return w.Back()
	case Restart:
		w.Restart()
		clear(ls.answers)
		clear(ls.revealed)
		return true
	case Reveal:
		k := w.Pos()
		p := w.Player()
		if p.Checkpoint() == nil || ls.revealed[k] != 0 {
			return false
		}
		ls.reveals++
		ls.revealed[k] = ls.reveals
		// The world's own checkpoint takes the engine's right choice, so
		// that the deciding step can run.
		right := p.Correct(k)
		if right == 0 {
			right = 1
		}
		w.Answer(right)
		w.Next()
		return true
	}
	return false
}

func (st *classState) answer(seat string, step, choice int) bool {
	ls := st.cur
	if ls == nil || ls.world.Pos() != step || ls.revealed[step] != 0 {
		return false
	}
	cp := ls.world.Player().Checkpoint()
	if cp == nil || choice < 1 || choice > len(cp.Choices) {
		return false
	}
	a := ls.answers[step]
	if a == nil {
		a = map[string]int{}
		ls.answers[step] = a
	}
	if a[seat] != 0 {
		return false
	}
	a[seat] = choice
	return true
}

// changed sends the seats their new Views: every seat after a move; after
// an answer, a join or a leave, the presenters and the sessions of the
// seat it concerns.
func (st *classState) changed(seat string, all bool) {
	st.ver++
	st.mark()
	for s := range st.subs {
		if all || s.presenter || (seat != "" && s.seat == seat) {
			s.send(st.view(s))
		}
	}
}

// view builds one seat's View. A student's holds nothing of the answer
// before the reveal: the checkpoint is the question and the choices, and
// Ask has no right choice, explanation or counts.
func (st *classState) view(s *subscriber) *View {
	v := &View{Ver: st.ver, Students: len(st.online), Sandbox: st.sandbox}
	for o := range st.subs {
		if o.presenter {
			v.Presenters++
		}
	}
	ls := st.cur
	if ls == nil {
		return v
	}
	w := ls.world
	v.Gen, v.Name, v.Title, v.Pos, v.Len = ls.gen, ls.name, w.Title(), w.Pos(), w.Len()
	// The world's frame is the same for every seat: built once a change,
	// not once a seat (each seat's copy then gets its own checkpoint).
	if st.frameVer != st.ver || st.frameOf != ls {
		st.frame, st.frameVer, st.frameOf = w.Frame(), st.ver, ls
	}
	v.Frame = st.frame
	v.Frame.Key = uint64(ls.gen)<<40 | v.Frame.Key
	v.Ask = st.ask(ls, s, v.Pos)
	if ls.revealed[v.Pos-1] != 0 {
		v.Result = st.ask(ls, s, v.Pos-1)
	}
	// Every seat's player draws the class's question, not the world's:
	// the world's checkpoint holds the right choice as if chosen (the
	// reveal answers it so that the deciding step can run). On a deciding
	// step with no question of its own, the revealed one stays in view,
	// judged, with its explanation.
	switch {
	case v.Ask != nil:
		v.Frame.Checkpoint = seatCheckpoint(v.Ask)
	case v.Result != nil:
		v.Frame.Checkpoint = seatCheckpoint(v.Result)
	}
	return v
}

// ask is step k's question as seat s may see it, or nil.
func (st *classState) ask(ls *lessonState, s *subscriber, k int) *Ask {
	p := ls.world.Player()
	step := p.StepAt(k)
	if step == nil || step.Ask == nil {
		return nil
	}
	a := &Ask{Step: k, Question: step.Ask.Question, Revealed: ls.revealed[k] != 0, Reveal: ls.revealed[k]}
	for _, ch := range step.Ask.Choices {
		a.Choices = append(a.Choices, ch.Text)
	}
	if s.presenter || a.Revealed {
		a.Counts = make([]int, len(a.Choices))
		for seat, c := range ls.answers[k] {
			if st.online[seat] == 0 {
				a.Away++
				continue
			}
			a.Counts[c-1]++
			a.Answered++
		}
	}
	if a.Revealed {
		a.Correct, a.Explanation = p.Correct(k), step.Ask.Explain
	}
	if s.presenter {
		for seat := range st.online {
			if ls.answers[k][seat] == 0 {
				a.Waiting = append(a.Waiting, seat)
			}
		}
		slices.Sort(a.Waiting)
	} else {
		a.Mine = ls.answers[k][s.seat]
	}
	return a
}

// seatCheckpoint is the checkpoint a seat's player draws: the question
// alone before the reveal; after it, the right choice and the explanation,
// with a student's own answer judged (a presenter's Mine is 0: the player
// then shows the right choice without "your answer").
func seatCheckpoint(a *Ask) *model.Checkpoint {
	cp := &model.Checkpoint{Question: a.Question, Choices: a.Choices}
	if a.Revealed {
		cp.Answered, cp.Chosen, cp.Correct, cp.Explanation = true, a.Mine, a.Correct, a.Explanation
	} else {
		cp.Locked = a.Mine
	}
	return cp
}
