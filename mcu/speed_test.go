package mcu

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSimulatorSpeed is each simulator's speed on this host: the
// calibration image's loops (143 million instructions on the Cortex-M
// boards, 106 million on RV32, 51 million cycles on the AVRs), simulated
// cycles or instructions per second of host time (the whole simulation,
// start-up included), profiler included where the target estimates
// cycles. docs/benchmarks.md records it:
//
//	go test ./mcu -run XXX -bench SimulatorSpeed -benchtime 1x
func BenchmarkSimulatorSpeed(b *testing.B) {
	for _, tg := range Targets() {
		b.Run(tg.Name, func(b *testing.B) {
			tc := toolchain(b, tg)
			img, err := tc.Build(context.Background(), testCache, tg, calibration, "Os", 0)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			var units uint64
			var host time.Duration
			for range b.N {
				out, elapsed, err := tc.Simulate(context.Background(), img, 10*time.Minute)
				if err != nil {
					b.Fatal(err)
				}
				host += elapsed
				for _, op := range out.Ops {
					n, err := out.Net(op.Runs[0], tg.TicksPerUnit())
					if err != nil {
						b.Fatal(err)
					}
					units += n
				}
			}
			b.ReportMetric(float64(units)/host.Seconds(), tg.Unit()+"/s")
			b.ReportMetric(float64(units)/float64(b.N), tg.Unit()+"/op")
		})
	}
}
