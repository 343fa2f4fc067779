package measure

// Reference times a fixed CPU-bound workload: a yardstick for how fast the
// machine is running right now. Shared and virtual machines have phases —
// a busy sibling hyperthread, a neighbour's burst — in which everything runs
// slower (here: 60 % slower for ~100 ms at a time). A runner probes the
// reference beside its samples; a point measured while the reference ran
// slower than usual is flagged rather than silently reported.
//
// The workload is a dependent chain of multiply-xorshift steps: latency
// bound, no memory traffic, so it tracks core speed and contention, not
// caches. Reference returns the fastest of three timings (ns) on the wall
// clock and on the thread's CPU clock (0 without one). Being the fastest
// of three short (~10 µs) runs, the wall timing rarely includes a wait
// for a core; both track how fast the core runs the thread — a busy
// sibling hyperthread, a throttled clock — which the CPU-time statistic
// is not immune to.
func Reference(clk Clock) (wallNs, cpuNs float64) {
	best, bestCPU := int64(1<<62), int64(1<<62)
	for range 3 {
		c0, ok := clk.ThreadCPU()
		t0 := clk.Now()
		referenceSink = referenceWork(referenceSink | 1)
		best = min(best, clk.Now()-t0)
		if c1, _ := clk.ThreadCPU(); ok {
			bestCPU = min(bestCPU, c1-c0)
		}
	}
	if bestCPU == 1<<62 {
		bestCPU = 0
	}
	return float64(best), float64(bestCPU)
}

// referenceSink keeps the compiler from discarding the workload.
var referenceSink uint64

//go:noinline
func referenceWork(x uint64) uint64 {
	for range 4096 {
		x *= 0x9E3779B97F4A7C15
		x ^= x >> 29
	}
	return x
}
