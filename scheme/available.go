package scheme

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// Available reports whether s can run on this machine: nil, or an error
// saying why not (its code needs an instruction this CPU lacks). Schemes of
// a C provider exist only once its library has loaded, so they are
// available; a provider that did not load is reported by Providers.
func Available(s Scheme) error {
	if a, ok := s.(interface{ available() error }); ok {
		return a.available()
	}
	return nil
}

// ErrUnavailable wraps every reason a scheme cannot run here.
var ErrUnavailable = errors.New("unavailable on this machine")

// cpuProbeEnv names the probe a child process runs (see cpuProbe).
const cpuProbeEnv = "CRYPTOCOST_CPU_PROBE"

// cpuProbes are code paths that a CPU may advertise but not execute: each
// is run in a child process before its scheme is first used.
var cpuProbes = map[string]func(){}

// cpuProbe returns a check that runs probe name in a child process (this
// executable, re-run with CRYPTOCOST_CPU_PROBE=name, stops after its
// package inits), once, and reports the scheme unavailable if the child
// dies on an illegal instruction. A CPU can advertise an extension the
// emulator or silicon does not implement (qemu-aarch64 7.2's default CPU
// advertises the SM4 instructions gmsm's key expansion uses, then raises
// SIGILL on them): the signal would kill the whole process, so it is met
// in a child.
func cpuProbe(name, what string, needed func() bool, probe func()) func() error {
	cpuProbes[name] = probe
	return sync.OnceValue(func() error {
		if !needed() {
			return nil
		}
		exe, err := os.Executable()
		if err != nil {
			return nil // cannot probe: assume the CPU means what it advertises
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), cpuProbeEnv+"="+name)
		err = cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGILL {
				return fmt.Errorf("%w: %s, but this CPU raises SIGILL on them", ErrUnavailable, what)
			}
		}
		return nil
	})
}

// runCPUProbe is the child side of cpuProbe: it runs the named probe and
// exits. It is called from init only when the variable is set, so a normal
// start does no work here.
func runCPUProbe() {
	name := os.Getenv(cpuProbeEnv)
	if name == "" {
		return
	}
	if probe, ok := cpuProbes[name]; ok {
		probe()
		os.Exit(0)
	}
	os.Exit(3)
}
