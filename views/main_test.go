package views_test

import (
	"os"
	"testing"

	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestMain pins the colour profile and background so view output is the
// same on every machine: goldens hold text and glyphs, not colour codes.
func TestMain(m *testing.M) {
	viewtest.PinProfile()
	os.Exit(m.Run())
}
