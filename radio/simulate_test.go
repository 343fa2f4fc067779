package radio

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

func TestParseTransfer(t *testing.T) {
	tr, desc, err := ParseTransfer("up=1k,down=50k,rate=1Mbit/s")
	if err != nil || tr == nil || !strings.Contains(desc, "1024 B up, 51200 B down") {
		t.Fatalf("ParseTransfer = %v, %q, %v", tr, desc, err)
	}
	for _, bad := range []string{"up=1k", "up", "up=x,rate=1Mbit/s", "rate=-1Mbit/s", "speed=1,rate=1Mbit/s"} {
		if _, _, err := ParseTransfer(bad); err == nil {
			t.Errorf("ParseTransfer(%q): no error", bad)
		}
	}
}

func TestParseBitrate(t *testing.T) {
	if bps, err := ParseBitrate("384 kbit/s"); err != nil || bps != 384e3 {
		t.Errorf("ParseBitrate = %v, %v; want 384000", bps, err)
	}
	if _, err := ParseBitrate("fast"); err == nil {
		t.Error("ParseBitrate(fast): no error")
	}
}

func TestSimulationPrepareRefuses(t *testing.T) {
	for _, s := range []Simulation{
		{Radios: "lte"},
		{TracePath: "x.json"},
		{Radios: "lte", Transfer: "up=1k,rate=1Mbit/s", Then: "y.json"},
		{Radios: "lte", Transfer: "up=1k,rate=1Mbit/s", Every: 1},
		{Radios: "nosuch", Transfer: "up=1k,rate=1Mbit/s"},
	} {
		if err := s.Prepare(); err == nil {
			t.Errorf("Prepare(%+v): no error", s)
		}
	}
}

func TestSimulationPrice(t *testing.T) {
	s := Simulation{Radios: "lte,wifi", Transfer: "up=1k,down=4k,rate=1Mbit/s"}
	if err := s.Prepare(); err != nil {
		t.Fatal(err)
	}
	run := &result.Run{}
	if err := s.Price(run, nil); err != nil {
		t.Fatal(err)
	}
	if len(run.Results) != 2 || len(s.Breakdowns) != 2 || len(s.Titles) != 2 {
		t.Errorf("priced %d results, %d breakdowns, %d titles; want 2 each", len(run.Results), len(s.Breakdowns), len(s.Titles))
	}
	var b strings.Builder
	if err := WriteList(&b); err != nil || !strings.Contains(b.String(), "lte") {
		t.Errorf("WriteList: %v\n%s", err, b.String())
	}
}
