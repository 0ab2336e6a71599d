package verify

import (
	"fmt"

	"github.com/eoslab/eoslab/engine/script"
)

// writtenFor finds the files that name a message only the other protocol
// sends (a "deliver AddOffsetsToTxn", which transaction.version 2 never
// sends): the simulation refuses such a line under this protocol and plays
// the whole file under the other one. Such a file is written for the other
// protocol as much as one that pins it with a config line, and is refused
// whole, with the line that shows it; a file that fails under both is
// played up to its broken line.
func writtenFor(cmds func(simTV int) ([]script.Command, error), simTV int) (other int, why string) {
	line, err := firstRefused(cmds, simTV)
	if err == nil {
		return 0, ""
	}
	other = 2
	if simTV == 2 {
		other = 1
	}
	if _, oerr := firstRefused(cmds, other); oerr != nil {
		return 0, ""
	}
	return other, fmt.Sprintf("line %d: %v", line, err)
}

// firstRefused plays the file's actions on the simulation under simTV and
// returns the first one it refuses.
func firstRefused(cmds func(simTV int) ([]script.Command, error), simTV int) (int, error) {
	cs, err := cmds(simTV)
	if err != nil {
		return 0, err
	}
	r := script.NewRunner()
	r.PinTransactionVersion(simTV)
	for _, c := range cs {
		if c.Action == nil {
			continue
		}
		if _, _, err := r.Exec(c); err != nil {
			return c.Line, err
		}
	}
	return 0, nil
}
