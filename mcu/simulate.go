package mcu

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
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

// Simulate runs the image in simavr at the target's clock until the
// firmware sleeps with interrupts off (simavr then exits), the timeout
// passes (it is killed: a *HangError), it prints more than MaxOutput, or
// ctx is cancelled. The Output holds what was printed in every case.
func (tc *Toolchain) Simulate(ctx context.Context, img *Image, timeout time.Duration) (*Output, time.Duration, error) {
	parser := NewOutputParser()
	start := time.Now()
	cmd := exec.Command(tc.Simavr, "-m", img.Target.MCU, "-f", strconv.FormatFloat(img.Target.ClockHz(), 'f', 0, 64), img.ELF)
	var stdout bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &stdout, max: 64 << 10}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return parser.Output(), 0, err
	}
	if err := cmd.Start(); err != nil {
		return parser.Output(), 0, fmt.Errorf("starting simavr: %w", err)
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

	// UART lines arrive on stderr; simavr's own notes on stdout.
	var parseErr error
	sc := bufio.NewScanner(io.LimitReader(stderr, MaxOutput+1))
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
	io.Copy(io.Discard, stderr)
	waitErr := cmd.Wait()
	elapsed := time.Since(start)
	out := parser.Output()

	mu.Lock()
	killed := reason
	mu.Unlock()
	switch {
	case errors.Is(killed, errTimeout):
		return out, elapsed, &HangError{Timeout: timeout, Lines: out.Lines, Last: out.Last}
	case killed != nil:
		return out, elapsed, killed
	case waitErr != nil:
		return out, elapsed, fmt.Errorf("simavr failed: %v: %s", waitErr, tail(stdout.String()))
	case !out.Ended:
		return out, elapsed, fmt.Errorf("the firmware stopped before its end line (a crash?); it printed %d lines, the last %q; simavr said: %s",
			out.Lines, out.Last, tail(stdout.String()))
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
