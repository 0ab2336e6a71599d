package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/engine"
	"github.com/eoslab/eoslab/engine/script"
	"github.com/eoslab/eoslab/lessons"
)

// runFlags are run's flags.
type runFlags struct {
	json   bool
	lesson string
	kafka  kafkaValue
}

func runCommand() *cobra.Command {
	var g runFlags
	cmd := &cobra.Command{
		Use:   "run [--json] [--kafka 3|4] FILE|FILE.lesson|--lesson NAME",
		Short: "play a scenario or a lesson headless; print the transcript",
		Long: `Plays a scenario file headless and prints the transcript, one event per line:
  t=TIME ACTOR: TEXT [RULE]
Expectations that fail are printed with the file:line, what was expected and
what was found. With --json, every event is a JSON object on its own line,
followed by one object with the final state (see 'eoslab help json'), which
states the transaction version (transactionVersion).

--kafka picks the transaction protocol, whatever the file's
'config transaction.version=N' lines say (they are played with it):
  --kafka 3   transaction.version=1, the classic protocol (KIP-98 with
              KIP-890 part 1): AddPartitionsToTxn, one epoch per producer
  --kafka 4   transaction.version=2 (KIP-890 part 2), Kafka 4's default: the
              partition leader adds the partition, every EndTxn bumps the
              epoch, a late write of an ended transaction is refused
Without it the file decides; the default is 1.
A FILE ending in .lesson, or --lesson with a built-in lesson's name (or a
lesson file), plays the lesson to the end: narration, events, checkpoints
with their answers, and each step's details. Errors in a lesson file are
named file:line. A lesson plays under Kafka 3 unless --kafka 4 is given;
its transcript names the version (the "kafka:" line).

An action that runs away (more than 2,000,000 steps or 1,000,000 events, or
4,000,000 events in the whole scenario) stops with an error naming its line
and what kept firing. A file is at most 16 MiB.

Exit code 0 when every expect holds, 1 when one fails, 2 on invalid input.`,
		Example: "  eoslab run story.scn\n  eoslab run --json --kafka=4 story.scn\n  eoslab run --lesson zombie",
		Args: func(cmd *cobra.Command, args []string) error {
			if g.lesson == "" && len(args) != 1 {
				return invalid("%s needs one scenario file (%s)", prefix(cmd), see(cmd))
			}
			return nil
		},
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCmd(g, args, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&g.json, "json", false, "print every event as a JSON object, then the final state ('eoslab help json')")
	cmd.Flags().StringVarP(&g.lesson, "lesson", "l", "", "play the built-in lesson `NAME` (or a lesson file) to the end")
	_ = cmd.RegisterFlagCompletionFunc("lesson", completeLessonName)
	addKafka(cmd, &g.kafka, "the transaction protocol: 3 (transaction.version=1) or 4 (transaction.version=2)")
	return cmd
}

// completeScenario completes scenario and lesson files.
func completeScenario(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"scn", "lesson"}, cobra.ShellCompDirectiveFilterFileExt
}

func runLesson(arg string, kafka int, stdout io.Writer) error {
	l, err := loadLesson(arg, false)
	if err != nil {
		return err
	}
	out, err := lessons.Transcript(l.ForKafka(kafka))
	fmt.Fprint(stdout, out)
	if err != nil {
		return failed(err.Error())
	}
	return nil
}

func runCmd(g runFlags, args []string, stdout io.Writer) error {
	if g.lesson != "" {
		if len(args) > 0 {
			return invalid("eoslab run: --lesson takes no file")
		}
		if g.json {
			return invalid("eoslab run: --json takes a scenario file; a lesson prints its transcript")
		}
		return runLesson(g.lesson, g.kafka.or3(), stdout)
	}
	file := args[0]
	if strings.HasSuffix(file, ".lesson") {
		if g.json {
			return invalid("eoslab run: --json takes a scenario file; a lesson prints its transcript")
		}
		return runLesson(file, g.kafka.or3(), stdout)
	}
	in, err := openInput(file)
	if err != nil {
		return err
	}
	cmds, err := script.ParseReader(file, in)
	in.Close()
	if err != nil {
		return asInvalid(err)
	}
	r := script.NewRunner()
	if g.kafka != 0 {
		// Kafka 3 speaks transaction.version 1, Kafka 4 version 2.
		r.PinTransactionVersion(int(g.kafka) - 2)
	}
	enc := json.NewEncoder(stdout)
	nfailed := 0
	err = r.Play(cmds, func(s script.Outcome) error {
		if f := s.Failure; f != nil {
			nfailed++
		}
		if !g.json {
			for _, e := range s.Events {
				if _, err := fmt.Fprintln(stdout, e.Line()); err != nil {
					return err
				}
			}
			if f := s.Failure; f != nil {
				_, err := fmt.Fprintf(stdout, "EXPECT FAILED %s:%d: %s\n    found: %s\n", f.File, f.Line, f.Text, f.Got)
				return err
			}
			return nil
		}
		for _, e := range s.Events {
			if err := enc.Encode(jsonEvent(e)); err != nil {
				return err
			}
		}
		if c := s.Command; c.Kind() == script.Expect {
			je := map[string]any{"type": "expect", "file": c.File, "line": c.Line, "text": c.Text, "ok": s.Failure == nil}
			if s.Failure != nil {
				je["found"] = s.Failure.Got
			}
			return enc.Encode(je)
		}
		return nil
	})
	var se *script.Error
	switch {
	case errors.As(err, &se):
		return asInvalid(err)
	case err != nil:
		return failed("eoslab run: writing the transcript: " + err.Error())
	}
	if g.json {
		if err := enc.Encode(r.World.State()); err != nil {
			return failed("eoslab run: writing the state: " + err.Error())
		}
	}
	if nfailed > 0 {
		return failed(fmt.Sprintf("%s: %d expectation(s) failed", file, nfailed))
	}
	return nil
}

type eventJSON struct {
	Type  string `json:"type"`
	Seq   int    `json:"seq"`
	Step  int    `json:"step"`
	Time  int64  `json:"time"`
	Kind  string `json:"kind"`
	Actor string `json:"actor"`
	Text  string `json:"text"`
	Rule  string `json:"rule,omitempty"`
	// Reasons are the rule's reason codes (see 'eoslab help rules').
	Reasons []string `json:"reasons,omitempty"`
	Msg     int64    `json:"msg,omitempty"`
}

func jsonEvent(e engine.Event) eventJSON {
	return eventJSON{Type: "event", Seq: int(e.Seq), Step: int(e.Step), Time: e.Time, Kind: e.Kind.String(), Actor: e.Actor, Text: e.Text(), Rule: e.Rule.String(), Reasons: reasonCodes(e.Rule), Msg: e.MsgID()}
}

// reasonCodes are the codes of a rule's reasons, in order.
func reasonCodes(r engine.Rule) []string {
	var out []string
	for _, p := range r.Parts() {
		out = append(out, p.Reason.String())
	}
	return out
}
