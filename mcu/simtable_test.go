package mcu

import (
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/costing"
)

// TestSimulatedTableReproduces: the costing stage's shipped table of
// simulated cycles (costing/simulated/atmega328p.json, made from an mcu
// run by internal/tools/simdata) is what the current kernels and harness
// simulate: AES-128's and SHA-256's operations on their first input, to
// the cycle (simavr is deterministic). A harness or kernel change that
// moves a count fails here until the table is regenerated. Tier: full
// (avr-gcc and simavr; a few million simulated cycles).
func TestSimulatedTableReproduces(t *testing.T) {
	simulator(t)
	tg := atmega328p(t)
	table := costing.SimulatedTable(tg.Name)
	if table == nil {
		t.Fatalf("no simulated table for %s in costing/simulated", tg.Name)
	}
	var ks []Kernel
	for _, name := range []string{"aes128", "sha256"} {
		k, _ := KernelByName(name)
		ks = append(ks, k)
	}
	run := runPlan(t, &Plan{Targets: []Target{tg}, Kernels: ks, Opts: []string{"Os"}, MaxInputs: 1}, 10*time.Minute)
	checked := 0
	for _, r := range run.Results {
		if r.Error != "" {
			t.Fatalf("%s: %s", r.Subject.Name, r.Error)
		}
		got := r.Metric("cycles").Samples[0]
		found := false
		for _, op := range table.Ops {
			if op.Kernel == r.Subject.Params["kernel"] && op.Operation == r.Subject.Operation && op.InputBytes == r.Subject.InputBytes && op.Opt == "Os" {
				found = true
				if op.Cycles[0] != got {
					t.Errorf("%s: the table has %.0f cycles (run %s), the simulator now counts %.0f: regenerate it (go doc ./internal/tools/simdata says how)",
						r.Subject.Name, op.Cycles[0], table.Run, got)
				}
			}
		}
		if !found {
			t.Errorf("%s: not in the table", r.Subject.Name)
		}
		checked++
	}
	if checked < 9 {
		t.Errorf("%d operations checked, want AES-128's 6 and SHA-256's 3", checked)
	}
}
