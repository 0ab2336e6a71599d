package serve

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
)

// A terminal that claims to be huge is drawn at the largest size a seat
// allows.
func TestSeatSizeIsBounded(t *testing.T) {
	t.Parallel()
	c, _ := newTestClass(t, "abort")
	ch, _ := c.Join("ana", false)
	s := NewSeat(c, latest(t, ch), SeatOptions{Seat: "ana", Views: views.Options{ASCII: true, NoColor: true}})
	s.Update(tea.WindowSizeMsg{Width: 100000, Height: 100000})
	lines := strings.Split(s.View(), "\n")
	if len(lines) > maxH {
		t.Errorf("%d rows, want at most %d", len(lines), maxH)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > maxW {
			t.Fatalf("row %d is %d wide, want at most %d", i, w, maxW)
		}
	}
}

// In a solo room every session plays its own copy.
func TestSoloRoom(t *testing.T) {
	t.Parallel()
	srv := startServer(t, func(c *Config) { c.Solo = true })
	a := join(t, srv.addr, "ana", testCode, dumb80)
	b := join(t, srv.addr, "bo", testCode, dumb80)
	a.waitFor(t, "step 0/10", 2*time.Second)
	b.waitFor(t, "step 0/10", 2*time.Second)
	a.key(keyRight)
	a.key(keyRight)
	a.waitFor(t, "step 2/10", 2*time.Second)
	b.key(keyRight)
	b.waitFor(t, "step 1/10", 2*time.Second)
	time.Sleep(100 * time.Millisecond) // what b shows after a moved twice
	if strings.Contains(b.out.String(), "step 2/10") {
		t.Error("a student's step moved another's in a solo room")
	}
	if _, err := dialSSH(srv.addr, "cy", gossh.Password("guess")); err == nil {
		t.Error("a solo room let someone in without the code")
	}
}

// revealedWithNewQuestion opens the abort lesson at its first
// checkpoint, has ana answer choice 1 and reveals it; the deciding step
// asks a question of its own. It returns ana's and the presenter's Views.
func revealedWithNewQuestion(t *testing.T) (c *Class, l *lessons.Lesson, k int, ana, pres *View) {
	c, l = newTestClass(t, "abort")
	k = firstAsk(t, l)
	if l.Steps[k].Ask == nil {
		t.Skip("the lesson's deciding step asks no question of its own")
	}
	for range k {
		c.Move(Move{Kind: Next})
	}
	ch, _ := c.Join("ana", false)
	pch, _ := c.Join("teacher", true)
	c.Answer("ana", k, 1)
	c.Move(Move{Kind: Reveal})
	for ana == nil || ana.Result == nil {
		ana = latest(t, ch)
	}
	for pres == nil || pres.Result == nil {
		pres = latest(t, pch)
	}
	return c, l, k, ana, pres
}

// On a short terminal the class's lines give way to the player, keeping
// the verdict, in full, and the question's status; at 80x24 they all fit.
func TestSeatLinesOnSmallTerminals(t *testing.T) {
	t.Parallel()
	c, l, k, v, _ := revealedWithNewQuestion(t)
	right := lessons.NewPlayer(l).Correct(k)
	verdict := "not quite, you chose 1; the answer is " + strconv.Itoa(right)
	if right == 1 {
		verdict = "correct, you chose 1"
	}
	for _, sz := range []struct{ w, h, lines int }{{60, 20, 2}, {80, 24, 4}, {200, 60, 4}} {
		for _, ascii := range []bool{true, false} {
			s := NewSeat(c, v, SeatOptions{Seat: "ana", Views: views.Options{ASCII: ascii, NoColor: true}})
			s.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			out := s.View()
			foot := s.footer()
			if len(foot) != sz.lines || strings.Contains(out, "too small") || len(strings.Split(out, "\n")) != sz.h {
				t.Errorf("%dx%d: %d class lines, want %d:\n%s", sz.w, sz.h, len(foot), sz.lines, out)
			}
			if !strings.Contains(out, "step "+strconv.Itoa(k)+": ") || !strings.Contains(out, verdict) || !strings.Contains(out, "Your answer: press 1-") {
				t.Errorf("%dx%d ascii %v: the verdict, in full, or the new question's status is missing:\n%s", sz.w, sz.h, ascii, out)
			}
			for i, l := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(l); w > sz.w {
					t.Errorf("%dx%d: row %d is %d wide", sz.w, sz.h, i, w)
				}
			}
		}
	}
}

// When the deciding step asks a new question at once, the revealed one's
// explanation opens by itself over the player, for students and the
// presenter alike, with the student's own answer judged and the
// presenter's without "your answer"; esc closes it, w opens it again, and
// a digit closes it and answers the new question.
func TestSeatShowsWhyAfterTheReveal(t *testing.T) {
	t.Parallel()
	c, l, k, v, pv := revealedWithNewQuestion(t)
	explain := l.Steps[k-1].Ask.Explain
	for _, sz := range [][2]int{{80, 24}, {60, 20}, {200, 60}} {
		for _, who := range []struct {
			seat      string
			presenter bool
			v         *View
		}{{"ana", false, v}, {"teacher", true, pv}} {
			s := NewSeat(c, who.v, SeatOptions{Seat: who.seat, Presenter: who.presenter, Views: views.Options{NoColor: true}})
			s.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			s.Update(viewMsg{who.v})
			out := s.View()
			if !shows(out, explain) || !strings.Contains(out, "Why: step "+strconv.Itoa(k)) {
				t.Fatalf("%s %dx%d: no why view after the reveal:\n%s", who.seat, sz[0], sz[1], out)
			}
			if mine := strings.Contains(out, "(your answer)"); mine == who.presenter {
				t.Errorf("%s %dx%d: \"(your answer)\" shown %v:\n%s", who.seat, sz[0], sz[1], mine, out)
			}
			if lines := strings.Split(out, "\n"); len(lines) != sz[1] {
				t.Errorf("%s %dx%d: %d rows", who.seat, sz[0], sz[1], len(lines))
			}
			s.Update(tea.KeyMsg{Type: tea.KeyEsc})
			if out := s.View(); shows(out, explain) || !strings.Contains(out, l.Steps[k].Ask.Choices[0].Text) {
				t.Fatalf("%s %dx%d: esc did not bring back the new question:\n%s", who.seat, sz[0], sz[1], out)
			}
			// A new View of the same step does not open it again.
			s.Update(viewMsg{who.v})
			if shows(s.View(), explain) {
				t.Fatalf("%s: the why view opened twice for one reveal", who.seat)
			}
			s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("w")})
			if !shows(s.View(), explain) {
				t.Fatalf("%s %dx%d: w did not open the why view", who.seat, sz[0], sz[1])
			}
			if !who.presenter {
				s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
				if out := s.View(); shows(out, explain) {
					t.Fatalf("%s: a digit did not close the why view:\n%s", who.seat, out)
				}
				var got int
				c.do(func(st *classState) { got = st.cur.answers[k+1][who.seat] })
				if got != 2 {
					t.Fatalf("%s: the digit that closed the why view was not an answer (%d)", who.seat, got)
				}
			}
		}
	}
}

// The presenter did not answer: back on a revealed question, their screen
// marks the right choice without "your answer".
func TestPresenterHasNoAnswerOfTheirOwn(t *testing.T) {
	t.Parallel()
	c, l := newTestClass(t, "abort")
	k := firstAsk(t, l)
	for range k {
		c.Move(Move{Kind: Next})
	}
	c.Move(Move{Kind: Reveal})
	v, _ := c.Move(Move{Kind: Back})
	cp := v.Frame.Checkpoint
	right := lessons.NewPlayer(l).Correct(k)
	if v.Pos != k || cp == nil || !cp.Answered || cp.Chosen != 0 || cp.Correct != right {
		t.Fatalf("the presenter's checkpoint back on step %d: %+v", k, cp)
	}
	s := NewSeat(c, v, SeatOptions{Seat: "teacher", Presenter: true, Views: views.Options{NoColor: true}})
	s.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if out := s.View(); strings.Contains(out, "your answer") || !strings.Contains(out, "the answer is "+strconv.Itoa(right)+")") {
		t.Fatalf("the presenter's screen:\n%s", out)
	}
}

// A note under the player takes a row from it, not from its help bar.
func TestSeatNoteKeepsTheHelpBar(t *testing.T) {
	t.Parallel()
	c, _ := newTestClass(t, "abort")
	ch, _ := c.Join("ana", false)
	s := NewSeat(c, latest(t, ch), SeatOptions{Seat: "ana", Views: views.Options{NoColor: true}})
	s.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	before := s.footerH
	s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("w")})
	out := s.View()
	lines := strings.Split(out, "\n")
	if s.footerH != before+1 || len(lines) != 24 || !strings.Contains(lines[len(lines)-s.footerH-1], "? help") || !strings.Contains(out, "Nothing to explain yet") {
		t.Fatalf("the note and the help bar:\n%s", out)
	}
}

// The presenter's bars go all together: on a terminal too short for all
// of them, none is drawn and the lines before them keep their rows.
func TestFitLinesKeepsBarsTogether(t *testing.T) {
	t.Parallel()
	in := []line{{"head", rankHead}, {"bar1", rankBar}, {"bar2", rankBar}, {"bar3", rankBar}, {"status", rankStatus}}
	for budget, want := range map[int]string{1: "status", 2: "head status", 3: "head status", 4: "bar1 bar2 bar3 status", 5: "head bar1 bar2 bar3 status"} {
		var got []string
		for _, l := range fitLines(append([]line(nil), in...), budget) {
			got = append(got, l.text)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("budget %d: %v, want %s", budget, got, want)
		}
	}
}

// A question revealed again after a restart opens its why again.
func TestWhyOpensAgainAfterARestart(t *testing.T) {
	t.Parallel()
	c, l, k, _, pv := revealedWithNewQuestion(t)
	explain := l.Steps[k-1].Ask.Explain
	s := NewSeat(c, pv, SeatOptions{Seat: "teacher", Presenter: true, Views: views.Options{NoColor: true}})
	s.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if !shows(s.View(), explain) {
		t.Fatal("no why view after the first reveal")
	}
	s.Update(tea.KeyMsg{Type: tea.KeyEsc})
	c.Move(Move{Kind: Restart})
	for range k {
		c.Move(Move{Kind: Next})
	}
	v, _ := c.Move(Move{Kind: Reveal})
	s.Update(viewMsg{v})
	if !shows(s.View(), explain) {
		t.Fatalf("no why view after the restart's reveal:\n%s", s.View())
	}
}

// Once a student's answer is locked, their screen says so on the choice
// and no longer offers the answer keys, before the reveal as after it.
func TestLockedAnswerIsShownAndKeysWithdrawn(t *testing.T) {
	t.Parallel()
	c, l := newTestClass(t, "abort")
	k := firstAsk(t, l)
	for range k {
		c.Move(Move{Kind: Next})
	}
	ch, _ := c.Join("ana", false)
	s := NewSeat(c, latest(t, ch), SeatOptions{Seat: "ana", Views: views.Options{NoColor: true}})
	s.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if out := s.View(); !strings.Contains(out, "1-3 answer") || strings.Contains(out, "locked)") {
		t.Fatalf("before answering:\n%s", out)
	}
	s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	s.Update(viewMsg{latest(t, ch)})
	out := s.View()
	if !strings.Contains(out, "2) "+l.Steps[k-1].Ask.Choices[1].Text+" (your answer, locked)") || strings.Contains(out, "1-3 answer") {
		t.Fatalf("after locking 2:\n%s", out)
	}
}

// A student's seat keeps the player's t, which picks a message on the
// Timeline; T switches light/dark (issue: t did both, so the picker
// never opened in eoslab serve).
func TestSeatPickerKeyIsThePlayers(t *testing.T) {
	c, _ := newTestClass(t, "lost-ack")
	ch, _ := c.Join("ana", false)
	s := NewSeat(c, latest(t, ch), SeatOptions{Seat: "ana", Views: views.Options{NoColor: true}})
	s.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, m := range []Move{{Kind: Next}, {Kind: Next}} {
		if v, ok := c.Move(m); ok {
			s.Update(viewMsg{v})
		}
	}
	press := func(k string) {
		if k == "tab" {
			s.Update(tea.KeyMsg{Type: tea.KeyTab})
			return
		}
		s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	for i := 0; i < 6 && !strings.Contains(s.View(), "t pick"); i++ {
		press("tab")
	}
	if !strings.Contains(s.View(), "t pick") {
		t.Fatalf("no Timeline focus with t pick in the help bar:\n%s", s.View())
	}
	press("t")
	if out := s.View(); !s.dark || !strings.Contains(out, "close message") {
		t.Fatalf("t on the Timeline: dark %v, and the picker is not open:\n%s", s.dark, out)
	}
	press("T")
	if s.dark {
		t.Errorf("T did not switch to light")
	}
	if !strings.Contains(s.View(), "T light/dark") {
		t.Errorf("the seat's bar does not name T:\n%s", s.View())
	}
}
