package serve

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views/adapt"
)

const testCode = "kafka-class"

func testHostKey(t testing.TB) []byte {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(blk)
}

// syncBuf is a log or an output both sides write and read.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuf) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

type testServer struct {
	*Server
	addr string
	log  *syncBuf
}

// startServer runs a server on 127.0.0.1:0 playing the abort lesson.
func startServer(t testing.TB, edit func(*Config)) *testServer {
	t.Helper()
	logs := &syncBuf{}
	cfg := Config{Lesson: "abort", Lessons: adapt.Lessons(), Load: lessons.Load, Open: adapt.Open,
		ClassCode: testCode, PresenterCode: "teach-me", HostKeyPEM: testHostKey(t), Log: log.New(logs, "", 0)}
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return &testServer{Server: s, addr: ln.Addr().String(), log: logs}
}

func dialSSH(addr, user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
}

// client is one seat: an SSH session with a terminal whose output is kept.
type client struct {
	c    *gossh.Client
	s    *gossh.Session
	in   io.WriteCloser
	out  *syncBuf
	done chan error
}

type term struct {
	name string
	w, h int
}

var dumb80 = term{"dumb", 80, 24}

func join(t testing.TB, addr, user, password string, tm term) *client {
	t.Helper()
	c, err := dialSSH(addr, user, gossh.Password(password))
	if err != nil {
		t.Fatalf("%s: %v", user, err)
	}
	return open(t, c, tm, true)
}

// noCleanup leaves closing the clients to the benchmark, which must drop
// them to see the heap go back.
var noCleanup bool

func open(t testing.TB, c *gossh.Client, tm term, read bool) *client {
	t.Helper()
	out := &syncBuf{}
	if !read {
		return openTo(t, c, tm, out, nil)
	}
	return openTo(t, c, tm, out, out)
}

// openTo opens a session whose output goes to w; with w nil, it is never
// read.
func openTo(t testing.TB, c *gossh.Client, tm term, out *syncBuf, w io.Writer) *client {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	cl := &client{c: c, s: s, out: out, done: make(chan error, 1)}
	if w != nil {
		s.Stdout, s.Stderr = w, w
	} else if _, err := s.StdoutPipe(); err != nil { // never read
		t.Fatal(err)
	}
	if cl.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty(tm.name, tm.h, tm.w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { cl.done <- s.Wait() }()
	if !noCleanup {
		t.Cleanup(func() { c.Close() })
	}
	return cl
}

func (c *client) key(s string) { c.in.Write([]byte(s)) }

// waitFor polls the client's output until it holds want. within is what
// is expected; the test fails only past hangGuard, so no test depends on
// the machine's speed.
func (c *client) waitFor(t testing.TB, want string, within time.Duration) {
	t.Helper()
	c.waitUntil(t, want, time.Now().Add(max(within*slow, hangGuard)))
}

func (c *client) waitUntil(t testing.TB, want string, deadline time.Time) {
	t.Helper()
	for !strings.Contains(c.out.String(), want) {
		if time.Now().After(deadline) {
			out := c.out.String()
			t.Fatalf("no %q by the deadline; output ends: %q", want, out[max(0, len(out)-600):])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (c *client) ended(t testing.TB, within time.Duration) error {
	t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(max(within*slow, hangGuard)):
		t.Fatalf("the session did not end within %s", within)
	}
	return nil
}

const keyRight = "\x1b[C"

func TestRefusals(t *testing.T) {
	t.Parallel()
	_, presKey, _ := ed25519.GenerateKey(rand.Reader)
	presSigner, _ := gossh.NewSignerFromKey(presKey)
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	otherSigner, _ := gossh.NewSignerFromKey(otherKey)
	srv := startServer(t, func(c *Config) { c.PresenterKeys = []gossh.PublicKey{presSigner.PublicKey()} })

	if _, err := dialSSH(srv.addr, "ana", gossh.Password("wrong")); err == nil {
		t.Error("a wrong class code logged in")
	}
	if c, err := dialSSH(srv.addr, "ana;rm", gossh.Password(testCode)); err == nil {
		// The right code with a name no seat can have: the session says
		// why and ends.
		cl := open(t, c, dumb80, true)
		cl.waitFor(t, "a seat name is 1 to 32 letters", 5*time.Second)
		if err := cl.ended(t, 5*time.Second); err == nil {
			t.Error("a seat name with a ; exited 0")
		}
	}
	if _, err := dialSSH(srv.addr, "ana", gossh.PublicKeys(otherSigner)); err == nil {
		t.Error("a key that is not the presenter's logged in")
	}

	c, err := dialSSH(srv.addr, "ana", gossh.Password(testCode))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, _ := c.NewSession()
	if out, err := s.CombinedOutput("cat /etc/passwd"); err == nil || len(out) > 0 {
		t.Errorf("exec ran: %v %q", err, out)
	}
	s, _ = c.NewSession()
	if err := s.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was granted")
	}
	if conn, err := c.Dial("tcp", srv.addr); err == nil {
		conn.Close()
		t.Error("local port forwarding was granted")
	}
	if ln, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
		t.Error("remote port forwarding was granted")
	}
	s, _ = c.NewSession()
	var out syncBuf
	s.Stdout, s.Stderr = &out, &out
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(); err == nil || !strings.Contains(out.String(), "needs a terminal") {
		t.Errorf("a session without a terminal: %v %q", err, out.String())
	}

	// The presenter's key and the presenter code both make a presenter.
	pc, err := dialSSH(srv.addr, "teacher", gossh.PublicKeys(presSigner))
	if err != nil {
		t.Fatal(err)
	}
	open(t, pc, dumb80, true).waitFor(t, "presenter teacher", 5*time.Second)
	join(t, srv.addr, "ta", "teach-me", dumb80).waitFor(t, "presenter ta", 5*time.Second)
	join(t, srv.addr, "ana", testCode, dumb80).waitFor(t, "seat ana", 5*time.Second)
	logs := srv.log.String()
	for _, want := range []string{"failed login seat=\"ana\"", "refused exec seat=\"ana\"", "refused: no terminal", "connect seat=\"teacher\" role=presenter", "connect seat=\"ana\" role=student", "reason=refused: seat name"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log has no %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "cat /etc/passwd") {
		t.Error("the log holds what a client typed")
	}
}

// 50 students and a presenter: every step reaches every screen, also
// while one client never reads (how fast is BenchmarkClassLesson's); 30 students answer, the
// presenter sees the counts, no student sees a verdict before the reveal,
// and after it each verdict is the engine's.
func TestClassOverSSH(t *testing.T) {
	t.Parallel()
	n := 50
	if testing.Short() {
		n = 12
	}
	srv := startServer(t, func(c *Config) { c.MaxSessions = n + 1 })
	l, _ := lessons.Load("abort")
	k := firstAsk(t, l)
	right := lessons.NewPlayer(l).Correct(k)
	pres := join(t, srv.addr, "teacher", "teach-me", term{"dumb", 120, 40})
	pres.waitFor(t, "step 0/", 5*time.Second)
	students := make([]*client, n)
	var wg sync.WaitGroup
	for i := range students {
		wg.Add(1)
		go func() {
			defer wg.Done()
			students[i] = join(t, srv.addr, fmt.Sprintf("s%02d", i), testCode, dumb80)
		}()
	}
	wg.Wait()
	// One more never reads its screen, which is as large as may be.
	sc, err := dialSSH(srv.addr, "stuck", gossh.Password(testCode))
	if err != nil {
		t.Fatal(err)
	}
	open(t, sc, term{"xterm-256color", maxW, maxH}, false)
	for _, s := range students {
		s.waitFor(t, "step 0/", 5*time.Second)
	}
	pres.waitFor(t, fmt.Sprintf("%d students", n+1), 5*time.Second)
	// Back and forth, so the stuck client has far more to read than an
	// SSH window holds.
	for range 15 {
		pres.key(keyRight)
		pres.key("\x1b[D")
	}
	for step := 1; step <= k; step++ {
		pres.key(keyRight)
		want := fmt.Sprintf("step %d/%d", step, len(l.Steps))
		deadline := time.Now().Add(hangGuard)
		for _, s := range students {
			s.waitUntil(t, want, deadline)
		}
	}
	answers := map[int]int{}
	for i := range min(30, n) {
		answers[i] = i%len(l.Steps[k-1].Ask.Choices) + 1
		students[i].key(fmt.Sprint(answers[i]))
	}
	for i := range answers {
		students[i].waitFor(t, "locked: you chose "+fmt.Sprint(answers[i]), 2*time.Second)
	}
	pres.waitFor(t, fmt.Sprintf("step %d: %d of %d answered", k, len(answers), n+1), 2*time.Second)
	// The explanation's first words: they start a row of the screen, so
	// they are on it as they are, however the rest wraps.
	explain := l.Steps[k-1].Ask.Explain
	lead := ""
	for _, w := range strings.Fields(explain) {
		if len(lead)+len(w) > 40 {
			break
		}
		lead += w + " "
	}
	lead = strings.TrimSpace(lead)
	if lead == "" {
		t.Fatalf("step %d has no explanation to look for", k)
	}
	for i, s := range students {
		if out := s.out.String(); strings.Contains(out, "verdict:") || strings.Contains(out, "(your answer)") || strings.Contains(out, lead) {
			t.Fatalf("student %d saw a verdict or the explanation before the reveal", i)
		}
	}
	if strings.Contains(pres.out.String(), lead) {
		t.Fatal("the presenter saw the explanation before the reveal")
	}
	pres.key("a")
	for i, s := range students {
		want := "verdict: you did not answer; the answer is " + fmt.Sprint(right)
		if a, ok := answers[i]; ok && a == right {
			want = "verdict: correct, you chose " + fmt.Sprint(a)
		} else if ok {
			want = fmt.Sprintf("verdict: not quite, you chose %d; the answer is %d", a, right)
		}
		s.waitFor(t, want, 2*time.Second)
		s.waitFor(t, lead, 2*time.Second)
	}
	pres.waitFor(t, lead, 2*time.Second)
}

// TestSessionCapAndIdle is the one test here that does not run in
// parallel with the others: a student who sends a key every 100 ms must
// not look idle for 1.5 s.
func TestSessionCapAndIdle(t *testing.T) {
	// The idle timeout is 15 times the gap between ana's keys, so that a
	// loaded machine (go test runs packages side by side on two cores)
	// does not let ana go between two keys.
	srv := startServer(t, func(c *Config) { c.MaxSessions = 2; c.Idle = 1500 * time.Millisecond })
	a := join(t, srv.addr, "ana", testCode, dumb80)
	b := join(t, srv.addr, "bo", testCode, dumb80)
	a.waitFor(t, "seat ana", 2*time.Second)
	b.waitFor(t, "seat bo", 2*time.Second)
	c := join(t, srv.addr, "cy", testCode, dumb80)
	c.waitFor(t, "the class is full (2 seats)", 2*time.Second)
	if err := c.ended(t, 2*time.Second); err == nil {
		t.Error("a refused session exited 0")
	}
	// The presenter is not counted.
	join(t, srv.addr, "teacher", "teach-me", dumb80).waitFor(t, "presenter teacher", 2*time.Second)
	// ana presses keys; bo does not and is let go.
	stop := time.After(2500 * time.Millisecond)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case <-tick.C:
			a.key("j")
		case <-stop:
			waiting = false
		}
	}
	b.waitFor(t, "no key for 1.5s", 2*time.Second)
	b.ended(t, 2*time.Second)
	select {
	case err := <-a.done:
		t.Fatalf("a student pressing keys was let go: %v", err)
	default:
	}
	if !strings.Contains(srv.log.String(), "disconnect seat=\"bo\" role=student") || !strings.Contains(srv.log.String(), "reason=idle") {
		t.Errorf("log:\n%s", srv.log.String())
	}
}

// A panic in one session ends that session, with a log line, and no other.
func TestPanicEndsOneSession(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	srv.panicHook = func(seat string) {
		if seat == "boom" {
			panic("test panic")
		}
	}
	a := join(t, srv.addr, "ana", testCode, dumb80)
	a.waitFor(t, "seat ana", 2*time.Second)
	b := join(t, srv.addr, "boom", testCode, dumb80)
	b.ended(t, 2*time.Second)
	p := join(t, srv.addr, "teacher", "teach-me", dumb80)
	p.waitFor(t, "presenter teacher", 2*time.Second)
	p.key(keyRight)
	a.waitFor(t, "step 1/", 2*time.Second)
	if !strings.Contains(srv.log.String(), "disconnect seat=\"boom\" role=student") || !strings.Contains(srv.log.String(), "reason=panic: test panic") {
		t.Errorf("log:\n%s", srv.log.String())
	}
}

// Two sessions with different terminals are drawn at the same time each
// with its own colour profile.
func TestColourProfilePerSession(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	c256 := join(t, srv.addr, "ana", testCode, term{"xterm-256color", 80, 24})
	c16 := join(t, srv.addr, "bo", testCode, term{"xterm", 80, 24})
	cdumb := join(t, srv.addr, "cy", testCode, dumb80)
	for _, c := range []*client{c256, c16, cdumb} {
		c.waitFor(t, "step 0/", 2*time.Second)
	}
	for _, c := range []struct {
		cl   *client
		want string
	}{{c256, "256"}, {c16, "16"}, {cdumb, ""}} {
		if got := colours(c.cl.out.String()); got != c.want {
			t.Errorf("%s colours, want %q", got, c.want)
		}
	}
	out := cdumb.out.String()
	if strings.Contains(out, "─") || !strings.Contains(c256.out.String(), "─") || !strings.Contains(out, "+-") {
		t.Errorf("the box characters are not per session")
	}
}

var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// colours says how a terminal's output is coloured: "256" when it uses
// the 256-colour codes, "16" when it uses only the 16 colours, "" when it
// has no colour.
func colours(out string) string {
	kind := ""
	for _, m := range sgr.FindAllStringSubmatch(out, -1) {
		ps := strings.Split(m[1], ";")
		for i, p := range ps {
			switch {
			case (p == "38" || p == "48") && i+1 < len(ps) && ps[i+1] == "5":
				return "256"
			case (p == "38" || p == "48") && i+1 < len(ps) && ps[i+1] == "2":
				return "truecolor"
			case len(p) == 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9') && p[1] >= '0' && p[1] <= '7',
				len(p) == 3 && p[:2] == "10" && p[2] >= '0' && p[2] <= '7':
				kind = "16"
			}
		}
	}
	return kind
}

// screen is what the client's terminal shows now.
func (c *client) screen(tm term) string { return screen(c.out.String(), tm.w, tm.h) }

// waitScreen polls the client's screen until cond holds of it; the
// deadline is a guard against a hang, not a measure.
func (c *client) waitScreen(t testing.TB, tm term, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		s := c.screen(tm)
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %s; it shows:\n%s", what, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// hangGuard bounds a wait for something that must happen: only a hang
// reaches it, however loaded the machine.
const hangGuard = 60 * time.Second
