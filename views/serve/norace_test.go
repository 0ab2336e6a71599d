//go:build !race

package serve

const slow = 1
