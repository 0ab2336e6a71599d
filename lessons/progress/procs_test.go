package progress

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestMain lets the test binary be one of several eoslab processes sharing
// a progress directory (TestProcessesAtOnceKeepEveryUpdate).
func TestMain(m *testing.M) {
	if dir := os.Getenv("EOSLAB_PROGRESS_WORKER_DIR"); dir != "" {
		id, _ := strconv.Atoi(os.Getenv("EOSLAB_PROGRESS_WORKER_ID"))
		worker(dir, id)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const workerChanges = 12

// worker is one process: it finishes lessons of its own, moves through a
// shared lesson, answers checkpoints of it and records drills, each change
// written as it is made; odd workers write in the background, as the TUI
// does.
func worker(dir string, id int) {
	s := Open(Options{Dir: dir, Background: id%2 == 1})
	for k := 0; k < workerChanges; k++ {
		s.Reached(fmt.Sprintf("w%d-l%d", id, k), 5, 5)
		s.Answered("shared", id*100+k+1, 1+k%3, k%2 == 0)
		s.DrillDone(Drill{Seed: uint64(id*1000 + k), Right: k % 4, Total: 4})
		s.ReachedUnder(fmt.Sprintf("w%d-mid", id), k+1, 50, 3+k%2)
	}
	s.Close()
	if n := s.Notice(); n != "" {
		fmt.Fprintln(os.Stderr, n)
		os.Exit(1)
	}
}

// TestProcessesAtOnceKeepEveryUpdate runs several processes at once on one
// progress file: every lesson finished, every answer, every drill and
// every place any of them recorded is in the file at the end.
func TestProcessesAtOnceKeepEveryUpdate(t *testing.T) {
	const procs = 4 // 4 x 12 drills: under MaxDrills, so none is dropped
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for id := 1; id <= procs; id++ {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), "EOSLAB_PROGRESS_WORKER_DIR="+dir, "EOSLAB_PROGRESS_WORKER_ID="+strconv.Itoa(id))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("a worker: %v", err)
		}
	}
	d := Open(Options{Dir: dir}).Data()
	seeds := map[uint64]bool{}
	for _, dr := range d.Drills {
		seeds[dr.Seed] = true
	}
	for id := 1; id <= procs; id++ {
		for k := 0; k < workerChanges; k++ {
			if l := d.Lessons[fmt.Sprintf("w%d-l%d", id, k)]; l == nil || !l.Finished {
				t.Errorf("worker %d's lesson %d is not finished: %+v", id, k, l)
			}
			if a, ok := d.Lessons["shared"].Answers[id*100+k+1]; !ok || a.Choice != 1+k%3 {
				t.Errorf("worker %d's answer %d is lost", id, k)
			}
			if !seeds[uint64(id*1000+k)] {
				t.Errorf("worker %d's drill %d is lost", id, k)
			}
		}
		if l := d.Lessons[fmt.Sprintf("w%d-mid", id)]; l == nil || l.Step != workerChanges || l.Kafka != 3+(workerChanges-1)%2 {
			t.Errorf("worker %d's place: %+v", id, l)
		}
	}
	if len(d.Drills) != procs*workerChanges {
		t.Errorf("%d drills, want %d", len(d.Drills), procs*workerChanges)
	}
}
