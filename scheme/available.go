package scheme

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
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

// cpuProbe returns a check that runs probe name in a child process (this
// executable, re-run with CRYPTOCOST_CPU_PROBE=name), once, and reports the
// scheme unavailable if the child dies on an illegal instruction. A CPU can
// advertise an extension that the emulator or silicon does not implement
// (qemu-aarch64 7.2's default CPU advertises the SM4 instructions gmsm's
// key expansion uses, then raises SIGILL on them), and the Go runtime ends
// the whole process on SIGILL in assembly ("SIGILL: illegal instruction",
// exit status 2), so it is met in a child.
//
// In the child, the probe runs as soon as it is registered (during package
// initialisation) and the process exits: nothing else runs there.
func cpuProbe(name, what string, needed func() bool, probe func()) func() error {
	if os.Getenv(cpuProbeEnv) == name {
		probe()
		os.Exit(0)
	}
	return sync.OnceValue(func() error {
		if !needed() {
			return nil
		}
		exe, err := os.Executable()
		if err != nil {
			return nil // cannot probe: take the CPU at its word
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, exe)
		cmd.Env = append(os.Environ(), cpuProbeEnv+"="+name)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			// The check cannot run (under qemu-user without binfmt_misc,
			// this executable cannot start itself): better unavailable
			// than a SIGILL that ends the whole run.
			return fmt.Errorf("%w: %s, and the check that they run could not start (%v)", ErrUnavailable, what, err)
		}
		if err := cmd.Wait(); err != nil && strings.Contains(stderr.String(), "SIGILL") {
			return fmt.Errorf("%w: %s, but this CPU raises SIGILL on them", ErrUnavailable, what)
		}
		return nil
	})
}
