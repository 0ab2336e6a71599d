package adapt

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/theme"
)

// TestPlayerPicksAMessage drives the real app on the zombie lesson's last
// step with keys: t before the Timeline has the focus only says where it
// works; with the Timeline focused the help bar offers t, t picks the
// newest message and its box shows over the diagram, ↑ walks back to the
// fenced EndTxn answer (its code and the rule that decided), esc and t
// close the box (esc keeping the Timeline focused), tab and a step let go
// of it, and the full help lists the cursor's keys. At 120x40, 80x24 and
// with NO_COLOR, and in ASCII.
func TestPlayerPicksAMessage(t *testing.T) {
	for _, c := range []struct {
		w, h int
		opts views.Options
	}{{120, 40, views.Options{}}, {80, 24, views.Options{NoColor: true}}, {80, 24, views.Options{ASCII: true}}} {
		p := openPlayer(t, "zombie", c.w, c.h, c.opts)
		s := p.session()
		p.to(s.Len() - 1)
		screen := func() string { return ansi.Strip(p.m.View()) }
		boxOn := func() bool { return strings.Contains(screen(), "decided by") }
		where := func() string { return fmt.Sprintf("%+v ", c.opts) + itoa(c.w) + "x" + itoa(c.h) }

		p.press("t")
		if boxOn() || !strings.Contains(screen(), "Tab to the Timeline first: t picks a message there.") {
			t.Fatalf("%s: t on the lesson pane:\n%s", where(), screen())
		}
		p.focus("Timeline")
		// At 80 columns a question's keys leave t out of the bar (the
		// full help lists it).
		if c.w >= 100 && !strings.Contains(lastLine(screen()), "t pick a message") {
			t.Errorf("%s: the help bar with the Timeline focused does not offer t:\n%s", where(), lastLine(screen()))
		}
		p.press("t")
		f := s.Frame()
		newest := f.Timeline[len(f.Timeline)-1]
		if !boxOn() || !strings.Contains(screen(), "m"+itoa(int(newest.ID))) {
			t.Fatalf("%s: t did not show the newest message m%d:\n%s", where(), newest.ID, screen())
		}
		if regexp.MustCompile(`transactional\.id\S`).MatchString(screen()) {
			t.Errorf("%s: a field's name runs into its value:\n%s", where(), screen())
		}
		if bar := lastLine(screen()); !strings.Contains(bar, "close message") || !strings.Contains(bar, "earlier/later") || strings.Contains(bar, "esc lessons") {
			t.Errorf("%s: the help bar while picking: %q", where(), lastLine(screen()))
		}
		fenced := -1
		for i, a := range f.Timeline {
			if a.Error && strings.Contains(a.Code, "PRODUCER_FENCED") && strings.HasPrefix(a.Label, "EndTxn") {
				fenced = i
			}
		}
		if fenced < 0 {
			t.Fatalf("no fenced EndTxn answer on the Timeline: %+v", f.Timeline)
		}
		for range len(f.Timeline) - 1 - fenced {
			p.press("up")
		}
		got := screen()
		th := theme.New(theme.Options{ASCII: c.opts.ASCII})
		for _, want := range []string{"m" + itoa(int(f.Timeline[fenced].ID)), "EndTxnResponse", "PRODUCER_FENCED", "TransactionCoordinator.endTransaction", th.Sym.Cursor} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: after ↑ the screen has no %q:\n%s", where(), want, got)
			}
		}
		p.press("esc")
		if boxOn() || p.m.(views.App).Focus().String() != "Timeline" {
			t.Errorf("%s: esc did not close the box alone (focus %s):\n%s", where(), p.m.(views.App).Focus(), screen())
		}
		p.press("t")
		p.press("t")
		if boxOn() {
			t.Errorf("%s: t did not close the box", where())
		}
		p.press("t")
		p.press("tab")
		if boxOn() {
			t.Errorf("%s: tab did not let go of the box", where())
		}
		p.focus("Timeline")
		p.press("t")
		p.press("left")
		if boxOn() || s.Pos() != s.Len()-2 {
			t.Errorf("%s: a step back kept the box", where())
		}
		p.press("?")
		for range 8 {
			if strings.Contains(screen(), "pick a message on the Timeline") {
				break
			}
			p.press("pgdown")
		}
		if help := screen(); !strings.Contains(help, "pick a message on the Timeline") || strings.Contains(help, "↑/k") != !c.opts.ASCII {
			t.Errorf("%s: the full help does not list t:\n%s", where(), screen())
		}
	}
}

func lastLine(s string) string { l := strings.Split(s, "\n"); return l[len(l)-1] }
