package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bashShim loads the bash-completion package, whose functions cobra's
// bash script calls (.ci/run installs it). Where it is not installed, two
// small stand-ins do what those functions do for these cases:
// _get_comp_words_by_ref sets the words, the current word and the one
// before it; _filedir EXTS adds the files with those extensions and the
// directories.
const bashShim = `
if [[ -r /usr/share/bash-completion/bash_completion ]]; then
  source /usr/share/bash-completion/bash_completion
fi
if ! declare -F _get_comp_words_by_ref >/dev/null; then
  shopt -s extglob
  _get_comp_words_by_ref() {
    words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
  }
  _filedir() {
    local IFS=$'\n'
    COMPREPLY+=( $(compgen -f -X "!*.@($1)" -- "$cur") $(compgen -d -- "$cur") )
  }
fi
`

// TestBashCompletion sources the bash script that 'eoslab completion bash'
// writes, and completes command lines with it the way bash does on tab:
// the script calls 'eoslab __complete'. eoslab is this test binary under
// that name, which runs Main on its arguments (TestMain): the same code as
// the eoslab binary (main.go calls Main and nothing else), without a go
// build.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "eoslab")); err != nil {
		t.Fatal(err)
	}
	eoslab := exec.Command(filepath.Join(bin, "eoslab"), "completion", "bash")
	eoslab.Env = append(os.Environ(), "EOSLAB_TEST_AS_MAIN=argv")
	script, err := eoslab.Output()
	if err != nil {
		t.Fatalf("eoslab completion bash: %v", err)
	}
	scriptFile := filepath.Join(bin, "eoslab.bash")
	if err := os.WriteFile(scriptFile, append([]byte(bashShim), script...), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory of files for the file completions.
	files := t.TempDir()
	for _, f := range []string{"a.scn", "b.lesson", "c.txt"} {
		if err := os.WriteFile(filepath.Join(files, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	complete := func(line string) []string {
		t.Helper()
		c := exec.Command(bash, "--norc", "--noprofile", "-c", `source "$1"
COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<<"$2"; [[ "$2" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
__start_eoslab
printf '%s\n' "${COMPREPLY[@]}"`, "bash", scriptFile, line)
		c.Dir = files
		c.Env = append(os.Environ(), "EOSLAB_TEST_AS_MAIN=argv", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		// Standard error is left out: compopt says it is not in a
		// completion, which is true and harmless.
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%q: %v\n%s", line, err, out)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				got = append(got, l)
			}
		}
		slices.Sort(got)
		return got
	}
	for _, c := range []struct {
		line string
		want []string
	}{
		{"eoslab les", []string{"lesson", "lessons"}},
		{"eoslab lesson zom", []string{"zombie"}},
		{"eoslab lesson zombie --kaf", []string{"--kafka"}},
		{"eoslab run --kafka ", []string{"3", "4"}},
		{"eoslab run --lesson abo", []string{"abort"}},
		{"eoslab run ", []string{"a.scn", "b.lesson"}},
		{"eoslab check b", []string{"b.lesson"}},
		{"eoslab help sce", []string{"scenario"}},
	} {
		if got := complete(c.line); !slices.Equal(got, c.want) {
			t.Errorf("%q completes to %q, want %q", c.line, got, c.want)
		}
	}
}
