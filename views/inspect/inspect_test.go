package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	data "github.com/eoslab/eoslab/engine/realkafka/inspect"
	"github.com/eoslab/eoslab/views/theme"
)

var update = flag.Bool("update", false, "rewrite the goldens in testdata")

// fixture is the snapshot engine/realkafka/inspect's golden test writes:
// one open, one committed and one hanging transaction.
func fixture(t *testing.T) *data.Snapshot {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "engine", "realkafka", "inspect", "testdata", "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s data.Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// model runs the model's first refresh synchronously on fetch.
func model(t *testing.T, w, h int, fetch Fetch) *Model {
	m := New(Options{Bootstrap: "127.0.0.1:9092", Fetch: fetch, Theme: theme.New(theme.Options{NoColor: true})})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	run(m, m.refresh())
	return m
}

func run(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := cmd()
	if msg == nil {
		return
	}
	m.took = 0
	m.Update(msg)
	m.took = 0
}

func TestScreenGoldens(t *testing.T) {
	s := fixture(t)
	fetch := func(context.Context, data.TP) (*data.Snapshot, error) { return s, nil }
	for _, size := range [][2]int{{80, 24}, {60, 20}, {200, 60}} {
		m := model(t, size[0], size[1], fetch)
		got := m.View()
		lines := strings.Split(got, "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
		path := filepath.Join("testdata", fmt.Sprintf("screen-%dx%d.golden", size[0], size[1]))
		if *update {
			os.WriteFile(path, []byte(got), 0o644)
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (-update writes it)", err)
		}
		if got != string(want) {
			t.Errorf("%dx%d differs from %s (-update rewrites it):\n%s", size[0], size[1], path, got)
		}
	}
}

func TestHangingOnFirstScreen(t *testing.T) {
	m := model(t, 80, 24, func(context.Context, data.TP) (*data.Snapshot, error) { return fixture(t), nil })
	v := m.View()
	for _, w := range []string{"Hanging transactions (1)", "pid 1002", "why:"} {
		if !strings.Contains(v, w) {
			t.Errorf("80x24 first screen lacks %q:\n%s", w, v)
		}
	}
}

// TestClusterGone: a refresh that fails keeps the last snapshot, says
// which cluster did not answer, and q still quits.
func TestClusterGone(t *testing.T) {
	var fail error
	m := model(t, 80, 24, func(context.Context, data.TP) (*data.Snapshot, error) {
		if fail != nil {
			return nil, fail
		}
		return fixture(t), nil
	})
	fail = errors.New("unable to dial: dial tcp 127.0.0.1:9092: connect: connection refused")
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	run(m, cmd)
	v := m.View()
	if !strings.Contains(v, "did not answer") || !strings.Contains(v, "last snapshot") || !strings.Contains(v, "Hanging transactions (1)") {
		t.Errorf("after the cluster went away:\n%s", v)
	}
	// A first refresh that fails: the message, no panels, no panic.
	m2 := model(t, 80, 24, func(context.Context, data.TP) (*data.Snapshot, error) { return nil, fail })
	if v := m2.View(); !strings.Contains(v, "did not answer") {
		t.Errorf("first refresh failed:\n%s", v)
	}
	_, cmd = m2.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit after the cluster went away")
	}
	// The cluster comes back: the message goes.
	fail = nil
	_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	run(m, cmd)
	if strings.Contains(m.View(), "did not answer") {
		t.Error("the message stays after a refresh succeeded")
	}
}

// TestLogPartitionKeys: → asks for the next partition's log, and a
// stale reply (an older refresh) is dropped.
func TestLogPartitionKeys(t *testing.T) {
	var asked []data.TP
	m := model(t, 80, 24, func(_ context.Context, tp data.TP) (*data.Snapshot, error) {
		asked = append(asked, tp)
		s := fixture(t)
		if tp.Topic != "" {
			s.LogOf = tp
		}
		return s, nil
	})
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRight})
	stale := m.refresh() // a newer refresh starts before the first returns
	run(m, cmd)
	if m.loading != true {
		t.Error("a stale reply was taken")
	}
	run(m, stale)
	if got := asked[len(asked)-1]; got != (data.TP{Topic: "orders", Partition: 1}) {
		t.Errorf("→ from orders-0 asked for %v, want orders-1", got)
	}
	if !strings.Contains(m.View(), "Log of orders-1") {
		t.Errorf("the log panel does not show orders-1:\n%s", m.View())
	}
}

// TestEveryKeyIsSafe: every key at every size draws a screen of the
// size (no panic, no overflow), with and without a snapshot.
func TestEveryKeyIsSafe(t *testing.T) {
	keys := []tea.KeyMsg{{Type: tea.KeyTab}, {Type: tea.KeyShiftTab}, {Type: tea.KeyDown}, {Type: tea.KeyUp}, {Type: tea.KeyPgDown}, {Type: tea.KeyPgUp},
		{Type: tea.KeyLeft}, {Type: tea.KeyRunes, Runes: []rune("?")}, {Type: tea.KeyRunes, Runes: []rune("x")}, {Type: tea.KeyRunes, Runes: []rune("j")}}
	for _, size := range [][2]int{{1, 1}, {20, 5}, {60, 20}, {80, 24}, {159, 40}, {160, 40}, {300, 100}} {
		for _, ok := range []bool{true, false} {
			m := model(t, size[0], size[1], func(context.Context, data.TP) (*data.Snapshot, error) {
				if !ok {
					return nil, context.DeadlineExceeded
				}
				return fixture(t), nil
			})
			for i := 0; i < 30; i++ {
				m.Update(keys[i%len(keys)])
				v := m.View()
				for _, l := range strings.Split(v, "\n") {
					if ansi.StringWidth(l) > size[0] {
						t.Fatalf("%dx%d: a line of %d cells", size[0], size[1], ansi.StringWidth(l))
					}
				}
			}
		}
	}
}
