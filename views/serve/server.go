// Package serve is eoslab's classroom over SSH (eoslab serve): a presenter
// drives a lesson and every student follows it on their own terminal,
// with nothing to install, and answers each checkpoint before the reveal.
//
// It is built on Charm's wish (an SSH server for Bubble Tea programs).
// Each session runs its own Bubble Tea program drawn with its own lipgloss
// renderer, so each terminal gets its own colour profile. One goroutine
// (Class) owns the presenter's world and hands each seat immutable Views.
//
// The server offers a lesson and nothing else: no shell, no commands, no
// port forwarding, no subsystems, no files. main.go reads the keys from
// disk and passes them in; this package touches no file.
package serve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/model"
)

// Config is a server's configuration.
type Config struct {
	// Lesson is the lesson the class plays; empty lets the presenter pick
	// one from Lessons.
	Lesson  string
	Lessons []model.LessonInfo
	// Load reads a lesson for the class; Open starts a session of one
	// for a seat of a solo room.
	Load func(name string) (*lessons.Lesson, error)
	Open func(name string) (model.Session, error)
	// Solo gives every session its own copy of the lessons: a self-paced
	// lab room with no presenter.
	Solo bool
	// ClassCode is the password students type.
	ClassCode string
	// PresenterKeys are the public keys that log in as the presenter;
	// PresenterCode is a password that does (empty: none).
	PresenterKeys []gossh.PublicKey
	PresenterCode string
	// HostKeyPEM is the server's private host key.
	HostKeyPEM []byte
	// MaxSessions caps the student sessions open at once; the presenter's
	// do not count, so a full class never locks the presenter out.
	MaxSessions int
	// Idle ends a student's session after this long without a key.
	Idle time.Duration
	// FirstByte is how long a new connection has to start SSH, and
	// Handshake how long it then has to log in (a person types the code)
	// and open its session.
	FirstByte, Handshake time.Duration
	// PendingPerAddr and Pending bound the connections not yet in a
	// session, from one address and in all; past them, the oldest idle
	// one makes room for the new one.
	PendingPerAddr, Pending int
	// A wrong code waits FailDelay for each earlier wrong try on its
	// connection, or each of its seat name's recent ones: FailedLogins in
	// a burst, one more forgiven every FailedEvery. The right code never
	// waits and is never refused.
	FailDelay    time.Duration
	FailedLogins int
	FailedEvery  time.Duration
	// InputBurst and InputRate cap what a session's program reads, in
	// bytes and bytes a second; past them, input is dropped.
	InputBurst, InputRate int
	// Keep keeps the class across restarts: a class kept within
	// ResumeWithin (default 6 h: a restart during a class, not the next
	// day's class) for the same Lesson comes back, with its codes, which
	// then replace ClassCode and PresenterCode (see Codes).
	Keep         Keeper
	ResumeWithin time.Duration
	// Log gets one line per connect, refusal and disconnect: seat, role,
	// address and duration. Never a keystroke.
	Log *log.Logger
}

// Defaults.
const (
	DefaultMaxSessions = 100
	DefaultIdle        = 30 * time.Minute
)

// Server is a running classroom.
type Server struct {
	cfg      Config
	srv      *ssh.Server
	class    *Class
	students atomic.Int32
	limit    *limiter
	gate     *gate
	inRead   atomic.Int64
	export   func(text string) (where string, err error)
	ending   chan struct{} // closed by Close
	endOnce  sync.Once
	sessions sync.WaitGroup
	liveMu   sync.Mutex
	live     map[string]*liveSeat // student seat -> its session
	classH   [32]byte
	presH    [32]byte
	// panicHook is called inside the session handler; tests make it panic.
	panicHook func(seat string)
}

type ctxKey int

const (
	roleKey ctxKey = iota
	rawConnKey
	failsKey
	authKey
)

// how says which code a student logged in with.
type how int

const (
	byClassCode how = iota
	bySeatCode
)

// role is what a login made of a seat.
type role int

const (
	student role = iota
	presenter
)

func (r role) String() string {
	if r == presenter {
		return "presenter"
	}
	return "student"
}

// seatRule says what validSeat lets in, for the student it refuses.
const seatRule = "a seat name is 1 to 32 letters or digits, in any language, with spaces, dots, dashes or underscores inside"

// validSeat reports whether an SSH user name may name a seat: 1 to 32
// letters (with their accents) and digits of any script, with single
// spaces, dots, dashes and underscores inside. It reaches logs and
// screens, so nothing else is let in: no control, format (bidi) or
// invisible character.
func validSeat(name string) bool {
	if !utf8.ValidString(name) || name == "" || utf8.RuneCountInString(name) > 32 {
		return false
	}
	prev := ' '
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case unicode.In(r, unicode.Mn, unicode.Mc) && !seatSep(prev):
		case seatSep(r) && !seatSep(prev):
		default:
			return false
		}
		prev = r
	}
	return !seatSep(prev)
}

// seatSep is a character that may separate the words of a seat name.
func seatSep(r rune) bool { return r == ' ' || r == '.' || r == '_' || r == '-' }

// logSeat is a seat name as a log line holds it: quoted, and cut after
// 40 bytes, so a 10 KB name costs the log one short line.
func logSeat(name string) string {
	if len(name) <= 40 {
		return strconv.Quote(name)
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return strconv.Quote(name[:cut]) + "+" + strconv.Itoa(len(name)-cut) + "B"
}

// New builds a server; Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.ClassCode == "" {
		return nil, errors.New("a class code is needed")
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur(&cfg.FirstByte, 5*time.Second)
	defDur(&cfg.Handshake, 30*time.Second)
	// A whole class may log in at once from behind one NAT: the bounds
	// leave room for every seat, and the flood goes first (gate).
	def(&cfg.PendingPerAddr, max(32, cfg.MaxSessions+8))
	def(&cfg.Pending, max(128, 2*cfg.MaxSessions))
	defDur(&cfg.FailDelay, 250*time.Millisecond)
	def(&cfg.FailedLogins, 5)
	defDur(&cfg.FailedEvery, 3*time.Second)
	def(&cfg.InputBurst, 4096)
	def(&cfg.InputRate, 1024)
	if cfg.Log == nil {
		cfg.Log = log.New(discard{}, "", 0)
	}
	s := &Server{cfg: cfg, limit: newLimiter(cfg.FailedLogins, cfg.FailedEvery, cfg.FailDelay),
		gate: newGate(cfg.PendingPerAddr, cfg.Pending), live: map[string]*liveSeat{}, ending: make(chan struct{})}
	if !cfg.Solo {
		var k *keeper
		codes := Codes{Class: cfg.ClassCode, Presenter: cfg.PresenterCode}
		if cfg.Keep != nil {
			defDur(&cfg.ResumeWithin, 6*time.Hour)
			k = &keeper{k: cfg.Keep, start: cfg.Lesson, within: cfg.ResumeWithin, now: time.Now,
				onError: func(err error) { s.logf("keeping the class: %v", err) }}
		}
		c, err := newClass(cfg.Load, cfg.Lesson, k, &codes)
		if err != nil {
			return nil, err
		}
		s.class = c
		s.cfg.ClassCode, s.cfg.PresenterCode = codes.Class, codes.Presenter
		if e, ok := cfg.Keep.(Exporter); ok {
			s.export = e.Export
		}
	}
	s.classH = sha256.Sum256([]byte(s.cfg.ClassCode))
	if s.cfg.PresenterCode != "" {
		s.presH = sha256.Sum256([]byte(s.cfg.PresenterCode))
	}
	srv, err := wish.NewServer(
		wish.WithHostKeyPEM(cfg.HostKeyPEM),
		wish.WithPasswordAuth(s.password),
		wish.WithPublicKeyAuth(s.publicKey),
	)
	if err != nil {
		return nil, fmt.Errorf("the host key: %w", err)
	}
	srv.Handler = s.handle
	// Nothing but a shell request with a terminal: no exec, no
	// subsystems (none are registered either), no forwarding (the
	// callbacks are nil, which refuses it, and only "session" channels
	// are handled).
	srv.SessionRequestCallback = func(sess ssh.Session, kind string) bool {
		if kind != "shell" {
			s.logf("refused %s seat=%s from=%s", kind, logSeat(sess.User()), addrOf(sess.RemoteAddr()))
			return false
		}
		return true
	}
	srv.PtyCallback = func(_ ssh.Context, p ssh.Pty) bool {
		return p.Window.Width <= 10000 && p.Window.Height <= 10000 && len(p.Term) <= 64
	}
	srv.LocalPortForwardingCallback = nil
	srv.ReversePortForwardingCallback = nil
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": ssh.DefaultSessionHandler}
	srv.RequestHandlers = map[string]ssh.RequestHandler{}
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
	srv.ConnCallback = s.onConn
	s.srv = srv
	return s, nil
}

// Serve accepts connections on l until Close.
func (s *Server) Serve(l net.Listener) error {
	err := s.srv.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops the server and ends every session.
//
// Every session is told first that the class ended (not a dropped
// connection), and has a moment to say so.
func (s *Server) Close() error {
	s.endOnce.Do(func() { close(s.ending) })
	done := make(chan struct{})
	go func() { s.sessions.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
	}
	err := s.srv.Close()
	if s.class != nil {
		s.class.Close()
	}
	return err
}

// Codes are the class's codes: those of the Config, or a restored class's.
func (s *Server) Codes() Codes { return Codes{Class: s.cfg.ClassCode, Presenter: s.cfg.PresenterCode} }

// inputRead is how many bytes of input the sessions' programs have read.
func (s *Server) inputRead() int64 { return s.inRead.Load() }

// Students is the number of student sessions open now.
func (s *Server) Students() int { return int(s.students.Load()) }

func (s *Server) logf(format string, args ...any) { s.cfg.Log.Printf(format, args...) }

// onConn lets a connection through the gate, with FirstByte to start
// SSH and then Handshake to log in and open its session.
func (s *Server) onConn(ctx ssh.Context, c net.Conn) net.Conn {
	_ = c.SetDeadline(time.Now().Add(s.cfg.FirstByte))
	w := s.gate.admit(c, ipOf(c.RemoteAddr()), s.cfg.Handshake)
	ctx.SetValue(rawConnKey, w)
	ctx.SetValue(failsKey, new(atomic.Int32))
	return w
}

// same compares a typed code with a known one in constant time: both are
// hashed first, so not even the length shows in the time taken.
func same(typed string, want [32]byte) bool {
	h := sha256.Sum256([]byte(typed))
	return subtle.ConstantTimeCompare(h[:], want[:]) == 1
}

// password logs in a presenter (the presenter code), a student (the
// class code, or their seat's own code to come back to it). A seat name
// the class cannot take is let in with a right code, to be told why in
// its session; a wrong code waits (limiter) and fails.
func (s *Server) password(ctx ssh.Context, pw string) bool {
	seat := ctx.User()
	r, by, ok := student, byClassCode, true
	switch {
	case s.cfg.PresenterCode != "" && same(pw, s.presH) && !s.cfg.Solo:
		r = presenter
	case same(pw, s.classH):
	case s.class != nil && s.class.SeatCode(seat, pw):
		by = bySeatCode
	default:
		ok = false
	}
	if ok {
		ctx.SetValue(roleKey, r)
		ctx.SetValue(authKey, by)
		return true
	}
	n := 1
	if f, ok := ctx.Value(failsKey).(*atomic.Int32); ok {
		n = int(f.Add(1))
	}
	s.limit.fail(seat)
	d := s.limit.delay(seat, n)
	s.logf("failed login seat=%s from=%s", logSeat(seat), addrOf(ctx.RemoteAddr()))
	time.Sleep(d)
	return false
}

func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if s.cfg.Solo {
		return false
	}
	for _, k := range s.cfg.PresenterKeys {
		if ssh.KeysEqual(k, key) {
			ctx.SetValue(roleKey, presenter)
			return true
		}
	}
	return false
}

// handle runs one session: a seat's program until it ends, with a log
// line at each end. A panic ends this session only.
func (s *Server) handle(sess ssh.Session) {
	ctx := sess.Context()
	seat, from := sess.User(), addrOf(sess.RemoteAddr())
	who, _ := ctx.Value(roleKey).(role)
	by, _ := ctx.Value(authKey).(how)
	conn, _ := ctx.Value(rawConnKey).(*gated)
	if conn != nil {
		conn.release()
	}
	start := time.Now()
	reason := "closed"
	s.logf("connect seat=%s role=%v from=%s", logSeat(seat), who, from)
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("panic: %v", r)
			_ = sess.Exit(1)
		}
		s.logf("disconnect seat=%s role=%v duration=%s reason=%s", logSeat(seat), who, time.Since(start).Round(time.Second), reason)
	}()
	// refuse ends a session that cannot start with a line for the
	// student, and its connection with it: a refused client keeps
	// nothing open.
	refuse := func(why, msg string) {
		reason = "refused: " + why
		wish.Fatalln(sess, msg)
		if conn != nil {
			time.AfterFunc(time.Second, func() { conn.Close() })
		}
	}
	pty, winCh, ok := sess.Pty()
	switch {
	case !ok:
		refuse("no terminal", "eoslab: this lesson needs a terminal; connect with ssh -t (and no command)")
		return
	case len(sess.Command()) > 0 || sess.Subsystem() != "":
		refuse("command", "eoslab: no commands here; connect with plain ssh")
		return
	case !validSeat(seat):
		refuse("seat name", "eoslab: "+seatRule+"; ssh again with another one (ssh NAME@HOST)")
		return
	}
	var code string
	if who != presenter {
		if int(s.students.Add(1)) > s.cfg.MaxSessions {
			s.students.Add(-1)
			refuse("class full", fmt.Sprintf("eoslab: the class is full (%s); ask the presenter", plural(s.cfg.MaxSessions, "seat")))
			return
		}
		defer s.students.Add(-1)
		if s.class != nil {
			var taken bool
			code, taken = s.class.Claim(seat, by == bySeatCode)
			if taken {
				refuse("seat taken", "eoslab: seat "+seat+" is taken. Pick another name (ssh OTHER@HOST), or, if it is yours, type your seat code instead of the class code.")
				return
			}
		}
	}
	if s.panicHook != nil {
		s.panicHook(seat)
	}
	reason = s.run(sess, seat, who == presenter, code, pty, winCh)
}

// liveSeat is a student session holding its seat.
type liveSeat struct{ end func() }

// takeSeat makes this session the seat's only one: a student coming back
// with the seat code ends the session left on it. It returns the
// function that gives the seat up.
func (s *Server) takeSeat(seat string, end func()) (leave func()) {
	me := &liveSeat{end: end}
	s.liveMu.Lock()
	old := s.live[seat]
	s.live[seat] = me
	s.liveMu.Unlock()
	if old != nil {
		old.end()
	}
	return func() {
		s.liveMu.Lock()
		defer s.liveMu.Unlock()
		// A session that was replaced does not take its successor's
		// seat away.
		if s.live[seat] == me {
			delete(s.live, seat)
		}
	}
}

// run builds the seat and runs its program.
func (s *Server) run(sess ssh.Session, seat string, presenter bool, code string, pty ssh.Pty, winCh <-chan ssh.Window) string {
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	s.sessions.Add(1)
	defer s.sessions.Done()
	var replaced, ended atomic.Bool
	if !presenter && s.class != nil {
		defer s.takeSeat(seat, func() { replaced.Store(true); cancel() })()
	}
	env := envOf(append(sess.Environ(), "TERM="+pty.Term))
	opts := views.Options{Renderer: bubbletea.MakeRenderer(sess)}.WithEnv(env.get)
	opts.ASCII = asciiTerm(env.get)
	so := SeatOptions{Seat: seat, Presenter: presenter, Views: opts, Lessons: s.cfg.Lessons, Code: code, Export: s.export}
	if s.cfg.Lesson != "" {
		so.Lessons = nil
		for _, l := range s.cfg.Lessons {
			if l.Name == s.cfg.Lesson {
				so.Lessons = append(so.Lessons, l)
			}
		}
	}
	var m *Seat
	var updates <-chan *View
	if s.class != nil {
		var leave func()
		updates, leave = s.class.Join(seat, presenter)
		defer leave()
		m = NewSeat(s.class, <-updates, so)
	} else {
		so.Views.StartLesson = s.cfg.Lesson
		m = NewSoloSeat(s.cfg.Lessons, s.cfg.Open, so)
	}
	in := &activity{r: sess, read: &s.inRead, cap: inputCap{burst: float64(s.cfg.InputBurst), rate: float64(s.cfg.InputRate), now: time.Now}}
	in.touch()
	topts := append(bubbletea.MakeOptions(sess), tea.WithInput(in), tea.WithAltScreen(),
		tea.WithoutSignalHandler(), tea.WithContext(ctx), tea.WithFPS(30))
	p := tea.NewProgram(m, topts...)
	var idled atomic.Bool
	if !presenter {
		// The app's idle timeout: a student who neither presses a key nor
		// answers for Idle is let go. It watches the input from outside
		// the program, so a client that stopped reading is let go too.
		var t *time.Timer
		check := func() {
			if left := s.cfg.Idle - in.since(); left > 0 {
				t.Reset(left)
				return
			}
			idled.Store(true)
			cancel()
			time.AfterFunc(2*time.Second, func() { _ = sess.Close() })
		}
		t = time.AfterFunc(s.cfg.Idle, check)
		defer t.Stop()
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.ending:
				ended.Store(true)
				cancel()
				return
			case w, ok := <-winCh:
				if !ok {
					return
				}
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			case v := <-updates:
				p.Send(viewMsg{v})
			}
		}
	}()
	_, err := p.Run()
	p.Kill()
	switch {
	case ended.Load():
		fmt.Fprintf(sess.Stderr(), "\r\neoslab: the class ended: the presenter stopped the server. Thank you!\r\n")
		_ = sess.Exit(0)
		return "the class ended"
	case replaced.Load():
		fmt.Fprintf(sess.Stderr(), "\r\neoslab: seat %s was opened again with its seat code, so this session ended\r\n", seat)
		_ = sess.Exit(1)
		return "replaced"
	case idled.Load():
		fmt.Fprintf(sess.Stderr(), "\r\neoslab: no key for %s, so this seat was closed; ssh again with your seat code to rejoin (your answers are kept)\r\n", s.cfg.Idle)
		_ = sess.Exit(1)
		return "idle"
	case errors.Is(err, tea.ErrProgramPanic):
		_ = sess.Exit(1)
		return "panic in the program"
	case m.Reason != "":
		return m.Reason
	}
	return "closed"
}

// activity is the session's input, noting when the last key came and
// dropping what comes past the input cap. It keeps no key.
type activity struct {
	r    interface{ Read([]byte) (int, error) }
	last atomic.Int64
	cap  inputCap
	read *atomic.Int64 // bytes passed on, for every session
}

func (a *activity) Read(b []byte) (int, error) {
	for {
		n, err := a.r.Read(b)
		if n > 0 {
			a.touch()
			n = a.cap.keep(n)
			a.read.Add(int64(n))
		}
		if n > 0 || err != nil {
			return n, err
		}
	}
}

func (a *activity) touch()               { a.last.Store(time.Now().UnixNano()) }
func (a *activity) since() time.Duration { return time.Duration(time.Now().UnixNano() - a.last.Load()) }

type envOf []string

func (e envOf) get(k string) string {
	for i := len(e) - 1; i >= 0; i-- {
		if len(e[i]) > len(k) && e[i][:len(k)] == k && e[i][len(k)] == '=' {
			return e[i][len(k)+1:]
		}
	}
	return ""
}

// asciiTerm picks ASCII drawing for a terminal that cannot draw boxes: TERM
// dumb, or a locale the client sent that is not UTF-8.
func asciiTerm(get func(string) string) bool {
	if t := get("TERM"); t == "dumb" || t == "" {
		return true
	}
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := get(k); v != "" {
			v = strings.ToLower(v)
			return !strings.Contains(v, "utf-8") && !strings.Contains(v, "utf8")
		}
	}
	return false
}

func addrOf(a net.Addr) string {
	if a == nil {
		return "?"
	}
	return a.String()
}

func ipOf(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	return addrOf(a)
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
