package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/adapt"
	"github.com/eoslab/eoslab/views/export"
	"github.com/eoslab/eoslab/views/model"
)

// formatValue is --format: markdown, svg or html.
type formatValue string

func (f *formatValue) String() string { return string(*f) }
func (f *formatValue) Type() string   { return "markdown|svg|html" }
func (f *formatValue) Set(v string) error {
	switch v {
	case "markdown", "md":
		*f = "markdown"
	case "svg", "html":
		*f = formatValue(v)
	default:
		return takes("takes markdown, svg or html, not %q", v)
	}
	return nil
}

// exportFlags are export's flags.
type exportFlags struct {
	lesson, output string
	kafka          kafkaValue
	format         formatValue
	step           int
	width, height  int
}

func exportCommand() *cobra.Command {
	o := exportFlags{format: "markdown", width: 100, height: 30}
	cmd := &cobra.Command{
		Use:   "export FILE|--lesson NAME [--kafka 3|4] [--format markdown|svg|html] [--step N] [-o FILE]",
		Short: "a lesson or scenario for slides and notes: Markdown, SVG or HTML",
		Long: `Plays a lesson (--lesson NAME, or a FILE.lesson) or a scenario file to its
end and writes it for slides and notes:
  markdown  a Mermaid sequenceDiagram of every message (a lost one crossed,
            a duplicate and a delayed one named), then each step's
            narration, its question with the answer, and the partitions'
            logs and the coordinator's states as tables
  svg       one step's screen as eoslab draws it (--step, default the
            last), colours and box drawing kept, --width x --height cells
  html      one self-contained page: every step's screen and narration,
            with a step slider (no script or font from elsewhere)
The output is the same for the same input, byte for byte. A scenario file
sets its own protocol ('config transaction.version=N'); --kafka is for
lessons.`,
		Example: "  eoslab export --lesson zombie > zombie.md\n  eoslab export --lesson zombie --kafka 4 --format html -o zombie.html\n  eoslab export story.scn --format svg --step 3 > step3.svg",
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case o.lesson == "" && len(args) != 1:
				return invalid("%s needs one lesson or scenario file, or --lesson NAME (%s)", prefix(cmd), see(cmd))
			case o.lesson != "" && len(args) > 0:
				return invalid("%s --lesson takes no file", prefix(cmd))
			}
			return nil
		},
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exportCmd(cmd, o, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.lesson, "lesson", "l", "", "export the built-in lesson `NAME` (or a lesson file)")
	_ = cmd.RegisterFlagCompletionFunc("lesson", completeLessonName)
	addKafka(cmd, &o.kafka, "the transaction protocol a lesson plays under (default 3)")
	fl.VarP(&o.format, "format", "f", "what to write")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"markdown", "svg", "html"}, cobra.ShellCompDirectiveNoFileComp))
	fl.Var(intValue{&o.step, 0, 1 << 20}, "step", "the step an svg shows (default: the last)")
	fl.Var(intValue{&o.width, 60, 400}, "width", "the screen's width in cells, for svg and html")
	fl.Var(intValue{&o.height, 20, 200}, "height", "the screen's height in cells, for svg and html")
	fl.StringVarP(&o.output, "output", "o", "", "write to `FILE` instead of standard output")
	return cmd
}

func exportCmd(cmd *cobra.Command, o exportFlags, args []string) error {
	var (
		d   export.Doc
		err error
	)
	if o.lesson != "" || filepath.Ext(args[0]) == ".lesson" {
		name := o.lesson
		if name == "" {
			name = args[0]
		}
		var l *lessons.Lesson
		if l, err = loadLesson(name, true); err != nil {
			return err
		}
		d, err = lessonDoc(l, name, o.kafka.or3(), o.width, o.height)
	} else {
		if o.kafka != 0 {
			return invalid("%s a scenario file sets its own protocol with 'config transaction.version=N'; --kafka is for lessons", prefix(cmd))
		}
		d, err = scenarioDoc(args[0], o.width, o.height)
	}
	if err != nil {
		return err
	}
	d.Command = "eoslab " + joinArgs(cmd, o, args)
	var out string
	switch o.format {
	case "svg":
		k := o.step
		if k == 0 {
			k = len(d.Steps)
		}
		if k < 1 || k > len(d.Steps) {
			return invalid("%s --step takes a step from 1 to %d, not %d", prefix(cmd), len(d.Steps), k)
		}
		out = export.SVG(d.Steps[k-1].Screen, o.width, o.height)
	case "html":
		out = export.HTML(d, o.width, o.height)
	default:
		out = export.Markdown(d)
	}
	if o.output == "" {
		// Through the command's writer: the text comes from files.
		_, err := io.WriteString(cmd.OutOrStdout(), out)
		return err
	}
	if err := os.WriteFile(o.output, []byte(out), 0o644); err != nil {
		return failed(fmt.Sprintf("eoslab export: %v", err))
	}
	return nil
}

// joinArgs is the command line that reproduces the export, for the doc.
func joinArgs(cmd *cobra.Command, o exportFlags, args []string) string {
	s := "export"
	if o.lesson != "" {
		s += " --lesson " + o.lesson
	} else {
		s += " " + filepath.Base(args[0])
	}
	if o.kafka != 0 {
		s += " --kafka " + strconv.Itoa(int(o.kafka))
	}
	if o.format != "markdown" {
		s += " --format " + string(o.format)
	}
	return s
}

// exportRenderer draws in true colour on a dark background, whatever the
// terminal export runs in: the picture is the same on every machine.
func exportRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	return r
}

// lessonDoc plays a lesson in the player, as 'eoslab lesson' does, and
// keeps each step's frame and screen. A checkpoint's screen is drawn with
// the question open; then the first choice is pressed, which reveals the
// right one for the frame.
func lessonDoc(l *lessons.Lesson, name string, kafka, w, h int) (export.Doc, error) {
	l = l.ForKafka(kafka)
	meta := l.Meta()
	sess := adapt.New(l)
	info := model.LessonInfo{Name: name, Title: meta.Title, Summary: meta.Summary, Level: meta.Level, Steps: meta.Steps, Minutes: meta.Minutes}
	var m tea.Model = views.NewApp([]model.LessonInfo{info}, func(string) (model.Session, error) { return sess, nil },
		views.Options{StartLesson: name, Kafka: kafka, Renderer: exportRenderer()})
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	press := func(k tea.KeyMsg) { m, _ = m.Update(k) }
	right := tea.KeyMsg{Type: tea.KeyRight}
	d := export.Doc{Title: meta.Title, Summary: meta.Summary, Kafka: kafka}
	for k := 1; k <= sess.Len(); k++ {
		for try := 0; sess.Pos() < k && try < 3; try++ {
			press(right)
		}
		if sess.Pos() != k {
			return d, failed(fmt.Sprintf("eoslab export: %s: the player did not reach step %d", name, k))
		}
		screen := m.View()
		if cp := sess.Frame().Checkpoint; cp != nil && !cp.Answered && len(cp.Choices) > 0 {
			press(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'1'}})
		}
		d.Steps = append(d.Steps, export.Step{Frame: sess.Frame(), Screen: screen})
	}
	return d, nil
}

// scenarioDoc plays a scenario file in the sandbox, as 'eoslab sandbox
// FILE' does, and keeps the frame and screen after each of its actions.
func scenarioDoc(path string, w, h int) (export.Doc, error) {
	s, err := openSandboxFile(path)
	if err != nil {
		return export.Doc{}, err
	}
	d := export.Doc{Title: filepath.Base(path)}
	opts := views.Options{Renderer: exportRenderer()}
	for k := 1; k <= s.Len(); k++ {
		s.Seek(k)
		var m tea.Model = views.NewSandbox(nil, nil, s, opts)
		m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		d.Steps = append(d.Steps, export.Step{Frame: s.Frame("", 0), Screen: m.View()})
	}
	return d, nil
}
