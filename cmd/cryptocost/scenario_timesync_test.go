package main

import (
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario/timesync"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// checkdefences FILE: in a timesync run, no receiver verified more
	// than one forged signature in an interval, no forged message was accepted
	// (forgeries were rejected in flood runs, replays in replay runs) and
	// genuine messages still synchronised the clocks.
	scriptCmds["checkdefences"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: checkdefences FILE")
		}
		runs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
		ts.Check(err)
		get := func(r result.Result, name string) float64 {
			m := r.Metric(name)
			if m == nil {
				ts.Fatalf("%s has no %s", r.Subject.Name, name)
			}
			return m.Summary.Median
		}
		for _, r := range runs[0].Results {
			if r.Error != "" {
				ts.Fatalf("%s: %s", r.Subject.Name, r.Error)
			}
			ok := get(r, timesync.MetricMaxForged) <= 1 && get(r, timesync.MetricAccepted) > 0
			switch r.Subject.Params["attack"] {
			case "flood":
				ok = ok && get(r, timesync.MetricForged) > 0 && get(r, timesync.MetricSkipped) > 0
			case "replay":
				ok = ok && get(r, timesync.MetricReplayed) > 0 && get(r, timesync.MetricForged) == 0
			}
			if ok == neg {
				ts.Fatalf("%s: the defences did not hold as expected", r.Subject.Name)
			}
		}
	}
}
