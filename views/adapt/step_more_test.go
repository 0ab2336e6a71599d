package adapt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/eoslab/eoslab/lessons"
	"github.com/eoslab/eoslab/views"
	"github.com/eoslab/eoslab/views/model"
)

// namedRows is what each row a step names reads like on screen: a
// partition subject's rows the step changed or a consumer returned in
// it, and a consumer subject's records of the step.
func namedRows(f *model.Frame, s model.Subject) []string {
	var out []string
	switch s.Kind {
	case model.SubjectPartition:
		for _, pv := range f.Partitions {
			if pv.Name != s.Name {
				continue
			}
			for _, r := range pv.Rows {
				got := false
				for _, c := range f.Consumers {
					for _, x := range c.Records {
						got = got || x.Changed && x.Partition == pv.Name && x.Offset >= r.First && x.Offset <= max(r.First, r.Last)
					}
				}
				if !r.Changed && !got {
					continue
				}
				if r.Kind == model.RowData {
					out = append(out, " "+r.Offsets()+" \x00"+r.Values[0])
				} else {
					out = append(out, r.Kind.String()+" marker")
				}
			}
		}
	case model.SubjectConsumer:
		for _, c := range f.Consumers {
			if c.Name == s.Name {
				for _, r := range c.Records {
					if r.Changed {
						out = append(out, r.Partition+"@"+itoa(int(r.Offset))+" ")
					}
				}
			}
		}
	}
	return out
}

// TestStepNamedRowsShownOrCounted: on every step of every lesson under
// both Kafka versions at 80x24 and 60x20, every row the step names is on
// screen or the step view counts the rows it leaves out ("more"): the
// step view never drops what the step is about without a sign.
func TestStepNamedRowsShownOrCounted(t *testing.T) {
	t.Parallel()
	bad, all := 0, 0
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		for _, m := range lessons.All() {
			for _, k := range lessons.Versions {
				p := openPlayer(t, m.Name, size[0], size[1], views.Options{Kafka: k, NoColor: true})
				s := p.session()
				for pos := 1; pos <= s.Len(); pos++ {
					p.to(pos)
					f := s.Frame()
					seen := ansi.Strip(p.m.View())
					counted := strings.Contains(seen, " more")
					for _, sub := range f.Show {
						for _, mk := range namedRows(&f, sub) {
							all++
							if !onOneLine(seen, mk) && !counted {
								bad++
								t.Errorf("%s under Kafka %d at %dx%d, step %d: %s %q names %q, neither shown nor counted\n%s",
									m.Name, k, size[0], size[1], pos, kindName(sub.Kind), sub.Name, mk, seen)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d of %d named rows neither shown nor counted", bad, all)
}

// onOneLine says whether one line of the screen holds every part of mk
// (parts split by NUL), in order.
func onOneLine(screen, mk string) bool {
	for _, l := range strings.Split(screen, "\n") {
		rest, ok := l, true
		for _, part := range strings.Split(mk, "\x00") {
			i := strings.Index(rest, part)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(part):]
		}
		if ok {
			return true
		}
	}
	return false
}
