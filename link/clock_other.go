//go:build !linux

package link

import "time"

const (
	spinWindow  = 250 * time.Microsecond
	spinLatency = 5 * time.Millisecond
)

// precise does nothing where nanosleep and timer slack are not available:
// waits then overshoot by the runtime timer's resolution.
func precise() {}

func sleepUntil(t time.Time, spin time.Duration) {
	time.Sleep(time.Until(t) - spin)
	for spin > 0 && time.Now().Before(t) {
	}
}
