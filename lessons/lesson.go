// Package lessons reads eoslab's lesson files and plays them on the engine.
//
// A lesson is a plain text file a teacher can write without Go (the format
// is described in content/README.md): a title, a setup in the scenario
// language, and numbered steps, each with narration ("say:"), actions
// ("do:"), expectations that must hold ("expect:"), an optional checkpoint
// ("ask:" with "choice:" lines), and the step's details, which the player
// keeps one key away from the main text: the deeper why ("more:"), where
// Kafka does it ("source:") and a "Kafka vs the article" note ("note:").
//
// A checkpoint's right answer is never written by hand: every choice carries
// expectations, and the right choice is the one whose expectations hold once
// the next step has run. Check plays a lesson to its end and insists that
// exactly one choice holds, so a lesson cannot drift from what the
// simulation does.
//
// The Player steps through a lesson and keeps one world snapshot per step,
// which is what makes going back exact and cheap.
//
// This package imports the engine and its scenario language only. It must
// not import views: the views adapt to lessons, not the other way
// round.
package lessons

import (
	"strings"

	"github.com/eoslab/eoslab/engine/script"
)

// Levels a lesson may declare, in the order of the learning path: the
// producer's own guarantees, then transactions, then what happens when
// something fails, then the systems built on top.
var Levels = []string{"basics", "transactions", "failures", "systems"}

// MaxMinutes is the longest a lesson may say it takes: past an hour it is
// two lessons.
const MaxMinutes = 60

// Versions are the Kafka major versions a lesson plays under: 3 runs the
// classic transaction protocol (transaction.version=1), 4 runs KIP-890's
// (transaction.version=2), each as that release's servers and clients do
// by default.
var Versions = []int{3, 4}

// TransactionVersion is the transaction.version a Kafka major version
// runs by default: 1 for Kafka 3, 2 for Kafka 4.
func TransactionVersion(kafka int) int {
	if kafka >= 4 {
		return 2
	}
	return 1
}

// MaxChoices is the most choices a checkpoint may offer: enough for one
// right answer and the common misconceptions, few enough to read at a glance.
const MaxChoices = 4

// Lesson is a parsed lesson file.
type Lesson struct {
	// File is the name the lesson was parsed under; errors carry it.
	File string
	// Name is the id used to open it: the file's base name without the
	// extension and without a leading "NN-" order prefix.
	Name    string
	Title   string
	Summary string
	Level   string
	// Minutes is how long the lesson takes a learner, 1..MaxMinutes.
	Minutes int
	// Intro is shown before the first step, under the title. Paragraphs are
	// separated by a blank line.
	Intro string
	// Setup declares the cluster, topics and clients.
	Setup []script.Command
	Steps []Step
	// Kafka is the version this reading of the file plays under, 3 or 4:
	// the cluster starts with that version's transaction.version, and
	// the lines written for the other version ("say@4:") are left out.
	Kafka int
	// twin is the same file read for the other version; both have the
	// same steps, so a player can switch at any step.
	twin *Lesson
}

// ForKafka returns the lesson as it plays under Kafka major version k (3
// or 4). Every parsed lesson has both; a Lesson built by hand without a
// twin returns itself.
func (l *Lesson) ForKafka(k int) *Lesson {
	if l.Kafka == k || l.twin == nil {
		return l
	}
	return l.twin
}

// Step is one step of a lesson.
type Step struct {
	Line  int // the "step:" line
	Title string
	// Say is the narration; paragraphs are separated by a blank line.
	Say string
	// Commands are the step's do: and expect: lines, in the order written.
	Commands []script.Command
	// Ask is the step's checkpoint, or nil.
	Ask *Checkpoint
	// More, Source and Note are the step's details: the deeper why, the
	// Kafka class and method that decide what the step shows, and a
	// "Kafka vs the article" note. Each may be empty. They are not part of
	// the main text a learner reads step by step.
	More, Source, Note string
	// Versions says, in a sentence or two, how the step differs between
	// Kafka 3's and Kafka 4's transaction protocol; empty when it does not.
	Versions string
}

// HasDetails reports whether the step has anything for the detail view.
func (s *Step) HasDetails() bool {
	return s.More != "" || s.Source != "" || s.Note != "" || s.Versions != ""
}

// Checkpoint is a "what happens next?" question shown at the end of a step.
// Its choices are judged against the world after the next step.
type Checkpoint struct {
	Line     int // the "ask:" line
	Question string
	Choices  []Choice
	Explain  string
	// Hint is a nudge a drill shows on request before the answer, at the
	// cost of the point; lessons leave it empty.
	Hint string
}

// Choice is one answer of a checkpoint.
type Choice struct {
	Line int
	Text string
	// Expects must all hold after the next step for this choice to be right.
	Expects []script.Command
	// Why is a drill's one line on why this choice is wrong, shown once
	// the question is answered; empty in lessons and on the right choice.
	Why string
}

// Meta is what the lesson list shows.
type Meta struct {
	Name, Title, Summary, Level string
	Steps, Minutes              int
}

// Meta returns the lesson's list entry.
func (l *Lesson) Meta() Meta {
	return Meta{Name: l.Name, Title: l.Title, Summary: l.Summary, Level: l.Level, Steps: len(l.Steps), Minutes: l.Minutes}
}

// Narration is the text of a step as the player shows it: its title, then
// its paragraphs.
func (s *Step) Narration() string {
	if s.Say == "" {
		return s.Title
	}
	return s.Title + "\n\n" + s.Say
}

// MainText is every text of the lesson's main path, in reading order: what
// a learner reads stepping through it without opening a detail view. That
// is the list entry (title and summary), the intro, and for each step its
// title, narration, question, choices and explanation.
func (l *Lesson) MainText() []string {
	out := []string{l.Title, l.Summary, l.Intro}
	for i := range l.Steps {
		s := &l.Steps[i]
		out = append(out, s.Title, s.Say)
		if cp := s.Ask; cp != nil {
			out = append(out, cp.Question)
			for _, c := range cp.Choices {
				out = append(out, c.Text)
			}
			out = append(out, cp.Explain)
		}
	}
	return out
}

// MainWords counts the words of the main path (MainText): what the
// lesson asks a learner to read.
func (l *Lesson) MainWords() int {
	n := 0
	for _, t := range l.MainText() {
		n += Words(t)
	}
	return n
}

// Words counts the words of a text: runs of characters between spaces.
func Words(s string) int { return len(strings.Fields(s)) }

// nameFromFile turns "content/01-lost-ack.lesson" into "lost-ack".
func nameFromFile(file string) string {
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		file = file[i+1:]
	}
	if i := strings.LastIndexByte(file, '.'); i > 0 {
		file = file[:i]
	}
	digits := strings.TrimLeft(file, "0123456789")
	if len(digits) < len(file) && strings.HasPrefix(digits, "-") && len(digits) > 1 {
		return digits[1:]
	}
	return file
}
