package cli

import (
	"strings"
	"testing"
	"time"
)

// A Long text's line that starts with a dot is text, not a roff request;
// backslashes and hyphens are escaped; indented lines stay as written.
func TestManPageEscapes(t *testing.T) {
	cmd := manCommand()
	cmd.Long = "first\n.not a request\n  indented \\ line\n\nnext -x"
	page := manPage(cmd, time.Unix(0, 0).UTC())
	for _, want := range []string{"\n\\&.not a request\n", "\n.nf\n  indented \\e line\n.fi\n", "\n.PP\nnext \\-x\n", `.TH "MAN" "1" "Jan 1970"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
}
