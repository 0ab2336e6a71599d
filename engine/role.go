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
// network made). It costs one pass over the history.
func (w *World) MessageRoles() map[int64]Role {
	roles := map[int64]Role{}
	type key struct {
		kind          MsgKind
		client, about string
		n             int
	}
	requests := map[key]int{} // requests sent, by kind, client and about (n 0)
	seen := map[key]int{}     // messages of each role sent so far
	byCorr := map[int64]Role{}
	// last is the latest message of each correlation id, kind and
	// sender: what a copy the network makes copies.
	type route struct {
		corr int64
		kind MsgKind
		from string
	}
	last := map[route]int64{}
	for i := 0; i < w.events.len(); i++ {
		e := w.events.at(i)
		m := e.Message
		if m == nil {
			continue
		}
		var r Role
		switch {
		case e.Kind == EvSend && !m.Kind.IsResponse():
			r = Role{Kind: m.Kind, Client: m.From, About: roleAbout(m.Body)}
			k := key{kind: m.Kind, client: r.Client, about: r.About}
			requests[k]++
			r.N = requests[k]
			if _, ok := byCorr[m.Corr]; !ok {
				byCorr[m.Corr] = r
			}
		case e.Kind == EvSend:
			req, ok := byCorr[m.Corr]
			if !ok {
				req = Role{Kind: m.Kind - 1, Client: m.To, About: roleAbout(m.Body)}
			}
			r = Role{Kind: m.Kind, Client: req.Client, About: req.About, N: req.N}
		case e.Kind == EvFault && e.Fault == FaultDuplicated:
			// The copy has the original's correlation id and kind; its
			// role is the original's, with the next Copy.
			orig, ok := roles[last[route{m.Corr, m.Kind, m.From}]]
			if !ok {
				continue
			}
			r = orig
		default:
			continue
		}
		k := key{kind: r.Kind, client: r.Client, about: r.About, n: r.N}
		r.Copy = seen[k]
		seen[k]++
		roles[m.ID] = r
		last[route{m.Corr, m.Kind, m.From}] = m.ID
	}
	return roles
}

// InFlightWithRole is the message in flight that has role r, if any.
func (w *World) InFlightWithRole(r Role) (*Message, bool) {
	roles := w.MessageRoles()
	for _, m := range w.InFlight() {
		if got, ok := roles[m.ID]; ok && got == r {
			return m, true
		}
	}
	return nil, false
}
