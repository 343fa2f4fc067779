// Command simdata turns an `cryptocost mcu bench --format json` run into
// the costing stage's simulated table for its target
// (costing/simulated/TARGET.json): each kernel operation's cycles, the
// simulator and compiler, the image and the known-answer tests it passed.
//
//	cryptocost mcu bench --target atmega328p --opt Os --no-save -o run.json
//	go run ./internal/tools/simdata run.json > costing/simulated/atmega328p.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/result"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: simdata RUN.json > costing/simulated/TARGET.json")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fatal(err)
	}
	runs, err := result.ReadJSON(f)
	if err != nil {
		fatal(err)
	}
	run := runs[0]
	if run.Kind != "mcu" {
		fatal(fmt.Errorf("%s is a %s run, want an mcu run", os.Args[1], run.Kind))
	}
	var t costing.SimTable
	t.Run = run.ID
	t.Generated = "cryptocost mcu bench --target TARGET --opt Os --no-save -o run.json; go run ./internal/tools/simdata run.json"
	for _, r := range run.Results {
		if r.Error != "" {
			continue
		}
		p := r.Subject.Params
		clock, _ := strconv.ParseFloat(p["clock_hz"], 64)
		if t.Target == "" {
			t.Target, t.ClockHz, t.Counts = p["target"], clock, p["counts"]
			// "simavr 1.6+dfsg-3; avr-gcc (GCC) 5.4.0 -Os; image sha256 …"
			parts := strings.Split(r.Provenance.Source, "; ")
			if len(parts) >= 2 {
				t.Simulator, t.Compiler = parts[0], strings.TrimSuffix(parts[1], " "+p["opt"])
			}
		}
		cyc := r.Metric("cycles")
		if cyc == nil {
			continue
		}
		samples := func(m *result.Metric) []float64 {
			if m == nil {
				return nil
			}
			if len(m.Samples) == 0 {
				return []float64{m.Summary.Median}
			}
			return m.Samples
		}
		if t.Counts != "cycles" && t.CycleRule == "" {
			// QEMU counts instructions; the cycles are the cycle rule's
			// estimate ("estimated from the executed instructions ... by
			// the Cortex-M4 TRM's cycle table; range …").
			rule, _, _ := strings.Cut(cyc.Method, "; range")
			t.CycleRule = strings.TrimPrefix(rule, "estimated from the executed instructions (QEMU profiler: each block's executions and taken branches) by the ")
		}
		t.Ops = append(t.Ops, costing.SimOp{Kernel: p["kernel"], Algorithm: p["algorithm"], Operation: r.Subject.Operation,
			InputBytes: r.Subject.InputBytes, Opt: strings.TrimPrefix(p["opt"], "-"), Cycles: samples(cyc),
			CyclesMin: samples(r.Metric("cycles-min")), CyclesMax: samples(r.Metric("cycles-max")), Label: p["label"],
			Verified: strings.TrimPrefix(r.Provenance.Verified, "known-answer tests passed in the simulator: "), Image: p["image"]})
	}
	out, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		fatal(err)
	}
	os.Stdout.Write(append(out, '\n'))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "simdata:", err)
	os.Exit(1)
}
