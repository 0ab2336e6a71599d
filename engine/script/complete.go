package script

import (
	"slices"
	"strconv"
	"strings"
)

// Complete returns the whole lines the typed line may become by completing
// its last word: a verb, a client's name, one of that client's calls, a
// topic partition, a broker, a group, or a message in flight (msgs holds
// their names, m12). It is what the sandbox prompt offers, from the same
// verb tables the parser reads. A last word that starts no candidate gets
// the closest one instead (as "did you mean" picks it), so "comit" still
// offers commitTransaction.
func Complete(line string, d *Decls, msgs []string) []string {
	if d == nil {
		d = NewDecls()
	}
	words := strings.Fields(line)
	if len(words) == 0 || strings.HasSuffix(line, " ") {
		words = append(words, "")
	}
	last := words[len(words)-1]
	head := words[:len(words)-1]
	var cands []string
	if len(head) > 0 && (head[0] == "expect" || head[0] == "until") {
		cands = completeExpect(head[1:], last, d, msgs)
	} else {
		cands = completeCands(head, d, msgs)
	}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, last) {
			out = append(out, c)
		}
	}
	if len(out) == 0 && last != "" {
		if c := closest(last, cands); c != "" {
			out = append(out, c)
		}
	}
	prefix := strings.Join(head, " ")
	if prefix != "" {
		prefix += " "
	}
	for i, c := range out {
		out[i] = prefix + c
	}
	return out
}

// completeCands are the words that may come after head.
func completeCands(head []string, d *Decls, msgs []string) []string {
	clients := d.Clients()
	if len(head) == 0 {
		return append(topVerbs(), clients...)
	}
	first := head[0]
	if k := d.KindOf(first); slices.Contains(clients, first) {
		if len(head) == 1 {
			var calls []string
			for _, f := range callList {
				if slices.Contains(f.on, k) {
					calls = append(calls, f.verb)
				}
			}
			return calls
		}
		switch head[1] {
		case "send", "commitSync":
			if len(head) == 2 {
				return partitions(d)
			}
		case "sendOffsetsToTransaction":
			if len(head) == 2 {
				return d.Groups()
			}
		}
		return nil
	}
	switch first {
	case "deliver", "drop", "duplicate", "delay":
		if len(head) == 1 {
			return msgs
		}
	case "reorder":
		if len(head) <= 2 {
			return msgs
		}
	case "crash", "restart":
		if len(head) == 1 {
			var out []string
			for i := 1; i <= max(d.Brokers(), 1); i++ {
				out = append(out, "broker-"+strconv.Itoa(i))
			}
			return append(out, clients...)
		}
	case "pause", "resume":
		if len(head) == 1 {
			return clients
		}
	case "rebalance":
		if len(head) == 1 {
			return d.Groups()
		}
	}
	return nil
}

// topVerbs are the verbs a line may start with, in the tables' order.
func topVerbs() []string {
	var out []string
	for _, list := range [][]*form{setupForms, stepForms, faultForms, injectForms} {
		for _, f := range list {
			if !slices.Contains(out, f.verb) {
				out = append(out, f.verb)
			}
		}
	}
	return append(out, "expect")
}

// partitions are the declared topics' partitions, as TP words.
func partitions(d *Decls) []string {
	var out []string
	for _, t := range d.Topics() {
		for p := 0; p < max(d.Partitions(t), 1); p++ {
			out = append(out, t+"-"+strconv.Itoa(p))
		}
	}
	return out
}

// completeExpect offers the next word of an expect line, or of the
// sandbox's "until", which takes what an expect line checks. It reads the
// expect forms themselves: a form's literal where it has one, and otherwise
// every known word its own check accepts, so that completion and the parser
// cannot disagree. rest is what follows "expect"; last is the word being
// typed, which may be an option's key=value.
func completeExpect(rest []string, last string, d *Decls, msgs []string) []string {
	// Complete keeps only the candidates that start with the word being
	// typed, so a check runs only on those: a check that refuses a word
	// builds its message (with a "did you mean"), and running every check
	// on every known word made a keystroke at the prompt a third of a
	// millisecond. With none starting so, Complete offers the closest of
	// all: then every candidate is made.
	if out := expectCands(rest, last, last, d, msgs); len(out) > 0 || last == "" {
		return out
	}
	return expectCands(rest, last, "", d, msgs)
}

// expectCands are completeExpect's candidates that start with prefix.
func expectCands(rest []string, last, prefix string, d *Decls, msgs []string) []string {
	var out []string
	add := func(w string) {
		if strings.HasPrefix(w, prefix) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	pool := expectPool(d, msgs)
	for _, f := range expectForms {
		p := &pctx{d: d, f: f}
		if !argsMatch(p, f.args, rest) {
			continue
		}
		if len(rest) < len(f.args) {
			if a := f.args[len(rest)]; a.lit != "" {
				add(a.lit)
			} else if a.check != nil && a.name != `"TEXT"` {
				for _, w := range pool {
					if strings.HasPrefix(w, prefix) && a.check(p, w) == "" {
						add(w)
					}
				}
			}
			if len(rest) < f.min {
				continue
			}
		}
		// Past the words the form needs: its options, key= while the key
		// is typed, then key=value for the values the option accepts.
		for _, o := range f.opts {
			if optUsed(rest, o.key) {
				continue
			}
			if !strings.HasPrefix(last, o.key+"=") {
				add(o.key + "=")
				continue
			}
			for _, w := range pool {
				if kv := o.key + "=" + w; strings.HasPrefix(kv, prefix) && (o.check == nil || o.check(p, w) == "") {
					add(kv)
				}
			}
		}
	}
	return out
}

// argsMatch reports whether the typed words fit the first arguments of a
// form: a literal exactly, anything else by the argument's own check.
func argsMatch(p *pctx, args []arg, words []string) bool {
	if len(words) > len(args) {
		// Words past the positional ones are options (key=value).
		for _, w := range words[len(args):] {
			if !strings.Contains(w, "=") {
				return false
			}
		}
		words = words[:len(args)]
	}
	for i, w := range words {
		a := args[i]
		switch {
		case a.lit != "":
			if w != a.lit {
				return false
			}
		case a.check != nil && a.name != `"TEXT"`:
			if a.check(p, w) != "" {
				return false
			}
		}
	}
	return true
}

// optUsed reports whether key=... is among the words already typed.
func optUsed(words []string, key string) bool {
	for _, w := range words {
		if strings.HasPrefix(w, key+"=") {
			return true
		}
	}
	return false
}

// expectPool is every word an expect line may name here: the declared
// names, partitions and in-flight messages, and Kafka's own names (states,
// event kinds, invariants, errors). The forms' checks choose among them.
func expectPool(d *Decls, msgs []string) []string {
	pool := append([]string(nil), d.Clients()...)
	pool = append(pool, d.TransactionalIDs()...)
	pool = append(pool, d.Groups()...)
	pool = append(pool, partitions(d)...)
	pool = append(pool, msgs...)
	pool = append(pool, txnStates...)
	pool = append(pool, producerStates...)
	pool = append(pool, eventKinds...)
	pool = append(pool, invariants...)
	pool = append(pool, messageKinds...)
	for _, c := range kafkaErrors {
		pool = append(pool, errorBase(c.String()))
	}
	return append(pool, "none", "last", "commit", "abort")
}
