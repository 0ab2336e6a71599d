package main

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"eoslab/views"
	"eoslab/views/adapt"
)

// sandboxCmd opens the sandbox on the preset picker, or on a scenario file
// played to its end.
func sandboxCmd(g globalFlags) error {
	if g.json || g.lesson != "" {
		return invalid("eoslab: sandbox takes no --json or --lesson (see 'eoslab help sandbox')")
	}
	if len(g.rest) > 1 {
		return invalid("eoslab: sandbox takes at most one scenario file (see 'eoslab help sandbox')")
	}
	if len(g.rest) == 1 && g.kafka != 0 {
		return invalid("eoslab: sandbox --kafka picks the presets' protocol; a file sets its own with 'config transaction.version=N'")
	}
	opts := withSandbox(views.Options{NoColor: g.noColor, ASCII: g.ascii, Kafka: g.kafka}).WithEnv(os.Getenv)
	var sess views.SandboxSession
	if len(g.rest) == 1 {
		s, err := openSandboxFile(g.rest[0])
		if err != nil {
			return err
		}
		sess = s
	}
	return runTUI(views.NewSandbox(opts.SandboxPresets, opts.OpenSandbox, sess, opts))
}

// openSandboxFile reads a scenario file for the sandbox; a bad file is
// invalid input (exit 2) with its file:line.
func openSandboxFile(path string) (*adapt.Sandbox, error) {
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	src, err := io.ReadAll(io.LimitReader(in, 1<<20+1))
	in.Close()
	if err != nil {
		return nil, invalid("eoslab: %s: %v", path, err)
	}
	if len(src) > 1<<20 {
		return nil, invalid("eoslab: %s: larger than 1 MiB; a sandbox file is a scenario of a few hundred lines", path)
	}
	s, err := adapt.OpenSandboxFile(path, src)
	if err != nil {
		return nil, asInvalid(err)
	}
	return s, nil
}

// withSandbox gives the app the sandbox's presets and file saving.
func withSandbox(o views.Options) views.Options {
	o.SandboxPresets = adapt.SandboxPresets()
	k := o.Kafka
	o.OpenSandbox = func(name string) (views.SandboxSession, error) { return adapt.OpenSandboxKafka(name, k) }
	o.SaveFile = saveNew
	return o
}

// saveNew writes data to name in the current directory, or, when a file of
// that name exists, to the first free name-2, name-3, ...: it never
// overwrites. It returns the name written.
func saveNew(name string, data []byte) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return "", errors.New("bad file name " + strconv.Quote(name))
	}
	stem, ext := name, ""
	if i := strings.LastIndex(name, "."); i > 0 {
		stem, ext = name[:i], name[i:]
	}
	for n := 1; n < 1000; n++ {
		p := name
		if n > 1 {
			p = stem + "-" + strconv.Itoa(n) + ext
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return "", werr
		}
		return p, nil
	}
	return "", errors.New("999 files named like " + name + " exist already")
}
