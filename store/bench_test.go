package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/pgtest"
	"github.com/cryptocost/cryptocost/result"
)

// BenchmarkFleetScale imports a fleet's worth of runs — 10⁶ metric rows:
// 200 runs × 500 subjects × 10 metrics, from 20 devices — and then runs
// the fleet matrix query over them once, on each store; it reports the
// import's rows per second and the seconds of each phase
// (docs/benchmarks.md). "postgres-insert" loads the same rows with one
// INSERT per row instead of COPY, on a tenth of the runs, for the ratio.
// Run it with -benchtime 1x: each iteration is the whole import.
//
//	go test ./store -run '^$' -bench FleetScale -benchtime 1x
func BenchmarkFleetScale(b *testing.B) {
	const runs, subjects = 200, 500
	for _, tc := range []struct {
		name string
		runs int
		open func(b *testing.B) *Store
	}{
		{"postgres-copy", runs, func(b *testing.B) *Store { return openBench(b, pgtest.URL(b)) }},
		{"postgres-insert", runs / 10, func(b *testing.B) *Store {
			s := openBench(b, pgtest.URL(b))
			d := *s.d
			d.loadSubjects = insertRows
			s.d = &d
			return s
		}},
		{"sqlite", runs, func(b *testing.B) *Store { return openBench(b, filepath.Join(b.TempDir(), "results.db")) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				s := tc.open(b)
				ctx := context.Background()
				rows := 0
				var loading time.Duration
				for i := range tc.runs {
					run := scaleRun(i, subjects)
					rows += len(run.Results) * len(run.Results[0].Metrics)
					start := time.Now()
					b.StartTimer()
					if err := s.Save(ctx, run); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					loading += time.Since(start)
				}
				start := time.Now()
				cells, err := s.Matrix(ctx, Filter{})
				if err != nil {
					b.Fatal(err)
				}
				matrix := time.Since(start)
				if len(cells) == 0 {
					b.Fatal("an empty matrix")
				}
				b.ReportMetric(float64(rows), "metric-rows")
				b.ReportMetric(float64(rows)/loading.Seconds(), "rows/s")
				b.ReportMetric(loading.Seconds(), "import-s")
				b.ReportMetric(matrix.Seconds(), "matrix-s")
				b.ReportMetric(float64(len(cells)), "cells")
				s.Close()
			}
		})
	}
}

func openBench(b *testing.B, db string) *Store {
	s, err := Open(context.Background(), db)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// scaleRun is run i of the scale figure: on one of 20 devices (half
// priced from a laptop, half measured on the board), subjects of 50
// schemes × 10 operations, each with 10 metrics.
func scaleRun(i, subjects int) *result.Run {
	started := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	run := &result.Run{Schema: result.Schema, ID: fmt.Sprintf("20261201T%06dZ-scale", i), Kind: "bench",
		Tool: result.Tool{Name: "cryptocost", Version: "v0.0.0-bench"}, Started: started, Finished: started.Add(time.Minute),
		Status: result.Complete, Environment: result.Environment{Hostname: fmt.Sprintf("board-%02d", i%20), OS: "linux",
			Arch: "arm64", GoVersion: "go1.26.8", CPUs: 4, GOMAXPROCS: 4}}
	priced := i%20 < 10
	if priced {
		run.Environment.Hostname, run.Environment.Device = "laptop", fmt.Sprintf("mote-%02d", i%20)
	}
	for j := range subjects {
		scheme, op := fmt.Sprintf("Scheme-%02d", j%50), fmt.Sprintf("op%d", j/50)
		v := float64(1+j) * 1e-6 * (1 + float64(i%7)/10)
		ms := []result.Metric{
			result.NewScalar("time", "s", result.Lower, result.Measured, v),
			result.NewScalar("cpu-time", "s", result.Lower, result.Measured, v),
			result.NewScalar("rate", "ops/s", result.Higher, result.Measured, 1/v),
			result.NewScalar("cycles", "cycles", result.Lower, result.Estimated, v*2e9),
			result.NewScalar("alloc-bytes", "B", result.Lower, result.Measured, 64),
			result.NewScalar("allocs", "allocs", result.Lower, result.Measured, 1),
			result.NewScalar("device-time", "s", result.Lower, result.Estimated, v*40),
			result.NewScalar("energy", "J", result.Lower, result.Estimated, v*40*0.01),
			result.NewScalar("power", "W", result.Lower, result.Estimated, 0.01),
			result.NewScalar("current", "A", result.Lower, result.Estimated, 0.003),
		}
		if !priced {
			ms[6] = result.NewScalar("peak-rss", "B", result.Lower, result.Measured, 1<<20)
			ms[7].Label = result.Measured // a meter on the board
		}
		run.Results = append(run.Results, result.Result{
			Subject: result.Subject{Kind: "primitive", Name: scheme + "@go/" + op, Scheme: scheme, Provider: "go",
				Family: "sign", Operation: op},
			Metrics:    ms,
			Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: "adaptive", Samples: 10, Stop: "converged"}},
		})
	}
	return run
}
