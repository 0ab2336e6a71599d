package adapt_test

import (
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/internal/viewtest"
	"github.com/eoslab/eoslab/views/model"
)

// The size of TestTUIRandomKeysEveryScreen: plain go test runs a few
// seconds of it; .ci/run runs the marathon by name with larger values.
var (
	tuiSeeds = flag.String("tuikeys.seeds", "1,2", "comma-separated seeds of TestTUIRandomKeysEveryScreen")
	tuiKeys  = flag.Int("tuikeys.n", 150, "random keys per start and seed in TestTUIRandomKeysEveryScreen")
)

// tuiKey is a key as the terminal sends it, with the name a failure prints.
type tuiKey struct {
	name string
	msg  tea.KeyMsg
}

func tuiKeyPool() []tuiKey {
	var pool []tuiKey
	add := func(name string, m tea.KeyMsg) { pool = append(pool, tuiKey{name, m}) }
	for _, r := range "abcdefghijklmnopqrstuvwxyzBGNRSW0123456789?/:<>-+=[]., " {
		add(string(r), viewtest.Key(string(r)))
	}
	for _, r := range "dfb" {
		add("alt+"+string(r), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: true})
	}
	for _, k := range []tea.KeyType{tea.KeyEnter, tea.KeyEsc, tea.KeyTab, tea.KeyShiftTab, tea.KeyUp, tea.KeyDown,
		tea.KeyLeft, tea.KeyRight, tea.KeyPgUp, tea.KeyPgDown, tea.KeyHome, tea.KeyEnd, tea.KeyBackspace, tea.KeyDelete,
		tea.KeyCtrlW, tea.KeyCtrlK, tea.KeyCtrlU, tea.KeyCtrlN, tea.KeyCtrlP} {
		m := tea.KeyMsg{Type: k}
		add(m.String(), m)
	}
	add("alt+delete", tea.KeyMsg{Type: tea.KeyDelete, Alt: true})
	add("alt+backspace", tea.KeyMsg{Type: tea.KeyBackspace, Alt: true})
	// The keys that move between screens, more often.
	for _, s := range []string{"enter", "esc", "s", "i", "?", "d", ":", "B", "q", "1", "2"} {
		add(s, viewtest.Key(s))
	}
	return pool
}

// tuiStart is where a run starts: the home screen, a lesson, the drill,
// or the sandbox's presets (s on the home screen).
type tuiStart struct {
	name string
	opts views.Options
	keys []string
}

func tuiStarts() []tuiStart {
	base := views.Options{
		SandboxPresets: adapt.SandboxPresets(),
		OpenSandbox:    func(name string) (model.SandboxSession, error) { return adapt.OpenSandbox(name) },
		SaveFile:       func(name string, _ []byte) (string, error) { return name, nil },
		NewDrill:       func(kafka int) (model.Drill, error) { return adapt.NewDrillFor(7, 5, kafka) },
	}
	starts := []tuiStart{{name: "home", opts: base}, {name: "sandbox", opts: base, keys: []string{"s"}}}
	d := base
	d.StartDrill = true
	starts = append(starts, tuiStart{name: "drill", opts: d})
	for _, l := range adapt.Lessons() {
		o := base
		o.StartLesson = l.Name
		starts = append(starts, tuiStart{name: "lesson " + l.Name, opts: o})
	}
	return starts
}

// every screen the random keys must reach.
var tuiScreens = []string{"home", "home filter", "home help", "player", "player help", "player details", "drill",
	"sandbox presets", "sandbox", "sandbox prompt", "sandbox help", "sandbox branches"}

// TestTUIRandomKeysEveryScreen drives the app over the real lessons, the
// drill and the sandbox with seeded random keys and resizes from 1x1 to
// 400x120, from every start. A panic fails with the seed and the key
// sequence; so does a key that does not return (a hang), after a bound
// that only turns a hang into a failure. Every screen must be reached.
func TestTUIRandomKeysEveryScreen(t *testing.T) {
	t.Parallel()
	pool := tuiKeyPool()
	seen := map[string]bool{}
	for _, f := range strings.Split(*tuiSeeds, ",") {
		seed, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			t.Fatalf("-tuikeys.seeds: %v", err)
		}
		for _, st := range tuiStarts() {
			tuiRun(t, pool, st, seed, *tuiKeys, seen)
		}
	}
	var missed []string
	for _, s := range tuiScreens {
		if !seen[s] {
			missed = append(missed, s)
		}
	}
	if len(missed) > 0 {
		t.Errorf("the random keys never reached: %s (reached: %v)", strings.Join(missed, ", "), slices.Sorted(mapKeys(seen)))
	}
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func tuiRun(t *testing.T, pool []tuiKey, st tuiStart, seed int64, n int, seen map[string]bool) {
	r := rand.New(rand.NewSource(seed*1000 + int64(len(st.name))))
	var mu sync.Mutex
	var done []string
	sequence := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(done, " ")
	}
	where := func() string {
		return fmt.Sprintf("start %q, seed %d (replay: go test ./views/adapt -run TestTUIRandomKeysEveryScreen -tuikeys.seeds %d -tuikeys.n %d); keys: %s",
			st.name, seed, seed, n, sequence())
	}
	// A bound on one key, so that a hang ends the run with the sequence
	// instead of the test binary's timeout; nothing is measured by it.
	watchdog := time.AfterFunc(2*time.Minute, func() { panic("a key did not return: " + where()) })
	defer watchdog.Stop()

	var m tea.Model = views.NewApp(adapt.Lessons(), adapt.Open, st.opts)
	w, h := 80, 24
	step := func(name string, msg tea.Msg) {
		mu.Lock()
		done = append(done, name)
		mu.Unlock()
		watchdog.Reset(2 * time.Minute)
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("panic: %v\n%s", p, where())
			}
		}()
		m, _ = m.Update(msg)
		viewtest.CheckScreen(t, m.View(), w, h, where())
		seen[m.(views.App).ScreenName()] = true
	}
	step("size:80x24", tea.WindowSizeMsg{Width: w, Height: h})
	for _, k := range st.keys {
		step(k, viewtest.Key(k))
	}
	sizes := [][2]int{{1, 1}, {400, 120}, {80, 24}, {60, 20}, {200, 60}, {2, 50}, {400, 3}}
	for i := 0; i < n; i++ {
		if r.Intn(25) == 0 {
			if r.Intn(2) == 0 {
				sz := sizes[r.Intn(len(sizes))]
				w, h = sz[0], sz[1]
			} else {
				w, h = 1+r.Intn(400), 1+r.Intn(120)
			}
			step(fmt.Sprintf("size:%dx%d", w, h), tea.WindowSizeMsg{Width: w, Height: h})
			continue
		}
		k := pool[r.Intn(len(pool))]
		step(k.name, k.msg)
	}
}
