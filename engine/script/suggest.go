package script

import "strings"

// closest returns the candidate the user most likely meant by word, or "" if
// none is close. It is how "A commitTransacton" earns "did you mean
// commitTransaction?". Ties go to the earlier candidate, so the answer is
// deterministic and follows the table's order.
//
// A candidate is close when its edit distance (case-insensitive, with
// swapped neighbours counting as one edit) is small for the word's length, or
// when the word is a prefix of it: "A commit" suggests commitTransaction.
func closest(word string, cands []string) string {
	w := strings.ToLower(word)
	// Short words and numbers have too many neighbours for a guess to help:
	// "acks=2" should not earn "did you mean 0?".
	if len(w) < 3 || strings.Trim(w, "-0123456789") == "" {
		return ""
	}
	limit := 1
	switch {
	case len(w) >= 8:
		limit = 3
	case len(w) >= 4:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range cands {
		if d := editDistance(w, strings.ToLower(c), bestD); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best
	}
	for _, c := range cands {
		if strings.HasPrefix(strings.ToLower(c), w) {
			return c
		}
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b,
// counted in bytes. It gives up early and returns max once the distance is
// known to reach max, which keeps long garbage words cheap.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d >= max || -d >= max {
		return max
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin >= max {
			return max
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], max)
}

// didYouMean formats a suggestion for the end of a message, or "".
func didYouMean(word string, cands []string) string {
	if s := closest(word, cands); s != "" && s != word {
		return "; did you mean " + s + "?"
	}
	return ""
}
