package adapt

import (
	"fmt"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/realkafka/live"
	"github.com/eoslab/eoslab/engine/realkafka/verify"
	"github.com/eoslab/eoslab/views/model"
)

// KafkaSide turns a live session's snapshot into the view-model the
// "Kafka's side" panel draws. cluster is the address as the user gave it
// and tv the cluster's transaction.version.
func KafkaSide(s *live.Snapshot, cluster string, tv int) model.KafkaSide {
	k := model.KafkaSide{Cluster: cluster, TV: tv, Step: s.Step, Problems: s.Problems}
	if !s.Played {
		why := s.Why
		if s.StopLine > 0 {
			why = fmt.Sprintf("%s (line %d)", why, s.StopLine)
		}
		if s.SimOnly {
			k.NotPlayed = "simulation only: " + why
		} else {
			k.NotPlayed = "not played on Kafka: " + why
		}
	}
	if s.Behind {
		k.Behind = "the cluster is behind: some of the step's calls wait for the simulation's messages in flight to land (they are played at its next quiet point)"
	}
	pid := func(b int64) model.KafkaPID {
		p := model.KafkaPID{Broker: b, Sim: -1}
		if b >= 0 {
			p.Sim, p.Mapped = s.SimPID(b)
		}
		return p
	}
	for _, p := range s.Partitions {
		kp := model.KafkaPartition{Name: fmt.Sprintf("%s-%d", p.Topic, p.Partition), HW: p.HW, LSO: p.LSO, Holder: pid(-1), Err: p.Err}
		if p.Holder != nil {
			kp.Holder, kp.HolderEpoch = pid(p.Holder.ProducerID), p.Holder.Epoch
		}
		for _, b := range p.Batches {
			kp.Batches = append(kp.Batches, model.KafkaBatch{
				BaseOffset: b.BaseOffset, LastOffset: b.LastOffset, PID: pid(b.ProducerID), Epoch: b.ProducerEpoch,
				BaseSeq: b.BaseSequence, Records: b.Records, Transactional: b.Transactional, Control: b.Control,
				Marker: b.Marker, Status: fateStatus(b.Fate), Values: b.Values,
			})
		}
		for _, pr := range p.Producers {
			kp.Producers = append(kp.Producers, model.KafkaProducer{PID: pid(pr.ProducerID), Epoch: pr.Epoch, LastSeq: pr.LastSequence, TxnStart: pr.TxnStart})
		}
		k.Partitions = append(k.Partitions, kp)
	}
	for _, t := range s.Txns {
		kt := model.KafkaTxn{ID: t.ID, State: t.State, Tone: kafkaTxnTone(t.State), PID: pid(t.ProducerID), Epoch: t.Epoch, Err: t.Err}
		for _, tp := range t.Partitions {
			kt.Partitions = append(kt.Partitions, tp.String())
		}
		k.Txns = append(k.Txns, kt)
	}
	for _, c := range s.Consumers {
		k.Consumers = append(k.Consumers, model.KafkaPositions{Name: c.Name, Offsets: offsetsOf(c.Positions)})
	}
	for _, g := range s.Groups {
		k.Groups = append(k.Groups, model.KafkaPositions{Name: g.ID, Offsets: offsetsOf(g.Committed), Err: g.Err})
	}
	for _, f := range s.Facts {
		k.Facts = append(k.Facts, model.KafkaFact{Line: f.Line, Expect: f.What, Verdict: factVerdict(f.Row), Words: f.Words})
	}
	if v := s.Reveal; v != nil {
		k.Reveal = &model.KafkaVerdict{Asked: v.Asked, Kind: revealKind(v.Kind), Words: v.Words}
	}
	return k
}

// KafkaGone is the side last shown, with the message of a cluster that
// stopped answering (the error live's Step returned).
func KafkaGone(last model.KafkaSide, err error) model.KafkaSide {
	last.Gone = err.Error()
	return last
}

func offsetsOf(ps []live.Position) []model.KafkaOffset {
	out := make([]model.KafkaOffset, 0, len(ps))
	for _, p := range ps {
		out = append(out, model.KafkaOffset{Partition: fmt.Sprintf("%s-%d", p.Topic, p.Partition), Offset: p.Offset, Fetched: p.Fetched})
	}
	return out
}

// fateStatus is a batch's fate as the log rows' status.
func fateStatus(f live.Fate) model.RowStatus {
	switch f {
	case live.FateOpen:
		return model.StatusOpen
	case live.FateCommitted:
		return model.StatusCommitted
	case live.FateAborted:
		return model.StatusAborted
	}
	return model.StatusPlain
}

// kafkaTxnTone is the tone of a state as DescribeTransactions names it
// (the coordinator's TransactionState names, which the engine's states
// share); an unknown name is plain.
func kafkaTxnTone(state string) model.Tone {
	for st := engine.Empty; st <= engine.PrepareEpochFence; st++ {
		if st.String() == state {
			return txnTone(st)
		}
	}
	return model.TonePlain
}

func factVerdict(r verify.Row) model.KafkaVerdictKind {
	switch r.Verdict {
	case verify.Agree:
		return model.KafkaAgreed
	case verify.Differ:
		if r.Known {
			return model.KafkaOtherwiseKnown
		}
		return model.KafkaOtherwise
	case verify.SimOnly:
		return model.KafkaSimOnly
	}
	return model.KafkaNotPlayed
}

func revealKind(k live.VerdictKind) model.KafkaVerdictKind {
	switch k {
	case live.Agreed:
		return model.KafkaAgreed
	case live.Otherwise:
		return model.KafkaOtherwise
	case live.SimulationOnly:
		return model.KafkaSimOnly
	}
	return model.KafkaNotPlayed
}
