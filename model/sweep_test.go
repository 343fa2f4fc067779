package model

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

func TestParseVary(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []float64
	}{
		{"n=2..6", []float64{2, 3, 4, 5, 6}},
		{"n=2..14:4", []float64{2, 6, 10, 14}},
		{"n=2..13:4", []float64{2, 6, 10}},
		{"d=0.1..0.5:0.1", []float64{0.1, 0.2, 0.3, 0.4, 0.5}}, // no 0.30000000000000004
		{"d=2.5,20", []float64{2.5, 20}},
		{"d=7", []float64{7}},
		{"n=1..1e6", nil}, // a million values
	} {
		v, err := ParseVary(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if tc.want == nil {
			if len(v.Values) != 1e6 || v.Values[999999] != 1e6 {
				t.Errorf("%s: %d values", tc.in, len(v.Values))
			}
			continue
		}
		if !slices.Equal(v.Values, tc.want) {
			t.Errorf("%s = %v, want %v", tc.in, v.Values, tc.want)
		}
	}
	if v, err := ParseVary("n"); err != nil || !v.FromModel {
		t.Errorf("n alone: %+v, %v", v, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"n=2..", `range "2.." has no end: write both ends, such as 2..14`},
		{"n=..9", `has no start`},
		{"n=9..2", "runs backwards"},
		{"n=1..5:0", "step 0 must be positive"},
		{"n=1..5:x", `bad step: "x" is not a number`},
		{"n=", "no values"},
		{"n=1,x", `"x" is not a number`},
		{"n=1..1e12", "more than 100000000: use a larger step"},
		{"2n=1", "bad name"},
		{"max=1", "reserved"},
	} {
		if _, err := ParseVary(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
	set, err := ParseSet([]string{"n=6,d=20", "x=1e3"})
	if err != nil || set["n"] != 6 || set["d"] != 20 || set["x"] != 1000 {
		t.Errorf("ParseSet: %v %v", set, err)
	}
	for _, bad := range []string{"n", "n=six", "=3"} {
		if _, err := ParseSet([]string{bad}); err == nil {
			t.Errorf("ParseSet(%q) accepted", bad)
		}
	}
}

// TestSweepOrder: variants outermost, the first --vary fastest.
func TestSweepOrder(t *testing.T) {
	m := mustModel(t, "toy.yaml", toyModel)
	p, err := NewPlan(m, mustCosts(t, toyCosts), Options{Vary: []Vary{
		{Param: "n", Values: []float64{1, 2, 3}}, {Param: "payload", Values: []float64{8, 16}}}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Points() != 12 {
		t.Fatalf("points %d, want 2 variants × 3 × 2", p.Points())
	}
	var got []string
	p.Run(context.Background(), func(pt *Point, out *Outputs) error {
		got = append(got, p.SubjectName(pt))
		return nil
	})
	want := []string{"toy/signing/n=1,payload=8", "toy/signing/n=2,payload=8", "toy/signing/n=3,payload=8",
		"toy/signing/n=1,payload=16", "toy/signing/n=2,payload=16", "toy/signing/n=3,payload=16",
		"toy/verifying/n=1,payload=8"}
	if !slices.Equal(got[:7], want) {
		t.Errorf("order:\n%v\nwant\n%v", got[:7], want)
	}
}

// A model with a known crossing: A costs 2·x mJ of operations, B a
// constant 9 mJ; they cross at x = 4.5. C costs (x − 3)(x − 7) + 9 mJ =
// x² − 10x + 30: below B between x = 3 and x = 7.
const crossA = `
name: a
parameters: {x: {default: 1, range: 0..100}}
operations: [{name: op, cost: U/op, count: 2 * x}]
`
const crossB = `
name: b
parameters: {x: {default: 1, range: 0..100}, k: {default: 9}}
operations: [{name: op, cost: U/op, count: k}]
`
const crossC = `
name: c
parameters: {x: {default: 1, range: 0..100}}
operations: [{name: op, cost: U/op, count: x ^ 2 - 10 * x + 30}]
`
const unitCosts = `
name: unit
radio: {bit_rate: "1 bit/s [t]", tx_energy_per_bit: "1 µJ/bit [t]", rx_energy_per_bit: "1 µJ/bit [t]"}
operations:
  U/op: {time: "1 ms [t]", energy: "1 mJ [t]"}
`

func comparison(t *testing.T, vary []Vary, srcs ...string) *Comparison {
	t.Helper()
	var plans []*Plan
	for i, src := range srcs {
		m := mustModel(t, string(rune('a'+i))+".yaml", src)
		p, err := NewPlan(m, mustCosts(t, unitCosts), Options{Vary: vary, Lenient: true})
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	cmp, err := Compare(context.Background(), plans, vary, []string{"energy", "time"})
	if err != nil {
		t.Fatal(err)
	}
	return cmp
}

func TestCrossover(t *testing.T) {
	cmp := comparison(t, []Vary{{Param: "x", Values: []float64{1, 2, 3, 4, 5, 6, 7, 8}}}, crossA, crossB)
	st := cmp.Statements[0]
	if len(st.Crossings) != 1 || math.Abs(st.Crossings[0]-4.5) > 1e-9 {
		t.Fatalf("crossings %v, want 4.5", st.Crossings)
	}
	want := "a uses less energy than b for x ≤ 4; b uses less energy than a for x ≥ 5 (the lines cross at x ≈ 4.5)"
	if st.Text != want {
		t.Errorf("statement:\n got %s\nwant %s", st.Text, want)
	}
	if cmp.Statements[1].Metric != "time" || !strings.Contains(cmp.Statements[1].Text, "a takes less time than b for x ≤ 4") {
		t.Errorf("time statement: %s", cmp.Statements[1].Text)
	}
	// Two crossings, at 3 and 7 exactly: c equals b there.
	cmp = comparison(t, []Vary{{Param: "x", Values: []float64{0, 2.5, 5, 7.5, 10}}}, crossB, crossC)
	st = cmp.Statements[0]
	if len(st.Crossings) != 2 || math.Abs(st.Crossings[0]-3) > 1e-9 || math.Abs(st.Crossings[1]-7) > 1e-9 {
		t.Fatalf("crossings %v, want 3 and 7", st.Crossings)
	}
	want = "b uses less energy than c for x ≤ 2.5 and x ≥ 7.5; c uses less energy than b for x = 5 (the lines cross at x ≈ 3, 7)"
	if st.Text != want {
		t.Errorf("statement:\n got %s\nwant %s", st.Text, want)
	}
	// Equal at a swept value: that value is the crossing.
	cmp = comparison(t, []Vary{{Param: "x", Values: []float64{3, 4.5, 6}}}, crossA, crossB)
	want = "a uses less energy than b for x ≤ 3; b uses less energy than a for x ≥ 6 (the lines cross at x ≈ 4.5)"
	if cmp.Statements[0].Text != want {
		t.Errorf("statement:\n got %s\nwant %s", cmp.Statements[0].Text, want)
	}
	// No crossing in the range.
	cmp = comparison(t, []Vary{{Param: "x", Values: []float64{1, 2, 3}}}, crossA, crossB)
	if want := "a uses less energy than b for every x in 1..3"; cmp.Statements[0].Text != want {
		t.Errorf("got %s, want %s", cmp.Statements[0].Text, want)
	}
	// A second swept parameter gives a statement per value ("when k = 2");
	// a model without it (a) is flat in it.
	cmp = comparison(t, []Vary{{Param: "x", Values: []float64{1, 2, 3, 4, 5, 6}}, {Param: "k", Values: []float64{2, 9}}}, crossA, crossB)
	var texts []string
	for _, s := range cmp.Statements {
		if s.Metric == "energy" {
			texts = append(texts, s.Text)
		}
	}
	if len(texts) != 2 || !strings.Contains(texts[0], "b uses less energy than a for every x in 1..6 when k = 2") ||
		!strings.Contains(texts[1], "a uses less energy than b for x ≤ 4 when k = 9") {
		t.Errorf("statements with a condition:\n%s", strings.Join(texts, "\n"))
	}
}

// TestS003Crossovers: the crossings of S003's comparison, by hand from the
// closed forms (energy in mJ, n neighbours):
//
//	TinySeRSync d = 2.5: 0.000153·(2560n + 928) + 0.000226·(2560n + 928n)
//	                   = 1.179968·n + 0.141984
//	TinySeRSync d = 20:  0.000153·(20480n + 928) + 0.000226·(21408n)
//	                   = 7.971648·n + 0.141984
//	SecSyWiSe ECDSA-160 12.565488 → crosses d = 2.5 at n = 12.423504 / 1.179968 = 10.5286
//	SecSyWiSe ECDSA-224 33.734416 → crosses d = 20 at n = 33.592432 / 7.971648 = 4.2140
func TestS003Crossovers(t *testing.T) {
	tab, _ := OpenCosts("telosb")
	vary := []Vary{{Param: "n", Values: []float64{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}}}
	var plans []*Plan
	for _, name := range []string{"secsywise", "tinysersync"} {
		m, _ := Open(name)
		p, err := NewPlan(m, tab.Costs(), Options{Vary: vary, Lenient: true})
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	cmp, err := Compare(context.Background(), plans, vary, []string{"energy"})
	if err != nil {
		t.Fatal(err)
	}
	find := func(a, b string) Statement {
		for _, s := range cmp.Statements {
			if s.A == a && s.B == b {
				return s
			}
		}
		t.Fatalf("no statement %s vs %s", a, b)
		return Statement{}
	}
	s := find("secsywise/ECDSA-160", "tinysersync/d=2.5")
	if len(s.Crossings) != 1 || math.Abs(s.Crossings[0]-12.423504/1.179968) > 1e-9 ||
		!strings.HasPrefix(s.Text, "secsywise/ECDSA-160 uses less energy than tinysersync/d=2.5 for n ≥ 11") {
		t.Errorf("ECDSA-160 vs d=2.5: %v %s", s.Crossings, s.Text)
	}
	s = find("secsywise/ECDSA-224", "tinysersync/d=20")
	if len(s.Crossings) != 1 || math.Abs(s.Crossings[0]-33.592432/7.971648) > 1e-9 ||
		!strings.HasPrefix(s.Text, "secsywise/ECDSA-224 uses less energy than tinysersync/d=20 for n ≥ 5") {
		t.Errorf("ECDSA-224 vs d=20: %v %s", s.Crossings, s.Text)
	}
	if s := find("secsywise/RSA-1024", "tinysersync/d=20"); s.Text != "secsywise/RSA-1024 uses less energy than tinysersync/d=20 for every n in 2..14" {
		t.Errorf("RSA-1024 vs d=20: %s", s.Text)
	}
	// n is a whole number: sweeping only the study's 2, 6, 10, 14 still
	// states the whole-number boundary, n ≥ 11, not n ≥ 14.
	sparse := []Vary{{Param: "n", Values: []float64{2, 6, 10, 14}}}
	var sp []*Plan
	for _, p := range plans {
		q, err := NewPlan(p.Model, tab.Costs(), Options{Vary: sparse, Lenient: true})
		if err != nil {
			t.Fatal(err)
		}
		sp = append(sp, q)
	}
	scmp, err := Compare(context.Background(), sp, sparse, []string{"energy"})
	if err != nil {
		t.Fatal(err)
	}
	if got := scmp.Statements[0].Text; !strings.HasPrefix(got, "secsywise/ECDSA-160 uses less energy than tinysersync/d=2.5 for n ≥ 11; tinysersync/d=2.5 uses less energy than secsywise/ECDSA-160 for n ≤ 10") {
		t.Errorf("sparse sweep: %s", got)
	}
	// Lines: 4 SecSyWiSe variants (flat in n) + 2 TinySeRSync.
	if len(cmp.Lines) != 6 {
		t.Fatalf("%d lines", len(cmp.Lines))
	}
	for _, l := range cmp.Lines[:4] {
		y := l.Y["energy"]
		if y[0] != y[len(y)-1] {
			t.Errorf("%s is not flat in n: %v", l.Name, y)
		}
	}
}

// TestWideCSV: one row per point, streamed, matching the evaluation.
func TestWideCSV(t *testing.T) {
	m, _ := Open("tinysersync")
	tab, _ := OpenCosts("telosb")
	p, err := NewPlan(m, tab.Costs(), Options{Vary: []Vary{{Param: "n", Values: []float64{2, 14}}, {Param: "d", Values: []float64{2.5, 20}}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := p.WriteSweepCSV(context.Background(), &buf, true)
	if err != nil || n != 4 {
		t.Fatalf("%d points, %v", n, err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || rows[0][0] != "model" || rows[0][4] != "p1_bits" || rows[0][8] != "energy (J)" {
		t.Fatalf("header %v, %d rows", rows[0], len(rows))
	}
	// Last row: n = 14, d = 20 → 111.745056 mJ (TestTinySeRSync), in J.
	last := rows[4]
	if last[2] != "14" || last[3] != "20" || last[8] != "0.111745056" {
		t.Errorf("last row %v", last)
	}
}

// TestResults: a plan's results form a valid run, every metric labelled
// modelled with its method, the assumptions in the provenance.
func TestResults(t *testing.T) {
	m, _ := Open("secsywise")
	tab, _ := OpenCosts("telosb")
	p, err := NewPlan(m, tab.Costs(), Options{Variants: []string{"RSA-1024"}})
	if err != nil {
		t.Fatal(err)
	}
	run := NewRun()
	if err := p.AppendResults(context.Background(), run, true); err != nil {
		t.Fatal(err)
	}
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	r := run.Results[0]
	if r.Subject.Kind != "model" || r.Subject.Name != "secsywise/RSA-1024" || r.Subject.Params["sig_bits"] != "1024" ||
		r.Subject.Params["variant"] != "RSA-1024" {
		t.Errorf("subject %+v", r.Subject)
	}
	for _, met := range r.Metrics {
		if met.Label != result.Modelled || met.Method == "" {
			t.Errorf("metric %s: label %s, method %q", met.Name, met.Label, met.Method)
		}
	}
	if e := r.Metric("energy"); e == nil || math.Abs(e.Summary.Median-3.014592e-3) > 1e-12 || e.Unit != "J" {
		t.Errorf("energy %+v", e)
	}
	if op := r.Metric("op/verify/energy"); op == nil || op.Summary.Median != 2.7e-3 {
		t.Errorf("breakdown %+v", op)
	}
	if !strings.Contains(r.Provenance.Source, "assumptions: immediate channel access") || r.Provenance.Label != result.Modelled {
		t.Errorf("provenance %+v", r.Provenance)
	}
	if _, ok := r.Subject.Params["sweep"]; ok {
		t.Errorf("a point that varies nothing says it is a sweep: %v", r.Subject.Params)
	}
	// A sweep's points name the parameter they vary and the line they are
	// on (the report's sweep chart draws from them).
	tiny, _ := Open("tinysersync")
	sp, err := NewPlan(tiny, tab.Costs(), Options{Vary: []Vary{{Param: "n", Values: []float64{2, 6}}, {Param: "d", Values: []float64{2.5, 20}}}})
	if err != nil {
		t.Fatal(err)
	}
	sweep := NewRun()
	if err := sp.AppendResults(context.Background(), sweep, false); err != nil {
		t.Fatal(err)
	}
	for _, r := range sweep.Results {
		if r.Subject.Params["sweep"] != "n" || r.Subject.Params["series"] != "tinysersync/d="+r.Subject.Params["d"] {
			t.Errorf("%s: params sweep %q, series %q", r.Subject.Name, r.Subject.Params["sweep"], r.Subject.Params["series"])
		}
	}
	// Every format writes it.
	for _, f := range result.Formats() {
		var buf bytes.Buffer
		if err := f.Write(&buf, run); err != nil {
			t.Errorf("%s: %v", f.Name(), err)
		}
	}
}

func TestPlots(t *testing.T) {
	cmp := comparison(t, []Vary{{Param: "x", Values: []float64{1, 2, 3, 4, 5, 6, 7, 8}}}, crossA, crossB)
	dir := t.TempDir()
	pngFile, svgFile := filepath.Join(dir, "e.png"), filepath.Join(dir, "t.svg")
	if err := cmp.SavePlot("energy", pngFile); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(pngFile)
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 300 {
		t.Fatalf("PNG: %v", err)
	}
	if err := cmp.SavePlot("time", svgFile); err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(svgFile)
	for _, want := range []string{"<svg", ">a<", ">b<", "time (ms, modelled)", "@font-face", "data:font/ttf"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// In the report's style, and readable by its rules.
	for _, metric := range []string{"energy", "time"} {
		f, err := cmp.Figure(metric)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Check(); err != nil {
			t.Errorf("%s: %v", metric, err)
		}
		if len(f.Legend) != 2 {
			t.Errorf("%s: legend %d entries, want a and b below the plot", metric, len(f.Legend))
		}
	}
	if err := cmp.SavePlot("energy", filepath.Join(dir, "e.pdf")); err == nil || !strings.Contains(err.Error(), "want a .png or .svg") {
		t.Errorf("pdf: %v", err)
	}
	if err := cmp.SavePlot("bits-sent", filepath.Join(dir, "b.svg")); err == nil || !strings.Contains(err.Error(), "--metrics bits-sent") {
		t.Errorf("uncompared metric: %v", err)
	}
}

// TestMeasuredS003: the SecSyWiSe model beside S003's measurements.
// RSA-1024: modelled 3.014592 mJ against 482.17 mJ measured for the whole
// run: (3.014592 − 482.17) / 482.17 = −99.37 %; verification 2.7 mJ
// against 4.87 mJ: −44.56 %.
func TestMeasuredS003(t *testing.T) {
	runs, err := ReadMeasured("s003")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := Open("secsywise")
	tab, _ := OpenCosts("telosb")
	p, _ := NewPlan(m, tab.Costs(), Options{})
	rows, err := p.CompareMeasured(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	// ECDSA-160, RSA-1024, RSA-2048 were measured (not ECDSA-224): 3 × 4 rows.
	if len(rows) != 12 {
		t.Fatalf("%d rows", len(rows))
	}
	got := map[string]MeasuredRow{}
	for _, r := range rows {
		got[r.Subject+" "+r.Output] = r
	}
	r := got["secsywise/RSA-1024 energy"]
	if math.Abs(r.Measured-0.48217) > 1e-15 || math.Abs(r.ErrorPct-(3.014592-482.17)/482.17*100) > 1e-9 || r.MeasuredLabel != result.Imported {
		t.Errorf("RSA-1024 energy %+v", r)
	}
	r = got["secsywise/RSA-1024 time"] // 10.090 s
	if math.Abs(r.Measured-10.09) > 1e-12 || math.Abs(r.Modelled-0.225568) > 1e-12 {
		t.Errorf("RSA-1024 time %+v", r)
	}
	if r := got["secsywise/RSA-1024 energy-ops"]; math.Abs(r.ErrorPct-(-44.558521560574945)) > 1e-9 {
		t.Errorf("RSA-1024 verification %+v", r)
	}
	var buf bytes.Buffer
	WriteMeasured(&buf, rows)
	if !strings.Contains(buf.String(), "secsywise/RSA-1024   energy      3.014592  482.17    mJ    -99.4%") {
		t.Errorf("table:\n%s", buf.String())
	}
	// A model without bindings, or a run without matches, says so.
	m2, _ := Open("tinysersync")
	p2, _ := NewPlan(m2, tab.Costs(), Options{})
	if _, err := p2.CompareMeasured(context.Background(), runs); err == nil || !strings.Contains(err.Error(), "binds no outputs") {
		t.Errorf("tinysersync: %v", err)
	}
	if _, err := p.CompareMeasured(context.Background(), []*result.Run{{Schema: result.Schema}}); err == nil ||
		!strings.Contains(err.Error(), "no measurement in the run matches model secsywise: it looks for energy ← subject S003/sync/{variant}, metric energy") {
		t.Errorf("empty run: %v", err)
	}
}

// tlsRun is a run shaped as the TLS lab's (docs/model.md says what the
// model reads): handshake bytes per direction, by version and resumption.
func tlsRun() *result.Run {
	res := func(name, resumption string, up, down float64) result.Result {
		return result.Result{
			Subject: result.Subject{Kind: "tls", Name: name, Params: map[string]string{"version": "1.2", "resumption": resumption}},
			Metrics: []result.Metric{result.NewScalar("handshake-bytes-up", "B", result.Lower, result.Measured, up),
				result.NewScalar("handshake-bytes-down", "B", result.Lower, result.Measured, down)},
			Provenance: result.Provenance{Label: result.Measured},
		}
	}
	return &result.Run{Schema: result.Schema, ID: "tls-test", Kind: "tls", Started: time.Now(), Status: result.Complete,
		Results: []result.Result{res("tls12/rsa/full", "none", 310, 2400), res("tls12/rsa/resumed", "session-id", 220, 230)}}
}

// TestInputs: TLS lab byte counts replace S000's defaults, and the model
// compares with them.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tls.json")
	data, _ := json.Marshal(tlsRun())
	os.WriteFile(file, data, 0o644)
	runs, err := ReadRuns(file)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := Open("tls12-handshake")
	in, notes, err := ReadInputs(m, runs)
	if err != nil || len(notes) != 0 {
		t.Fatalf("inputs %v, notes %v", err, notes)
	}
	if in["full_up"].Value != 310 || in["resumed_down"].Value != 230 || !strings.Contains(in["full_up"].Source, "run tls-test, subject tls12/rsa/full, metric handshake-bytes-up (measured)") {
		t.Errorf("inputs %+v", in)
	}
	tab, _ := OpenCosts("telosb")
	p, err := NewPlan(m, tab.Costs(), Options{Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Outputs{}
	p.Run(context.Background(), func(pt *Point, o *Outputs) error { out[p.SubjectName(pt)] = *o; return nil })
	approx(t, "full payload up", out["tls12-handshake/full"].PayloadSent/8, 310)
	approx(t, "resumed payload down", out["tls12-handshake/resumed"].PayloadReceived/8, 230)
	if !strings.HasPrefix(p.Sources["full_up"], "measured: run tls-test") {
		t.Errorf("source %q", p.Sources["full_up"])
	}
	// Compared with the same run the payload error is 0 %.
	rows, err := p.CompareMeasured(context.Background(), runs)
	if err != nil || len(rows) != 4 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r.ErrorPct != 0 {
			t.Errorf("%+v", r)
		}
	}
	// A run without TLS results says what the model looks for.
	if _, _, err := ReadInputs(m, []*result.Run{{Schema: result.Schema}}); err == nil || !strings.Contains(err.Error(), "full_up ← kind tls, resumption=none, version=1.2, metric handshake-bytes-up") {
		t.Errorf("empty run: %v", err)
	}
	if _, _, err := ReadInputs(mustModel(t, "toy.yaml", toyModel), runs); err == nil || !strings.Contains(err.Error(), "reads no measured inputs") {
		t.Errorf("toy: %v", err)
	}
}

// TestRunCosts: operation times from a bench run, by subject name and by
// SCHEME/OPERATION when unique.
func TestRunCosts(t *testing.T) {
	prim := func(scheme, op string, size int, ns float64) result.Result {
		return result.Result{
			Subject: result.Subject{Kind: "primitive", Name: scheme + "@go/" + op + "/" + strconv.Itoa(size), Scheme: scheme, Provider: "go",
				Operation: op, InputBytes: size},
			Metrics:    []result.Metric{result.NewSampled("time", "ns/op", result.Lower, result.Measured, []float64{ns, ns, ns})},
			Provenance: result.Provenance{Label: result.Measured},
		}
	}
	run := &result.Run{Schema: result.Schema, ID: "bench-test", Kind: "bench", Status: result.Complete,
		Environment: result.Environment{CPUModel: "Test CPU"},
		Results: []result.Result{prim("ECDSA-P256", "sign", 32, 40000), prim("ECDSA-P256", "verify", 32, 90000),
			prim("SHA-256", "hash", 64, 300), prim("SHA-256", "hash", 1024, 3000)}}
	rc, err := NewRunCosts("run.json", []*result.Run{run})
	if err != nil {
		t.Fatal(err)
	}
	oc, ok := rc.OpCost("ECDSA-P256/sign")
	if !ok || oc.TimeSeconds != 40e-6 || !math.IsNaN(oc.EnergyJoules) || oc.Label != result.Measured ||
		!strings.Contains(oc.Source, "run bench-test, ECDSA-P256@go/sign/32, median time 40 µs on Test CPU") {
		t.Errorf("sign: %+v %v", oc, ok)
	}
	if _, ok := rc.OpCost("SHA-256/hash"); ok {
		t.Error("SHA-256/hash is ambiguous (two sizes) but was priced")
	}
	if oc, ok := rc.OpCost("SHA-256@go/hash/1024"); !ok || oc.TimeSeconds != 3e-6 {
		t.Errorf("by subject: %+v", oc)
	}
	// Priced over the TelosB table: the bench time replaces the table's,
	// and the energy, unknown, is left out with a warning.
	src := strings.Replace(toyModel, "cost: X/sign", "cost: ECDSA-P256/sign", 1)
	m := mustModel(t, "toy.yaml", src)
	costs := mustCosts(t, toyCosts)
	costs.Ops = append(costs.Ops, rc)
	p, err := NewPlan(m, costs, Options{Variants: []string{"signing"}})
	if err != nil {
		t.Fatal(err)
	}
	run2 := NewRun()
	p.AppendResults(context.Background(), run2, false)
	r := run2.Results[0]
	if r.Metric("energy") != nil || r.Metric("energy-ops") != nil {
		t.Error("an energy was reported though the operation's is unknown")
	}
	if tm := r.Metric("time-ops"); tm == nil || math.Abs(tm.Summary.Median-80e-6) > 1e-15 { // 2 × 40 µs
		t.Errorf("time-ops %+v", tm)
	}
	if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "energy not computed: bench run bench-test (run.json) gives operation sign a time but no energy") {
		t.Errorf("warnings %v", r.Warnings)
	}
}

// BenchmarkSweep measures points/s of a TinySeRSync sweep (4 definitions
// and 8 messages per point), as docs/model.md reports.
func BenchmarkSweep(b *testing.B) {
	m, _ := Open("tinysersync")
	tab, _ := OpenCosts("telosb")
	vals, _ := parseValues("1..1000")
	ds, _ := parseValues("0.5..500:0.5")
	p, err := NewPlan(m, tab.Costs(), Options{Vary: []Vary{{Param: "n", Values: vals}, {Param: "d", Values: ds[:100]}}})
	if err != nil {
		b.Fatal(err)
	}
	points := 0
	var sink float64
	cpu := processCPU()
	for b.Loop() {
		p.Run(context.Background(), func(_ *Point, o *Outputs) error {
			points++
			sink += o.EnergyTotal()
			return nil
		})
	}
	b.ReportMetric(float64(points)/b.Elapsed().Seconds(), "points/s")
	reportCPU(b, cpu, points/b.N, "point")
	_ = sink
}

// BenchmarkSweepCSV is the wide-CSV sweep of 10⁵ points (the writing
// included, to io.Discard): what `model sweep --format wide-csv` costs per
// point, on the chunked writer's goroutines and on one. cpu-ns/point is
// the process's CPU time (user + system) per point: on a loaded machine
// ns/op is mostly the wait for a CPU.
func BenchmarkSweepCSV(b *testing.B) {
	m, _ := Open("tinysersync")
	tab, _ := OpenCosts("telosb")
	vals, _ := parseValues("1..1000")
	ds, _ := parseValues("0.5..500:0.5")
	p, err := NewPlan(m, tab.Costs(), Options{Vary: []Vary{{Param: "n", Values: vals}, {Param: "d", Values: ds[:100]}}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		write func(context.Context, io.Writer) (int, error)
	}{
		{"chunked", func(ctx context.Context, w io.Writer) (int, error) { return p.WriteSweepCSV(ctx, w, true) }},
		{"one-goroutine", p.writeRows},
	} {
		b.Run(bc.name, func(b *testing.B) {
			points := 0
			cpu := processCPU()
			for b.Loop() {
				n, err := bc.write(context.Background(), io.Discard)
				if err != nil {
					b.Fatal(err)
				}
				points += n
			}
			b.ReportMetric(float64(points)/b.Elapsed().Seconds(), "points/s")
			reportCPU(b, cpu, points/b.N, "point")
		})
	}
}

// TestSweepCSVChunks: the chunked writer (several goroutines, chunks
// written in order) writes what one goroutine writes, byte for byte —
// over several cases and chunks, and with an evaluation that fails part
// way through a chunk: the rows before the failing point, then its
// error. Fast tier.
func TestSweepCSVChunks(t *testing.T) {
	m, _ := Open("tinysersync")
	tab, _ := OpenCosts("telosb")
	ns, _ := parseValues("1..1000")
	good, err := NewPlan(m, tab.Costs(), Options{Vary: []Vary{{Param: "n", Values: ns}, {Param: "d", Values: []float64{0.5, 2.5, 7, 20, 1000}}}})
	if err != nil {
		t.Fatal(err)
	}
	bad := mustModel(t, "bad.yaml", "name: bad\nparameters:\n  n: {default: 4}\n  d: {default: 1}\nmessages:\n  - name: m\n    dir: send\n    bits: d + 480 / ((n - 700) ^ 2)\n")
	failing, err := NewPlan(bad, mustCosts(t, toyCosts), Options{Vary: []Vary{{Param: "n", Values: ns}, {Param: "d", Values: []float64{1, 2, 3, 4, 5, 6}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    *Plan
	}{{"5000 points", good}, {"a division by zero at n=700", failing}} {
		var one, many bytes.Buffer
		n1, err1 := tc.p.writeRows(context.Background(), &one)
		n2, err2 := tc.p.writeChunks(context.Background(), &many, 3)
		if n1 != n2 || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Errorf("%s: one goroutine %d rows, %v; chunks %d rows, %v", tc.name, n1, err1, n2, err2)
		}
		if !bytes.Equal(one.Bytes(), many.Bytes()) {
			t.Errorf("%s: the chunked CSV differs from the sequential one (%d and %d bytes)", tc.name, one.Len(), many.Len())
		}
		if tc.p == good && (n1 != 5*1000 || err1 != nil) {
			t.Errorf("%s: %d rows, %v", tc.name, n1, err1)
		}
		if tc.p == failing && (n1 != 699 || err1 == nil || !strings.Contains(err1.Error(), "division by zero")) {
			t.Errorf("%s: %d rows, %v; want 699 rows and the division by zero", tc.name, n1, err1)
		}
	}
}
