package cli

import (
	"strconv"
	"strings"
)

func quote(s string) string { return strconv.Quote(s) }

// orList writes a, b or c.
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
