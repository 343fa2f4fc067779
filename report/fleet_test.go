package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// TestFleetSection: the matrix's cells land in their device's column and
// their scheme's row, one table per quantity, not-measured cells shaded,
// empty cells empty; a report of a fleet alone needs no runs. Tier: fast.
func TestFleetSection(t *testing.T) {
	f := &Fleet{Source: "postgres://lab@db.lab/cryptocost", Cells: []FleetCell{
		{Device: "pi", Scheme: "Ed25519", Operation: "sign", Quantity: "time", Unit: "s", Label: result.Measured, Median: 50e-6, Run: "R2", Runs: 3, Lo: 49e-6, Hi: 52e-6},
		{Device: "telosb", Scheme: "Ed25519", Operation: "sign", Quantity: "time", Unit: "s", Label: result.Estimated, Median: 0.9, Run: "R1", Runs: 1, Others: []result.Label{"estimated"}},
		{Device: "telosb", Scheme: "Ed25519", Operation: "sign", Quantity: "energy", Unit: "J", Label: result.Estimated, Median: 0.004, Run: "R1", Runs: 1},
		{Device: "pi", Scheme: "SHA-256", Operation: "hash", InputBytes: 1024, Quantity: "time", Unit: "s", Label: result.Measured, Median: 3e-6, Run: "R2", Runs: 1},
	}}
	d := fleetSection(f)
	if len(d.Tables) != 2 || d.Tables[0].Quantity != quantityTitles["time"] || d.Tables[1].Quantity != quantityTitles["energy"] {
		t.Fatalf("tables %+v", d.Tables)
	}
	tm := d.Tables[0]
	if strings.Join(tm.Devices, ",") != "pi,telosb" || len(tm.Rows) != 2 {
		t.Fatalf("time table: devices %v, %d rows", tm.Devices, len(tm.Rows))
	}
	ed, sha := tm.Rows[0], tm.Rows[1]
	if ed.Scheme != "Ed25519" || ed.Cells[0].Value != "50 µs" || ed.Cells[0].NotMeasured || !strings.Contains(ed.Cells[0].Detail, "3 runs, 49 µs–52 µs") {
		t.Errorf("Ed25519 on pi: %+v", ed.Cells[0])
	}
	if c := ed.Cells[1]; c.Value != "900 ms" || !c.NotMeasured || c.Label != "estimated" {
		t.Errorf("Ed25519 on telosb: %+v", c)
	}
	if sha.Size != "1 KiB" || !sha.Cells[1].Empty || sha.Cells[0].Empty {
		t.Errorf("SHA-256 row: %+v", sha)
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, nil, Options{Fleet: f, Generated: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<section id="fleet">`, "postgres://lab@db.lab/cryptocost", "<th>telosb</th>", "notmeasured"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if err := WriteHTML(&page, nil, Options{}); err == nil {
		t.Error("a report of nothing was written")
	}
}
