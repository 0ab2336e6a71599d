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
	cands := completeCands(head, d, msgs)
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
