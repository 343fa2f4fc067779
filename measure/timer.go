package measure

import (
	"slices"
)

// TimerCalibration describes the clock as the engine sees it.
type TimerCalibration struct {
	// ResolutionNs is the smallest non-zero step of Clock.Now observed.
	ResolutionNs float64
	// OverheadNs is the cost of one empty timed call: two clock reads
	// and a call of an empty Run, the fixed cost added to every sample.
	OverheadNs float64
	// CPUOverheadNs is the cost of reading the thread CPU clock twice
	// (its sample's fixed cost, a system call here); 0 without one.
	CPUOverheadNs float64
	Clock         string
}

// CalibrateTimer measures the clock's resolution and the fixed per-sample
// overhead (the median of 1001 empty timed calls).
func CalibrateTimer(clk Clock) TimerCalibration {
	res := int64(1 << 62)
	for range 200 {
		t0 := clk.Now()
		t1 := clk.Now()
		for t1 == t0 {
			t1 = clk.Now()
		}
		res = min(res, t1-t0)
	}
	empty := func(n int) error {
		for range n {
		}
		return nil
	}
	d := make([]int64, 1001)
	for i := range d {
		t0 := clk.Now()
		_ = empty(0)
		d[i] = clk.Now() - t0
	}
	slices.Sort(d)
	cal := TimerCalibration{ResolutionNs: float64(res), OverheadNs: float64(d[len(d)/2]), Clock: clk.Name()}
	if _, ok := clk.ThreadCPU(); ok {
		for i := range d {
			t0 := clk.Now()
			clk.ThreadCPU()
			clk.ThreadCPU()
			d[i] = clk.Now() - t0
		}
		slices.Sort(d)
		cal.CPUOverheadNs = float64(d[len(d)/2])
	}
	return cal
}
