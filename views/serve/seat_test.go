package serve

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"eoslab/views"
)

// A terminal that claims to be huge is drawn at the largest size a seat
// allows.
func TestSeatSizeIsBounded(t *testing.T) {
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

// On a short terminal the class's lines give way to the player, keeping
// the verdict and the question's status; at 80x24 they all fit.
func TestSeatLinesOnSmallTerminals(t *testing.T) {
	c, l := newTestClass(t, "abort")
	k := firstAsk(t, l)
	if l.Steps[k].Ask == nil {
		t.Skip("the lesson's deciding step asks no question of its own")
	}
	for range k {
		c.Move(Move{Kind: Next})
	}
	ch, _ := c.Join("ana", false)
	c.Answer("ana", k, 1)
	c.Move(Move{Kind: Reveal})
	v := latest(t, ch)
	for v.Result == nil {
		v = latest(t, ch)
	}
	for _, sz := range []struct{ w, h, lines int }{{60, 20, 2}, {80, 24, 4}, {200, 60, 4}} {
		s := NewSeat(c, v, SeatOptions{Seat: "ana", Views: views.Options{ASCII: true, NoColor: true}})
		s.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
		out := s.View()
		foot := s.footer()
		if len(foot) != sz.lines || strings.Contains(out, "too small") || len(strings.Split(out, "\n")) != sz.h {
			t.Errorf("%dx%d: %d class lines, want %d:\n%s", sz.w, sz.h, len(foot), sz.lines, out)
		}
		if !strings.Contains(out, "verdict:") || !strings.Contains(out, "Your answer: press 1-") {
			t.Errorf("%dx%d: the verdict or the new question's status is missing:\n%s", sz.w, sz.h, out)
		}
	}
}
