package script

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

// selectForm picks, among a verb's forms, the one whose literal words match
// the line ("expect partition t-0 leo 3" is the row with literals partition
// and leo). With one form there is nothing to choose.
func (p *pctx) selectForm(forms []*form, words []token) ([]token, string) {
	if len(forms) == 1 {
		p.f = forms[0]
		return words, ""
	}
	var pos []string
	for _, t := range words {
		if !t.isOpt() {
			pos = append(pos, t.val)
		}
	}
	width := 0
	for _, f := range forms {
		width = max(width, len(f.args))
	}
	cands := forms
	for i := 0; i < width; i++ {
		var lits []string
		var role string
		for _, f := range cands {
			if a, ok := f.literal(i); ok && !contains(lits, a.lit) {
				lits, role = append(lits, a.lit), a.role
			}
		}
		if len(lits) == 0 {
			continue
		}
		if i >= len(pos) {
			return nil, p.ctx + " needs a " + role + ": " + orList(lits) + ": \"" + roleUsage(cands[0], i, role) + "\""
		}
		var next []*form
		for _, f := range cands {
			if a, ok := f.literal(i); ok && a.lit == pos[i] {
				next = append(next, f)
			}
		}
		if len(next) == 0 {
			return nil, p.misplaced(cands, pos, i, lits)
		}
		cands = next
		p.ctx += " " + pos[i]
	}
	p.f = cands[0]
	return words, ""
}

// misplaced explains a word that is not one of the literals expected at
// position i. When the literal was written early ("expect partition leo 3",
// without the partition) it says what is missing before it.
func (p *pctx) misplaced(cands []*form, pos []string, i int, lits []string) string {
	for j := i - 1; j >= 0; j-- {
		for _, f := range cands {
			if a, ok := f.literal(i); ok && a.lit == pos[j] {
				if _, isLit := f.literal(j); isLit {
					continue
				}
				return p.ctx + " needs " + f.args[j].name + " before " + a.lit + ": \"" + f.usage + "\""
			}
		}
	}
	return p.ctx + ": " + show(pos[i]) + ": expected " + orList(lits) + didYouMean(pos[i], lits)
}

// roleUsage is a usage hint for a missing literal: "expect partition TP FIELD ...".
func roleUsage(f *form, i int, role string) string {
	u := f.verb
	for j := 0; j < i && j < len(f.args); j++ {
		u += " " + f.args[j].name
	}
	return u + " " + upper(role) + " ..."
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// selState is the message selector that option words currently narrow:
// p.sels[i].
type selState struct {
	i    int
	word string
	id   bool
	seen map[string]bool
}

var filterKeys = []string{"to", "from", "partition"}

// words checks every word after the head, left to right, and records them
// in p.actor, p.args, p.opts and p.sels.
func (p *pctx) words(words []token) string {
	f := p.f
	seen := map[string]bool{}
	var sel *selState
	i := 0
	for _, t := range words {
		if !t.isOpt() {
			a, _ := f.argAt(i)
			if a.check != nil {
				if m := a.check(p, t.val); m != "" {
					if f.named && i == 0 {
						return f.verb + ": " + show(t.val) + ": " + m
					}
					return p.ctx + ": " + show(t.val) + ": " + m
				}
			}
			switch {
			case f.named && i == 0:
				p.nameOK = true
				if f.client {
					p.actor = t.val
				} else {
					p.args = append(p.args, t.val)
				}
			default:
				p.args = append(p.args, t.val)
			}
			if a.msg {
				p.sels = append(p.sels, selectorOf(t.val))
				sel = &selState{i: len(p.sels) - 1, word: t.val, id: isMessageID(t.val), seen: map[string]bool{}}
			}
			i++
			continue
		}
		filter, m := p.option(t, seen, sel)
		if m != "" {
			return m
		}
		if !filter {
			p.opts = append(p.opts, kv{Key: t.key(), Value: t.value()})
		}
	}
	return ""
}

// option checks one key=value word. A message filter is recorded in its
// selector, and reported as such.
func (p *pctx) option(t token, seen map[string]bool, sel *selState) (filter bool, msg string) {
	f, key, val := p.f, t.key(), t.value()
	shown := showOpt(key, val)
	switch {
	case key == "":
		return false, p.ctx + ": " + show(t.val) + ": expected KEY=VALUE"
	case val == "":
		return false, p.ctx + ": " + key + "= needs a value"
	}
	if f.hasMsg() && contains(filterKeys, key) {
		switch {
		case sel == nil:
			return true, p.ctx + ": " + shown + ": a filter follows the message kind it narrows, e.g. \"" + f.verb + " ProduceResponse to=A\""
		case sel.id:
			return true, p.ctx + ": " + shown + ": " + sel.word + " already names one message; filters narrow a kind"
		case sel.seen[key]:
			return true, p.ctx + ": " + key + "= is given twice for " + sel.word
		}
		sel.seen[key] = true
		c := endpoint
		if key == "partition" {
			c = tpOrInternal
		}
		if m := c(p, val); m != "" {
			return true, p.ctx + ": " + shown + ": " + m
		}
		s := &p.sels[sel.i]
		switch key {
		case "to":
			s.To = val
		case "from":
			s.From = val
		case "partition":
			s.Partition, s.HasPartition = toTP(val), true
		}
		return true, ""
	}
	o, named := f.opt(key)
	_, _, isTP := splitTP(key)
	switch {
	case named:
		if m := o.check(p, val); m != "" {
			return false, p.ctx + ": " + shown + ": " + m
		}
	case f.keyed != nil && isTP:
		if m := f.keyed.key(p, key); m != "" {
			return false, p.ctx + ": " + show(key) + ": " + m
		}
		if m := f.keyed.val(p, val); m != "" {
			return false, p.ctx + ": " + shown + ": " + m
		}
	default:
		return false, p.unknownOption(key, val)
	}
	if seen[key] {
		return false, p.ctx + ": " + key + "= is given twice"
	}
	seen[key] = true
	return false, ""
}

// knownKey reports whether the form accepts an option with this key at all,
// so that an unknown option is reported before a wrong word count: in
// "A send t-0 k=v" the problem is the unquoted '=', not a missing value.
func (p *pctx) knownKey(key string) bool {
	_, named := p.f.opt(key)
	_, _, isTP := splitTP(key)
	return named || (p.f.hasMsg() && contains(filterKeys, key)) || (p.f.keyed != nil && isTP)
}

func (p *pctx) unknownOption(key, val string) string {
	f, shown := p.f, showOpt(key, val)
	keys := f.optKeys()
	if f.hasMsg() {
		keys = append(keys, filterKeys...)
	}
	if f.rest != nil && f.rest.name == "VALUE" {
		return p.ctx + ": " + shown + " is not an option; to send a value that contains '=', quote it: " +
			strconv.Quote(key+"="+val)
	}
	if f.keyed != nil {
		keys = append(keys, f.keyed.ph)
	}
	if len(keys) == 0 {
		return p.ctx + " takes no options, got " + shown + ": \"" + p.usage() + "\""
	}
	return p.ctx + ": unknown option " + show(key) + "; expected " + orList(keys) + didYouMean(key, f.optKeys())
}

// missing reports required options that are absent.
func (p *pctx) missing() string {
	f := p.f
	for _, o := range f.opts {
		if _, ok := p.opt(o.key); o.required && !ok {
			return p.ctx + " needs " + o.key + "=" + o.ph + ": \"" + p.usage() + "\""
		}
	}
	if f.keyed != nil && len(p.keyedOpts()) < f.keyed.min {
		return p.ctx + " needs " + f.need + ": \"" + p.usage() + "\""
	}
	if len(p.opts) < f.optMin {
		return p.ctx + " needs at least one KEY=VALUE setting: \"" + p.usage() + "\""
	}
	return ""
}

// keyedOpts returns the options whose key is a value (sendOffsetsToTransaction's
// and commitSync's TP=OFFSET), in order, leaving out the named options.
func (p *pctx) keyedOpts() []kv {
	if p.f.keyed == nil {
		return nil
	}
	var out []kv
	for _, o := range p.opts {
		if _, named := p.f.opt(o.Key); !named {
			out = append(out, o)
		}
	}
	return out
}
