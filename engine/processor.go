package engine

// OffsetsMode is where a processor commits its consumed offsets.
type OffsetsMode uint8

// Offsets modes: inside the transaction (exactly once), or outside it with
// a plain OffsetCommit before or after the commit (safeguard off).
const (
	OffsetsInTransaction OffsetsMode = iota
	OffsetsBefore
	OffsetsAfter
)

var offsetsModeNames = [...]string{"transaction", "before", "after"}

func (m OffsetsMode) String() string { return offsetsModeNames[m] }

type procStage uint8

const (
	procIdle procStage = iota
	procInit
	procPolling
	procCommitting
	procAborting
)

// Processor is a consume-transform-produce application: a read_committed
// consumer in a group and a transactional producer. Each `process` runs one
// loop: poll, begin, send one output per input, commit offsets (where its
// mode says), commit.
type Processor struct {
	Name     string
	Input    string
	Output   string
	Mode     OffsetsMode
	Consumer *Consumer
	Producer *Producer
	Stage    procStage
	Consumed int // index into Consumer.Received already turned into output
	Loops    int
}

// Processor finds a processor by name.
func (w *World) Processor(name string) *Processor {
	_, pr := w.namedProducer(name)
	return pr
}

func (w *World) process(pr *Processor) {
	if pr.Producer.Crashed || pr.Producer.Paused {
		return
	}
	pr.Loops++
	switch pr.Stage {
	case procIdle:
		if pr.Producer.State == Uninitialized {
			w.callInitTransactions(pr.Producer)
			pr.Stage = procInit
			return
		}
		pr.Stage = procPolling
		w.poll(pr.Consumer)
	}
}

// runProcessor moves the loop on when the parts it waits for are done.
func (w *World) runProcessor(pr *Processor) {
	p, c := pr.Producer, pr.Consumer
	if p.Crashed || p.Paused {
		return
	}
	switch pr.Stage {
	case procInit:
		if p.State == Ready {
			pr.Stage = procPolling
			w.poll(c)
		}
	case procPolling:
		if len(c.InFlight) > 0 {
			return
		}
		inputs := c.Received[pr.Consumed:]
		if len(inputs) == 0 {
			pr.Stage = procIdle
			return
		}
		pr.Consumed = len(c.Received)
		out, _ := w.Topic(pr.Output)
		w.callBegin(p)
		for _, in := range inputs {
			tp := TP{Topic: pr.Output, Partition: in.TP.Partition % out.Partitions}
			w.sendRecords(p, tp, NewRecords(in.Value+"'").withSources([]Source{{TP: in.TP, Offset: in.Offset}}))
		}
		offsets := make([]TPOffset, 0, len(c.Positions))
		for _, pos := range c.Positions {
			if pos.Offset >= 0 {
				offsets = append(offsets, pos)
			}
		}
		switch pr.Mode {
		case OffsetsInTransaction:
			w.callSendOffsets(p, &OffsetsJob{Group: c.GroupID, Offsets: offsets, Generation: w.group(c.GroupID).Generation, Member: c.MemberID})
		case OffsetsBefore:
			w.commitSync(c, offsets)
		}
		w.callEnd(p, true)
		pr.Stage = procCommitting
	case procCommitting:
		switch p.State {
		case Ready:
			if pr.Mode == OffsetsAfter {
				offsets := make([]TPOffset, 0, len(c.Positions))
				for _, pos := range c.Positions {
					if pos.Offset >= 0 {
						offsets = append(offsets, pos)
					}
				}
				w.commitSync(c, offsets)
			}
			pr.Stage = procIdle
		case AbortableError:
			w.callEnd(p, false)
			pr.Stage = procAborting
		case FatalError:
			pr.Stage = procIdle
		}
	case procAborting:
		if p.State == FatalError {
			pr.Stage = procIdle
			return
		}
		// abortTransaction returns once the producer is READY again, after
		// the epoch bump when the abort needed one (ref 1.5).
		if p.State == Ready {
			// Rewind to the committed offsets: the aborted outputs will be made again.
			for i := range c.Positions {
				c.Positions[i].Offset = -1
			}
			pr.Consumed = len(c.Received)
			pr.Stage = procIdle
		}
	}
}
