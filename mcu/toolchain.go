package mcu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Toolchain is the AVR compiler, binutils and the simulator, found on PATH.
type Toolchain struct {
	GCC, Size, Simavr string // paths
	GCCVersion        string // "avr-gcc (GCC) 5.4.0"
	SimavrVersion     string // the Debian package version when dpkg knows it
}

// debianPackages are what `apt-get install` needs for each tool; the same
// list is in scripts/deps/mcu.txt.
var debianPackages = []struct{ tool, pkg string }{
	{"avr-gcc", "gcc-avr"},
	{"avr-size", "binutils-avr"},
	{"simavr", "simavr"},
}

// ErrNoToolchain is returned (wrapped) when a tool or avr-libc is missing.
var ErrNoToolchain = errors.New("AVR toolchain or simulator missing")

const installHint = "install the Debian packages gcc-avr, binutils-avr, avr-libc and simavr (sudo apt-get install gcc-avr binutils-avr avr-libc simavr)"

// FindToolchain looks up avr-gcc, avr-size and simavr and checks that
// avr-libc's headers are there, before any work starts.
func FindToolchain(ctx context.Context) (*Toolchain, error) {
	var tc Toolchain
	var missing []string
	for _, t := range debianPackages {
		p, err := exec.LookPath(t.tool)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s (Debian package %s)", t.tool, t.pkg))
			continue
		}
		switch t.tool {
		case "avr-gcc":
			tc.GCC = p
		case "avr-size":
			tc.Size = p
		case "simavr":
			tc.Simavr = p
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: %s not found on PATH: %s", ErrNoToolchain, strings.Join(missing, ", "), installHint)
	}
	out, err := exec.CommandContext(ctx, tc.GCC, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s --version: %v: %s", ErrNoToolchain, tc.GCC, err, installHint)
	}
	tc.GCCVersion, _, _ = strings.Cut(string(out), "\n")
	// avr-libc is headers and libraries only: ask the compiler for one.
	cmd := exec.CommandContext(ctx, tc.GCC, "-mmcu=atmega328p", "-E", "-x", "c", "-")
	cmd.Stdin = strings.NewReader("#include <avr/io.h>\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: avr-gcc cannot find avr-libc's <avr/io.h> (Debian package avr-libc): %s: %s",
			ErrNoToolchain, strings.TrimSpace(stderr.String()), installHint)
	}
	tc.SimavrVersion = "simavr"
	if v, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f", "${Version}", "simavr").Output(); err == nil && len(v) > 0 {
		tc.SimavrVersion = "simavr " + string(v)
	}
	return &tc, nil
}
