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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
)

// Config is a server's configuration.
type Config struct {
	// Lesson is the lesson the class plays; empty lets the presenter pick
	// one from Lessons.
	Lesson  string
	Lessons []views.LessonInfo
	// Load reads a lesson for the class; Open starts a session of one
	// for a seat of a solo room.
	Load func(name string) (*lessons.Lesson, error)
	Open func(name string) (views.Session, error)
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
	// Handshake is how long a connection has to log in and open its
	// session.
	Handshake time.Duration
	// FailedLogins is how many failed logins one address may make in a
	// burst before it waits (a class behind one NAT logs in with the right
	// code and is never held back); one more is allowed every FailedEvery.
	FailedLogins int
	FailedEvery  time.Duration
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
	conns    atomic.Int32
	limit    *limiter
	classH   [32]byte
	presH    [32]byte
	// panicHook is called inside the session handler; tests make it panic.
	panicHook func(seat string)
}

type ctxKey int

const (
	roleKey ctxKey = iota
	rawConnKey
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

// validSeat reports whether an SSH user name may name a seat: 1 to 32
// letters, digits, dots, dashes and underscores, starting with a letter
// or digit. It reaches logs and screens, so nothing else is let in.
func validSeat(name string) bool {
	if len(name) < 1 || len(name) > 32 {
		return false
	}
	for i, c := range []byte(name) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
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
	if cfg.Handshake <= 0 {
		cfg.Handshake = 30 * time.Second
	}
	if cfg.FailedLogins <= 0 {
		cfg.FailedLogins = 20
	}
	if cfg.FailedEvery <= 0 {
		cfg.FailedEvery = 3 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = log.New(discard{}, "", 0)
	}
	s := &Server{cfg: cfg, limit: newLimiter(cfg.FailedLogins, cfg.FailedEvery)}
	s.classH = sha256.Sum256([]byte(cfg.ClassCode))
	if cfg.PresenterCode != "" {
		s.presH = sha256.Sum256([]byte(cfg.PresenterCode))
	}
	if !cfg.Solo {
		c, err := NewClass(cfg.Load, cfg.Lesson)
		if err != nil {
			return nil, err
		}
		s.class = c
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
			s.logf("refused %s seat=%s from=%s", kind, sess.User(), addrOf(sess.RemoteAddr()))
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
func (s *Server) Close() error {
	err := s.srv.Close()
	if s.class != nil {
		s.class.Close()
	}
	return err
}

// Students is the number of student sessions open now.
func (s *Server) Students() int { return int(s.students.Load()) }

func (s *Server) logf(format string, args ...any) { s.cfg.Log.Printf(format, args...) }

// onConn limits the connections open at once and gives each one
// Handshake to log in and open its session.
func (s *Server) onConn(ctx ssh.Context, c net.Conn) net.Conn {
	if int(s.conns.Add(1)) > 2*s.cfg.MaxSessions+16 {
		s.conns.Add(-1)
		s.logf("refused connection from=%s: too many connections", addrOf(c.RemoteAddr()))
		return nil
	}
	_ = c.SetDeadline(time.Now().Add(s.cfg.Handshake))
	w := &countedConn{Conn: c, n: &s.conns}
	ctx.SetValue(rawConnKey, w)
	return w
}

type countedConn struct {
	net.Conn
	n    *atomic.Int32
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.n.Add(-1) })
	return c.Conn.Close()
}

// same compares a typed code with a known one in constant time: both are
// hashed first, so not even the length shows in the time taken.
func same(typed string, want [32]byte) bool {
	h := sha256.Sum256([]byte(typed))
	return subtle.ConstantTimeCompare(h[:], want[:]) == 1
}

func (s *Server) password(ctx ssh.Context, pw string) bool {
	ip := ipOf(ctx.RemoteAddr())
	if !s.limit.allow(ip) {
		s.logf("refused login seat=%q from=%s: too many failed logins", ctx.User(), addrOf(ctx.RemoteAddr()))
		return false
	}
	ok, r := false, student
	switch {
	case !validSeat(ctx.User()):
	case s.cfg.PresenterCode != "" && same(pw, s.presH):
		ok, r = true, presenter
	case same(pw, s.classH):
		ok = true
	}
	if !ok {
		s.limit.fail(ip)
		s.logf("failed login seat=%q from=%s", ctx.User(), addrOf(ctx.RemoteAddr()))
		return false
	}
	if s.cfg.Solo {
		r = student
	}
	ctx.SetValue(roleKey, r)
	return true
}

func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if s.cfg.Solo || !validSeat(ctx.User()) {
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
	if c, ok := ctx.Value(rawConnKey).(net.Conn); ok {
		_ = c.SetDeadline(time.Time{})
	}
	start := time.Now()
	reason := "closed"
	s.logf("connect seat=%s role=%v from=%s", seat, who, from)
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("panic: %v", r)
			_ = sess.Exit(1)
		}
		s.logf("disconnect seat=%s role=%v duration=%s reason=%s", seat, who, time.Since(start).Round(time.Second), reason)
	}()
	pty, winCh, ok := sess.Pty()
	if !ok {
		reason = "refused: no terminal"
		wish.Fatalln(sess, "eoslab: this lesson needs a terminal; connect with ssh -t (and no command)")
		return
	}
	if len(sess.Command()) > 0 || sess.Subsystem() != "" {
		reason = "refused: command"
		wish.Fatalln(sess, "eoslab: no commands here; connect with plain ssh")
		return
	}
	if who != presenter {
		if int(s.students.Add(1)) > s.cfg.MaxSessions {
			s.students.Add(-1)
			reason = "refused: class full"
			wish.Fatalln(sess, fmt.Sprintf("eoslab: the class is full (%d seats); ask the presenter", s.cfg.MaxSessions))
			return
		}
		defer s.students.Add(-1)
	}
	if s.panicHook != nil {
		s.panicHook(seat)
	}
	reason = s.run(sess, seat, who == presenter, pty, winCh)
}

// run builds the seat and runs its program.
func (s *Server) run(sess ssh.Session, seat string, presenter bool, pty ssh.Pty, winCh <-chan ssh.Window) string {
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	env := envOf(append(sess.Environ(), "TERM="+pty.Term))
	opts := views.Options{Renderer: bubbletea.MakeRenderer(sess)}.WithEnv(env.get)
	opts.ASCII = asciiTerm(env.get)
	so := SeatOptions{Seat: seat, Presenter: presenter, Views: opts, Lessons: s.cfg.Lessons}
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
	in := &activity{r: sess}
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
	case idled.Load():
		fmt.Fprintf(sess.Stderr(), "\r\neoslab: no key for %s, so this seat was closed; ssh again to rejoin (your answers are kept)\r\n", s.cfg.Idle)
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

// activity is the session's input, noting when the last key came. It
// keeps no key.
type activity struct {
	r    interface{ Read([]byte) (int, error) }
	last atomic.Int64
}

func (a *activity) Read(b []byte) (int, error) {
	n, err := a.r.Read(b)
	if n > 0 {
		a.touch()
	}
	return n, err
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
