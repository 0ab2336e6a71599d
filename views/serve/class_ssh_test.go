package serve

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/lessons"
)

// The tests of this file are the bugs of a first real class, each over
// SSH on 127.0.0.1. A wait in them is on what the screen shows, bounded
// only by hangGuard.

var screen80 = term{"dumb", 80, 24}

var presTerm = term{"dumb", 120, 40}

// classAtAsk starts a server on the abort lesson, a presenter and the
// given students, and moves the class to the first checkpoint, where every
// student's screen asks for an answer.
func classAtAsk(t *testing.T, seats ...string) (srv *testServer, pres *client, students []*client, l *lessons.Lesson, k int) {
	t.Helper()
	srv = startServer(t, func(c *Config) { c.FailDelay = time.Millisecond })
	l, _ = lessons.Load("abort")
	k = firstAsk(t, l)
	pres = join(t, srv.addr, "teacher", "teach-me", presTerm)
	for _, s := range seats {
		students = append(students, join(t, srv.addr, s, testCode, screen80))
	}
	pres.waitScreen(t, presTerm, "every student", func(s string) bool { return strings.Contains(s, plural(len(seats), "student")) })
	for range k {
		pres.key(keyRight)
	}
	for _, s := range students {
		s.waitScreen(t, screen80, "the question", func(s string) bool { return strings.Contains(s, "Your answer: press 1-") })
	}
	return srv, pres, students, l, k
}

func has(want string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, want) }
}

// The first digit a student presses after a reveal is an answer, whether
// the why view is open or not, and also when Esc (closing the why view)
// and the digit reach the server in one read, which Bubble Tea reads as
// alt+digit. Digits inside a burst of other input are no key press.
func TestFirstKeyAfterARevealCounts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, keys string
		counts     bool
	}{{"digit", "1", true}, {"esc+digit", "\x1b1", true}, {"garbage", "x1y", false}} {
		t.Run(c.name, func(t *testing.T) {
			_, pres, st, l, k := classAtAsk(t, "ana")
			if l.Steps[k].Ask == nil {
				t.Skip("the deciding step asks no question")
			}
			pres.key("a")
			st[0].waitScreen(t, screen80, "the verdict and the next question", func(s string) bool {
				return strings.Contains(s, "you did not answer") && strings.Contains(s, "Why: step")
			})
			pres.waitScreen(t, presTerm, "the next question", has(fmt.Sprintf("step %d: 0 of 1 answered", k+1)))
			st[0].key(c.keys)
			if !c.counts {
				st[0].key("z") // a key after it, to know it was read
				st[0].waitScreen(t, screen80, "the key read", func(s string) bool { return !strings.Contains(s, "Why: step") })
				if s := pres.screen(presTerm); !strings.Contains(s, fmt.Sprintf("step %d: 0 of 1 answered", k+1)) {
					t.Fatalf("a digit inside other input was taken as an answer:\n%s", s)
				}
				return
			}
			pres.waitScreen(t, presTerm, "the answer counted", has(fmt.Sprintf("step %d: 1 of 1 answered", k+1)))
			st[0].waitScreen(t, screen80, "the answer locked", has("locked: you chose 1"))
		})
	}
}

// A student who leaves after answering is not counted among the answers
// while away: answered never exceeds the students present, and the
// presenter's screen says the answer is kept but not counted.
func TestCountsAfterAStudentLeaves(t *testing.T) {
	t.Parallel()
	_, pres, st, _, k := classAtAsk(t, "ana", "bo", "cy")
	st[0].key("1")
	st[1].key("2")
	pres.waitScreen(t, presTerm, "two answers", has(fmt.Sprintf("step %d: 2 of 3 answered", k)))
	st[1].c.Close()
	pres.waitScreen(t, presTerm, "bo gone", has("2 students"))
	pres.waitScreen(t, presTerm, "the counts of the students present", has(fmt.Sprintf("step %d: 1 of 2 answered", k)))
	pres.waitScreen(t, presTerm, "the absent answer explained", has("1 answer of a student who left"))
	pres.key("a")
	s := pres.waitScreen(t, presTerm, "the score", has(" right"))
	if !strings.Contains(s, "of 1 right") || strings.Contains(s, "of 2 right") {
		t.Fatalf("the score after bo left:\n%s", s)
	}
}

// Wrong codes from one address (a class behind one NAT) never lock out
// the right one: failures slow down their own connection and seat name.
func TestWrongCodesDoNotLockOutTheClass(t *testing.T) {
	t.Parallel()
	srv := startServer(t, func(c *Config) { c.FailDelay = time.Millisecond })
	for i := range 30 {
		if c, err := dialSSH(srv.addr, fmt.Sprintf("typo%d", i%3), gossh.Password("wrong")); err == nil {
			c.Close()
			t.Fatal("a wrong code logged in")
		}
	}
	c := join(t, srv.addr, "ana", testCode, screen80)
	c.waitScreen(t, screen80, "ana's seat", has("seat ana"))
	if d := srv.limit.delay("typo0", 1); d <= srv.limit.delay("ana", 1) {
		t.Errorf("a seat name with 10 wrong codes is not slowed: %s", d)
	}
}

// A flood of idle connections from one address does not keep the
// presenter or a student out: the oldest of those still logging in make
// room for the new ones.
func TestConnectionFloodLeavesRoom(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	var idle []net.Conn
	for range 300 {
		c, err := net.Dial("tcp", srv.addr)
		if err != nil {
			break
		}
		idle = append(idle, c)
	}
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	p := join(t, srv.addr, "teacher", "teach-me", presTerm)
	p.waitScreen(t, presTerm, "the presenter's seat", has("presenter teacher"))
	s := join(t, srv.addr, "ana", testCode, screen80)
	s.waitScreen(t, screen80, "ana's seat", has("seat ana"))
}

// A seat is its first session's: the class code alone does not open a
// seat that is taken, and the seat's own code, shown once, brings its
// student back after a drop, answer and all.
func TestSeatBelongsToItsFirstSession(t *testing.T) {
	t.Parallel()
	srv, _, st, _, _ := classAtAsk(t, "ana")
	scr := st[0].waitScreen(t, screen80, "ana's seat code", has("seat code"))
	code := seatCodeOn(t, scr)
	st[0].key("2")
	st[0].waitScreen(t, screen80, "the answer locked", has("locked: you chose 2"))
	m := join(t, srv.addr, "ana", testCode, screen80)
	m.waitFor(t, "seat ana is taken", hangGuard)
	if err := m.ended(t, hangGuard); err == nil {
		t.Error("a refused seat's session exited 0")
	}
	if out := m.out.String(); strings.Contains(out, "you chose 2") {
		t.Fatal("the class code alone showed ana's answer")
	}
	st[0].c.Close()
	back := join(t, srv.addr, "ana", code, screen80)
	s := back.waitScreen(t, screen80, "ana back with her answer", has("locked: you chose 2"))
	if strings.Contains(s, code) {
		t.Error("the seat code was shown again")
	}
}

// seatCodeOn finds the seat code on a student's screen.
func seatCodeOn(t *testing.T, scr string) string {
	t.Helper()
	i := strings.Index(scr, "seat code ")
	if i < 0 {
		t.Fatalf("no seat code on:\n%s", scr)
	}
	f := strings.Fields(scr[i+len("seat code "):])
	return strings.TrimRight(f[0], ":;,")
}

// A student sending garbage as fast as the connection goes costs the
// server little: what a session reads past a typist's pace is dropped
// before Bubble Tea parses it. The budget is CPU time, not a deadline:
// the whole test, garbage, SSH on both ends and all, within 3 s of CPU,
// where the parsing of it all took a core for minutes.
func TestGarbageInputIsCapped(t *testing.T) {
	// Not in parallel: it counts the process's CPU time.
	srv, pres, st, _, k := classAtAsk(t, "ana", "bo")
	junk := []byte(strings.Repeat("\x1b[Zx?j\x1bOP\x1b[1;5Cwwtt ", 1<<14))
	before := cpuTime()
	for range 4 {
		st[0].in.Write(junk)
	}
	// A key after the garbage, again until it shows: the program has read
	// everything before it (or dropped it).
	deadline := time.Now().Add(hangGuard)
	for !strings.Contains(st[0].screen(screen80), "Nothing to explain yet") {
		if time.Now().After(deadline) {
			t.Fatalf("the key after the garbage never showed:\n%s", st[0].screen(screen80))
		}
		st[0].key("w")
		time.Sleep(100 * time.Millisecond)
	}
	used := cpuTime() - before
	st[1].key("1")
	pres.waitScreen(t, presTerm, "bo's answer", has(fmt.Sprintf("step %d: 1 of 2 answered", k)))
	if read := srv.inputRead(); read > 64<<10 {
		t.Errorf("the programs read %d bytes of the %d sent", read, 4*len(junk))
	}
	if used > 3*time.Second {
		t.Errorf("%d KB of garbage cost %s of CPU", 4*len(junk)>>10, used)
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The presenter's note goes once the class moves on; Esc with nothing
// open leaves no one's lesson.
func TestStaleNoteAndEscape(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	p := join(t, srv.addr, "teacher", "teach-me", presTerm)
	s := join(t, srv.addr, "ana", testCode, screen80)
	p.waitScreen(t, presTerm, "ana", has("1 student"))
	p.key("a")
	p.waitScreen(t, presTerm, "the note", has("Nothing to reveal"))
	p.key("r")
	p.key(keyRight)
	scr := p.waitScreen(t, presTerm, "step 1", has("step 1/"))
	if strings.Contains(scr, "Nothing to reveal") {
		t.Errorf("the note stayed after the class moved:\n%s", scr)
	}
	s.waitScreen(t, screen80, "step 1", has("step 1/"))
	s.key("\x1b")
	p.key("\x1b")
	p.key(keyRight)
	s.waitScreen(t, screen80, "step 2", has("step 2/"))
	l, _ := lessons.Load("abort")
	title := l.Title
	for _, c := range []struct {
		c  *client
		tm term
	}{{s, screen80}, {p, presTerm}} {
		c.c.waitScreen(t, c.tm, "step 2", has("step 2/"))
		if scr := c.c.screen(c.tm); !strings.Contains(scr, title) {
			t.Errorf("esc left the lesson:\n%s", scr)
		}
	}
}

// One student is "1 student", a class of one seat "1 seat"; a seat may be
// named in any language, with spaces inside; a long name is refused and
// logged cut short.
func TestSeatNamesAndPlurals(t *testing.T) {
	t.Parallel()
	srv := startServer(t, func(c *Config) { c.MaxSessions = 2 })
	p := join(t, srv.addr, "teacher", "teach-me", presTerm)
	a := join(t, srv.addr, "josé", testCode, screen80)
	a.waitScreen(t, screen80, "josé's seat", has("seat josé"))
	scr := p.waitScreen(t, presTerm, "one student", has("1 student"))
	if strings.Contains(scr, "1 students") {
		t.Errorf("plural of one:\n%s", scr)
	}
	b := join(t, srv.addr, "ana smith", testCode, screen80)
	b.waitScreen(t, screen80, "ana smith's seat", has("seat ana smith"))
	c := join(t, srv.addr, "cy", testCode, screen80)
	c.waitFor(t, "the class is full (2 seats)", hangGuard)
	long := strings.Repeat("x", 10<<10)
	if c, err := dialSSH(srv.addr, long, gossh.Password("wrong")); err == nil {
		c.Close()
	}
	if c, err := dialSSH(srv.addr, long, gossh.Password(testCode)); err == nil {
		cl := open(t, c, screen80, true)
		cl.waitFor(t, "seat name", hangGuard)
	}
	for _, l := range strings.Split(srv.log.String(), "\n") {
		if len(l) > 300 {
			t.Fatalf("a log line of %d bytes: %.120s...", len(l), l)
		}
	}
	srv2 := startServer(t, func(c *Config) { c.MaxSessions = 1 })
	join(t, srv2.addr, "ana", testCode, screen80).waitScreen(t, screen80, "ana", has("seat ana"))
	join(t, srv2.addr, "bo", testCode, screen80).waitFor(t, "the class is full (1 seat)", hangGuard)
}

// Students see the presenter go (and come back), and the end of the
// class when the server stops, rather than a dropped connection.
func TestStudentsSeeThePresenterGoAndTheClassEnd(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	s := join(t, srv.addr, "ana", testCode, screen80)
	s.waitScreen(t, screen80, "no presenter yet", has("the presenter is away"))
	p := join(t, srv.addr, "teacher", "teach-me", presTerm)
	p.waitScreen(t, presTerm, "ana", has("1 student"))
	s.waitScreen(t, screen80, "the presenter here", func(x string) bool { return !strings.Contains(x, "presenter is away") })
	p.c.Close()
	s.waitScreen(t, screen80, "the presenter gone", has("the presenter is away"))
	srv.Close()
	s.waitFor(t, "the class ended", hangGuard)
	if err := s.ended(t, hangGuard); err != nil {
		t.Errorf("the end of the class exited %v", err)
	}
}

// memKeeper is a Keeper in memory, as the state file would be.
type memKeeper struct {
	mu sync.Mutex
	b  []byte
}

func (m *memKeeper) Load() ([]byte, error) { m.mu.Lock(); defer m.mu.Unlock(); return m.b, nil }
func (m *memKeeper) Save(b []byte) error   { m.mu.Lock(); defer m.mu.Unlock(); m.b = b; return nil }

// A server restarted during a class keeps it: the step, the answers, the
// seats and their codes, and the presenter's and the class's codes.
func TestRestartKeepsTheClass(t *testing.T) {
	t.Parallel()
	keep := &memKeeper{}
	srv := startServer(t, func(c *Config) { c.Keep = keep })
	l, _ := lessons.Load("abort")
	k := firstAsk(t, l)
	p := join(t, srv.addr, "teacher", "teach-me", presTerm)
	a := join(t, srv.addr, "ana", testCode, screen80)
	code := seatCodeOn(t, a.waitScreen(t, screen80, "ana's seat code", has("seat code")))
	for range k {
		p.key(keyRight)
	}
	a.waitScreen(t, screen80, "the question", has("Your answer: press 1-"))
	a.key("2")
	p.waitScreen(t, presTerm, "ana's answer", has(fmt.Sprintf("step %d: 1 of 1 answered", k)))
	srv.Close()
	a.waitFor(t, "the class ended", hangGuard)

	// Started again with other codes, as main.go makes up new ones: the
	// kept ones win.
	srv2 := startServer(t, func(c *Config) { c.Keep = keep; c.ClassCode = "other"; c.PresenterCode = "other-too" })
	if got := srv2.Codes(); got != (Codes{Class: testCode, Presenter: "teach-me"}) {
		t.Fatalf("codes after the restart: %+v", got)
	}
	p2 := join(t, srv2.addr, "teacher", "teach-me", presTerm)
	a2 := join(t, srv2.addr, "ana", code, screen80)
	a2.waitScreen(t, screen80, "ana's answer kept", has("locked: you chose 2"))
	p2.waitScreen(t, presTerm, "the step and the answer kept", has(fmt.Sprintf("step %d: 1 of 1 answered", k)))
	m := join(t, srv2.addr, "ana", testCode, screen80)
	m.waitFor(t, "seat ana is taken", hangGuard)
}

// The presenter can keep the tally and the names of those who have not
// answered off their screen until the reveal, and show a summary of the
// lesson's questions, written as a plain file on e.
func TestPresenterHidesTheTallyAndSummarises(t *testing.T) {
	t.Parallel()
	var exported syncBuf
	srv := startServer(t, nil)
	srv.export = func(text string) (string, error) { exported.Write([]byte(text)); return "summary.txt", nil }
	l, _ := lessons.Load("abort")
	k := firstAsk(t, l)
	p := join(t, srv.addr, "teacher", "teach-me", presTerm)
	a := join(t, srv.addr, "ana", testCode, screen80)
	join(t, srv.addr, "bo", testCode, screen80)
	p.waitScreen(t, presTerm, "two students", has("2 students"))
	p.key("c")
	for range k {
		p.key(keyRight)
	}
	a.waitScreen(t, screen80, "the question", has("Your answer: press 1-"))
	right := lessons.NewPlayer(l).Correct(k)
	a.key(fmt.Sprint(right))
	s := p.waitScreen(t, presTerm, "ana's answer", has(fmt.Sprintf("step %d: 1 of 2 answered", k)))
	if strings.Contains(s, "not yet:") || !strings.Contains(s, "tally hidden") || strings.Contains(s, "1) ....") {
		t.Fatalf("the hidden tally shows:\n%s", s)
	}
	p.key("a")
	p.waitScreen(t, presTerm, "the score at the reveal", has("1 of 1 right"))
	p.key("s")
	p.waitScreen(t, presTerm, "the summary", has(fmt.Sprintf("step %d: 1 of 1 right", k)))
	p.key("e")
	p.waitScreen(t, presTerm, "the export", has("Summary written to summary.txt"))
	if got := exported.String(); !strings.Contains(got, fmt.Sprintf("step %d: 1 of 1 right: %s", k, l.Steps[k-1].Ask.Question)) {
		t.Fatalf("the exported summary:\n%s", got)
	}
}

// A student opens the class's world, where the class is, in a sandbox of
// their own, only once the presenter allows it, and q brings them back to
// the class.
func TestStudentSandboxWhenAllowed(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	p := join(t, srv.addr, "teacher", "teach-me", presTerm)
	a := join(t, srv.addr, "ana", testCode, screen80)
	p.waitScreen(t, presTerm, "ana", has("1 student"))
	p.key(keyRight)
	p.key(keyRight)
	a.waitScreen(t, screen80, "step 2", has("step 2/"))
	a.key("x")
	a.waitScreen(t, screen80, "the refusal", has("has not opened the sandbox"))
	p.key("x")
	a.waitScreen(t, screen80, "the offer", has("x opens this world"))
	a.key("x")
	s := a.waitScreen(t, screen80, "ana's sandbox", has("your own sandbox"))
	if !strings.Contains(s, "step 2/") {
		t.Errorf("the sandbox does not say where the class is:\n%s", s)
	}
	a.key("q")
	a.waitScreen(t, screen80, "the class again", has("seat ana"))
}
