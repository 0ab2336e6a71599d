package adapt

import (
	"errors"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/views/model"
)

// The ops of the sandbox keys, each turned into one engine action.

// Do turns a typed op into its engine action and applies it as a line.
func (x *Sandbox) Do(op model.Op) (string, error) {
	a, err := x.action(op)
	if err != nil {
		return "", err
	}
	line := a.String()
	_, err = x.Exec(line)
	return line, err
}

func sel(id int64) engine.Selector { return engine.Selector{ID: id} }

// action is the engine action an op means.
func (x *Sandbox) action(op model.Op) (engine.Action, error) {
	switch op.Kind {
	case model.OpDeliver:
		return engine.Deliver{Msg: sel(op.Msg)}, nil
	case model.OpDrop:
		return engine.Drop{Msg: sel(op.Msg)}, nil
	case model.OpDuplicate:
		return engine.Duplicate{Msg: sel(op.Msg)}, nil
	case model.OpDelay:
		return engine.Delay{Msg: sel(op.Msg), Ms: op.Ms}, nil
	case model.OpReorder:
		return engine.Reorder{First: sel(op.Msg), Second: sel(op.Other)}, nil
	case model.OpAdvance:
		return engine.Advance{Ms: max(op.Ms, 1)}, nil
	case model.OpStep:
		return engine.Step{}, nil
	case model.OpRun:
		return engine.Run{}, nil
	case model.OpCrash, model.OpRestart:
		t, err := x.target(op)
		if err != nil {
			return nil, err
		}
		if op.Kind == model.OpCrash {
			return engine.Crash{Target: t}, nil
		}
		return engine.Restart{Target: t}, nil
	case model.OpPause:
		return engine.Pause{Client: op.Client}, nil
	case model.OpResume:
		return engine.Resume{Client: op.Client}, nil
	case model.OpCall:
		return x.call(op)
	}
	return nil, errors.New("unknown sandbox action")
}

// target is the broker or client a crash or restart is about; the
// coordinator is the broker leading the first transactional id's
// __transaction_state partition.
func (x *Sandbox) target(op model.Op) (engine.Target, error) {
	if op.Client != "" {
		return engine.Target{Client: op.Client}, nil
	}
	if !op.Coordinator {
		return engine.Target{Broker: op.Broker}, nil
	}
	w := x.world()
	for _, p := range w.AllProducers() {
		if id := p.Config.TransactionalID; id != "" {
			if info := w.TxnInfo(id); info.Broker > 0 {
				return engine.Target{Broker: info.Broker}, nil
			}
		}
	}
	return engine.Target{}, errors.New("no transaction coordinator yet: a transactional producer finds its coordinator with initTransactions")
}

// callMethods are the calls without arguments, as the engine's methods.
var callMethods = map[model.ClientCall]engine.Method{
	model.CallInit:    engine.CallInitTransactions,
	model.CallBegin:   engine.CallBeginTransaction,
	model.CallCommit:  engine.CallCommitTransaction,
	model.CallAbort:   engine.CallAbortTransaction,
	model.CallPoll:    engine.CallPoll,
	model.CallProcess: engine.CallProcess,
}

// call is a client call from the keys: send writes the next value to the
// first partition of the client's first topic; sendOffsetsToTransaction
// sends the positions of the consumer of a group.
func (x *Sandbox) call(op model.Op) (engine.Action, error) {
	w := x.world()
	c := op.Client
	if m, ok := callMethods[op.Call]; ok {
		return engine.Call{Client: c, Method: m}, nil
	}
	switch op.Call {
	case model.CallSend:
		if len(w.Topics()) == 0 {
			return nil, errors.New("no topic to send to")
		}
		// The values count the client's sends: a1, a2, ...
		n := x.sendsBefore(c) + 1
		return engine.Send{Client: c, TP: engine.TP{Topic: w.Topics()[0].Name}, Values: []string{strings.ToLower(c) + strconv.Itoa(n)}}, nil
	case model.CallSendOffsets:
		for _, k := range w.Consumers() {
			if k.GroupID == "" {
				continue
			}
			info, _ := w.ConsumerInfo(k.Name)
			if len(info.Positions) == 0 {
				return nil, errors.New(k.Name + " has no positions yet: poll first")
			}
			return engine.SendOffsets{Client: c, Group: k.GroupID, Offsets: info.Positions, Generation: -1, Consumer: k.Name}, nil
		}
		return nil, errors.New("no consumer with a group.id: write sendOffsetsToTransaction at the prompt")
	}
	return nil, errors.New("unknown call")
}
