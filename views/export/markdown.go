package export

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eoslab/eoslab/views/model"
)

// Doc is a lesson or a scenario, step by step, as eoslab plays it.
type Doc struct {
	Title, Summary string
	// Kafka is the version the doc plays under, 3 or 4; 0 when the
	// source does not say (a scenario's file sets its own protocol).
	Kafka int
	// Command is the eoslab command that made the doc, for its reader.
	Command string
	Steps   []Step
}

// Step is one step: its frame (with a checkpoint's answer revealed) and
// the screen the player draws for it (with the question still open).
type Step struct {
	Frame  model.Frame
	Screen string
}

// Markdown is the doc for notes: a Mermaid sequence diagram of every
// message (a lost one drawn as a crossed arrow, a duplicate and a delayed
// one named), then each step's narration, its checkpoint with the answer,
// and the partitions' logs and the coordinator's states as tables.
func Markdown(d Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(d.Title))
	if d.Summary != "" {
		fmt.Fprintf(&b, "%s\n\n", d.Summary)
	}
	fmt.Fprintf(&b, "%s · %d steps · `%s`\n\n", kafkaName(d), len(d.Steps), d.Command)
	if len(d.Steps) > 0 {
		b.WriteString("## Messages\n\n")
		b.WriteString("```mermaid\n")
		b.WriteString(Mermaid(d))
		b.WriteString("```\n\n")
		b.WriteString("A solid arrow is a request, a dashed one its response; a cross is a message lost " +
			"(dropped by the network, or sent to a host that was down); an open arrow is still in flight at the end.\n\n")
	}
	for i, s := range d.Steps {
		writeStep(&b, i+1, s.Frame)
	}
	return b.String()
}

func kafkaName(d Doc) string {
	switch d.Kafka {
	case 3:
		return "Kafka 3.x, transaction.version=1"
	case 4:
		return "Kafka 4.x, transaction.version=2 (KIP-890)"
	}
	if n := len(d.Steps); n > 0 && d.Steps[n-1].Frame.Protocol > 0 {
		return "transaction.version=" + strconv.Itoa(d.Steps[n-1].Frame.Protocol)
	}
	return "as the file configures"
}

func writeStep(b *strings.Builder, n int, f model.Frame) {
	title := oneLine(f.Title)
	if title == "" {
		title = "Step " + strconv.Itoa(n)
	} else {
		title = "Step " + strconv.Itoa(n) + ": " + title
	}
	fmt.Fprintf(b, "## %s\n\n", title)
	if t := strings.TrimSpace(f.Narration); t != "" {
		fmt.Fprintf(b, "%s\n\n", t)
	}
	if cp := f.Checkpoint; cp != nil && len(cp.Choices) > 0 {
		fmt.Fprintf(b, "> **Question.** %s\n>\n", oneLine(cp.Question))
		for i, c := range cp.Choices {
			fmt.Fprintf(b, "> %d. %s\n", i+1, oneLine(c))
		}
		if cp.Correct > 0 && cp.Correct <= len(cp.Choices) {
			fmt.Fprintf(b, ">\n> **Answer: %d.** %s\n", cp.Correct, oneLine(cp.Explanation))
		}
		b.WriteString("\n")
	}
	for _, v := range f.Violations {
		fmt.Fprintf(b, "**Broken: %s.** %s\n\n", cell(v.Name), oneLine(v.Text))
	}
	for _, p := range f.Partitions {
		writePartition(b, p)
	}
	if len(f.Coordinators) > 0 {
		b.WriteString("| transactional.id | state | producer id | epoch | partitions | coordinator |\n|---|---|---|---|---|---|\n")
		for _, c := range f.Coordinators {
			state := c.State()
			switch {
			case c.Loading:
				state = "loading"
			case state == "":
				state = "none"
			}
			fmt.Fprintf(b, "| %s | %s | %d | %d | %s | %s |\n", cell(c.TxnID), cell(state), c.ProducerID, c.Epoch,
				cell(strings.Join(c.Partitions, ", ")), cell(c.Broker+" "+c.Partition))
		}
		b.WriteString("\n")
	}
}

func writePartition(b *strings.Builder, p model.PartitionView) {
	fmt.Fprintf(b, "**%s** at %s: high watermark %d, last stable offset %d, log end offset %d\n\n", cell(p.Name), cell(p.Leader), p.HW, p.LSO, p.LEO)
	if len(p.Rows) == 0 {
		b.WriteString("(empty log)\n\n")
		return
	}
	b.WriteString("| offsets | batch | pid | epoch | seq | values | status |\n|---|---|---|---|---|---|---|\n")
	for _, r := range p.Rows {
		fmt.Fprintf(b, "| %s | %s | %d | %d | %s | %s | %s |\n", r.Offsets(), r.Kind, r.PID, r.Epoch, cell(r.Seqs),
			cell(strings.Join(r.Values, ", ")), r.Status)
	}
	b.WriteString("\n")
}

// Mermaid is the sequenceDiagram of every message of the doc, as its last
// step stands, with a note where each step's messages begin.
func Mermaid(d Doc) string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	if len(d.Steps) == 0 {
		return b.String()
	}
	last := d.Steps[len(d.Steps)-1].Frame
	ids := map[string]string{}
	var order []string
	add := func(name string) string {
		if id, ok := ids[name]; ok {
			return id
		}
		id := "a" + strconv.Itoa(len(order))
		ids[name] = id
		order = append(order, name)
		fmt.Fprintf(&b, "  participant %s as %s\n", id, label(name))
		return id
	}
	for _, a := range last.Actors {
		add(a.Name)
	}
	step := -1
	for _, a := range last.Timeline {
		from, to := add(a.From), add(a.To)
		if a.Step != step {
			step = a.Step
			note := "step " + strconv.Itoa(step)
			if step >= 1 && step <= len(d.Steps) {
				if t := oneLine(d.Steps[step-1].Frame.Title); t != "" {
					note += ": " + t
				}
			}
			fmt.Fprintf(&b, "  Note over %s,%s: %s\n", ids[order[0]], ids[order[len(order)-1]], label(note))
		}
		fmt.Fprintf(&b, "  %s%s%s: %s\n", from, arrowOf(a), to, label(arrowText(a)))
	}
	return b.String()
}

// arrowOf is the Mermaid arrow of a message: solid for a request, dashed
// for a response; a cross when it was lost, an open head in flight.
func arrowOf(a model.Arrow) string {
	line := "-"
	if a.Reply {
		line = "--"
	}
	switch a.State {
	case model.ArrowDropped, model.ArrowLost:
		return line + "x"
	case model.ArrowInFlight:
		return line + ")"
	}
	return line + ">>"
}

// arrowText is the label, with what a colour or a glyph says on screen
// said in words.
func arrowText(a model.Arrow) string {
	t := a.Label
	if a.Duplicate {
		t = "duplicate: " + t
	}
	var tags []string
	if a.Delayed {
		tags = append(tags, "delayed")
	}
	switch a.State {
	case model.ArrowDropped:
		tags = append(tags, "dropped")
	case model.ArrowLost:
		tags = append(tags, "lost: the host was down")
	case model.ArrowInFlight:
		tags = append(tags, "in flight")
	}
	if len(tags) > 0 {
		t += " (" + strings.Join(tags, ", ") + ")"
	}
	return t
}

// label escapes a text for a Mermaid message or note: '#' and ';' start
// entity codes and statements, '<' and '>' would be read as HTML.
func label(s string) string {
	return mermaidEscaper.Replace(oneLine(s))
}

var mermaidEscaper = strings.NewReplacer("#", "#35;", ";", "#59;", "<", "#60;", ">", "#62;")

// oneLine joins a text's lines with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell is a text for a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }
