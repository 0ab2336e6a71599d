package sandbox

import "github.com/eoslab/eoslab/views/theme"

// v plays the branch again under the other Kafka transaction protocol
// (Kafka 3's transaction.version=1, Kafka 4's 2), by what each action
// meant, as a new branch; the old one is kept, and C compares the two.

// KafkaSwitcher is the part of a session that plays a branch under the
// other Kafka. A session without it has no v.
type KafkaSwitcher interface {
	SwitchKafka() (string, error)
}

func (s *Model) switchKafka() {
	k, ok := s.sess.(KafkaSwitcher)
	if !ok {
		s.say(theme.Muted, "this session plays one Kafka")
		return
	}
	msg, err := k.SwitchKafka()
	if err != nil {
		s.say(theme.Violated, err.Error())
		return
	}
	s.refresh()
	s.say(theme.Changed, msg+"; C compares branches")
}

// Flash is the status line's message, whole (a narrow screen cuts it).
func (s Model) Flash() string { return s.flash }
