//go:build race

package serve

// The race detector slows everything several times over: the deadlines
// of the tests over SSH grow with it.
const slow = 5
