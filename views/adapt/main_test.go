package adapt

import (
	"os"
	"testing"

	"github.com/eoslab/eoslab/views/internal/viewtest"
)

// TestMain pins the colour profile and background so the player's screens
// are the same on every machine: goldens hold text and glyphs, not colour
// codes.
func TestMain(m *testing.M) {
	viewtest.PinProfile()
	os.Exit(m.Run())
}
