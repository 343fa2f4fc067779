package radio

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

func TestPlot(t *testing.T) {
	b := simulate(t, "lte", trace(pkt(0, up, 300), pkt(50, down, 3000)), Options{Until: 15 * time.Second})
	var svg, png bytes.Buffer
	if err := Plot(&svg, b, "lte-aro: one TLS exchange", "svg"); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	if !strings.HasPrefix(s, "<?xml") || !strings.Contains(s, "<svg") || !strings.Contains(s, "tail 11.1 J (96 %)") ||
		!strings.Contains(s, "radio power (W), modelled") {
		t.Errorf("svg: %.300s", s)
	}
	// The report's style: the font the text was laid out with travels with
	// the file, so it reads the same on a machine without it.
	if !strings.Contains(s, "@font-face") || !strings.Contains(s, "font-family:'Liberation Sans',Arial") {
		t.Error("svg does not embed its font")
	}
	if err := Plot(&png, b, "x", "png"); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("png starts % x", png.Bytes()[:8])
	}
	for file, ok := range map[string]bool{"a.svg": true, "a.PNG": true, "a.pdf": true, "a.jpg": false, "a": false} {
		if _, err := PlotFormat(file); (err == nil) != ok {
			t.Errorf("PlotFormat(%s): %v", file, err)
		}
	}
}

// TestPlotBins: a timeline too long to draw segment by segment is drawn
// in time bins that keep every phase's energy.
func TestPlotBins(t *testing.T) {
	tr := &result.Trace{}
	for i := range 3000 { // a packet every 30 s: promotion, transfer, tail, idle each
		tr.Packets = append(tr.Packets, pkt(float64(30000*i), up, 100))
	}
	b := simulate(t, "lte", tr, Options{})
	if len(b.Segments) <= maxPlotSegments {
		t.Fatalf("only %d segments", len(b.Segments))
	}
	rects := rectangles(b)
	if len(rects) > maxPlotSegments {
		t.Errorf("%d rectangles", len(rects))
	}
	energy := map[Phase]float64{}
	for _, r := range rects {
		energy[r.phase] += (r.y1 - r.y0) * (r.x1 - r.x0)
	}
	for _, p := range Phases {
		if d := energy[p] - b.Energy(p); d > 1e-6*b.Total() || d < -1e-6*b.Total() {
			t.Errorf("%s: drawn %.6g J, timeline %.6g J", p, energy[p], b.Energy(p))
		}
	}
	var out bytes.Buffer
	if err := Plot(&out, b, "many", "svg"); err != nil {
		t.Fatal(err)
	}
}

func TestResultAndTimeline(t *testing.T) {
	p, _ := Lookup("lte")
	b, err := p.Simulate(trace(pkt(0, up, 100)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := b.Result(p, "t", "t.json", map[string]string{"what_if": "none"})
	if r.Subject.Kind != "radio" || r.Subject.Name != "lte-aro/t" || r.Provenance.Label != result.Modelled || r.Provenance.Source != "t.json" {
		t.Errorf("result %+v", r)
	}
	for _, m := range r.Metrics {
		if m.Label != result.Modelled || !strings.Contains(m.Method, "profile lte-aro") || m.Unit == "" {
			t.Errorf("metric %+v", m)
		}
	}
	near(t, "energy metric", r.Metric("energy").Summary.Median, b.Total())
	near(t, "tail share", r.Metric("tail-share").Summary.Median, 100*b.Energy(Tail)/b.Total())
	if m := r.Metric("time-in-LONG_DRX-tail"); m == nil || m.Summary.Median != 10 {
		t.Errorf("time in long DRX: %+v", m)
	}
	if pm := b.PrefixedMetrics("radio-", "m"); len(pm) != len(r.Metrics) || pm[0].Name != "radio-energy" {
		t.Errorf("prefixed metrics %d, first %s", len(pm), pm[0].Name)
	}
	run := &result.Run{Schema: result.Schema, ID: "x", Results: []result.Result{r}}
	if err := run.Validate(); err != nil {
		t.Error(err)
	}
	var csv bytes.Buffer
	if err := WriteTimeline(&csv, b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if lines[0] != "start_s,end_s,state,phase,power_W,energy_J" || len(lines) != 1+len(b.Segments) ||
		!strings.HasPrefix(lines[1], "0,0.26,PROMOTION,promotion,1.21,") {
		t.Errorf("timeline:\n%s", csv.String())
	}
}
