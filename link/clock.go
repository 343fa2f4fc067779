//go:build linux

package link

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// time.Sleep overshoots by 0.3–1 ms on Linux (the runtime's timers), which
// would swamp a LAN's 0.1 ms latency and add percent-level errors to WiFi.
// The delivery goroutines therefore run on their own OS thread with a 1 ns
// timer slack and sleep with nanosleep(2) (hrtimers: ≈ 50–120 µs overshoot
// measured on this project's CI machine), and on links faster than
// spinLatency finish the last spinWindow of each wait by polling the clock
// (≈ 0.3 µs median overshoot measured). docs/tls.md has the measurements.
const (
	spinWindow  = 250 * time.Microsecond
	spinLatency = 5 * time.Millisecond
)

// precise prepares the calling goroutine for sleepUntil: it locks it to its
// OS thread (which exits with the goroutine) and sets that thread's timer
// slack to 1 ns (prctl(2) PR_SET_TIMERSLACK).
func precise() {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
}

// sleepUntil waits until t, spinning for the last spin of the wait.
func sleepUntil(t time.Time, spin time.Duration) {
	if d := time.Until(t) - spin; d > 0 {
		ts := unix.NsecToTimespec(int64(d))
		for unix.Nanosleep(&ts, &ts) == unix.EINTR {
		}
	}
	for spin > 0 && time.Now().Before(t) {
	}
}
