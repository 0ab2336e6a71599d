package engine

import (
	"math/rand"
	"os"
	"strconv"
	"testing"
)

func TestTmpTrace(t *testing.T) {
	seed, _ := strconv.Atoi(os.Getenv("SEED"))
	f, _ := os.Create(os.Getenv("TRACEOUT"))
	defer f.Close()
	s := safeSetup
	w := New(DefaultConfig())
	for _, line := range s.setup {
		w.Apply(mustAction(line))
	}
	r := rand.New(rand.NewSource(int64(seed)))
	for i := 0; i < 500; i++ {
		w.Apply(mustAction(randomAction(w, r, s, i)))
	}
	for _, e := range w.Events {
		f.WriteString(e.Line() + "\n")
	}
}
