package mcu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
)

// Toolchain is the compiler, binutils and simulator for one target, found on
// PATH, and the host C compiler when the target's cycle estimate needs the
// instruction profiler (a QEMU plugin built on the host).
type Toolchain struct {
	GCC, Size, Objdump string // cross compiler and binutils (paths)
	Sim                string // simavr or qemu-system-* (path)
	HostCC             string // the host's cc, for the profiler plugin ("" if not needed)
	GCCVersion         string // "avr-gcc (GCC) 5.4.0"
	SimVersion         string // "simavr 1.6+dfsg-5", "QEMU 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"

	spec *toolchainSpec
}

// toolchainSpec is one cross toolchain: its commands, the Debian packages
// that provide them, its C library and the flags every image gets.
type toolchainSpec struct {
	prefix string // "avr-", "arm-none-eabi-"
	// gccPkg and binutilsPkg provide prefix+gcc and prefix+size/objdump.
	gccPkg, binutilsPkg string
	// libcPkg is the C library; libcCheck is a header the compiler must
	// find with libcFlags.
	libcPkg   string
	libcFlags []string
	// cflags go on every compile; ldflags on the link.
	cflags, ldflags []string
}

// toolchainSpecs is the registry of cross toolchains, by name.
var toolchainSpecs = map[string]*toolchainSpec{
	"avr": {prefix: "avr-", gccPkg: "gcc-avr", binutilsPkg: "binutils-avr", libcPkg: "avr-libc"},
	// picolibc, the small C library for embedded parts; the harness has its
	// own start-up code and linker script (kernels/link.ld).
	"arm-none-eabi": {prefix: "arm-none-eabi-", gccPkg: "gcc-arm-none-eabi", binutilsPkg: "binutils-arm-none-eabi",
		libcPkg: "picolibc-arm-none-eabi", libcFlags: []string{"--specs=picolibc.specs"},
		// compat/ holds avr/pgmspace.h for cores with flash in the data
		// address space; unified syntax for the harness's inline assembly
		// on the Thumb-1 Cortex-M0.
		cflags:  []string{"--specs=picolibc.specs", "-Icompat", "-masm-syntax-unified"},
		ldflags: []string{"-nostartfiles", "-Tlink.ld"}},
	"riscv64-unknown-elf": {prefix: "riscv64-unknown-elf-", gccPkg: "gcc-riscv64-unknown-elf", binutilsPkg: "binutils-riscv64-unknown-elf",
		libcPkg: "picolibc-riscv64-unknown-elf", libcFlags: []string{"--specs=picolibc.specs"},
		cflags:  []string{"--specs=picolibc.specs", "-Icompat"},
		ldflags: []string{"-nostartfiles", "-Tlink.ld"}},
}

func toolchainNames() []string { return slices.Sorted(maps.Keys(toolchainSpecs)) }

// simulatorSpec is one simulator command and its Debian package.
type simulatorSpec struct {
	pkg  string
	qemu bool // QEMU (output on the serial port, -icount) rather than simavr
}

// simulators is the registry of simulators, by command.
var simulators = map[string]simulatorSpec{
	"simavr":              {pkg: "simavr"},
	"qemu-system-arm":     {pkg: "qemu-system-arm", qemu: true},
	"qemu-system-riscv32": {pkg: "qemu-system-misc", qemu: true},
}

func simulatorNames() []string { return slices.Sorted(maps.Keys(simulators)) }

// ErrNoToolchain is returned (wrapped) when a tool or the C library is missing.
var ErrNoToolchain = errors.New("toolchain or simulator missing")

// Packages are the Debian packages target t needs, in install order.
func Packages(t Target) []string {
	spec := toolchainSpecs[t.Build.Toolchain]
	pkgs := []string{spec.gccPkg, spec.binutilsPkg, spec.libcPkg, simulators[t.Simulator.Name].pkg}
	if t.Simulator.CycleRule != "" {
		pkgs = append(pkgs, "gcc")
	}
	return pkgs
}

// installHint names the packages and the command that installs them.
func installHint(t Target) string {
	pkgs := strings.Join(Packages(t), " ")
	return fmt.Sprintf("install the Debian packages %s (sudo apt-get install %s)", strings.Join(Packages(t), ", "), pkgs)
}

// FindToolchain looks up target t's compiler, binutils and simulator (and
// the host C compiler for a target with a cycle estimate) and checks that
// the C library's headers are there, before any work starts. A missing
// tool is an ErrNoToolchain naming its Debian package.
func FindToolchain(ctx context.Context, t Target) (*Toolchain, error) {
	spec := toolchainSpecs[t.Build.Toolchain]
	tc := Toolchain{spec: spec}
	sim := simulators[t.Simulator.Name]
	tools := []struct {
		cmd, pkg string
		dst      *string
	}{
		{spec.prefix + "gcc", spec.gccPkg, &tc.GCC},
		{spec.prefix + "size", spec.binutilsPkg, &tc.Size},
		{spec.prefix + "objdump", spec.binutilsPkg, &tc.Objdump},
		{t.Simulator.Name, sim.pkg, &tc.Sim},
	}
	if t.Simulator.CycleRule != "" {
		tools = append(tools, struct {
			cmd, pkg string
			dst      *string
		}{"gcc", "gcc", &tc.HostCC})
	}
	var missing []string
	for _, tool := range tools {
		p, err := exec.LookPath(tool.cmd)
		if err != nil {
			// objdump comes with size; name the package once
			if tool.cmd != spec.prefix+"objdump" || !slices.ContainsFunc(missing, func(m string) bool { return strings.Contains(m, tool.pkg) }) {
				missing = append(missing, fmt.Sprintf("%s (Debian package %s)", tool.cmd, tool.pkg))
			}
			continue
		}
		*tool.dst = p
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w for %s: %s not found on PATH: %s", ErrNoToolchain, t.Name, strings.Join(missing, ", "), installHint(t))
	}
	out, err := exec.CommandContext(ctx, tc.GCC, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%w for %s: %s --version: %v: %s", ErrNoToolchain, t.Name, tc.GCC, err, installHint(t))
	}
	tc.GCCVersion, _, _ = strings.Cut(string(out), "\n")
	// The C library is headers and libraries only: ask the compiler for
	// one of its headers.
	header := "string.h"
	if t.IsAVR() {
		header = "avr/io.h"
	}
	args := append(slices.Clone(t.Build.Flags), spec.libcFlags...)
	args = append(args, "-E", "-x", "c", "-")
	cmd := exec.CommandContext(ctx, tc.GCC, args...)
	cmd.Stdin = strings.NewReader("#include <" + header + ">\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w for %s: %s cannot find the C library's <%s> (Debian package %s): %s: %s",
			ErrNoToolchain, t.Name, spec.prefix+"gcc", header, spec.libcPkg, strings.TrimSpace(stderr.String()), installHint(t))
	}
	tc.SimVersion = simulatorVersion(ctx, t.Simulator.Name, tc.Sim, sim.pkg)
	return &tc, nil
}

// simulatorVersion names the simulator for provenance: QEMU's own version
// line, or the Debian package version of simavr (which has no --version).
func simulatorVersion(ctx context.Context, name, path, pkg string) string {
	if simulators[name].qemu {
		if out, err := exec.CommandContext(ctx, path, "--version").Output(); err == nil {
			line, _, _ := strings.Cut(string(out), "\n")
			return "QEMU " + strings.TrimSpace(strings.TrimPrefix(line, "QEMU emulator version "))
		}
		return name
	}
	if v, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f", "${Version}", pkg).Output(); err == nil && len(v) > 0 {
		return name + " " + string(v)
	}
	return name
}

// Toolchains finds the toolchain of every target of a plan, failing on the
// first that is missing.
func Toolchains(ctx context.Context, ts []Target) (map[string]*Toolchain, error) {
	out := map[string]*Toolchain{}
	for _, t := range ts {
		tc, err := FindToolchain(ctx, t)
		if err != nil {
			return nil, err
		}
		out[t.Name] = tc
	}
	return out, nil
}
