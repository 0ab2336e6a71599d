package adapt

import "testing"

// A file w saved, opened again, saves under its own name, not with the
// prefix twice (sandbox-sandbox-idempotent.scn).
func TestSaveNameNoDoublePrefix(t *testing.T) {
	x, err := OpenSandbox("idempotent")
	if err != nil {
		t.Fatal(err)
	}
	name := x.SaveName()
	if name != "sandbox-idempotent.scn" {
		t.Fatalf("preset saves as %q", name)
	}
	y, err := OpenSandboxFile(name, []byte(x.Scenario()))
	if err != nil {
		t.Fatal(err)
	}
	if got := y.SaveName(); got != name {
		t.Errorf("%s opened again saves as %q, want %q", name, got, name)
	}
}
