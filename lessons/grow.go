package lessons

// The sandbox plays a lesson that grows as the learner acts: each action is
// one more step, appended at the end, and acting at an earlier position
// forks a new lesson that shares the steps before it.

// NewGrowingPlayer starts a player on a lesson of its own (a copy of l's
// step list), so that Append never writes into a lesson someone else holds.
func NewGrowingPlayer(l *Lesson) *Player {
	cp := *l
	cp.Steps = append([]Step(nil), l.Steps...)
	return NewPlayer(&cp)
}

// Append adds a step at the end of the lesson. The player stays where it
// is; Next then runs the new step.
func (p *Player) Append(s Step) {
	p.l.Steps = append(p.l.Steps, s)
	p.chosen = append(p.chosen, 0)
	p.correct = append(p.correct, 0)
}

// Fork returns a player of the same lesson cut after step k (0..Len),
// standing at k. It shares the worlds of positions 0..k-1 with p (they are
// read-only snapshots) and steps on from a copy of position k's world, so
// neither player ever sees the other's later steps.
func (p *Player) Fork(k int) *Player {
	k = max(0, min(k, len(p.l.Steps)))
	p.ensure(k)
	cp := *p.l
	cp.Steps = append([]Step(nil), p.l.Steps[:k]...)
	f := &Player{l: &cp, pos: k,
		chosen:  append([]int(nil), p.chosen[:k+1]...),
		correct: append([]int(nil), p.correct[:k+1]...)}
	f.snaps = append([]snapshot(nil), p.snaps[:k+1]...)
	f.snaps[k].world = f.snaps[k].world.Clone()
	return f
}

// Seek moves to position k (clamped to 0..Len), running the steps up to it
// if they have not run yet.
func (p *Player) Seek(k int) {
	k = max(0, min(k, len(p.l.Steps)))
	p.ensure(k)
	p.pos = k
}
