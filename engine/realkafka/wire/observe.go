package wire

import (
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Exchange is one request a client wrote, or one response the broker
// sent, as the wrapper carried it: what a broker run can show of the
// conversation (the api key and version, the producer id, epoch and base
// sequence a Produce carried, the error codes an answer gave).
type Exchange struct {
	// Req is the parsed request; for a response, the request it answers.
	Req kmsg.Request
	// Resp is the parsed response, nil for a request (or for a response
	// the wrapper could not parse: then Err says why).
	Resp kmsg.Response
	Err  error
	// Dropped: the wrapper swallowed the request (it never reached the
	// broker); Lost: the broker answered and the wrapper lost the answer
	// (the broker acted, the client never heard). Copy: the answer to a
	// duplicate's copy, which the client never asked for.
	Dropped, Lost, Copy bool
	// Unanswered: a request that gets no response (Produce acks=0).
	Unanswered bool
}

func (f *Faults) observeRequest(req kmsg.Request, rule *Rule, answered bool) {
	if f.Observe == nil {
		return
	}
	f.Observe(Exchange{Req: req, Dropped: rule != nil && rule.Action == Drop, Unanswered: !answered})
	if rule != nil && rule.Action == Duplicate && !rule.HoldCopy {
		// A held copy is seen when it is let go (latecopy.go).
		f.Observe(Exchange{Req: req, Copy: true, Unanswered: !answered})
	}
}

func (f *Faults) observeResponse(req kmsg.Request, frame []byte, rule *Rule, copy bool) {
	if f.Observe == nil {
		return
	}
	resp, err := ParseResponse(req, frame)
	f.Observe(Exchange{Req: req, Resp: resp, Err: err, Lost: rule != nil && rule.Action == Drop, Copy: copy})
}

// ParseResponse parses a whole response frame (the 4-byte size, the
// correlation id, the header's tagged fields for a flexible version,
// then the body) to the request req. ApiVersions answers with header v0
// at every version (KIP-511: the client may not know the broker's
// flexible versions yet).
func ParseResponse(req kmsg.Request, frame []byte) (kmsg.Response, error) {
	if len(frame) < 8 {
		return nil, errors.New("wire: response shorter than its header")
	}
	at := 8
	if req.IsFlexible() && req.Key() != int16(kmsg.ApiVersions) {
		end, err := skipTags(frame, at)
		if err != nil {
			return nil, err
		}
		at = end
	}
	resp := req.ResponseKind()
	resp.SetVersion(req.GetVersion())
	if err := resp.ReadFrom(frame[at:]); err != nil {
		return nil, fmt.Errorf("wire: %s v%d response: %w", kmsg.NameForKey(req.Key()), req.GetVersion(), err)
	}
	return resp, nil
}
