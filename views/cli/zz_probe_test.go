package cli

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/list"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/home"
	"github.com/eoslab/eoslab/views/pane"
	"github.com/eoslab/eoslab/views/theme"
)

func TestZZProbe(t *testing.T) {
	if os.Getenv("PROBE") == "" {
		t.Skip()
	}
	l := adapt.Lessons()
	var ts []time.Time
	mark := func() { ts = append(ts, time.Now()) }
	mark()
	th := theme.New(theme.Options{})
	mark()
	_ = list.New(nil, list.NewDefaultDelegate(), 0, 0)
	mark()
	_ = home.New(l, th)
	mark()
	_ = views.DefaultKeyMap()
	_ = pane.DefaultKeyMap()
	mark()
	_ = help.New()
	for range 8 {
		_ = pane.New(th)
	}
	mark()
	_ = withSandbox(views.Options{})
	mark()
	st, _ := openProgress(true)
	mark()
	_ = st
	names := []string{"theme", "list", "home", "keys", "help+panes", "sandbox", "progress"}
	for i, n := range names {
		fmt.Fprintf(os.Stderr, "%s=%d ", n, ts[i+1].Sub(ts[i]).Microseconds())
	}
	fmt.Fprintln(os.Stderr, "PROBE")
}
