package scheme

import (
	"errors"
	"syscall"
	"testing"
)

// sigillCheck is a CPU probe whose code "cannot run here": the child raises
// SIGILL, as an unimplemented instruction would.
var sigillCheck = cpuProbe("test-sigill", "a test probe's code", func() bool { return true },
	func() { _ = syscall.Kill(syscall.Getpid(), syscall.SIGILL) })

var fineCheck = cpuProbe("test-fine", "a test probe's code", func() bool { return true }, func() {})

// TestCPUProbe runs both probes in child processes: the one dying on
// SIGILL is unavailable, the other is not. Full tier (two child processes).
func TestCPUProbe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes (-short)")
	}
	if err := sigillCheck(); !errors.Is(err, ErrUnavailable) {
		t.Errorf("a probe that dies on SIGILL: %v, want ErrUnavailable", err)
	}
	if err := fineCheck(); err != nil {
		t.Errorf("a probe that runs: %v, want available", err)
	}
}

// TestLookupPrefersGo registers a C provider's SHA-256 before sorting and
// checks the Go implementation still comes first. Fast tier.
func TestLookupPrefersGo(t *testing.T) {
	loadProviders()
	saved := cProviders
	t.Cleanup(func() { cProviders = saved })
	cProviders = append(cProviders, &CProvider{Name: "test-c"})
	c, err := Provide("SHA-256", "test-c", HashImpl{})
	if err != nil {
		t.Fatal(err)
	}
	goSHA := Must(Lookup("SHA-256"))
	ss := []Scheme{c, goSHA}
	sortPreferred(ss)
	if ss[0] != goSHA {
		t.Errorf("preferred %s, want the Go SHA-256", ss[0].Info().ID())
	}
	if _, err := Provide("No-Such-Hash", "test-c", HashImpl{}); err == nil {
		t.Error("Provide accepted a name the registry does not have")
	}
	if _, err := Provide("SHA-256", "test-c", AEADImpl{}); err == nil {
		t.Error("Provide accepted an AEAD implementation of a hash")
	}
}

// TestUnknownProvider: a provider nobody declared is an error that lists
// the known ones. Fast tier.
func TestUnknownProvider(t *testing.T) {
	if _, err := LookupProvider("nosuchlib"); err == nil {
		t.Fatal("LookupProvider accepted an unknown provider")
	}
	if _, err := LookupProvider("go"); err != nil {
		t.Errorf("LookupProvider(go): %v", err)
	}
}
