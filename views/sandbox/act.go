package sandbox

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eoslab/eoslab/views/internal/keyset"
	"github.com/eoslab/eoslab/views/model"
	"github.com/eoslab/eoslab/views/theme"
)

// What the sandbox keys do: each action is one Op for the session.

// verb is the word the aiming prompt uses for a broker fault.
func verb(k model.OpKind) string {
	if k == model.OpRestart {
		return "restart"
	}
	return "crash"
}

func (s *Model) brokers() int {
	if s.sess == nil {
		return 0
	}
	return s.sess.Brokers()
}

func (s *Model) current() (model.SandboxClient, bool) {
	if s.client < len(s.clients) {
		return s.clients[s.client], true
	}
	return model.SandboxClient{}, false
}

func (s *Model) clientName() string {
	if c, ok := s.current(); ok {
		return c.Name
	}
	return "(none)"
}

func (s *Model) selected() (model.WaitItem, bool) {
	if s.sel < len(s.waiting) {
		return s.waiting[s.sel], true
	}
	s.say(theme.Muted, "nothing is waiting: send something (s) or step (n)")
	return model.WaitItem{}, false
}

// fault drops, duplicates, delays or reorders the selected message.
func (s *Model) fault(km tea.KeyMsg) {
	it, ok := s.selected()
	if !ok {
		return
	}
	if it.Timer {
		s.say(theme.Muted, "a timer is not a message: only messages can be dropped, duplicated, delayed or swapped")
		return
	}
	k := s.keys
	switch {
	case is(km, k.Drop):
		s.do(model.Op{Kind: model.OpDrop, Msg: it.ID})
	case is(km, k.Duplicate):
		s.do(model.Op{Kind: model.OpDuplicate, Msg: it.ID})
	case is(km, k.Delay):
		s.do(model.Op{Kind: model.OpDelay, Msg: it.ID, Ms: 5000})
	case is(km, k.Reorder):
		for _, o := range s.waiting[s.sel+1:] {
			if !o.Timer {
				s.do(model.Op{Kind: model.OpReorder, Msg: it.ID, Other: o.ID})
				return
			}
		}
		s.say(theme.Muted, "no later message to swap it with")
	}
}

// callKey is a call key and the client kind whose call it is.
type callKey struct {
	b    key.Binding
	c    model.ClientCall
	kind model.ClientKind
}

func (s *Model) callKeys() []callKey {
	k := s.keys
	p := model.ClientProducer
	return []callKey{{k.Init, model.CallInit, p}, {k.Begin, model.CallBegin, p}, {k.Send, model.CallSend, p},
		{k.SendOffsets, model.CallSendOffsets, p}, {k.Commit, model.CallCommit, p}, {k.Abort, model.CallAbort, p},
		{k.Poll, model.CallPoll, model.ClientConsumer}, {k.Process, model.CallProcess, model.ClientProcessor}}
}

// callsHelp is what the keys make client c call: "s makes P call send,
// i initTransactions" (at most most, the most used first). A producer
// without a transactional.id is offered send only: Kafka's
// KafkaProducer refuses the transactional calls there
// (KafkaProducer.throwIfNoTransactionManager).
func (s *Model) callsHelp(c model.SandboxClient, most int) string {
	var ks []key.Binding
	for _, x := range s.callKeys() {
		if x.kind != c.Kind {
			continue
		}
		if c.Kind == model.ClientProducer && !c.Transactional && x.c != model.CallSend {
			continue
		}
		ks = append(ks, x.b)
	}
	if c.Kind == model.ClientProducer && len(ks) > 2 {
		ks = []key.Binding{ks[2], ks[0]} // send, initTransactions
	}
	ks = ks[:min(len(ks), most)]
	var out []string
	for i, b := range ks {
		if i == 0 {
			out = append(out, b.Help().Key+" makes "+c.Name+" call "+b.Help().Desc)
		} else {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return strings.Join(out, ", ")
}

// waitingHint names what the selected client's keys make it call.
func (s *Model) waitingHint() string {
	c, ok := s.current()
	if !ok {
		return "There is no client yet"
	}
	return s.callsHelp(c, 2)
}

// call makes the current client call the method of the key; a key of
// another kind's call is refused here, naming the keys this client has
// (the engine's refusal cites a setup line the sandbox does not show).
func (s *Model) call(km tea.KeyMsg) {
	c, ok := s.current()
	if !ok {
		s.say(theme.Muted, "no client")
		return
	}
	for _, x := range s.callKeys() {
		if is(km, x.b) {
			if x.kind != c.Kind {
				// One call named, so the line fits 80 columns.
				first := s.callsHelp(c, 1)
				s.say(theme.Muted, c.Name+" is a "+c.Kind.String()+" and has no "+x.b.Help().Desc+" call: "+
					first+"; "+s.keys.NextClient.Help().Key+" next client")
				return
			}
			s.do(model.Op{Kind: model.OpCall, Client: c.Name, Call: x.c})
			return
		}
	}
}

func (s *Model) aimKey(km tea.KeyMsg) {
	s.mode = modeActing
	op := model.Op{Kind: s.target}
	switch r := km.String(); {
	case is(km, s.keys.Cancel):
		s.flash = ""
		return
	case is(km, s.keys.AimCoordinator):
		op.Coordinator = true
	case is(km, s.keys.AimClient):
		op.Client = s.clientName()
	case keyset.Digit(km, s.keys.Digits) > 0:
		op.Broker = keyset.Digit(km, s.keys.Digits)
		if op.Broker > s.brokers() {
			s.say(theme.Violated, "there is no broker-"+r+": the cluster has "+strconv.Itoa(s.brokers()))
			return
		}
	default:
		s.say(theme.Muted, verb(s.target)+" cancelled: "+r+" is not 1-"+strconv.Itoa(s.brokers())+", k or c")
		return
	}
	s.do(op)
}

// do applies one op and shows its line.
func (s *Model) do(op model.Op) {
	before := len(s.branches)
	line, err := s.sess.Do(op)
	if err != nil {
		s.say(theme.Violated, err.Error())
		return
	}
	s.refresh()
	if len(s.sess.Problems()) > 0 {
		return
	}
	msg := "ran: " + line
	if len(s.branches) > before {
		msg += "  (a new branch: " + s.branches[len(s.branches)-1].Name + "; B lists them)"
	}
	s.say(theme.Changed, msg)
}

func (s *Model) seek(k int) {
	if k < 0 || k > s.sess.Len() {
		if k < 0 {
			s.say(theme.Muted, "this is the setup: nothing before it")
		} else {
			s.say(theme.Muted, "this is the end of the branch: act to go on")
		}
		return
	}
	s.sess.Seek(k)
	s.refresh()
}

func (s *Model) toggle(id model.SafeguardID) {
	msg, err := s.sess.Toggle(id)
	if err != nil {
		s.say(theme.Violated, err.Error())
		return
	}
	s.refresh()
	s.say(theme.Changed, msg)
}

func (s *Model) save() tea.Cmd {
	if s.opts.Save == nil {
		s.say(theme.Muted, "saving is switched off here; the prompt's lines are the session")
		return nil
	}
	text, lens := s.scenarioFile()
	name, save := s.sess.SaveName(), s.opts.Save
	s.say(theme.Accent, "saving...")
	return func() tea.Msg {
		p, err := save(name, text)
		return SavedMsg{Path: p, Err: err, lens: lens}
	}
}
