package serve

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"time"
)

// Keeper keeps a class across restarts of the server: main.go gives one
// on the state directory (progress.StateFile), so this package touches
// no file.
type Keeper interface {
	// Load returns the kept class, or nil with no error when there is none.
	Load() ([]byte, error)
	Save([]byte) error
}

// Exporter is a Keeper that can also write the class's summary as a
// plain file, for the presenter's e; it says where.
type Exporter interface {
	Export(text string) (where string, err error)
}

// Codes are a class's codes: what students and the presenter type.
type Codes struct {
	Class, Presenter string
}

// keptClass is the file a Keeper holds. The world of each lesson is its
// presenter's moves since it opened or restarted, replayed on restore:
// the engine is deterministic, so the same moves make the same world.
type keptClass struct {
	Version int       `json:"version"`
	Saved   time.Time `json:"saved"`
	// Start is the server's --lesson ("" for the presenter's pick): a
	// class kept for another lesson is not resumed.
	Start     string            `json:"start"`
	Codes     Codes             `json:"codes"`
	Current   string            `json:"current"`
	Lessons   []keptLesson      `json:"lessons"`
	SeatCodes map[string]string `json:"seat_codes"` // seat -> sha256 of its code, hex
}

type keptLesson struct {
	Name     string                 `json:"name"`
	Moves    []MoveKind             `json:"moves"`
	Answers  map[int]map[string]int `json:"answers"`
	Revealed map[int]int            `json:"revealed"`
	Reveals  int                    `json:"reveals"`
}

const keptVersion = 1

// keeper saves a class and restores it.
type keeper struct {
	k       Keeper
	start   string
	within  time.Duration
	now     func() time.Time
	onError func(error)
}

// restore fills st from the kept class, if one was saved within k.within
// for the same start lesson; codes become the kept ones.
func (k *keeper) restore(st *classState, start string, codes *Codes) (bool, error) {
	b, err := k.k.Load()
	if err != nil || b == nil {
		if err != nil {
			k.onError(err)
		}
		return false, nil
	}
	var kc keptClass
	if err := json.Unmarshal(b, &kc); err != nil {
		where := "the kept class"
		if n, ok := k.k.(fmt.Stringer); ok {
			// A Keeper on a file names it, so the operator can look.
			where = n.String()
		}
		k.onError(fmt.Errorf("%s: %v; starting afresh", where, err))
		return false, nil
	}
	if kc.Version != keptVersion || kc.Start != start || k.now().Sub(kc.Saved) > k.within || kc.Codes.Class == "" {
		return false, nil
	}
	for _, kl := range kc.Lessons {
		if err := st.open(kl.Name); err != nil {
			k.onError(fmt.Errorf("the kept class's lesson %s: %v; starting afresh", kl.Name, err))
			return false, nil
		}
		for _, m := range kl.Moves {
			st.move(Move{Kind: m})
		}
		ls := st.cur
		for step, a := range kl.Answers {
			ls.answers[step] = maps.Clone(a)
		}
		maps.Copy(ls.revealed, kl.Revealed)
		ls.reveals = kl.Reveals
	}
	if ls, ok := st.lessons[kc.Current]; ok {
		st.cur = ls
	}
	for seat, h := range kc.SeatCodes {
		var sum [32]byte
		if b, err := hex.DecodeString(h); err == nil && len(b) == len(sum) {
			copy(sum[:], b)
			st.seats[seat] = sum
		}
	}
	*codes = kc.Codes
	return true, nil
}

// snapshot is st as a Keeper keeps it; run on the class's goroutine.
func (k *keeper) snapshot(st *classState) []byte {
	kc := keptClass{Version: keptVersion, Saved: k.now().UTC(), Start: k.start, Codes: st.codes, SeatCodes: map[string]string{}}
	if st.cur != nil {
		kc.Current = st.cur.name
	}
	for g := 1; g <= st.gens; g++ {
		for _, ls := range st.lessons {
			if ls.gen == g {
				kc.Lessons = append(kc.Lessons, keptLesson{Name: ls.name, Moves: ls.moves, Answers: ls.answers, Revealed: ls.revealed, Reveals: ls.reveals})
			}
		}
	}
	for seat, h := range st.seats {
		kc.SeatCodes[seat] = hex.EncodeToString(h[:])
	}
	b, _ := json.Marshal(kc) // plain values: it cannot fail
	return b
}

// keep saves the class after each change, on its own goroutine so that
// the class never waits for a disk: changes that come while a save runs
// are kept by the next one. It ends when dirty closes, after a last save.
func (c *Class) keep(k *keeper, dirty chan struct{}) {
	defer close(c.saved)
	for range dirty {
		var b []byte
		if !c.do(func(st *classState) { b = k.snapshot(st) }) {
			return
		}
		if err := k.k.Save(b); err != nil {
			k.onError(err)
		}
	}
}
