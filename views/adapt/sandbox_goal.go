package adapt

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/lessons/challenges"
	"github.com/eoslab/eoslab/views/internal/cells"
	"github.com/eoslab/eoslab/views/model"
)

// A sandbox opened on a challenge: the world its solution sets up, and
// after every action the goal judged by lessons/challenges' checker, the
// same one `eoslab challenges check` runs on a saved file.

// sbGoal is a sandbox's challenge and its last judgement.
type sbGoal struct {
	g   challenges.Goal
	num int
	// memo is the judgement at (branch, pos): a branch's actions before
	// a position never change (acting earlier forks a new branch).
	memoAt [2]int
	memo   model.SandboxGoal
}

// OpenChallenge starts the sandbox on challenge n (1-based): the
// declarations its solution starts with (the topics, clients and config
// the goal is about), under the first Kafka version it is checked under,
// with nothing done yet.
func OpenChallenge(n int) (*Sandbox, error) {
	g, err := challenges.Get(n)
	if err != nil {
		return nil, err
	}
	cmds, err := script.Parse(g.Solution, challenges.SolutionText(g))
	if err != nil {
		return nil, err
	}
	var setup []string
	if len(g.Kafka) > 0 && g.Kafka[0] == 4 {
		setup = append(setup, "config transaction.version=2")
	}
	for _, c := range cmds {
		if c.Kind() != script.Setup {
			break
		}
		setup = append(setup, c.Text)
	}
	title := "Challenge " + strconv.Itoa(n) + ": " + g.Title
	x, err := newSandbox(title, "challenge-"+twoDigits(n), "challenge "+strconv.Itoa(n), strings.Join(setup, "\n")+"\n", false)
	if err != nil {
		return nil, err
	}
	x.goal = &sbGoal{g: g, num: n, memoAt: [2]int{-1, -1}}
	return x, nil
}

// OpenChallengeNamed is OpenChallenge by the goal's name, as the home
// screen's Challenges entry reports it.
func OpenChallengeNamed(name string) (*Sandbox, error) {
	for i, g := range challenges.All() {
		if g.Name == name {
			return OpenChallenge(i + 1)
		}
	}
	return nil, &noChallenge{name}
}

type noChallenge struct{ name string }

func (e *noChallenge) Error() string {
	return "no challenge " + strconv.Quote(e.name) + "; eoslab challenges lists them"
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// Goal implements model.SandboxSession: the challenge judged on the
// current branch's actions up to the current position, played as a file
// under each of the goal's Kafka versions (challenges.Check).
func (x *Sandbox) Goal() (model.SandboxGoal, bool) {
	gl := x.goal
	if gl == nil {
		return model.SandboxGoal{}, false
	}
	at := [2]int{x.cur, x.Pos()}
	if gl.memoAt == at {
		return gl.memo, true
	}
	g := gl.g
	out := model.SandboxGoal{Name: g.Name, Num: gl.num, Title: g.Title, Goal: g.Goal, Hint: g.Hint,
		Kafka: challenges.Versions(g), Solution: cells.SplitLines(string(challenges.SolutionText(g)))}
	o, err := challenges.Check(g, x.SaveName(), []byte(x.scenarioTo(x.Pos())))
	switch {
	case err != nil:
		out.Found = err.Error()
	default:
		out.Reached = o.Reached
		out.Found = strings.Join(o.Says, "; ")
	}
	gl.memoAt, gl.memo = at, out
	return out, true
}

// scenarioTo is the current branch's file up to position k: the setup
// and the actions the engine took (a refused one changed nothing).
func (x *Sandbox) scenarioTo(k int) string {
	b := x.branch()
	var sb strings.Builder
	for _, l := range b.setup {
		sb.WriteString(l + "\n")
	}
	for i, l := range b.lines()[:k] {
		if !refusedAction(b, i+1) {
			sb.WriteString(l + "\n")
		}
	}
	return sb.String()
}

// ChallengeDone records goal name reached, under the goal's Kafka
// versions, by the file kept at file (model.ChallengeRecorder).
func (p Progress) ChallengeDone(name, file string) {
	// The sandbox names the file as saved, in the current directory;
	// the progress keeps where it is.
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
	}
	for _, g := range challenges.All() {
		if g.Name == name {
			p.S.ChallengeDone(name, g.Kafka, file)
		}
	}
}

var _ model.ChallengeRecorder = Progress{}
