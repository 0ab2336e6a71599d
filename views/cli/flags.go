package cli

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/spf13/cobra"
)

// describedValue is the error a flag value of this file returns: it says
// what the flag takes, so flagError prints "--NAME " and it, one line.
type describedValue struct{ text string }

func (e describedValue) Error() string { return e.text }

func takes(format string, args ...any) error {
	return describedValue{fmt.Sprintf(format, args...)}
}

// kafkaValue is --kafka 3|4: the Kafka major version whose transaction
// protocol a run uses; 0 when the flag is not given.
type kafkaValue int

func (k *kafkaValue) String() string {
	if *k == 0 {
		return ""
	}
	return strconv.Itoa(int(*k))
}

func (k *kafkaValue) Set(v string) error {
	switch v {
	case "3", "4":
		*k = kafkaValue(v[0] - '0')
		return nil
	}
	return takes("takes 3 (transaction.version=1) or 4 (transaction.version=2), not %q", v)
}

func (k *kafkaValue) Type() string { return "3|4" }

// or3 is the version asked for, or 3 without the flag.
func (k kafkaValue) or3() int {
	if k == 0 {
		return 3
	}
	return int(k)
}

// addKafka defines --kafka (-k) on cmd.
func addKafka(cmd *cobra.Command, k *kafkaValue, usage string) {
	cmd.Flags().VarP(k, "kafka", "k", usage)
	_ = cmd.RegisterFlagCompletionFunc("kafka", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"3\tthe classic protocol, transaction.version=1", "4\tKIP-890, transaction.version=2"}, cobra.ShellCompDirectiveNoFileComp
	})
}

// intValue is a whole-number flag between lo and hi.
type intValue struct {
	p      *int
	lo, hi int
}

func (v intValue) String() string { return strconv.Itoa(*v.p) }
func (v intValue) Type() string   { return "N" }
func (v intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < v.lo || n > v.hi {
		if v.hi == math.MaxInt {
			return takes("takes a whole number of %d or more, not %q", v.lo, s)
		}
		return takes("takes a whole number from %d to %d, not %q", v.lo, v.hi, s)
	}
	*v.p = n
	return nil
}

// seedValue is a uint64 flag that remembers whether it was given.
type seedValue struct {
	p   *uint64
	set *bool
}

func (v seedValue) String() string {
	if !*v.set {
		return ""
	}
	return strconv.FormatUint(*v.p, 10)
}
func (v seedValue) Type() string { return "N" }
func (v seedValue) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return takes("takes a whole number from 0 to %d, not %q", uint64(math.MaxUint64), s)
	}
	*v.p, *v.set = n, true
	return nil
}

// durationValue is a duration flag of at least min.
type durationValue struct {
	p   *time.Duration
	min time.Duration
}

func (v durationValue) String() string { return v.p.String() }
func (v durationValue) Type() string   { return "DURATION" }
func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < v.min {
		return takes("takes a duration of %s or more, such as 30m, not %q", v.min, s)
	}
	*v.p = d
	return nil
}

// tuiFlags are --no-color and --ascii, for the commands that open the TUI.
type tuiFlags struct{ noColor, ascii bool }

func addTUIFlags(cmd *cobra.Command, f *tuiFlags) {
	cmd.Flags().BoolVar(&f.noColor, "no-color", false, "draw without colour (as NO_COLOR=1 does)")
	cmd.Flags().BoolVar(&f.ascii, "ascii", false, "draw boxes and glyphs with ASCII only")
}
