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

// A drill asks "what happens next?" questions drawn across the lessons:
// every checkpoint of every built-in lesson, and questions written for the
// drill in content/drill/*.drill. A drill question is a small lesson of its
// own: a header (question:, concept:, lesson:), a setup and steps in the
// lesson format, one of which asks. Its answer is judged like a lesson's
// checkpoint: the choice whose expectations hold after the next step.
//
// A drill file holds several questions, each starting at its question:
// line:
//
//	question: restart-new-pid
//	concept: idempotence
//	lesson: lost-ack
//	setup:
//	  topic t
//	  producer A
//	step: A wrote once
//	  say: ...
//	  do: ...
//	  ask: ...
//	  choice: ... | expect ...
//	  explain: ...
//	step: A restarts and sends again
//	  say: ...
//	  do: ...

//go:embed content/drill/*.drill
var drillContent embed.FS

// drillHeaderKeys are the header keys of a drill question, all required.
var drillHeaderKeys = []string{"question", "concept", "lesson"}

// DrillQuestion is one question of the drill pool.
type DrillQuestion struct {
	// ID names the question: "lesson-name/step" for a lesson's
	// checkpoint, the question: line's name for one written for the drill.
	ID string
	// Concept is what the question tests, by which the drill groups the
	// questions to revisit: the question's concept: line, or the lesson's
	// title for a lesson's checkpoint.
	Concept string
	// Lesson is the built-in lesson that teaches it, to open after.
	Lesson string
	// Source is the lesson the question is played on (for a drill
	// question, its own small lesson) and Step the step whose checkpoint
	// is the question.
	Source *Lesson
	Step   int
}

// Checkpoint is the question itself.
func (q *DrillQuestion) Checkpoint() *Checkpoint { return q.Source.Steps[q.Step-1].Ask }

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
		// The chunk keeps its line numbers: the lines before it are blank.
		chunk := append(bytes.Repeat([]byte("\n"), start), bytes.Join(lines[start:end], nil)...)
		q, err := parseDrillQuestion(file, chunk)
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
func parseDrillQuestion(file string, src []byte) (*DrillQuestion, error) {
	l, p, err := parseBoth(file, bytes.NewReader(src), true)
	if err != nil {
		return nil, err
	}
	q := &DrillQuestion{ID: p.meta["question"], Concept: p.meta["concept"], Lesson: p.meta["lesson"], Source: l}
	for _, v := range []*Lesson{l, l.ForKafka(4)} {
		v.Name, v.Title = q.ID, q.ID
	}
	for k := range l.Steps {
		if l.Steps[k].Ask != nil {
			q.Step = k + 1
		}
	}
	return q, nil
}

// endDrill checks what makes a drill question: exactly one checkpoint.
func (p *parser) endDrill() {
	asks := 0
	for k := range p.l.Steps {
		if p.l.Steps[k].Ask != nil {
			asks++
		}
	}
	if asks != 1 && len(p.l.Steps) > 0 {
		p.errorf(p.seen["question"], "a drill question asks exactly once (one ask: in its steps), found "+strconv.Itoa(asks))
	}
}

var (
	drillOnce sync.Once
	drillPool []DrillQuestion
	drillErr  error
)

// DrillPool is every question a drill draws from, in a fixed order: the
// built-in lessons' checkpoints in lesson order, then the drill files'
// questions in file order. An error names what does not parse, or a
// question that opens a lesson that does not exist.
func DrillPool() ([]DrillQuestion, error) {
	drillOnce.Do(func() { drillPool, drillErr = loadDrillPool() })
	return drillPool, drillErr
}

func loadDrillPool() ([]DrillQuestion, error) {
	var pool []DrillQuestion
	for _, b := range load() {
		if b.lesson == nil {
			continue
		}
		for k := range b.lesson.Steps {
			if b.lesson.Steps[k].Ask != nil {
				pool = append(pool, DrillQuestion{ID: b.lesson.Name + "/" + strconv.Itoa(k+1), Concept: b.lesson.Title,
					Lesson: b.lesson.Name, Source: b.lesson, Step: k + 1})
			}
		}
	}
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
			line := q.Source.Steps[0].Line
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
	d.kafka = kafka
	for i := range d.qs {
		d.qs[i].Source = d.qs[i].Source.ForKafka(kafka)
	}
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
	d := &Drill{seed: seed, kafka: kafka, players: map[*Lesson]*Player{}}
	for _, id := range ids {
		i := slices.IndexFunc(pool, func(q DrillQuestion) bool { return q.ID == id })
		if i < 0 {
			return nil, errors.New("no drill question " + quote(id))
		}
		q := pool[i]
		q.Source = q.Source.ForKafka(kafka)
		d.qs = append(d.qs, q)
		d.order = append(d.order, choiceOrder(seed, q))
	}
	d.chosen, d.correct = make([]int, len(d.qs)), make([]int, len(d.qs))
	return d, nil
}

// Kafka is the Kafka major version the drill plays under.
func (d *Drill) Kafka() int { return d.kafka }

func newDrill(pool []DrillQuestion, seed uint64, count int) *Drill {
	if count <= 0 {
		count = DefaultDrillCount
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	order := r.Perm(len(pool))
	count = min(count, len(pool))
	d := &Drill{seed: seed, chosen: make([]int, count), correct: make([]int, count), players: map[*Lesson]*Player{}}
	for _, i := range order[:count] {
		d.qs = append(d.qs, pool[i])
		d.order = append(d.order, choiceOrder(seed, pool[i]))
	}
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
// never step them.
func (d *Drill) Player(i int) *Player {
	q := &d.qs[i]
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
		written := d.Player(i).Correct(q.Step)
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
	Seed                   uint64
	Right, Answered, Total int
	// Revisit are the concepts of the questions answered wrong, each once,
	// in the order first missed, with the lesson to open.
	Revisit []Revisit
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
		if c == d.Correct(i) {
			r.Right++
			continue
		}
		q := &d.qs[i]
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
