package viewtest

import "slices"

// Median is the median of xs (the mean of the middle two for an even
// count), for the benchmarks that report paired measurements; xs is left
// as it is.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
