package mcu

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxOutput caps what a firmware may print: a runaway firmware printing
// forever is killed, not buffered.
const MaxOutput = 1 << 20

// HangError says the firmware did not finish in time and was killed.
type HangError struct {
	Timeout time.Duration
	Lines   int
	Last    string
}

func (e *HangError) Error() string {
	last := "nothing"
	if e.Last != "" {
		last = fmt.Sprintf("%q", e.Last)
	}
	return fmt.Sprintf("the firmware did not finish within %s and was killed (it printed %d lines; the last: %s); give it longer with --timeout if it is only slow", e.Timeout, e.Lines, last)
}

// simCommand is the simulator's command line for img, and whether the
// firmware's lines arrive on the process's stdout (QEMU's serial port) or
// its stderr (simavr's UART).
func (tc *Toolchain) simCommand(img *Image, plugin []string) (*exec.Cmd, bool) {
	t := img.Target
	if !simulators[t.Simulator.Name].qemu {
		return exec.Command(tc.Sim, "-m", t.Simulator.Machine, "-f", strconv.FormatFloat(t.ClockHz(), 'f', 0, 64), img.ELF), false
	}
	args := []string{"-machine", t.Simulator.Machine, "-nodefaults", "-nic", "none", "-display", "none", "-monitor", "none",
		"-serial", "stdio",
		// each instruction advances virtual time by exactly 2^shift ns,
		// whatever the host does: the board timer counts instructions
		"-icount", fmt.Sprintf("shift=%d,align=off,sleep=off", t.Simulator.IcountShift)}
	if t.Build.Toolchain == "arm-none-eabi" {
		// SYS_EXIT ends the run
		args = append(args, "-semihosting-config", "enable=on,target=native")
	} else {
		args = append(args, "-bios", "none")
	}
	if len(plugin) > 0 {
		args = append(args, "-plugin", strings.Join(plugin, ","))
	}
	args = append(args, "-kernel", img.ELF)
	return exec.Command(tc.Sim, args...), true
}

// Simulate runs the image at the target's clock until the firmware stops
// the simulator, the timeout passes (it is killed: a *HangError), it prints
// more than MaxOutput, or ctx is cancelled. The Output holds what was
// printed in every case. For a target with a cycle estimate the run is
// profiled (profiler.c) and the Output holds each measurement's window.
func (tc *Toolchain) Simulate(ctx context.Context, img *Image, timeout time.Duration) (*Output, time.Duration, error) {
	parser := NewOutputParser()
	var plugin []string
	var profile string
	if img.Target.Simulator.CycleRule != "" {
		so, err := tc.profilerPlugin(ctx, filepath.Dir(img.Dir))
		if err != nil {
			return parser.Output(), 0, err
		}
		marks, err := profilerMarks(img.ELF)
		if err != nil {
			return parser.Output(), 0, fmt.Errorf("%s: %w", img.ELF, err)
		}
		dir, err := os.MkdirTemp("", "cryptocost-profile-")
		if err != nil {
			return parser.Output(), 0, err
		}
		defer os.RemoveAll(dir)
		profile = filepath.Join(dir, "windows.txt")
		plugin = append([]string{so}, marks...)
		plugin = append(plugin, "out="+profile)
	}
	start := time.Now()
	cmd, onStdout := tc.simCommand(img, plugin)
	var diag bytes.Buffer // the simulator's own messages
	var lines io.ReadCloser
	var err error
	if onStdout {
		cmd.Stderr = &limitedBuffer{buf: &diag, max: 64 << 10}
		lines, err = cmd.StdoutPipe()
	} else {
		cmd.Stdout = &limitedBuffer{buf: &diag, max: 64 << 10}
		lines, err = cmd.StderrPipe()
	}
	if err != nil {
		return parser.Output(), 0, err
	}
	if err := cmd.Start(); err != nil {
		return parser.Output(), 0, fmt.Errorf("starting %s: %w", img.Target.Simulator.Name, err)
	}

	var (
		mu     sync.Mutex
		reason error // why the process was killed
	)
	kill := func(err error) {
		mu.Lock()
		if reason == nil {
			reason = err
			cmd.Process.Kill()
		}
		mu.Unlock()
	}
	timer := time.AfterFunc(timeout, func() { kill(errTimeout) })
	defer timer.Stop()
	stop := context.AfterFunc(ctx, func() { kill(ctx.Err()) })
	defer stop()

	var parseErr error
	sc := bufio.NewScanner(io.LimitReader(lines, MaxOutput+1))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	read := 0
	for sc.Scan() {
		read += len(sc.Bytes()) + 1
		if parseErr == nil {
			if parseErr = parser.Line(sc.Text()); parseErr != nil {
				kill(parseErr)
			}
		}
		if read > MaxOutput {
			kill(fmt.Errorf("the firmware printed more than %d bytes and was killed", MaxOutput))
		}
	}
	io.Copy(io.Discard, lines)
	waitErr := cmd.Wait()
	elapsed := time.Since(start)
	out := parser.Output()
	if profile != "" {
		// what was profiled before a kill is kept, as the lines are
		if ws, err := readWindows(profile); err == nil {
			out.Windows = ws
		} else if waitErr == nil && reason == nil {
			return out, elapsed, fmt.Errorf("the instruction profile: %w", err)
		}
	}

	mu.Lock()
	killed := reason
	mu.Unlock()
	// QEMU exits with status 1 when the firmware reports a failed
	// known-answer test; its lines say which.
	var exit *exec.ExitError
	failedKAT := errors.As(waitErr, &exit) && exit.ExitCode() == 1 && out.Ended && out.Failed > 0
	switch {
	case errors.Is(killed, errTimeout):
		return out, elapsed, &HangError{Timeout: timeout, Lines: out.Lines, Last: out.Last}
	case killed != nil:
		return out, elapsed, killed
	case out.Fault != "":
		return out, elapsed, fmt.Errorf("the firmware crashed: %s; it printed %d lines, the last %q", out.Fault, out.Lines, out.Last)
	case waitErr != nil && !failedKAT:
		return out, elapsed, fmt.Errorf("%s failed: %v: %s", img.Target.Simulator.Name, waitErr, tail(diag.String()))
	case !out.Ended:
		return out, elapsed, fmt.Errorf("the firmware stopped before its end line (a crash?); it printed %d lines, the last %q; %s said: %s",
			out.Lines, out.Last, img.Target.Simulator.Name, tail(diag.String()))
	}
	return out, elapsed, nil
}

var errTimeout = errors.New("timeout")

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 400 {
		s = "…" + s[len(s)-400:]
	}
	if s == "" {
		return "nothing"
	}
	return s
}

// limitedBuffer keeps the first max bytes written and drops the rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
