package engine

import (
	"strconv"
	"strings"
)

// Role names a message by what it is for, not by its number: the Produce
// of record p1 to t-0 that P sent first, the answer to it, A's second
// EndTxn. Two worlds set up alike but for one setting number their
// messages differently (without idempotence no InitProducerId is sent, so
// every later message has another number), and a role is what lets an
// action on a message in one be replayed on the same message in the
// other, or be found to have no counterpart there.
type Role struct {
	// Kind is the message's kind.
	Kind MsgKind
	// Client is whose exchange it is: a request's sender, the sender of
	// the request a response answers.
	Client string
	// About is what the request says that tells it from the client's
	// other requests of its kind: a Produce's partition and values, an
	// EndTxn's commit or abort, the partitions of an AddPartitionsToTxn
	// or of markers, the group of an offset commit, the key a
	// FindCoordinator looks up.
	About string
	// N counts the client's requests of this kind and About, from 1: a
	// retry of the same batch is the next N. A response has its
	// request's N.
	N int
	// Copy counts the earlier messages of the same role: a copy the
	// network made with duplicate, or a second answer to a request that
	// arrived twice, is Copy 1.
	Copy int
}

// String is the role in words: "P's Produce of p1 to t-0",
// "ProduceResponse to P's Produce of p1 to t-0 (retry 2)", "A's EndTxn
// commit (2nd)".
func (r Role) String() string {
	var b strings.Builder
	req := r.Kind
	if r.Kind.IsResponse() {
		req = r.Kind - 1
		b.WriteString(r.Kind.String() + " to ")
	}
	b.WriteString(r.Client + "'s " + req.String())
	if r.About != "" {
		b.WriteString(" " + r.About)
	}
	if r.N > 1 {
		b.WriteString(" (" + ordinal(r.N) + ")")
	}
	if r.Copy > 0 {
		b.WriteString(", copy " + strconv.Itoa(r.Copy))
	}
	return b.String()
}

func ordinal(n int) string {
	s := strconv.Itoa(n)
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

// roleAbout is what tells a request from the client's other requests of
// its kind.
func roleAbout(b Body) string {
	tps := func(ps []TP) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.String()
		}
		return strings.Join(out, ",")
	}
	switch b := b.(type) {
	case *ProduceRequest:
		var vals []string
		for _, bt := range b.Batches {
			for i := 0; i < bt.Records.Len(); i++ {
				vals = append(vals, bt.Records.Value(i))
			}
		}
		return "of " + strings.Join(vals, ",") + " to " + b.TP.String()
	case *EndTxnRequest:
		if b.Commit {
			return "commit"
		}
		return "abort"
	case *FindCoordinatorRequest:
		return b.Key
	case *AddOffsetsToTxnRequest:
		return b.GroupID
	case *TxnOffsetCommitRequest:
		return b.GroupID
	case *OffsetCommitRequest:
		return b.GroupID
	case *WriteTxnMarkersRequest:
		return b.Result.String() + " " + tps(b.Partitions)
	case nil:
		return ""
	}
	return tps(b.About())
}

// MessageRoles is the role of every message the world has sent, by
// message id, read from the event history (each send, each copy the
// network made). It costs one pass over the history; a RoleIndex follows
// a line of worlds at the cost of their new events only.
func (w *World) MessageRoles() map[int64]Role {
	ix := NewRoleIndex()
	ix.Update(w)
	return ix.Roles
}

// RoleIndex is the roles of the messages of a line of worlds, each a
// later step of the one before (a lesson's or a sandbox branch's
// positions): Update reads only the events since the last world it read.
// A role, once a message is sent, never changes.
type RoleIndex struct {
	// Roles is every message's role, by id.
	Roles    map[int64]Role
	read     int                 // the events read
	requests map[roleKey]int     // requests sent, by kind, client and about (n 0)
	seen     map[roleKey]int     // messages of each role sent so far
	byCorr   map[int64]Role      // each request's role, by its correlation id
	last     map[roleRoute]int64 // the latest message of each route: what a copy copies
}

type roleKey struct {
	kind          MsgKind
	client, about string
	n             int
}

// roleRoute is a message's correlation id, kind and sender.
type roleRoute struct {
	corr int64
	kind MsgKind
	from string
}

// NewRoleIndex starts an index that has read nothing.
func NewRoleIndex() *RoleIndex {
	return &RoleIndex{Roles: map[int64]Role{}, requests: map[roleKey]int{}, seen: map[roleKey]int{},
		byCorr: map[int64]Role{}, last: map[roleRoute]int64{}}
}

// Update reads w's events since the last world read; w must have grown
// from that world (a world with a shorter history starts the index over).
func (ix *RoleIndex) Update(w *World) {
	if w.events.len() < ix.read {
		*ix = *NewRoleIndex()
	}
	for ; ix.read < w.events.len(); ix.read++ {
		e := w.events.at(ix.read)
		if m := e.Message; m != nil {
			ix.add(&e, m)
		}
	}
}

func (ix *RoleIndex) add(e *Event, m *Message) {
	var r Role
	switch {
	case e.Kind == EvSend && !m.Kind.IsResponse():
		r = Role{Kind: m.Kind, Client: m.From, About: roleAbout(m.Body)}
		k := roleKey{kind: m.Kind, client: r.Client, about: r.About}
		ix.requests[k]++
		r.N = ix.requests[k]
		if _, ok := ix.byCorr[m.Corr]; !ok {
			ix.byCorr[m.Corr] = r
		}
	case e.Kind == EvSend:
		req, ok := ix.byCorr[m.Corr]
		if !ok {
			req = Role{Kind: m.Kind - 1, Client: m.To, About: roleAbout(m.Body)}
		}
		r = Role{Kind: m.Kind, Client: req.Client, About: req.About, N: req.N}
	case e.Kind == EvFault && e.Fault == FaultDuplicated:
		// The copy has the original's correlation id and kind; its role
		// is the original's, with the next Copy.
		orig, ok := ix.Roles[ix.last[roleRoute{m.Corr, m.Kind, m.From}]]
		if !ok {
			return
		}
		r = orig
	default:
		return
	}
	k := roleKey{kind: r.Kind, client: r.Client, about: r.About, n: r.N}
	r.Copy = ix.seen[k]
	ix.seen[k]++
	ix.Roles[m.ID] = r
	ix.last[roleRoute{m.Corr, m.Kind, m.From}] = m.ID
}
