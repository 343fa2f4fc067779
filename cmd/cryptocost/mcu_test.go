package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["checkmcu"] = checkMCU
	scriptSetups = append(scriptSetups, mcuSetup)
}

// mcuSetup gives the mcu scripts a firmware cache shared by every script
// and test run (images are keyed by content hash, so reuse is exact) and
// $CRYPTOCOST_BIN, the directory testscript puts cryptocost in, for a
// PATH without the AVR toolchain.
func mcuSetup(env *testscript.Env) error {
	cache := filepath.Join(os.TempDir(), "cryptocost-test-cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	env.Setenv("XDG_CACHE_HOME", cache)
	path := env.Getenv("PATH")
	bin, _, _ := strings.Cut(path, string(os.PathListSeparator))
	env.Setenv("CRYPTOCOST_BIN", bin)
	return nil
}

// checkmcu FILE N: FILE is an mcu run with at least N results, each either
// numbers (cycles or instructions, stack, RAM, ROM; simulated after its
// known-answer tests) or an error and no numbers.
func checkMCU(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: checkmcu FILE N")
	}
	runs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	want, _ := strconv.Atoi(args[1])
	run := runs[0]
	if run.Kind != "mcu" || len(run.Results) < want {
		ts.Fatalf("%s: kind %q with %d results, want mcu with at least %d", args[0], run.Kind, len(run.Results), want)
	}
	for _, r := range run.Results {
		if r.Error != "" {
			if len(r.Metrics) != 0 {
				ts.Fatalf("%s: an error and numbers", r.Subject.Name)
			}
			continue
		}
		if r.Provenance.Label != result.Simulated || !strings.HasPrefix(r.Provenance.Method.Name, "simulated: ") ||
			!strings.HasPrefix(r.Provenance.Verified, "known-answer tests passed in the simulator") {
			ts.Fatalf("%s: provenance %+v", r.Subject.Name, r.Provenance)
		}
		counts := r.Subject.Params["counts"]
		if c := r.Metric(counts); c == nil || c.Label != result.Simulated {
			ts.Fatalf("%s: %s %+v", r.Subject.Name, counts, c)
		}
		if r.Subject.Params["timing"] == "" {
			ts.Fatalf("%s: no timing verdict", r.Subject.Name)
		}
		for _, m := range []string{"stack", "static-ram", "state", "ram", "rom"} {
			if r.Metric(m) == nil {
				ts.Fatalf("%s: no %s metric", r.Subject.Name, m)
			}
		}
	}
}
