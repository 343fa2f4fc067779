package measure

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

type perfCycles struct{ fd int }

func openCycleCounter() (CycleCounter, error) {
	attr := unix.PerfEventAttr{
		Type:   unix.PERF_TYPE_HARDWARE,
		Config: unix.PERF_COUNT_HW_CPU_CYCLES,
		Size:   uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
		// Count user space only: the operation, not the kernel's work
		// on our behalf (there is none in a CPU-bound primitive).
		Bits: unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
	}
	fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		return nil, perfError(err)
	}
	return &perfCycles{fd: fd}, nil
}

func perfError(err error) error {
	switch {
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.ENODEV):
		return fmt.Errorf("no hardware cycle counter (perf_event_open: %v): a virtual machine without a virtual PMU, or a CPU the kernel has no driver for", err)
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM):
		level, _ := os.ReadFile("/proc/sys/kernel/perf_event_paranoid")
		return fmt.Errorf("cycle counter not permitted (perf_event_open: %v; perf_event_paranoid = %s): run as root or set kernel.perf_event_paranoid to 2 or less", err, strings.TrimSpace(string(level)))
	}
	return fmt.Errorf("perf_event_open: %w", err)
}

func (p *perfCycles) Cycles() (uint64, error) {
	var buf [8]byte
	if _, err := unix.Read(p.fd, buf[:]); err != nil {
		return 0, fmt.Errorf("reading cycle counter: %w", err)
	}
	return binary.NativeEndian.Uint64(buf[:]), nil
}

func (p *perfCycles) Close() error { return unix.Close(p.fd) }
