package cli

import (
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/eoslab/eoslab/engine"
)

// Every command's --help is its definition: the usage line, the prose and
// every flag with its usage.
func TestHelpComesFromTheDefinitions(t *testing.T) {
	root := newRoot(io.Discard, io.Discard, true)
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			continue
		}
		code, out, errs := runCLI(t, "help", c.Name())
		if code != 0 || errs != "" || !strings.Contains(out, strings.TrimSpace(c.Long)[:40]) {
			t.Errorf("help %s: code %d err %q:\n%s", c.Name(), code, errs, out)
		}
		if !c.Runnable() {
			continue
		}
		if _, out2, _ := runCLI(t, c.Name(), "--help"); out2 != out {
			t.Errorf("%s --help differs from help %s", c.Name(), c.Name())
		}
		if !strings.Contains(out, "eoslab "+c.Use) {
			t.Errorf("help %s has no usage line %q", c.Name(), "eoslab "+c.Use)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(out, "--"+f.Name) || !strings.Contains(out, strings.SplitN(f.Usage, "`", 2)[0]) {
				t.Errorf("help %s does not show --%s with its usage", c.Name(), f.Name)
			}
		})
	}
	_, out, _ := runCLI(t, "--help")
	for _, c := range root.Commands() {
		if !strings.Contains(out, c.Name()) {
			t.Errorf("--help does not list %s", c.Name())
		}
	}
}

// A mistyped command is one line with the commands it is close to.
func TestUnknownCommandSuggests(t *testing.T) {
	code, out, errs := runCLI(t, "lesons")
	if code != 2 || out != "" || errs != "eoslab: unknown command \"lesons\"; did you mean lessons or lesson? (see 'eoslab --help')\n" {
		t.Fatalf("code %d out %q err %q", code, out, errs)
	}
	if code, _, errs := runCLI(t, "sandbx"); code != 2 || !strings.Contains(errs, "did you mean sandbox?") {
		t.Fatalf("sandbx: %d %q", code, errs)
	}
	// A long flag with one dash, which Go's flag package took (serve
	// -addr worked), is named, not read as -a with the value "ddr".
	for _, c := range []struct{ args []string }{{[]string{"serve", "-addr", "1:2"}}, {[]string{"run", "-json", "x.scn"}}, {[]string{"-no-color"}}} {
		flag := c.args[0]
		if len(c.args) > 1 {
			flag = c.args[1]
		}
		if code, _, errs := runCLI(t, c.args...); code != 2 || !strings.Contains(errs, flag+": a long flag takes two dashes: -"+flag) {
			t.Errorf("%v: %d %q", c.args, code, errs)
		}
	}
	if code, out, errs := runCLI(t, "run", "-k4", "-l", "zombie"); code != 0 || !strings.Contains(out, "kafka: 4.x") {
		t.Errorf("-k4 -l zombie: %d %q", code, errs)
	}
	// A bad flag value is one line, with no usage after it.
	if code, _, errs := runCLI(t, "run", "--kafka=2", "x.scn"); code != 2 || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "Usage") {
		t.Fatalf("--kafka=2: %d %q", code, errs)
	}
}

// --version names the module version and the Kafka versions followed.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "-v"} {
		code, out, errs := runCLI(t, arg)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "eoslab ") ||
			!strings.Contains(out, "Kafka 3.x") || !strings.Contains(out, "Kafka "+engine.DefaultConfig().TV2.Name) {
			t.Fatalf("%s: code %d err %q out %q", arg, code, errs, out)
		}
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && !strings.HasPrefix(out, "eoslab "+bi.Main.Version+"\n") {
			t.Errorf("%s: %q does not name the module version %s", arg, out, bi.Main.Version)
		}
	}
}

// completion writes the scripts of cobra for bash, zsh and fish; man
// writes a page that names every command.
func TestCompletionScriptsAndMan(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, errs := runCLI(t, "completion", sh)
		if code != 0 || errs != "" || !strings.Contains(out, "__complete") {
			t.Errorf("completion %s: code %d err %q, %d bytes", sh, code, errs, len(out))
		}
	}
	code, out, errs := runCLI(t, "man")
	if code != 0 || errs != "" || !strings.HasPrefix(out, ".nh\n.TH \"EOSLAB\" \"1\"") {
		t.Fatalf("man: code %d err %q\n%.200s", code, errs, out)
	}
	for _, c := range commands {
		if n := c().Name(); !strings.Contains(out, "eoslab-"+n+"(1)") {
			t.Errorf("man page does not name eoslab-%s(1)", n)
		}
	}
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "man", "--dir", dir); code != 0 {
		t.Fatalf("man --dir: %d %q", code, errs)
	}
}
