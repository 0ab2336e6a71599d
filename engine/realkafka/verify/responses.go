package verify

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
)

// responseFact compares `expect response KIND to=CLIENT [partition=]
// [error=] [baseOffset=] [pid=] [epoch=]` with the newest answer of that
// kind the fault wrapper handed the client (not one it lost, nor the
// answer to a duplicate's copy): the simulation's check reads the newest
// delivered response of the kind too. It is compared only where the two
// runs' conversations are alike (the same number of requests of each kind
// from each client, none lost with a connection), so that the newest
// answer on both sides is the answer to the same request.
func (d *driver) responseFact(x script.ResponseCheck, w *engine.World) (bool, string, string) {
	switch {
	case x.Msg.ID > 0:
		return false, "", "a response named by its message id: the broker run's messages are not numbered as the simulation's"
	case x.To == "" || strings.HasPrefix(x.To, "broker-"):
		return false, "", "a response not addressed to a client of the file: the wrapper sits on the clients' connections"
	case x.From != "" && !strings.HasPrefix(x.From, "broker-"):
		return false, "", "a response from a client"
	}
	name, _ := strings.CutSuffix(x.Msg.Kind, "Response")
	key, ok := keys[name]
	if !ok {
		return false, "", x.Msg.Kind + " has no wire mapping"
	}
	if why := d.skippedAnswer(x.To, x.Msg.Kind); why != "" { // refused.go
		return false, "", why
	}
	if client, n := d.lostWithConnection(); client != "" {
		return false, "", fmt.Sprintf("%d requests of %s died with a connection the wrapper closed: the newest answer is not the simulation's", n, client)
	}
	if why := d.conversationDiffers(w); why != "" {
		return false, "", why
	}
	xs := d.obs.exchanges()
	for i := len(xs) - 1; i >= 0; i-- {
		o := xs[i]
		if o.client != x.To || o.x.Resp == nil || o.x.Lost || o.x.Copy || kmsg.Key(o.x.Req.Key()) != key {
			continue
		}
		for _, a := range answerFacts(o.x.Req, o.x.Resp, d.topicName) {
			if x.Partition.Set && (a.tp != d.name(x.Partition.V.Topic) || a.part != x.Partition.V.N) {
				continue
			}
			shown := "wire: " + a.String(d)
			if r, ok := o.x.Resp.(*kmsg.EndTxnResponse); ok && (x.PID.Set || x.Epoch.Set) {
				// EndTxn v5 (KIP-890 part 2) answers with the producer id
				// and the epoch it bumped to; the request's are older.
				if r.Version < 5 {
					return false, "", "an EndTxn answer before v5 carries no producer id or epoch"
				}
				a.pid, a.epoch = r.ProducerID, r.ProducerEpoch
				shown = fmt.Sprintf("wire: EndTxn answered %s pid=%s epoch=%d", errName(kerr.ErrorForCode(a.code)), d.simPID(a.pid), a.epoch)
			}
			return responseHolds(x, a, d), shown, ""
		}
	}
	return false, "no " + x.Msg.Kind + " to " + x.To + " on the wire", ""
}

// responseHolds compares one answer's fields with the line's.
func responseHolds(x script.ResponseCheck, a obsAnswer, d *driver) bool {
	code := "NONE"
	if a.code != 0 {
		code = kerr.ErrorForCode(a.code).(*kerr.Error).Message
	}
	if x.Error.Set && x.Error.V != code {
		return false
	}
	if x.BaseOffset.Set && (a.key != kmsg.Produce || a.baseOffset != x.BaseOffset.V) {
		return false
	}
	if x.PID.Set && d.simPID(a.pid) != strconv.FormatInt(x.PID.V, 10) {
		return false
	}
	if x.Epoch.Set && int64(a.epoch) != x.Epoch.V {
		return false
	}
	return true
}
