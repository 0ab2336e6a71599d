package adapt

import (
	"github.com/eoslab/eoslab/lessons/challenges"
	"github.com/eoslab/eoslab/lessons/progress"
	"github.com/eoslab/eoslab/views/model"
)

// Challenges lists the goals of lessons/challenges for the home screen's
// Challenges entry, each marked finished when the progress kept in st
// records it reached (`eoslab challenges check` records it); a nil st
// marks none.
func Challenges(st *progress.Store) []model.ChallengeInfo {
	var out []model.ChallengeInfo
	for i, g := range challenges.All() {
		c := model.ChallengeInfo{Name: g.Name, Num: i + 1, Level: g.Level, Title: g.Title, Goal: g.Goal, Hint: g.Hint,
			Kafka: challenges.Versions(g)}
		if st != nil {
			_, c.Finished = st.Challenge(g.Name)
		}
		out = append(out, c)
	}
	return out
}
