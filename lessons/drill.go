package lessons

import (
	"bytes"
	"embed"
	"errors"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/eoslab/eoslab/engine/script"
)

// A drill asks the questions written for it in content/drill/*.drill,
// each standing alone: the lessons' checkpoints are about the lesson's own
// actors and times, so the drill asks its own versions of them. A drill
// question is either played or written.
//
// A played question is a small lesson of its own: a header (question:,
// concept:, kind:, lesson:), a setup and steps in the lesson format, one of
// which asks, with a hint: and a why: after each choice. Its answer is
// judged like a lesson's checkpoint: the choice whose expectations hold
// after the next step, under each Kafka version.
//
// A written question (drill_written.go) asks what no frozen state shows
// (configuration, error handling, trade-offs, design); its right answer is
// written and it names its source.
//
// A drill file holds several questions, each starting at its question:
// line:
//
//	question: restart-new-pid
//	concept: idempotence
//	kind: failure
//	lesson: lost-ack
//	setup:
//	  topic t
//	  producer A
//	step: A wrote once
//	  say: ...
//	  do: ...
//	  ask: ...
//	  choice: ... | expect ...
//	  why: ...
//	  hint: ...
//	  explain: ...
//	step: A restarts and sends again
//	  say: ...
//	  do: ...

//go:embed content/drill/*.drill
var drillContent embed.FS

// drillHeaderKeys are the header keys of a drill question, all required.
var drillHeaderKeys = []string{"question", "concept", "kind", "lesson"}

// DrillQuestion is one question of the drill pool.
type DrillQuestion struct {
	// ID names the question: its question: line.
	ID string
	// Concept is what the question tests, by which the drill groups the
	// questions to revisit and draws a drill of the missed ones.
	Concept string
	// Kind is what sort of question it is: one of Kinds.
	Kind string
	// Lesson is the built-in lesson that teaches it, to open after.
	Lesson string
	// Ref is where to check the answer: a Kafka class and method, a KIP,
	// a JIRA or a documented config name. Required of a written question;
	// a played one gives its asking step's source: line, if any.
	Ref string
	// Source is the small lesson a played question is played on and Step
	// the step whose checkpoint is the question; nil for a written one.
	Source *Lesson
	Step   int
	// written holds a written question's checkpoint, and kafka the
	// version it is read under (3 or 4).
	written *written
	kafka   int
	line    int
}

// Written reports whether the question is written: judged by its right:
// line, with no state of the engine to show.
func (q *DrillQuestion) Written() bool { return q.written != nil }

// Checkpoint is the question itself.
func (q *DrillQuestion) Checkpoint() *Checkpoint {
	if q.written != nil {
		return &q.written.cp[versionIndex(q.kafka)]
	}
	return q.Source.Steps[q.Step-1].Ask
}

// Kafka is the Kafka major version the question is read under.
func (q *DrillQuestion) Kafka() int { return q.kafka }

// Line is the question's question: line in its file.
func (q *DrillQuestion) Line() int { return q.line }

// ForKafka is the question as read under Kafka major version k.
func (q DrillQuestion) ForKafka(k int) DrillQuestion {
	q.kafka = k
	if q.Source != nil {
		q.Source = q.Source.ForKafka(k)
	}
	return q
}

// WrittenRight is a written question's right choice (1-based, as
// written), or 0 for a played one.
func (q *DrillQuestion) WrittenRight() int {
	if q.written == nil {
		return 0
	}
	return q.written.right[versionIndex(q.kafka)]
}

// ParseDrill reads a drill file: one or more questions, each from its
// question: line to the next. Errors name file:line as a lesson's do.
// Only comments and blank lines may come before the first question.
func ParseDrill(file string, src []byte) ([]DrillQuestion, error) {
	lines := bytes.SplitAfter(src, []byte("\n"))
	var errs script.ErrorList
	var out []DrillQuestion
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		var q *DrillQuestion
		var err error
		if isWritten(lines, start, end) {
			q, err = parseWritten(file, lines, start, end)
		} else {
			// The chunk keeps its line numbers: the lines before it are blank.
			chunk := append(bytes.Repeat([]byte("\n"), start), bytes.Join(lines[start:end], nil)...)
			q, err = parseDrillQuestion(file, chunk, start+1)
		}
		if err != nil {
			addAll(&errs, err)
			return
		}
		out = append(out, *q)
	}
	for i, l := range lines {
		t := strings.TrimSpace(string(l))
		if key, _, _, ok := splitKey(t); ok && key == "question" {
			flush(i)
			start = i
			continue
		}
		if start < 0 && t != "" && !strings.HasPrefix(t, "#") {
			errs.Add(&script.Error{File: file, Line: i + 1, Msg: "expected \"question: NAME\" to start a drill question, found " + quote(firstWord(t))})
		}
	}
	flush(len(lines))
	if len(out) == 0 && errs.Len() == 0 {
		errs.Add(&script.Error{File: file, Line: 1, Msg: "a drill file holds at least one question, starting with \"question: NAME\""})
	}
	return out, errs.Err()
}

func addAll(errs *script.ErrorList, err error) {
	if list, ok := err.(script.ErrorList); ok {
		for _, e := range list.Errors {
			errs.Add(e)
		}
		errs.More += list.More
		return
	}
	if se, ok := err.(*script.Error); ok {
		errs.Add(se)
		return
	}
	errs.Add(&script.Error{Msg: err.Error()})
}

// parseDrillQuestion parses one question, under both versions as a
// lesson is.
func parseDrillQuestion(file string, src []byte, line int) (*DrillQuestion, error) {
	l, p, err := parseBoth(file, bytes.NewReader(src), true)
	if err != nil {
		return nil, err
	}
	q := &DrillQuestion{ID: p.meta["question"], Concept: p.meta["concept"], Kind: p.meta["kind"], Lesson: p.meta["lesson"],
		Source: l, kafka: Versions[0], line: line}
	for _, v := range []*Lesson{l, l.ForKafka(4)} {
		v.Name, v.Title = q.ID, q.ID
	}
	for k := range l.Steps {
		if l.Steps[k].Ask != nil {
			q.Step = k + 1
			q.Ref = l.Steps[k].Source
		}
	}
	return q, nil
}

// endDrill checks what makes a drill question: exactly one checkpoint.
func (p *parser) endDrill() {
	asks := 0
	for k := range p.l.Steps {
		if cp := p.l.Steps[k].Ask; cp != nil {
			asks++
			if cp.Hint == "" {
				p.errorf(cp.Line, "a drill question needs a hint: line in its asking step, shown on request before the answer")
			}
		}
	}
	if asks != 1 && len(p.l.Steps) > 0 {
		p.errorf(p.seen["question"], "a drill question asks exactly once (one ask: in its steps), found "+strconv.Itoa(asks))
	}
	if k, ok := p.meta["kind"]; ok && !contains(Kinds, k) {
		p.errorf(p.seen["kind"], "kind: must be "+orList(Kinds)+", got "+quote(k))
	}
}

var (
	drillOnce sync.Once
	drillPool []DrillQuestion
	drillErr  error
)

// DrillPool is every question a drill draws from, in a fixed order: the
// drill files' questions in file order. An error names what does not
// parse, or a question that opens a lesson that does not exist.
func DrillPool() ([]DrillQuestion, error) {
	drillOnce.Do(func() { drillPool, drillErr = loadDrillPool() })
	return drillPool, drillErr
}

func loadDrillPool() ([]DrillQuestion, error) {
	var pool []DrillQuestion
	files, err := fs.Glob(drillContent, "content/drill/*.drill")
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var errs script.ErrorList
	ids := map[string]string{}
	for _, f := range files {
		src, err := drillContent.ReadFile(f)
		if err != nil {
			return nil, err
		}
		qs, err := ParseDrill(f, src)
		if err != nil {
			addAll(&errs, err)
			continue
		}
		for _, q := range qs {
			line := q.line
			if at, dup := ids[q.ID]; dup {
				errs.Add(&script.Error{File: f, Line: line, Msg: "question " + quote(q.ID) + " is given twice (first in " + at + ")"})
			}
			ids[q.ID] = f
			if _, err := find(q.Lesson); err != nil {
				errs.Add(&script.Error{File: f, Line: line, Msg: "question " + quote(q.ID) + ": lesson: " + err.Error()})
			}
			pool = append(pool, q)
		}
	}
	return pool, errs.Err()
}

// Drill is one drill being played: count questions drawn from the pool by
// a seed, answered one after the other. The same seed and count draw the
// same questions in the same order, with their choices in the same order.
type Drill struct {
	seed uint64
	qs   []DrillQuestion
	// order[i][k] is the written choice (0-based) shown in place k of
	// question i: the drill shuffles the choices, so that where the right
	// answer was written says nothing. chosen and correct are places
	// (1-based), as the learner sees them.
	order   [][]int
	chosen  []int
	correct []int
	// hinted marks the questions whose hint was shown: a right answer
	// after it earns no point.
	hinted  []bool
	pos     int
	kafka   int
	players map[*Lesson]*Player
}

// DefaultDrillCount is how many questions a drill asks unless told.
const DefaultDrillCount = 10

// NewDrill draws count questions (all of them when count is larger than
// the pool, DefaultDrillCount when count <= 0) with a PCG seeded from
// seed.
func NewDrill(seed uint64, count int) (*Drill, error) { return NewDrillFor(seed, count, Versions[0]) }

// NewDrillFor draws a drill as NewDrill does and plays its questions under
// Kafka major version kafka (3 or 4). The seed draws the same questions
// under both.
func NewDrillFor(seed uint64, count, kafka int) (*Drill, error) {
	pool, err := DrillPool()
	if err != nil {
		return nil, err
	}
	d := newDrill(pool, seed, count)
	d.setKafka(kafka)
	return d, nil
}

// DrillOf is a drill of the named questions, in that order, with their
// choices ordered by seed as in any drill of that seed: for tests, and to
// ask again the questions a drill got wrong.
func DrillOf(seed uint64, kafka int, ids ...string) (*Drill, error) {
	pool, err := DrillPool()
	if err != nil {
		return nil, err
	}
	d := &Drill{seed: seed, players: map[*Lesson]*Player{}}
	for _, id := range ids {
		i := slices.IndexFunc(pool, func(q DrillQuestion) bool { return q.ID == id })
		if i < 0 {
			return nil, errors.New("no drill question " + quote(id))
		}
		d.qs = append(d.qs, pool[i])
	}
	d.chosen, d.correct, d.hinted = make([]int, len(d.qs)), make([]int, len(d.qs)), make([]bool, len(d.qs))
	d.setKafka(kafka)
	return d, nil
}

// Kafka is the Kafka major version the drill plays under.
func (d *Drill) Kafka() int { return d.kafka }

// setKafka reads every question under Kafka major version kafka.
func (d *Drill) setKafka(kafka int) {
	d.kafka = kafka
	d.order = d.order[:0]
	for i := range d.qs {
		d.qs[i] = d.qs[i].ForKafka(kafka)
		// The order is drawn from the seed and the question alone; a
		// written question may offer another number of choices under
		// each version.
		d.order = append(d.order, choiceOrder(d.seed, d.qs[i]))
	}
}

func newDrill(pool []DrillQuestion, seed uint64, count int) *Drill {
	if count <= 0 {
		count = DefaultDrillCount
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	order := r.Perm(len(pool))
	count = min(count, len(pool))
	d := &Drill{seed: seed, chosen: make([]int, count), correct: make([]int, count), hinted: make([]bool, count), players: map[*Lesson]*Player{}}
	for _, i := range order[:count] {
		d.qs = append(d.qs, pool[i])
	}
	d.setKafka(Versions[0])
	return d
}

// choiceOrder is the order a question's choices are shown in: drawn from
// the seed and the question's ID alone, so a question reads the same in
// every drill of that seed, whatever else the pool holds.
func choiceOrder(seed uint64, q DrillQuestion) []int {
	h := fnv.New64a()
	h.Write([]byte(q.ID))
	return rand.New(rand.NewPCG(seed, h.Sum64())).Perm(len(q.Checkpoint().Choices))
}

// Choices are question i's choices in the order the drill shows them.
func (d *Drill) Choices(i int) []Choice {
	cs := d.qs[i].Checkpoint().Choices
	out := make([]Choice, len(cs))
	for k, j := range d.order[i] {
		out[k] = cs[j]
	}
	return out
}

// Seed is the seed the drill was drawn with.
func (d *Drill) Seed() uint64 { return d.seed }

// Len is the number of questions.
func (d *Drill) Len() int { return len(d.qs) }

// Pos is the current question, 0..Len-1, or Len once the drill is over.
func (d *Drill) Pos() int { return d.pos }

// Question is question i.
func (d *Drill) Question(i int) *DrillQuestion { return &d.qs[i] }

// Player is a player standing at question i's step, its earlier
// checkpoints answered right: its World is the frozen state the question
// is about. Players are shared by the questions of one lesson; read them,
// never step them. A written question has none: Player returns nil.
func (d *Drill) Player(i int) *Player {
	q := &d.qs[i]
	if q.Written() {
		return nil
	}
	p := d.players[q.Source]
	if p == nil {
		p = NewPlayer(q.Source)
		d.players[q.Source] = p
	}
	for p.Pos() > q.Step && p.Back() {
	}
	for p.Pos() < q.Step {
		if p.Next() {
			continue
		}
		if c := p.Correct(p.Pos()); c == 0 || !answered(p, c) {
			break
		}
	}
	return p
}

func answered(p *Player, c int) bool {
	if p.Chosen(p.Pos()) != 0 {
		return true
	}
	_, ok := p.Answer(c)
	return ok
}

// Correct is question i's right choice (1-based, in the order shown),
// judged by the engine.
func (d *Drill) Correct(i int) int {
	if d.correct[i] == 0 {
		q := &d.qs[i]
		written := q.WrittenRight()
		if !q.Written() {
			written = d.Player(i).Correct(q.Step)
		}
		for k, j := range d.order[i] {
			if j+1 == written {
				d.correct[i] = k + 1
			}
		}
	}
	return d.correct[i]
}

// Chosen is the answer given to question i, or 0.
func (d *Drill) Chosen(i int) int { return d.chosen[i] }

// Answer answers the current question. ok is false when it is answered
// already, the drill is over, or the choice is out of range.
func (d *Drill) Answer(choice int) (right, ok bool) {
	if d.pos >= len(d.qs) || d.chosen[d.pos] != 0 {
		return false, false
	}
	if choice < 1 || choice > len(d.qs[d.pos].Checkpoint().Choices) {
		return false, false
	}
	d.chosen[d.pos] = choice
	return choice == d.Correct(d.pos), true
}

// Hint shows the current question's hint: from then on a right answer to
// it earns no point. ok is false once it is answered or the drill is over.
func (d *Drill) Hint() (hint string, ok bool) {
	if d.pos >= len(d.qs) || d.chosen[d.pos] != 0 {
		return "", false
	}
	d.hinted[d.pos] = true
	return d.qs[d.pos].Checkpoint().Hint, true
}

// Hinted reports whether question i's hint was shown.
func (d *Drill) Hinted(i int) bool { return d.hinted[i] }

// Next goes to the next question once the current one is answered; past
// the last it ends the drill. It returns false when it cannot move.
func (d *Drill) Next() bool {
	if d.pos >= len(d.qs) || d.chosen[d.pos] == 0 {
		return false
	}
	d.pos++
	return true
}

// DrillResult is a drill's score and what to go over again.
type DrillResult struct {
	Seed uint64
	// Right counts the right answers given without a hint, Hinted the
	// right answers given after one (they earn no point).
	Right, Hinted, Answered, Total int
	// Revisit are the concepts of the questions answered wrong or after a
	// hint, each once, in the order first missed, with the lesson to open.
	Revisit []Revisit
	// Missed are those questions' IDs, in drill order.
	Missed []string
}

// Revisit is a concept to go over again.
type Revisit struct {
	Concept, Lesson string
	// Missed is how many of the drill's questions on it were missed.
	Missed int
}

// Result is the score so far.
func (d *Drill) Result() DrillResult {
	r := DrillResult{Seed: d.seed, Total: len(d.qs)}
	at := map[string]int{}
	for i, c := range d.chosen {
		if c == 0 {
			continue
		}
		r.Answered++
		if c == d.Correct(i) && !d.hinted[i] {
			r.Right++
			continue
		}
		if c == d.Correct(i) {
			r.Hinted++
		}
		q := &d.qs[i]
		r.Missed = append(r.Missed, q.ID)
		key := q.Concept + "\x00" + q.Lesson
		if j, ok := at[key]; ok {
			r.Revisit[j].Missed++
			continue
		}
		at[key] = len(r.Revisit)
		r.Revisit = append(r.Revisit, Revisit{Concept: q.Concept, Lesson: q.Lesson, Missed: 1})
	}
	return r
}

// Retry is a drill of just the concepts this drill missed (answered wrong
// or after a hint): the missed questions first, then the pool's other
// questions on those concepts, in the seed's order, at most
// max(DefaultDrillCount, missed) of them, under the same version. ok is
// false when nothing was missed.
func (d *Drill) Retry() (*Drill, bool) {
	r := d.Result()
	if len(r.Missed) == 0 {
		return nil, false
	}
	pool, err := DrillPool()
	if err != nil {
		return nil, false
	}
	concepts := map[string]bool{}
	for _, rv := range r.Revisit {
		concepts[rv.Concept] = true
	}
	missed := map[string]bool{}
	var qs []DrillQuestion
	for _, id := range r.Missed {
		missed[id] = true
	}
	for _, id := range r.Missed {
		if i := slices.IndexFunc(pool, func(q DrillQuestion) bool { return q.ID == id }); i >= 0 {
			qs = append(qs, pool[i])
		}
	}
	var more []DrillQuestion
	for _, q := range pool {
		if concepts[q.Concept] && !missed[q.ID] {
			more = append(more, q)
		}
	}
	rng := rand.New(rand.NewPCG(d.seed, d.seed^0x7f4a7c159e3779b9))
	rng.Shuffle(len(more), func(i, j int) { more[i], more[j] = more[j], more[i] })
	qs = append(qs, more...)
	qs = qs[:min(len(qs), max(DefaultDrillCount, len(r.Missed)))]
	out := &Drill{seed: d.seed, qs: qs, chosen: make([]int, len(qs)), correct: make([]int, len(qs)), hinted: make([]bool, len(qs)), players: map[*Lesson]*Player{}}
	out.setKafka(d.kafka)
	return out, true
}
