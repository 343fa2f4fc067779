package costing

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/scenario"
)

func selectionLink(t *testing.T, name string) *link.Profile {
	t.Helper()
	l, err := link.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return &l
}

// Check refuses, before any work, what cannot be priced, with the
// flags' words; a scenario's default device is not refused for a link
// the user chose (the link is dropped instead).
func TestSelectionCheck(t *testing.T) {
	lte, lan := selectionLink(t, "lte"), selectionLink(t, "lan")
	for _, tc := range []struct {
		name     string
		s        Selection
		err      string // a prefix of the error; "" for none
		resolved string
		keepLink bool
	}{
		{name: "nothing", s: Selection{}},
		{name: "on-device alone", s: Selection{OnDevice: true}, err: "--on-device and --no-estimates need --device NAME or --device-file FILE"},
		{name: "no-estimates alone", s: Selection{NoEstimates: true}, err: "--on-device and --no-estimates need --device NAME or --device-file FILE"},
		{name: "scenario on-device alone", s: Selection{Scenario: scenario.Pricing{OnDevice: true}}, err: "--on-device and --no-estimates need"},
		{name: "traffic on a bad radio", s: Selection{Radio: "no-such-radio"}, err: "unknown radio"},
		{name: "traffic on the link's radio", s: Selection{Link: lte}, keepLink: true},
		{name: "bad device", s: Selection{Device: "no-such-device"}, err: "unknown device"},
		{name: "no supply voltage", s: Selection{Device: "host"}, err: "cannot price energy on host"},
		{name: "device", s: Selection{Device: "esp32"}, resolved: "esp32"},
		{name: "wired link", s: Selection{Device: "esp32", Link: lan}, resolved: "esp32", keepLink: true},
		{name: "device without the link's radio", s: Selection{Device: "telosb", Link: lte}, err: "telosb"},
		{name: "default device without the link's radio", s: Selection{Link: lte, Scenario: scenario.Pricing{DefaultDevice: "telosb"}}, resolved: "telosb"},
		{name: "default device and a named radio", s: Selection{Link: lte, Radio: "lte", Scenario: scenario.Pricing{DefaultDevice: "telosb"}}, err: "telosb"},
		{name: "named device over the default", s: Selection{Device: "esp32", Scenario: scenario.Pricing{DefaultDevice: "telosb"}}, resolved: "esp32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s
			err := s.Check()
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("Check = %v, want an error with %q", err, tc.err)
			case tc.err != "":
				return
			}
			got := ""
			if s.Resolved != nil {
				got = s.Resolved.Name
			}
			if got != tc.resolved {
				t.Errorf("Resolved %q, want %q", got, tc.resolved)
			}
			if (s.Link != nil) != tc.keepLink {
				t.Errorf("Link %v after Check, want kept %v", s.Link, tc.keepLink)
			}
		})
	}
}

// What a scenario's own flags say wins over the defaults, and the
// options carry every choice.
func TestSelectionOptions(t *testing.T) {
	s := Selection{Device: "esp32", NoEstimates: true, Calibrations: "flag-dir", Radio: "wifi",
		Scenario: scenario.Pricing{OnDevice: true, Speed: 2, Calibrations: "scenario-dir", References: "sign"}}
	if !s.Enabled() || s.TrafficOnly() {
		t.Fatalf("Enabled %v, TrafficOnly %v: want a device", s.Enabled(), s.TrafficOnly())
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	o := s.Options(nil)
	if o.Device != s.Resolved || !o.OnDevice || !o.NoEstimates || o.Speed != 2 || o.Radio != "wifi" || o.References != "sign" {
		t.Errorf("Options = %+v", o)
	}
	if got := s.calibrations(); got != "scenario-dir" {
		t.Errorf("calibrations %q, want the scenario's", got)
	}
	if o := (&Selection{Scenario: scenario.Pricing{Speed: -1}}).Options(nil); o.Speed != 0 {
		t.Errorf("a negative speed gives Speed %g, want 0 (none assumed)", o.Speed)
	}
	if !(&Selection{Radio: "lte"}).TrafficOnly() {
		t.Error("a radio without a device is not traffic only")
	}
}
